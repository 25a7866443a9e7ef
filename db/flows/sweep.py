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
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy.orm import Session

from db import jobs, locks
from db.flows.agent_scope import enrich_later
from db.jobs import Job
from db.queries.conversations import due_lines, stale_open
from db.queries.due import AgentDue, due_in_world, running_worlds
from db.queries.reactions import candidates
from db.settings import Settings

SWEEP_LOCK = "sweep_worlds"
STALE_CONVERSATION = timedelta(hours=1)
"""Game time after which a still-open agent conversation is taken to have lost its jobs."""


@dataclass(frozen=True)
class Swept:
    """What one sweep found: the worlds it swept, the agents whose action changed, the
    enrichment of what the sweep wrote, and the work that came due."""

    worlds: int = 0
    actions_changed: int = 0
    enrichment: tuple[Job, ...] = ()
    due: tuple[Job, ...] = ()


def sweep(session: Session, *, settings: Settings) -> Swept:
    """Everything due in every running world now (module docstring), in the caller's
    transaction; nothing when another sweep holds the lock."""
    if not locks.try_hold(session, SWEEP_LOCK):
        return Swept()
    worlds = [due_in_world(session, w, settings=settings) for w in running_worlds(session)]
    line = timedelta(seconds=settings.conversation_line_s)
    enrichment: list[Job] = []
    work: list[Job] = []
    for world in worlds:
        written = [*world.observed, *(m.id for m in world.perceived)]
        enrichment += enrich_later(world.world.id, written)
        work += [job for agent in world.agents for job in _agent_jobs(agent)]
    for world in worlds:
        perceived = candidates(session, world_id=world.world.id, memories=world.perceived)
        work += [jobs.decide_reaction(agent_id, memory_id) for agent_id, memory_id in perceived]
    ending = [
        conversation
        for w in worlds
        for conversation in stale_open(
            session, world_ids=[w.world.id], before=w.now - STALE_CONVERSATION
        )
    ]
    for w in worlds:
        lines, closing = due_lines(session, world_id=w.world.id, now=w.now, line=line)
        work += [jobs.converse_turn(c, seq) for c, seq in lines]
        ending += closing
    work += [jobs.end_conversation(c) for c in dict.fromkeys(ending)]
    return Swept(
        worlds=len(worlds),
        actions_changed=sum(w.actions_changed for w in worlds),
        enrichment=tuple(enrichment),
        due=tuple(work),
    )


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
