"""The embedding space at the CLI edge: the start-up check, and `hearth reembed`.

Every process that embeds (`hearth api`, `hearth worker`, `hearth up`) first checks that the
configured embedder is the one the stored vectors came from; on a mismatch it prints one line
naming both spaces and the fix, and exits 2. `hearth reembed` moves every memory into the
configured space in resumable batches (see `db.reembed`), with a progress line on stderr.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

import sqlalchemy as sa

from cognition.errors import EmbeddingSpaceMismatch
from cognition.mind import Embedder
from db import reembed
from db.embedding_space import Space, ensure_space
from db.providers import build_embedder, embedding_warning
from db.session import make_engine, make_session_factory, session_scope
from db.settings import Settings

MISMATCH_EXIT = 2


def check_space(settings: Settings, *, err: TextIO = sys.stderr) -> bool:
    """Record or verify the embedding space; False (after one line on `err`) if it differs.
    A model paired with lexical embeddings is allowed, with a warning on `err`."""
    assert settings.database_url is not None
    warning = embedding_warning(settings)
    if warning is not None:
        print(f"hearth: warning: {warning}", file=err)
    engine = make_engine(settings.database_url, pool_size=1)
    try:
        with session_scope(make_session_factory(engine)) as session:
            ensure_space(session, build_embedder(settings))
        return True
    except EmbeddingSpaceMismatch as exc:
        print(f"hearth: {exc}", file=err)
    except sa.exc.DBAPIError as exc:
        first = str(exc.orig or exc).strip().splitlines()[0]
        print(
            f"hearth: cannot check the embedding space ({first}); is the database up and "
            "migrated (`hearth db upgrade`)?",
            file=err,
        )
    finally:
        engine.dispose()
    return False


def run_reembed(
    settings: Settings,
    *,
    batch_size: int = reembed.DEFAULT_BATCH_SIZE,
    embedder: Embedder | None = None,
    err: TextIO = sys.stderr,
) -> int:
    """Re-embed every memory into the configured space; resumable; 0 when done."""
    assert settings.database_url is not None
    embedder = embedder or build_embedder(settings)
    target = Space.of(embedder)
    engine = make_engine(settings.database_url, pool_size=1)
    sessions = make_session_factory(engine)
    try:
        with session_scope(sessions) as session:
            start = reembed.begin(session, target)
        if start is None:
            print(f"hearth reembed: every memory is already embedded with {target}", file=err)
            return 0
        if start.done:
            print(f"hearth reembed: resuming after memory {start.through_id}", file=err)
        progress = Progress(total=start.total, done=start.done, out=err)
        through = start.through_id
        while True:
            with session_scope(sessions) as session:
                batch = reembed.next_batch(session, after=through, limit=batch_size)
                if not batch:
                    reembed.finish(session, target)
                    break
                through = reembed.write_batch(session, batch, embedder=embedder)
            progress.advance(len(batch))
        progress.close()
        print(f"hearth reembed: done; memories are now embedded with {target}", file=err)
        return 0
    finally:
        engine.dispose()


class Progress:
    """`reembed  42%  4200/10000 memories  1234/s` on one stderr line, redrawn in place."""

    def __init__(self, *, total: int, done: int, out: TextIO) -> None:
        self.total, self.done, self.out = total, done, out
        self.started, self.start_done = time.monotonic(), done
        self._draw()

    def advance(self, n: int) -> None:
        self.done += n
        self.total = max(self.total, self.done)  # memories written meanwhile join the run
        self._draw()

    def close(self) -> None:
        self.out.write("\n")
        self.out.flush()

    def _draw(self) -> None:
        percent = 100.0 if self.total == 0 else 100.0 * self.done / self.total
        elapsed = max(time.monotonic() - self.started, 1e-6)
        rate = (self.done - self.start_done) / elapsed
        self.out.write(
            f"\rreembed {percent:5.1f}%  {self.done}/{self.total} memories  {rate:,.0f}/s"
        )
        self.out.flush()
