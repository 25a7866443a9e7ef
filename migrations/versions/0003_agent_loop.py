"""agent loop: the day an agent last planned, the action last announced, decision context,
and the reaction that opened a conversation

- `agents.planned_day`: the game day whose outline was made; `hearth.plan_day` claims it in
  the transaction that writes the outline, so a redelivered job plans nothing twice.
- `agents.current_plan_id`: the plan leaf last announced as `action_changed` (the sweep
  compares it with the current leaf; no foreign key: it is a marker, not a relation).
- `reaction_decisions.context`: the paper's retrieved context the decision was made from,
  kept beside the reason so a game can show why; `asked_mind` is false for an observation
  settled without the Mind (`cognition.frugal.reaction_gate`: a cooldown, asleep, talking).
- `conversations.decision_id`: the reaction that opened a conversation, unique, so a
  redelivered `hearth.converse` finds the conversation it opened.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("agents", sa.Column("planned_day", sa.Date(), nullable=True))
    op.add_column("agents", sa.Column("current_plan_id", sa.BigInteger(), nullable=True))
    op.add_column(
        "reaction_decisions",
        sa.Column("context", sa.Text(), server_default="", nullable=False),
    )
    op.add_column(
        "reaction_decisions",
        sa.Column("asked_mind", sa.Boolean(), server_default=sa.true(), nullable=False),
    )
    op.add_column("conversations", sa.Column("decision_id", sa.BigInteger(), nullable=True))
    op.create_foreign_key(
        op.f("fk_conversations_decision_id_reaction_decisions"),
        "conversations",
        "reaction_decisions",
        ["decision_id"],
        ["id"],
        ondelete="SET NULL",
    )
    op.create_unique_constraint(
        op.f("uq_conversations_decision_id"), "conversations", ["decision_id"]
    )


def downgrade() -> None:
    op.drop_constraint(op.f("uq_conversations_decision_id"), "conversations", type_="unique")
    op.drop_constraint(
        op.f("fk_conversations_decision_id_reaction_decisions"),
        "conversations",
        type_="foreignkey",
    )
    op.drop_column("conversations", "decision_id")
    op.drop_column("reaction_decisions", "asked_mind")
    op.drop_column("reaction_decisions", "context")
    op.drop_column("agents", "current_plan_id")
    op.drop_column("agents", "planned_day")
