"""The periodic world sweep that beat runs: per world, what has come due on its game clock.

For every running world (a paused world's schedules are paused), `db.queries.schedule` reads
what each agent needs now — its day outline, decompositions inside the just-in-time window, a
stale summary, a reflection whose job was lost — and announces changed current actions. The
sweep enqueues each piece of work under its deterministic key, so repeated sweeps never queue
a job twice (`workers.dispatch`) and a job that runs twice does nothing twice (its result key
in the database). Only one sweep runs at a time (a transaction-scoped advisory lock); one
that finds another running returns at once. Each open conversation's next line is sent when
its game time has come (lines take game time), and conversations whose closing line was said,
or whose ending job was lost, are ended. What agents saw of themselves starting an action, and
observations of object states that changed actions wrote to the map, are enriched; the latter
may each call for a reaction, as a step's perceptions do. Unenriched memories are
`hearth.enrich_backlog`'s, on its own beat entry.

Worlds are isolated: each is swept inside its own savepoint, and a world whose sweep raises
(bad data, a bug its state provokes) is rolled back to it and logged with its id — every other
world is swept, and its work sent, as if that world did not exist.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field
from datetime import timedelta

from celery import shared_task
from sqlalchemy.orm import Session

from db import locks
from db.models import World
from db.queries.conversations import due_lines, stale_open
from db.queries.reactions import candidates
from db.queries.schedule import AgentDue, WorldDue, due_in_world, running_worlds
from db.settings import Settings
from workers.dispatch import Dispatch
from workers.runtime import get_runtime, session_scope
from workers.tasks.base import RETRY_POLICY
from workers.tasks.conversations import END, TURN, end_key, turn_key
from workers.tasks.plans import DECOMPOSE, PLAN_DAY, decompose_key, plan_day_key
from workers.tasks.reactions import DECIDE_REACTION, decide_key
from workers.tasks.reflections import REFLECT, reflect_key
from workers.tasks.scope import enrich_later
from workers.tasks.summaries import SUMMARIZE, summarize_key

log = logging.getLogger(__name__)

SWEEP_LOCK = "sweep_worlds"
STALE_CONVERSATION = timedelta(hours=1)
"""Game time after which a still-open agent conversation is taken to have lost its jobs."""


@dataclass
class _Swept:
    """What one world's sweep found, to send after the sweep's transaction commits."""

    world: WorldDue
    to_decide: list[tuple[uuid.UUID, int]] = field(default_factory=list)
    stale: list[int] = field(default_factory=list)
    lines: list[tuple[int, int]] = field(default_factory=list)


@shared_task(name="hearth.sweep_worlds", **(RETRY_POLICY | {"ignore_result": False}))
def sweep_worlds() -> dict[str, int]:
    runtime = get_runtime()
    line = timedelta(seconds=runtime.settings.conversation_line_s)
    swept: list[_Swept] = []
    failed = 0
    with session_scope() as session:
        if not locks.try_hold(session, SWEEP_LOCK):
            return {"worlds": 0, "enqueued": 0, "actions_changed": 0}
        for world_id in [w.id for w in running_worlds(session)]:
            try:
                with session.begin_nested():
                    swept.append(_sweep_world(session, world_id, runtime.settings, line))
            except Exception:
                failed += 1
                log.exception("sweep of world %s failed; the other worlds go on", world_id,
                              extra={"world_id": str(world_id)})  # fmt: skip
    due = [agent for s in swept for agent in s.world.agents]
    to_decide = [pair for s in swept for pair in s.to_decide]
    stale = [c for s in swept for c in s.stale]
    worlds = [s.world for s in swept]
    for world in worlds:
        enrich_later(runtime, world.world.id, [*world.observed, *(m.id for m in world.perceived)])
    sent = sum(_enqueue(runtime.dispatch, agent) for agent in due)
    sent += sum(
        runtime.dispatch.send(DECIDE_REACTION, [str(a), m], key=decide_key(a, m))
        for a, m in to_decide
    )
    sent += sum(
        runtime.dispatch.send(TURN, [c, seq], key=turn_key(c, seq))
        for s in swept
        for c, seq in s.lines
    )
    sent += sum(runtime.dispatch.send(END, [c], key=end_key(c)) for c in dict.fromkeys(stale))
    counts = {
        "worlds": len(worlds),
        "enqueued": sent,
        "actions_changed": sum(w.actions_changed for w in worlds),
    }
    return counts | ({"failed": failed} if failed else {})


def _sweep_world(
    session: Session, world_id: uuid.UUID, settings: Settings, line: timedelta
) -> _Swept:
    """One world's reads and writes (in the caller's savepoint); nothing is sent yet."""
    world = due_in_world(session, session.get_one(World, world_id), settings=settings)
    lines, closing = due_lines(session, world_id=world_id, now=world.now, line=line)
    stale = stale_open(session, world_ids=[world_id], before=world.now - STALE_CONVERSATION)
    return _Swept(
        world=world,
        to_decide=candidates(session, world_id=world_id, memories=world.perceived),
        stale=[*stale, *closing],
        lines=list(lines),
    )


def _enqueue(dispatch: Dispatch, due: AgentDue) -> int:
    """Send the agent's due work, each under its key; how many were sent."""
    agent = str(due.agent_id)
    sent = 0
    if due.summarize:
        sent += dispatch.send(SUMMARIZE, [agent], key=summarize_key(agent))
    if due.plan_day is not None:
        sent += dispatch.send(
            PLAN_DAY, [agent, due.plan_day.isoformat()], key=plan_day_key(agent, due.plan_day)
        )
    for plan_id, level in due.decompose:
        sent += dispatch.send(
            DECOMPOSE, [agent, plan_id, level.value], key=decompose_key(agent, plan_id, level)
        )
    if due.reflect_seq is not None:
        sent += dispatch.send(
            REFLECT, [agent, due.reflect_seq], key=reflect_key(agent, due.reflect_seq)
        )
    return sent
