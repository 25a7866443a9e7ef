"""Two agents talking (fast queue): `hearth.converse` opens, `hearth.converse_turn` speaks one
line, `hearth.end_conversation` closes, notes what each side takes away, and re-flows plans
(`db.flows.conversations`). One job per turn: a turn is one model call, so no job holds a fast
worker for a whole conversation, and each line is committed and announced as it is said."""

from __future__ import annotations

import uuid

from celery import shared_task

from db import jobs
from db.flows import conversations
from workers.tasks.base import RETRY_POLICY, run_flow


@shared_task(name=jobs.CONVERSE.name, **RETRY_POLICY)
def converse(
    world_id: str, initiator_id: str, partner_id: str, intent: str, decision_id: int
) -> dict[str, object]:
    """Open the conversation decision `decision_id` asked for (once), and let it begin."""
    return run_flow(
        conversations.converse,
        world_id=uuid.UUID(world_id),
        initiator_id=uuid.UUID(initiator_id),
        partner_id=uuid.UUID(partner_id),
        intent=intent,
        decision_id=decision_id,
    )


@shared_task(name=jobs.CONVERSE_TURN.name, **RETRY_POLICY)
def converse_turn(conversation_id: int, seq: int) -> dict[str, object]:
    """Say line `seq` of an open conversation, once, when its time has come."""
    return run_flow(conversations.converse_turn, conversation_id=conversation_id, seq=seq)


@shared_task(name=jobs.END_CONVERSATION.name, **RETRY_POLICY)
def end_conversation(conversation_id: int) -> dict[str, object]:
    """End an open conversation: views of each other, notes, plans re-flowed, then closed."""
    return run_flow(conversations.end_conversation, conversation_id=conversation_id)
