"""emergence: who heard what from whom, and relationships as edges in game time

The paper's end-to-end evaluation (§7.1) asks how news spread and how the town's network of
acquaintances grew. Two analyst views answer it in SQL, and `relationships.formed_at` (the
game time a relationship was first recorded) dates an edge:

- `heard`: every line an agent heard, with who said it and when (the listener is the other
  side of the conversation; a player's line is heard by its agent). The first line mentioning a
  topic, per agent, is the transmission tree:
  `SELECT DISTINCT ON (listener) listener, speaker, spoken_at, text FROM heard
   WHERE world_id = … AND text ~* 'valentine|party' ORDER BY listener, spoken_at, seq`.
- `relationship_pairs`: every two agents who each hold a relationship with the other (an
  undirected edge), `since` the later of the two was formed; the network at a game time is
  `… WHERE since <= '2023-02-14 12:00'`. Rows recorded before this revision have no
  `formed_at` unless they were never revised (then it is their `updated_at`).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

ANALYST_ROLE = "hearth_analyst"

VIEWS = {
    "heard": """
        SELECT u.id AS utterance_id, c.id AS conversation_id, c.world_id, u.seq, u.spoken_at,
               l.id AS listener_id, l.name AS listener, u.speaker_agent_id AS speaker_id,
               COALESCE(s.name, u.speaker_player) AS speaker,
               (u.speaker_player IS NOT NULL) AS speaker_is_player, u.text, c.topic
        FROM utterances u
        JOIN conversations c ON c.id = u.conversation_id
        JOIN agents l ON l.id = CASE
            WHEN u.speaker_agent_id IS NOT DISTINCT FROM c.initiator_id THEN c.partner_agent_id
            ELSE c.initiator_id END
        LEFT JOIN agents s ON s.id = u.speaker_agent_id""",
    "relationship_pairs": """
        SELECT a.world_id, a.id AS agent_id, a.name AS agent, b.id AS other_id,
               b.name AS other, GREATEST(ab.formed_at, ba.formed_at) AS since,
               ab.sentiment AS sentiment, ba.sentiment AS other_sentiment
        FROM relationships ab
        JOIN relationships ba
          ON ba.agent_id = ab.other_agent_id AND ba.other_agent_id = ab.agent_id
        JOIN agents a ON a.id = ab.agent_id
        JOIN agents b ON b.id = ab.other_agent_id
        WHERE a.name < b.name OR (a.name = b.name AND a.id < b.id)""",
}


def upgrade() -> None:
    op.add_column("relationships", sa.Column("formed_at", sa.DateTime(timezone=False)))
    op.execute(
        "UPDATE relationships SET formed_at = updated_at WHERE jsonb_array_length(history) = 0"
    )
    for name, body in VIEWS.items():
        op.execute(f"CREATE VIEW {name} AS {body}")
    op.execute(f"GRANT SELECT ON {', '.join(VIEWS)} TO {ANALYST_ROLE}")


def downgrade() -> None:
    op.execute(f"REVOKE ALL ON {', '.join(VIEWS)} FROM {ANALYST_ROLE}")
    for name in VIEWS:
        op.execute(f"DROP VIEW IF EXISTS {name}")
    op.drop_column("relationships", "formed_at")
