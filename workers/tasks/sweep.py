"""The periodic world sweep that beat runs: per world, what has come due on its game clock.

For every running world (a paused world's schedules are paused), `db.queries.due` reads
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
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from celery import shared_task

from db import jobs, locks
from db.queries.conversations import due_lines, stale_open
from db.queries.due import AgentDue, due_in_world, running_worlds
from db.queries.reactions import candidates
from workers.dispatch import Dispatch, send_all
from workers.runtime import get_runtime, session_scope
from workers.tasks.base import RETRY_POLICY
from workers.tasks.scope import enrich_later

SWEEP_LOCK = "sweep_worlds"
STALE_CONVERSATION = timedelta(hours=1)
"""Game time after which a still-open agent conversation is taken to have lost its jobs."""


@shared_task(name=jobs.SWEEP_WORLDS.name, **(RETRY_POLICY | {"ignore_result": False}))
def sweep_worlds() -> dict[str, int]:
    runtime = get_runtime()
    due: list[AgentDue] = []
    to_decide: list[tuple[uuid.UUID, int]] = []
    with session_scope() as session:
        if not locks.try_hold(session, SWEEP_LOCK):
            return {"worlds": 0, "enqueued": 0, "actions_changed": 0}
        worlds = [
            due_in_world(session, w, settings=runtime.settings) for w in running_worlds(session)
        ]
        for world in worlds:
            due += world.agents
            to_decide += candidates(session, world_id=world.world.id, memories=world.perceived)
        stale = [
            conversation
            for w in worlds
            for conversation in stale_open(
                session, world_ids=[w.world.id], before=w.now - STALE_CONVERSATION
            )
        ]
        line = timedelta(seconds=runtime.settings.conversation_line_s)
        talk = [due_lines(session, world_id=w.world.id, now=w.now, line=line) for w in worlds]
    for world in worlds:
        enrich_later(runtime, world.world.id, [*world.observed, *(m.id for m in world.perceived)])
    sent = sum(_enqueue(runtime.dispatch, agent) for agent in due)
    sent += send_all(runtime.dispatch, (jobs.decide_reaction(a, m) for a, m in to_decide))
    for lines, closing in talk:
        sent += send_all(runtime.dispatch, (jobs.converse_turn(c, seq) for c, seq in lines))
        stale += closing
    sent += send_all(runtime.dispatch, map(jobs.end_conversation, dict.fromkeys(stale)))
    return {
        "worlds": len(worlds),
        "enqueued": sent,
        "actions_changed": sum(w.actions_changed for w in worlds),
    }


def _enqueue(dispatch: Dispatch, due: AgentDue) -> int:
    """Send the agent's due work, each under its key; how many were sent."""
    agent = due.agent_id
    work = [jobs.summarize(agent)] if due.summarize else []
    if due.plan_day is not None:
        work.append(jobs.plan_day(agent, due.plan_day))
    work += [jobs.decompose(agent, plan_id, level) for plan_id, level in due.decompose]
    if due.reflect_seq is not None:
        work.append(jobs.reflect(agent, due.reflect_seq))
    return send_all(dispatch, work)
