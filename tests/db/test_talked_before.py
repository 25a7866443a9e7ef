"""Whether two agents have talked before: the world's record, not what either one recalls."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.orm import Session, sessionmaker

from db.models import Agent, Conversation
from db.queries.conversations import talked_before
from tests.factories import GAME_START, make_agent, make_world


def test_an_earlier_conversation_either_way_counts_and_a_later_one_does_not(
    sessions: sessionmaker[Session],
) -> None:
    with sessions.begin() as session:
        world = make_world(session)
        ada, bo, cy = (make_agent(session, world, name=n) for n in ("Ada", "Bo", "Cy"))
        session.flush()

        def talk(one: Agent, other: Agent, hours: int) -> Conversation:
            row = Conversation(
                world_id=world.id,
                initiator_id=one.id,
                partner_agent_id=other.id,
                started_at=GAME_START + timedelta(hours=hours),
            )
            session.add(row)
            session.flush()
            return row

        first = talk(ada, bo, 0)
        assert not talked_before(session, first, ada.id, bo.id)
        second = talk(bo, ada, 2)  # Bo starts this one
        assert talked_before(session, second, bo.id, ada.id)
        assert talked_before(session, second, ada.id, bo.id)
        with_cy = talk(ada, cy, 3)
        assert not talked_before(session, with_cy, ada.id, cy.id)
