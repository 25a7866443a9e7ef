"""`POST /v1/worlds/{id}/step`: the game's hot path. Positions and perceptions in, each agent's
current action out — answered from stored state; no model is called and nothing waits on one.

Perceptions become observations through `cognition.perception` (its wording, and its rule for
leaving out repeats); an agent that arrives somewhere learns what it sees there, and one that
perceives an object learns it in that state (`db.queries.places`)."""

from __future__ import annotations

import json
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from fastapi import APIRouter, Request, Response
from sqlalchemy.orm import Session

from cognition.perception import canonical_subject, new_observation, subject_key, unseen
from cognition.places import normalize_path
from cognition.types import MemorySource, NewMemory
from db.queries.agents import list_agents
from db.queries.events import emit, last_event_id
from db.queries.memories import insert_for_agents
from db.queries.places import learn_arrivals, learn_sightings
from db.queries.reactions import candidates as reaction_candidates
from db.queries.step import (
    Current,
    Move,
    Speech,
    Whereabouts,
    agent_names,
    current_actions,
    known_agent_ids,
    last_observations,
    move_agents,
    utterances_in_progress,
)
from db.queries.worlds import game_now
from db.settings import Settings
from service.deps import CurrentAgent, CurrentWorld, SessionDep, SettingsDep
from service.enqueue import enqueue_enrichment, enqueue_reactions
from service.errors import ERROR_RESPONSES, ApiError
from service.pagination import (
    DEFAULT_PAGE_SIZE,
    CursorQuery,
    LimitQuery,
    decode_cursor,
    encode_cursor,
    time_and_uuid,
)
from service.place_names import resolve_places
from service.schemas.step import (
    ActionRead,
    ActionsPage,
    AgentAction,
    AgentDoing,
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
) -> Response:
    ids = _validated_ids(session, world.id, body.agents)
    _require_places(session, world.id, body)
    now = game_now(world)
    moved = move_agents(
        session,
        [Whereabouts(a.agent_id, a.place and normalize_path(a.place), a.position)
         for a in body.agents],
    )  # fmt: skip
    _learn_places(session, world.id, body.agents, moved=moved, now=now)
    observations, before = _new_observations(session, body.agents)
    stored = insert_for_agents(session, world_id=world.id, items=observations, now=now)
    to_decide = reaction_candidates(
        session,
        world_id=world.id,
        memories=stored,
        focal=not settings.paper,
        names=agent_names(session, world.id) if stored else {},
        states_before={m.id: state for m, state in zip(stored, before, strict=True)},
    )
    if moved:
        emit(session, world_id=world.id, type="agents_moved", payload=_moves(moved))
    session.commit()
    enqueue_enrichment(request.app.state.celery, [m.id for m in stored])
    enqueue_reactions(request.app.state.celery, to_decide)
    counts = Counter(m.agent_id for m in stored)
    actions = current_actions(session, ids, now)
    speech = utterances_in_progress(session, ids, now=now, line=_line(settings))
    return _step_answer(now, ids, actions, speech, counts)


def _step_answer(
    now: datetime,
    ids: Sequence[uuid.UUID],
    actions: Mapping[uuid.UUID, Current],
    speech: Mapping[uuid.UUID, Speech],
    counts: Mapping[uuid.UUID, int],
) -> Response:
    """`StepResponse` as JSON, written directly: a thousand agents' answers as pydantic models,
    validated again and serialised by FastAPI, cost more than the step's SQL."""
    agents = []
    for agent_id in ids:
        plan, line = actions.get(agent_id), speech.get(agent_id)
        agents.append({
            "agent_id": str(agent_id),
            "action": None if plan is None else {
                "plan_id": plan.id, "level": plan.level, "description": plan.description,
                "location": plan.location, "emoji": plan.emoji,
                "object_state": plan.object_state, "start": plan.start.isoformat(),
                "end": plan.end.isoformat(),
            },
            "utterance": None if line is None else {
                "conversation_id": line.conversation_id, "speaker": line.speaker,
                "text": line.text, "spoken_at": line.spoken_at.isoformat(),
            },
            "stored": counts.get(agent_id, 0),
        })  # fmt: skip
    body = json.dumps({"now": now.isoformat(), "agents": agents}, ensure_ascii=False)
    return Response(body.encode(), media_type="application/json")


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
    limit: LimitQuery = DEFAULT_PAGE_SIZE,
    cursor: CursorQuery = None,
) -> ActionsPage:
    """Agents in creation order. `last_event_id` is read first: a client that streams the
    world's events after it sees every change made since (`action_changed`, `agents_moved`,
    `utterance`)."""
    last_event = last_event_id(session, world_id=world.id)
    position = decode_cursor(cursor, time_and_uuid)
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


def _validated_ids(
    session: Session, world_id: uuid.UUID, agents: Sequence[AgentStep]
) -> list[uuid.UUID]:
    """All or nothing: one unknown or repeated agent rejects the batch before any write."""
    ids = [a.agent_id for a in agents]
    known = known_agent_ids(session, world_id, ids)
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
    return ids


def _require_places(session: Session, world_id: uuid.UUID, body: StepRequest) -> None:
    """Where agents stand and the objects they perceive are places of the map
    (`service.place_names`: 422 naming the field, or created with `create_places`)."""
    named = [(f"body.agents.{i}.place", a.place) for i, a in enumerate(body.agents) if a.place]
    named += [
        (f"body.agents.{i}.perceived.{j}.subject", p.subject)
        for i, a in enumerate(body.agents)
        for j, p in enumerate(a.perceived)
        if p.kind == "object" and p.subject
    ]
    if named:
        resolve_places(session, world_id=world_id, named=named, create=body.create_places)


def _learn_places(
    session: Session,
    world_id: uuid.UUID,
    agents: Sequence[AgentStep],
    *,
    moved: Sequence[Move],
    now: datetime,
) -> None:
    """What each agent sees where it arrived, and the objects it perceived in their state."""
    arrivals = [
        (m.agent_id, m.place)
        for m in moved
        if canonical_subject(m.place) != canonical_subject(m.previous or "")
    ]
    learn_arrivals(session, world_id=world_id, arrivals=arrivals, at=now)
    sightings = [
        (a.agent_id, p.subject, p.state)
        for a in agents
        for p in a.perceived
        if p.kind == "object" and p.subject and p.state
    ]
    learn_sightings(session, world_id=world_id, sightings=sightings, at=now)


def observation(seen: Perceived) -> NewMemory:
    """The paper's observation, "<subject> is <state>" (`perception.new_observation`), or an
    event's own words."""
    if seen.kind == "event":
        return NewMemory(description=str(seen.description), source=MemorySource.GAME)
    return new_observation(str(seen.subject), str(seen.state), doing=seen.kind == "agent")


def _new_observations(
    session: Session, agents: Sequence[AgentStep]
) -> tuple[list[tuple[uuid.UUID, NewMemory]], list[str | None]]:
    """Perceptions as memories, minus repeats (`perception.unseen`: the same subject in the
    same state as the agent last observed it, in the stream or earlier in this batch), and for
    each the state its subject was last seen in (None: never, or no subject)."""
    perceived = [(a.agent_id, observation(seen)) for a in agents for seen in a.perceived]
    last = last_observations(session, [(i, m.subject) for i, m in perceived if m.subject])
    fresh = unseen(perceived, dict(last))
    before: list[str | None] = []
    for agent_id, memory in fresh:
        key = (agent_id, subject_key(memory.subject or ""))
        previous = last.get(key) if memory.subject else None
        before.append(previous.object if previous is not None else None)
        if memory.subject:
            last[key] = memory
    return fresh, before


def _action(plan: Current | None) -> ActionRead | None:
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
        end=plan.end,
    )


def _speech(speech: object) -> SpeechRead | None:
    return SpeechRead.model_validate(speech, from_attributes=True) if speech else None
