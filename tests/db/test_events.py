"""Event ids become visible in id order per world, so resuming after an id never skips one."""

from __future__ import annotations

import threading
import uuid

from sqlalchemy.orm import Session, sessionmaker

from db.queries.events import emit, events_after
from tests.factories import make_world

BLOCKED_PROBE_S = 0.5


def _emit_and_commit(
    sessions: sessionmaker[Session], world_id: uuid.UUID, done: threading.Event
) -> None:
    with sessions() as session:
        emit(session, world_id=world_id, type="second", payload={})
        session.commit()
    done.set()


def test_a_second_writer_waits_for_the_first_to_commit(sessions: sessionmaker[Session]) -> None:
    with sessions.begin() as setup:
        world_id, elsewhere_id = make_world(setup).id, make_world(setup, name="Elsewhere").id
    done = threading.Event()
    writer = threading.Thread(target=_emit_and_commit, args=(sessions, world_id, done))
    with sessions() as first:
        emit(first, world_id=world_id, type="first", payload={"n": 1})
        writer.start()
        try:
            blocked = not done.wait(BLOCKED_PROBE_S)
            with sessions() as other_world:  # other worlds are not held up
                emit(other_world, world_id=elsewhere_id, type="unrelated", payload={})
                other_world.commit()
            with sessions() as reader:
                visible = events_after(reader, world_id=world_id, after=0)
        finally:
            first.commit()
    writer.join(timeout=10)
    assert blocked, "the second writer took an id while the first was still open"
    assert visible == []
    with sessions() as reader:
        rows = events_after(reader, world_id=world_id, after=0)
        assert [r.type for r in rows] == ["first", "second"] and rows[0].id < rows[1].id
        later = events_after(reader, world_id=world_id, after=rows[0].id)
        assert [r.type for r in later] == ["second"]
