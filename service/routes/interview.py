"""Interviewing an agent, as the paper evaluates them: outside the world, nothing remembered,
with `mode` ablating reflection, planning or all memory (`db.flows.interview`)."""

from __future__ import annotations

from fastapi import APIRouter

from cognition.interview import InterviewMode
from db.flows import interview
from service.deps import CurrentAgent, CurrentWorld, FacultiesDep, SessionDep
from service.errors import ERROR_RESPONSES
from service.schemas.chat import InterviewRequest, InterviewResponse, UsedMemory

router = APIRouter(
    prefix="/v1/worlds/{world_id}/agents/{agent_id}", tags=["game"], responses=ERROR_RESPONSES
)


@router.post("/interview", response_model=InterviewResponse, summary="Ask the agent a question")
def ask(
    body: InterviewRequest,
    world: CurrentWorld,
    agent: CurrentAgent,
    session: SessionDep,
    faculties: FacultiesDep,
) -> InterviewResponse:
    result = interview.ask(
        session,
        faculties,
        world=world,
        agent=agent,
        question=body.question,
        interviewer=body.interviewer,
        mode=InterviewMode(body.mode),
    )
    memories = [
        UsedMemory(id=s.memory.id, kind=s.memory.kind.value, description=s.memory.description)
        for s in result.used
    ]
    return InterviewResponse(answer=result.answer.text, mode=body.mode, memories=memories)
