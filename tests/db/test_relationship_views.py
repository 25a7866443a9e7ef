"""A relationship view on record is replaced by a revised one, never by a view formed from
no statements about the other (retrieval missed the seed; the agent still knows them)."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from cognition.offline.relationships import relationship
from db.models import Relationship
from db.queries.relationships import set_relationship
from tests.factories import GAME_START, make_agent, make_world


def test_a_view_from_nothing_keeps_the_one_on_record(sessions: sessionmaker[Session]) -> None:
    with sessions.begin() as session:
        world = make_world(session)
        lucia, jonah = (make_agent(session, world, name=n) for n in ("Lucia", "Jonah"))
        seeded = "funny; she has written up his open-mic shows"
        for step, view in enumerate(
            (
                relationship(
                    name="Lucia", other="Jonah", statements=[f"Lucia knows Jonah: {seeded}"]
                ),
                relationship(name="Lucia", other="Jonah", statements=["The bread is fresh."]),
            )
        ):
            set_relationship(
                session,
                agent_id=lucia.id,
                other_name=jonah.name,
                other_agent_id=jonah.id,
                summary=view.summary,
                sentiment=view.sentiment,
                at=GAME_START + timedelta(hours=step),
                keep_existing=view.evidence == 0,
            )
        row = session.scalars(
            sa.select(Relationship).where(Relationship.agent_id == lucia.id)
        ).one()
        assert seeded in row.summary and row.history == []
        # nothing on record yet: the view from nothing is the first one
        noor = make_agent(session, world, name="Noor")
        unknown = relationship(name="Lucia", other="Noor", statements=[])
        assert unknown.evidence == 0
        assert set_relationship(
            session,
            agent_id=lucia.id,
            other_name=noor.name,
            other_agent_id=noor.id,
            summary=unknown.summary,
            sentiment=unknown.sentiment,
            at=GAME_START,
            keep_existing=True,
        )
