"""Interviewing an agent, as the paper evaluates them: outside the world, nothing remembered,
with `mode` ablating reflection, planning or all memory."""

from __future__ import annotations

from fastapi import APIRouter

from cognition.interview import InterviewMode, interview
from db.audit import recorded_calls
from db.queries.agents import to_persona
from db.queries.worlds import game_now
from db.store import world_store
from service.deps import (
    CurrentAgent,
    CurrentWorld,
    EmbedderDep,
    MindDep,
    SessionDep,
    SessionFactoryDep,
    SettingsDep,
)
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
    sessions: SessionFactoryDep,
    settings: SettingsDep,
    mind: MindDep,
    embedder: EmbedderDep,
) -> InterviewResponse:
    now = game_now(world)
    store = world_store(
        session, world=world, agent_id=agent.id, embedder=embedder, settings=settings
    )
    with recorded_calls(sessions, world_id=world.id, agent_id=agent.id, game_time=now) as audit:
        result = interview(
            store,
            mind.with_audit(audit),
            persona=to_persona(agent),
            summary=agent.summary or "",
            question=body.question,
            interviewer=body.interviewer,
            mode=InterviewMode(body.mode),
            now=now,
        )
    memories = [
        UsedMemory(id=s.memory.id, kind=s.memory.kind.value, description=s.memory.description)
        for s in result.used
    ]
    return InterviewResponse(answer=result.answer.text, mode=body.mode, memories=memories)
