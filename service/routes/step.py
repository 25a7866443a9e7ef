"""`POST /v1/worlds/{id}/step`: the game's hot path (`db.flows.step`). Positions and perceptions
in, each agent's current action out — answered from stored state; no model is called and
nothing waits on one. Also what one agent, or a page of agents, is doing now."""

from __future__ import annotations

import json
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from fastapi import APIRouter, Response
from sqlalchemy.orm import Session

from db.flows import step as game_step
from db.queries.agents import list_agents
from db.queries.events import last_event_id
from db.queries.step import Current, known_agent_ids
from db.queries.worlds import game_now
from db.settings import Settings
from service.deps import CurrentAgent, CurrentWorld, SessionDep, SettingsDep
from service.enqueue import enqueue, enrichment, reaction_decisions
from service.errors import ERROR_RESPONSES, ApiError
from service.pagination import (
    DEFAULT_PAGE_SIZE,
    CursorQuery,
    LimitQuery,
    decode_cursor,
    encode_cursor,
    time_and_uuid,
)
from service.place_names import require_places
from service.rate_limits import ROUTE_KIND, STEP
from service.schemas.step import (
    ActionRead,
    ActionsPage,
    AgentAction,
    AgentDoing,
    AgentStep,
    SpeechRead,
    StepRequest,
    StepResponse,
)

router = APIRouter(prefix="/v1/worlds/{world_id}", tags=["game"], responses=ERROR_RESPONSES)


@router.post(
    "/step",
    response_model=StepResponse,
    summary="Report many agents, get their actions",
    openapi_extra={ROUTE_KIND: STEP},
)
def step(
    body: StepRequest,
    world: CurrentWorld,
    session: SessionDep,
    settings: SettingsDep,
) -> Response:
    ids = _validated_ids(session, world.id, body.agents)
    _require_places(session, world.id, body)
    stepped = game_step.report(session, world=world, agents=body.agents, focal=not settings.paper)
    enqueue(
        session,
        enrichment([m.id for m in stepped.stored]),
        reaction_decisions(stepped.to_decide),
    )
    session.commit()
    counts = Counter(m.agent_id for m in stepped.stored)
    doing = game_step.doing(session, ids, now=stepped.now, line=_line(settings))
    return _step_answer(stepped.now, ids, doing, counts)


def _step_answer(
    now: datetime, ids: Sequence[uuid.UUID], doing: game_step.Doing, counts: Mapping[uuid.UUID, int]
) -> Response:
    """`StepResponse` as JSON, written directly: a thousand agents' answers as pydantic models,
    validated again and serialised by FastAPI, cost more than the step's SQL."""
    agents = []
    for agent_id in ids:
        plan, line = doing.actions.get(agent_id), doing.speech.get(agent_id)
        agents.append(
            {
                "agent_id": str(agent_id),
                "action": plan.as_json() if plan is not None else None,
                "utterance": line.as_json() if line is not None else None,
                "stored": counts.get(agent_id, 0),
            }
        )
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
    doing = game_step.doing(session, [agent.id], now=now, line=_line(settings))
    return AgentAction(
        agent_id=agent.id,
        now=now,
        action=_action(doing.actions.get(agent.id)),
        utterance=_speech(doing.speech.get(agent.id)),
    )


def _line(settings: Settings) -> timedelta:
    """How long a line of a conversation is heard: `HEARTH_CONVERSATION_LINE_S`."""
    return timedelta(seconds=settings.conversation_line_s)


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
    doing = game_step.doing(session, ids, now=now, line=_line(settings))
    last = page[-1] if more else None
    items = [
        AgentDoing(
            agent_id=a.id,
            name=a.name,
            place=a.place,
            action=_action(doing.actions.get(a.id)),
            utterance=_speech(doing.speech.get(a.id)),
        )
        for a in page
    ]
    next_cursor = encode_cursor([last.created_at.isoformat(), str(last.id)]) if last else None
    return ActionsPage(items=items, next_cursor=next_cursor, now=now, last_event_id=last_event)


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
        require_places(session, world_id=world_id, named=named, create=body.create_places)


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
