"""The recorded embedding space: first start records it, another one is refused, and a
re-embed moves every memory across, resuming after an interruption."""

from __future__ import annotations

import io
from collections.abc import Sequence

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from cognition.errors import EmbeddingSpaceMismatch
from cognition.hashing_embedder import HashingEmbedder
from db.embedding_space import Space, ensure_space, recorded_space
from db.models import EmbeddingSpace, Memory
from db.settings import Settings
from service.reembed import run_reembed
from tests.factories import make_agent, make_memory, make_world


class CountingEmbedder(HashingEmbedder):
    """Hashing vectors of a chosen dimension; counts texts, and can fail after some calls."""

    def __init__(self, dimension: int, *, fail_after: int | None = None) -> None:
        super().__init__(dimension)
        self.texts: list[str] = []
        self.fail_after = fail_after

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if self.fail_after is not None and len(self.texts) >= self.fail_after:
            raise KeyboardInterrupt  # the operator's Ctrl-C, mid-run
        self.texts += texts
        return super().embed(texts)


def ensure(sessions: sessionmaker[Session], embedder: HashingEmbedder) -> None:
    with sessions.begin() as session:
        ensure_space(session, embedder)


def stored(sessions: sessionmaker[Session]) -> Space | None:
    with sessions() as session:
        return recorded_space(session)


def embedded_memories(sessions: sessionmaker[Session], count: int, dimension: int) -> None:
    old = HashingEmbedder(dimension)
    with sessions.begin() as session:
        agent = make_agent(session, make_world(session))
        for i in range(count):
            text = f"memory {i}"
            make_memory(session, agent, description=text, embedding=old.embed([text])[0])


def dimensions(sessions: sessionmaker[Session]) -> list[int]:
    with sessions() as session:
        query = sa.select(sa.func.vector_dims(Memory.embedding)).order_by(Memory.id)
        return list(session.scalars(query))


def test_first_start_records_and_the_same_space_passes(sessions: sessionmaker[Session]) -> None:
    ensure(sessions, HashingEmbedder(384))
    assert stored(sessions) == Space("hashing", "hashing-v1", 384)
    embedded_memories(sessions, 1, 384)
    ensure(sessions, HashingEmbedder(384))
    assert stored(sessions) == Space("hashing", "hashing-v1", 384)


def test_another_space_is_refused_while_vectors_exist(sessions: sessionmaker[Session]) -> None:
    ensure(sessions, HashingEmbedder(384))
    embedded_memories(sessions, 1, 384)
    with pytest.raises(EmbeddingSpaceMismatch, match="hearth reembed") as caught:
        ensure(sessions, HashingEmbedder(64))
    assert "\n" not in str(caught.value)
    assert "hashing/hashing-v1 (384-d)" in str(caught.value)
    assert stored(sessions) == Space("hashing", "hashing-v1", 384)


def test_with_no_vectors_stored_a_new_space_is_adopted(sessions: sessionmaker[Session]) -> None:
    ensure(sessions, HashingEmbedder(384))
    ensure(sessions, HashingEmbedder(64))
    assert stored(sessions) == Space("hashing", "hashing-v1", 64)


def test_reembed_switches_the_space_and_resumes_after_an_interruption(
    sessions: sessionmaker[Session], settings: Settings
) -> None:
    ensure(sessions, HashingEmbedder(384))
    embedded_memories(sessions, 10, 384)
    crashing = CountingEmbedder(64, fail_after=4)
    with pytest.raises(KeyboardInterrupt):
        run_reembed(settings, batch_size=2, embedder=crashing, err=io.StringIO())
    assert dimensions(sessions) == [64] * 4 + [384] * 6
    with sessions() as session:
        row = session.get(EmbeddingSpace, 1)
        assert row is not None and (row.reembed_target, row.reembed_through_id) == (
            "hashing|hashing-v1|64",
            4,
        )
    with pytest.raises(EmbeddingSpaceMismatch, match="unfinished"):
        ensure(sessions, HashingEmbedder(64))

    resumed, err = CountingEmbedder(64), io.StringIO()
    assert run_reembed(settings, batch_size=2, embedder=resumed, err=err) == 0
    assert resumed.texts == [f"memory {i}" for i in range(4, 10)]
    assert dimensions(sessions) == [64] * 10
    assert stored(sessions) == Space("hashing", "hashing-v1", 64)
    assert "resuming after memory 4" in err.getvalue() and "100.0%" in err.getvalue()
    ensure(sessions, HashingEmbedder(64))  # the new space now starts cleanly
    assert run_reembed(settings, embedder=CountingEmbedder(64), err=err) == 0
    assert "already embedded" in err.getvalue()
