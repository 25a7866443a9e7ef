"""`POST /v1/worlds/{id}/step`: the game's hot path. Positions and perceptions in, each agent's
current action out — answered from stored state; no model is called and nothing waits on one.

Perceptions become observations through `cognition.perception` (its wording, and its rule for
leaving out repeats); an agent that arrives somewhere learns what it sees there, and one that
perceives an object learns it in that state (`db.queries.places`)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Annotated

from fastapi import APIRouter, Query, Request
from sqlalchemy.orm import Session

from cognition.perception import canonical_subject, new_observation, unseen
from cognition.types import MemorySource, NewMemory
from db.models import Plan
from db.queries.agents import list_agents
from db.queries.events import emit, last_event_id
from db.queries.memories import add_for_agents
from db.queries.places import learn_arrivals, learn_sightings
from db.queries.plans import end_of
from db.queries.reactions import candidates as reaction_candidates
from db.queries.step import (
    Move,
    Whereabouts,
    current_actions,
    known_agent_places,
    last_observations,
    move_agents,
    utterances_in_progress,
)
from db.queries.worlds import game_now
from db.settings import Settings
from service.deps import CurrentAgent, CurrentWorld, SessionDep, SettingsDep
from service.enqueue import enqueue_enrichment, enqueue_reactions
from service.errors import ERROR_RESPONSES, ApiError
from service.pagination import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, decode_cursor, encode_cursor
from service.schemas.step import (
    ActionRead,
    ActionsPage,
    AgentAction,
    AgentDoing,
    AgentNow,
    AgentStep,
    Perceived,
    SpeechRead,
    StepRequest,
    StepResponse,
)

router = APIRouter(prefix="/v1/worlds/{world_id}", tags=["game"], responses=ERROR_RESPONSES)


@router.post("/step", response_model=StepResponse, summary="Report many agents, get their actions")
def step(
    body: StepRequest,
    world: CurrentWorld,
    session: SessionDep,
    settings: SettingsDep,
    request: Request,
) -> StepResponse:
    before = _validated(session, world.id, body.agents)
    ids = list(before)
    now = game_now(world)
    moved = move_agents(
        session, [Whereabouts(a.agent_id, a.place, a.position) for a in body.agents]
    )
    _learn_places(session, world.id, body.agents, before=before, now=now)
    observations = _new_observations(session, body.agents)
    stored = add_for_agents(session, world_id=world.id, items=observations, now=now)
    to_decide = reaction_candidates(
        session, world_id=world.id, memories=stored, focal=not settings.paper
    )
    if moved:
        emit(session, world_id=world.id, type="agents_moved", payload=_moves(moved))
    session.commit()
    enqueue_enrichment(request.app.state.celery, [m.id for m in stored])
    enqueue_reactions(request.app.state.celery, to_decide)
    counts = {agent_id: 0 for agent_id in ids}
    for agent_id, _ in observations:
        counts[agent_id] += 1
    actions = current_actions(session, ids, now)
    speech = utterances_in_progress(session, ids, now=now, line=_line(settings))
    return StepResponse(
        now=now,
        agents=[
            AgentNow(
                agent_id=agent_id,
                action=_action(actions.get(agent_id)),
                utterance=_speech(speech.get(agent_id)),
                stored=counts[agent_id],
            )
            for agent_id in ids
        ],
    )


@router.get(
    "/agents/{agent_id}/action", response_model=AgentAction, summary="What the agent is doing now"
)
def action(
    world: CurrentWorld, agent: CurrentAgent, session: SessionDep, settings: SettingsDep
) -> AgentAction:
    """The same answer a step gives for one agent, without reporting anything."""
    now = game_now(world)
    current = current_actions(session, [agent.id], now).get(agent.id)
    speech = utterances_in_progress(session, [agent.id], now=now, line=_line(settings)).get(
        agent.id
    )
    return AgentAction(
        agent_id=agent.id, now=now, action=_action(current), utterance=_speech(speech)
    )


def _line(settings: Settings) -> timedelta:
    """How long a line of a conversation is heard: `HEARTH_CONVERSATION_LINE_S`."""
    return timedelta(seconds=settings.conversation_line_s)


def _moves(moved: Sequence[Move]) -> dict[str, object]:
    return {"moves": [{"agent_id": str(m.agent_id), "name": m.name, "place": m.place,
                       "previous": m.previous} for m in moved]}  # fmt: skip


@router.get(
    "/actions",
    response_model=ActionsPage,
    summary="What every agent is doing now, and where (the town view; cursor pages)",
)
def actions(
    world: CurrentWorld,
    session: SessionDep,
    settings: SettingsDep,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE)] = DEFAULT_PAGE_SIZE,
    cursor: str | None = None,
) -> ActionsPage:
    """Agents in creation order. `last_event_id` is read first: a client that streams the
    world's events after it sees every change made since (`action_changed`, `agents_moved`,
    `utterance`)."""
    last_event = last_event_id(session, world_id=world.id)
    position = decode_cursor(cursor, _agent_position)
    rows = list_agents(session, world_id=world.id, after=position, limit=limit + 1)
    page, more = rows[:limit], len(rows) > limit
    now, ids = game_now(world), [a.id for a in page]
    doing = current_actions(session, ids, now)
    speech = utterances_in_progress(session, ids, now=now, line=_line(settings))
    last = page[-1] if more else None
    items = [
        AgentDoing(agent_id=a.id, name=a.name, place=a.place, action=_action(doing.get(a.id)),
                   utterance=_speech(speech.get(a.id)))
        for a in page
    ]  # fmt: skip
    next_cursor = encode_cursor([last.created_at.isoformat(), str(last.id)]) if last else None
    return ActionsPage(items=items, next_cursor=next_cursor, now=now, last_event_id=last_event)


def _agent_position(values: list[object]) -> tuple[datetime, uuid.UUID]:
    return datetime.fromisoformat(str(values[0])), uuid.UUID(str(values[1]))


def _validated(
    session: Session, world_id: uuid.UUID, agents: Sequence[AgentStep]
) -> dict[uuid.UUID, str | None]:
    """All or nothing: one unknown or repeated agent rejects the batch before any write.
    Returns where each agent stood before this step, in the batch's order."""
    ids = [a.agent_id for a in agents]
    known = known_agent_places(session, world_id, ids)
    seen: set[uuid.UUID] = set()
    for index, agent_id in enumerate(ids):
        if agent_id not in known:
            raise ApiError(
                422,
                "validation_error",
                f"no agent {agent_id} in this world",
                field=f"body.agents.{index}.agent_id",
            )
        if agent_id in seen:
            raise ApiError(
                422,
                "validation_error",
                f"agent {agent_id} appears twice",
                field=f"body.agents.{index}.agent_id",
            )
        seen.add(agent_id)
    return {agent_id: known[agent_id] for agent_id in ids}


def _learn_places(
    session: Session,
    world_id: uuid.UUID,
    agents: Sequence[AgentStep],
    *,
    before: dict[uuid.UUID, str | None],
    now: datetime,
) -> None:
    """What each agent sees where it arrived, and the objects it perceived in their state."""
    arrivals = [
        (a.agent_id, a.place)
        for a in agents
        if a.place is not None and _moved(before[a.agent_id], a.place)
    ]
    learn_arrivals(session, world_id=world_id, arrivals=arrivals, at=now)
    sightings = [
        (a.agent_id, p.subject, p.state)
        for a in agents
        for p in a.perceived
        if p.kind == "object" and p.subject and p.state
    ]
    learn_sightings(session, world_id=world_id, sightings=sightings, at=now)


def _moved(before: str | None, reported: str) -> bool:
    """Whether the game reports the agent somewhere it was not (spelling aside)."""
    return canonical_subject(reported) != canonical_subject(before or "")


def observation(seen: Perceived) -> NewMemory:
    """The paper's observation, "<subject> is <state>" (`perception.new_observation`), or an
    event's own words."""
    if seen.kind == "event":
        return NewMemory(description=str(seen.description), source=MemorySource.GAME)
    return new_observation(str(seen.subject), str(seen.state), doing=seen.kind == "agent")


def _new_observations(
    session: Session, agents: Sequence[AgentStep]
) -> list[tuple[uuid.UUID, NewMemory]]:
    """Perceptions as memories, minus repeats (`perception.unseen`): the same subject in the
    same state as the agent last observed it, in the stream or earlier in this batch."""
    perceived = [(a.agent_id, observation(seen)) for a in agents for seen in a.perceived]
    subjects = [m.subject for _, m in perceived if m.subject]
    last = last_observations(session, [a.agent_id for a in agents], subjects)
    return unseen(perceived, last)


def _action(plan: Plan | None) -> ActionRead | None:
    if plan is None:
        return None
    return ActionRead(
        plan_id=plan.id,
        level=plan.level,
        description=plan.description,
        location=plan.location,
        emoji=plan.emoji,
        object_state=plan.object_state,
        start=plan.start,
        end=end_of(plan),
    )


def _speech(speech: object) -> SpeechRead | None:
    return SpeechRead.model_validate(speech, from_attributes=True) if speech else None
