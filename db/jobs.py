"""Every job Hearth runs, in one registry: its task name, its queue, and the key of one piece
of its work.

A key ("plan_day:<agent>:<day>") names the work deterministically: it is the Celery task id,
the name of the queue guard that keeps it queued once (`workers.dispatch`), and, for the jobs
whose duplicates must run one after the other, the advisory lock the job holds. The API and the
flows name work as `Job` values built here; the workers route by `TASKS` and send the values
as they are. Nothing here imports Celery: the registry is the vocabulary the edges share.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import Any, NamedTuple

from cognition.types import Granularity


class Queue(StrEnum):
    """`fast` serves what the game waits on; `slow` thinks. A slow backlog never delays fast."""

    FAST = "fast"
    SLOW = "slow"


@dataclass(frozen=True)
class Task:
    name: str
    queue: Queue


PING = Task("hearth.ping", Queue.FAST)
SWEEP_WORLDS = Task("hearth.sweep_worlds", Queue.FAST)
ENRICH_MEMORIES = Task("hearth.enrich_memories", Queue.FAST)
ENRICH_BACKLOG = Task("hearth.enrich_backlog", Queue.FAST)
ENRICH_WORLD = Task("hearth.enrich_world", Queue.FAST)
REFLECT = Task("hearth.reflect", Queue.SLOW)
PLAN_DAY = Task("hearth.plan_day", Queue.SLOW)
DECOMPOSE = Task("hearth.decompose", Queue.SLOW)
DECIDE_REACTION = Task("hearth.decide_reaction", Queue.FAST)
DECIDE_REACTIONS = Task("hearth.decide_reactions", Queue.FAST)
CONVERSE = Task("hearth.converse", Queue.FAST)
CONVERSE_TURN = Task("hearth.converse_turn", Queue.FAST)
END_CONVERSATION = Task("hearth.end_conversation", Queue.FAST)
SUMMARIZE = Task("hearth.summarize", Queue.SLOW)
RELAY_OUTBOX = Task("hearth.relay_outbox", Queue.FAST)

TASKS = (
    PING,
    SWEEP_WORLDS,
    ENRICH_MEMORIES,
    ENRICH_BACKLOG,
    ENRICH_WORLD,
    REFLECT,
    PLAN_DAY,
    DECOMPOSE,
    DECIDE_REACTION,
    DECIDE_REACTIONS,
    CONVERSE,
    CONVERSE_TURN,
    END_CONVERSATION,
    SUMMARIZE,
    RELAY_OUTBOX,
)
"""Routing by task name; a task missing here goes to `fast`, the default queue."""


class Job(NamedTuple):
    """One piece of work to send: the task's name, its JSON arguments, and its key (None: the
    work has no identity to keep it queued once, e.g. a batch of memories to enrich)."""

    name: str
    args: tuple[Any, ...]
    key: str | None = None


def _job(task: Task, *args: Any, key: str | None = None) -> Job:
    return Job(task.name, args, key)


def enrich_memories(memory_ids: Sequence[int]) -> Job:
    return _job(ENRICH_MEMORIES, list(memory_ids))


def enrich_world(world_id: uuid.UUID | str) -> Job:
    return _job(ENRICH_WORLD, str(world_id), key=f"enrich_world:{world_id}")


def reflect(agent_id: uuid.UUID | str, seq: int) -> Job:
    return _job(REFLECT, str(agent_id), seq, key=f"reflect:{agent_id}:{seq}")


def plan_day(agent_id: uuid.UUID | str, day: date) -> Job:
    iso = day.isoformat()
    return _job(PLAN_DAY, str(agent_id), iso, key=f"plan_day:{agent_id}:{iso}")


def decompose(agent_id: uuid.UUID | str, plan_id: int, granularity: Granularity) -> Job:
    key = f"decompose:{agent_id}:{plan_id}:{granularity.value}"
    return _job(DECOMPOSE, str(agent_id), plan_id, granularity.value, key=key)


def decide_reaction(agent_id: uuid.UUID | str, memory_id: int) -> Job:
    key = f"decide_reaction:{agent_id}:{memory_id}"
    return _job(DECIDE_REACTION, str(agent_id), memory_id, key=key)


def decide_reactions(pairs: Sequence[tuple[uuid.UUID | str, int]]) -> Job:
    """A step's decisions in one message (a worker sends one `decide_reaction` each)."""
    return _job(DECIDE_REACTIONS, [[str(agent_id), memory_id] for agent_id, memory_id in pairs])


def converse(
    *,
    world_id: uuid.UUID | str,
    initiator_id: uuid.UUID | str,
    partner_id: uuid.UUID | str,
    intent: str,
    decision_id: int,
) -> Job:
    args = (str(world_id), str(initiator_id), str(partner_id), intent, decision_id)
    return _job(CONVERSE, *args, key=f"converse:{decision_id}")


def converse_turn(conversation_id: int, seq: int) -> Job:
    key = f"converse_turn:{conversation_id}:{seq}"
    return _job(CONVERSE_TURN, conversation_id, seq, key=key)


def end_conversation(conversation_id: int) -> Job:
    key = f"end_conversation:{conversation_id}"
    return _job(END_CONVERSATION, conversation_id, key=key)


def summarize(agent_id: uuid.UUID | str) -> Job:
    return _job(SUMMARIZE, str(agent_id), key=f"summarize:{agent_id}")
