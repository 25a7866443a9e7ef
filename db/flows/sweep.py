"""The periodic world sweep: per world, what has come due on its game clock.

For every running world (a paused world's schedules are paused), `db.queries.due` reads what
each agent needs now — its day outline, decompositions inside the just-in-time window, a stale
summary, a reflection whose job was lost — and announces changed current actions. Every piece
of work is named by its deterministic key (`db.jobs`), so repeated sweeps never queue a job
twice (`workers.dispatch`) and a job that runs twice does nothing twice (its result key in the
database). Only one sweep runs at a time (a transaction-scoped advisory lock); one that finds
another running does nothing. Each open conversation's next line is asked for when its game
time has come (lines take game time), and conversations whose closing line was said, or whose
ending job was lost, are ended. What agents saw of themselves starting an action, and
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
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy.orm import Session

from db import jobs, locks
from db.flows.agent_scope import enrich_later
from db.jobs import Job
from db.models import World
from db.queries.conversations import due_lines, stale_open
from db.queries.due import AgentDue, due_in_world, running_worlds
from db.queries.reactions import candidates
from db.settings import Settings

log = logging.getLogger(__name__)

SWEEP_LOCK = "sweep_worlds"
STALE_CONVERSATION = timedelta(hours=1)
"""Game time after which a still-open agent conversation is taken to have lost its jobs."""


@dataclass(frozen=True)
class Swept:
    """What one sweep found: the worlds it swept, the agents whose action changed, the
    enrichment of what the sweep wrote, the work that came due, and the worlds that failed."""

    worlds: int = 0
    actions_changed: int = 0
    enrichment: tuple[Job, ...] = ()
    due: tuple[Job, ...] = ()
    failed: int = 0


@dataclass(frozen=True)
class _World:
    """One world's share of a sweep."""

    actions_changed: int
    enrichment: Sequence[Job]
    due: Sequence[Job]


def sweep(session: Session, *, settings: Settings) -> Swept:
    """Everything due in every running world now (module docstring), in the caller's
    transaction; nothing when another sweep holds the lock."""
    if not locks.try_hold(session, SWEEP_LOCK):
        return Swept()
    line = timedelta(seconds=settings.conversation_line_s)
    swept: list[_World] = []
    failed = 0
    for world_id in [w.id for w in running_worlds(session)]:
        try:
            with session.begin_nested():
                swept.append(_sweep_world(session, world_id, settings=settings, line=line))
        except Exception:
            failed += 1
            log.exception(
                "sweep of world %s failed; the other worlds go on",
                world_id,
                extra={"world_id": str(world_id)},
            )
    return Swept(
        worlds=len(swept),
        actions_changed=sum(w.actions_changed for w in swept),
        enrichment=tuple(job for w in swept for job in w.enrichment),
        due=tuple(job for w in swept for job in w.due),
        failed=failed,
    )


def _sweep_world(
    session: Session, world_id: uuid.UUID, *, settings: Settings, line: timedelta
) -> _World:
    """One world's reads and writes (in the caller's savepoint); nothing is sent yet."""
    world = due_in_world(session, session.get_one(World, world_id), settings=settings)
    written = [*world.observed, *(m.id for m in world.perceived)]
    work = [job for agent in world.agents for job in _agent_jobs(agent)]
    perceived = candidates(session, world_id=world_id, memories=world.perceived)
    work += [jobs.decide_reaction(agent_id, memory_id) for agent_id, memory_id in perceived]
    lines, closing = due_lines(session, world_id=world_id, now=world.now, line=line)
    work += [jobs.converse_turn(c, seq) for c, seq in lines]
    stale = stale_open(session, world_ids=[world_id], before=world.now - STALE_CONVERSATION)
    work += [jobs.end_conversation(c) for c in dict.fromkeys([*stale, *closing])]
    return _World(world.actions_changed, enrich_later(world_id, written), work)


def _agent_jobs(due: AgentDue) -> list[Job]:
    """The agent's due work, each under its key."""
    agent = due.agent_id
    work = [jobs.summarize(agent)] if due.summarize else []
    if due.plan_day is not None:
        work.append(jobs.plan_day(agent, due.plan_day))
    work += [jobs.decompose(agent, plan_id, level) for plan_id, level in due.decompose]
    if due.reflect_seq is not None:
        work.append(jobs.reflect(agent, due.reflect_seq))
    return work
