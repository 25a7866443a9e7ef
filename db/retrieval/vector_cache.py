"""A per-process copy of searched agents' memory rows, so retrieval reads vectors from memory.

Exact retrieval needs every candidate's relevance (min-max normalisation needs the farthest
memory too), and PostgreSQL reads a 384-d vector in about half a microsecond; numpy's float32
matrix-vector product reads it ten times faster. So a process keeps, per agent it searched,
the columns retrieval scores with (id, kind, importance, creation and last access in
microseconds, the stored norm, the float32 vector and its int8 code), and brings them up to
date before each search by re-reading only rows written since (`db.retrieval.in_process.sync`):

- Every insert and update of `memories` stamps the row with its transaction id (`changed_xid`,
  migration 0004). A read records the oldest transaction still running in its snapshot
  (`pg_snapshot_xmin`) as the entry's watermark; anything committed later carries a mark at or
  above it, whatever order transactions commit in, so the next read of `changed_xid >=
  watermark` misses nothing.
- Rows written by the reader's own open transaction are never stored here (it may roll back):
  the search lays them over the entry for that one query (`Overlay`).
- Memories are deleted only with their agent (cascade), so an entry never holds a row that is
  gone while its agent can still be searched.

Entries are evicted least recently used beyond the byte budget, which the edge passes in
(`use_process_cache(settings.retrieval_cache_mb)` in the API's app factory and the worker
runtime); an agent larger than the budget is searched in SQL. Each entry has a lock: a search
holds it while it syncs and scores, so concurrent threads never see a half-applied update.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace

import numpy as np
import numpy.typing as npt

from cognition.types import MemoryDetail
from db.models.memory import MEMORY_KINDS
from db.settings import DEFAULT_RETRIEVAL_CACHE_MB

KIND_CODES = {kind: code for code, kind in enumerate(MEMORY_KINDS)}
MEGABYTE = 1024 * 1024
ROW_OVERHEAD_BYTES = 8 * 8 + 4 + 3
"""Per row besides the vectors and texts: eight 8-byte columns (one a reference to the row's
texts), a dimension and three flags."""
TEXT_OVERHEAD_BYTES = 240
DETAIL_OVERHEAD_BYTES = 400
"""What a stored line or fact costs in Python objects (a frozen dataclass of a dozen fields)."""
"""Per row, the Python objects holding its texts (a tuple, strings' headers), besides the
characters themselves."""
BYTES_PER_DIMENSION = 4 + 1
"""Per row and dimension: the float32 vector and its int8 code (`quantized`)."""
WIDE = ("vectors", "codes")
"""The columns that are one vector a row; the others are one value a row."""

Int64s = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Rows:
    """Rows as read from `memories`, as columns (vectors: float32, one row each; rows without
    an embedding hold zeros and `embedded` False)."""

    ids: Int64s
    kinds: npt.NDArray[np.uint8]
    importance: Floats
    created_us: Int64s
    accessed_us: Int64s
    scale: Floats
    """1 / the stored norm where the float32 estimate is bounded (`bounds`), else 0."""
    exact: npt.NDArray[np.bool_]
    """Embedded with a norm outside that range (but not zero): relevance computed exactly."""
    embedded: npt.NDArray[np.bool_]
    vectors: npt.NDArray[np.float32]
    """Every row `width` wide: the reader's dimension (`db.retrieval.in_process.parse`);
    a row embedded in another dimension holds zeros there."""
    dimensions: npt.NDArray[np.int32]
    """Each row's own vector length (0 without an embedding)."""
    codes: npt.NDArray[np.int8]
    """The vectors' int8 codes (`quantized.code_rows`), zeros where `scale` is 0."""
    code_scale: Floats
    """Per row, what turns an int8 product into a relevance estimate (`quantized`)."""
    code_error: Floats
    """Per row, the coding's relative residual a (`quantized`)."""
    texts: npt.NDArray[np.object_]
    """Per row, the rest of the memory as `Texts`, so a search needs no second read."""

    def __len__(self) -> int:
        return int(self.ids.size)

    def take(self, mask: npt.NDArray[np.bool_] | npt.NDArray[np.int64]) -> Rows:
        return Rows(**{f.name: getattr(self, f.name)[mask] for f in fields(Rows)})

    def head(self, n: int) -> Rows:
        """The first n rows, as views."""
        return Rows(**{f.name: getattr(self, f.name)[:n] for f in fields(Rows)})


@dataclass(frozen=True)
class Texts:
    """The fields of a memory that retrieval returns but never scores."""

    description: str
    depth: int
    subject: str | None
    predicate: str | None
    object: str | None
    source: str
    detail: MemoryDetail | None = None

    @property
    def nbytes(self) -> int:
        words = (self.description, self.subject, self.predicate, self.object, self.source)
        held = TEXT_OVERHEAD_BYTES + sum(len(word) for word in words if word)
        if self.detail is None:
            return held
        said = self.detail.said
        quoted = len(said.quote) + DETAIL_OVERHEAD_BYTES if said is not None else 0
        return held + quoted + DETAIL_OVERHEAD_BYTES * len(self.detail.news)


class AgentVectors:
    """One agent's committed rows, as growable columns addressed by position."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.watermark = 0
        """Re-read rows with `changed_xid` at or above this (0: never read)."""
        self.dimension: int | None = None
        self.foreign: set[int] = set()
        """Ids of rows embedded in another dimension than `dimension` (a re-embed under way):
        while any exist, the agent is searched in SQL, which reports mismatches as `rank`."""
        self.size = 0
        self.position: dict[int, int] = {}
        self.text_bytes = 0
        self._columns = _empty_columns(0, 0)

    @property
    def columns(self) -> Rows:
        """The first `size` rows (views, not copies: valid while the lock is held)."""
        return self._columns.head(self.size)

    @property
    def nbytes(self) -> int:
        capacity = self._columns.ids.size
        per_row = ROW_OVERHEAD_BYTES + BYTES_PER_DIMENSION * (self.dimension or 0)
        return capacity * per_row + self.text_bytes

    def apply(self, rows: Rows) -> None:
        """Insert new rows and overwrite known ones (the latest committed version of each)."""
        if len(rows) == 0:
            return
        width = rows.vectors.shape[1]
        if self.dimension is None and width:
            self.dimension = width
            self._columns = _resized(self._columns, self._columns.ids.size, width)
        own = ~rows.embedded | (rows.dimensions == (self.dimension or 0))
        for memory_id, fits in zip(rows.ids.tolist(), own.tolist(), strict=True):
            if fits:
                self.foreign.discard(memory_id)
            else:
                self.foreign.add(memory_id)
        rows = _fitted(rows, own)
        needed = self.size + len(rows)
        if needed > self._columns.ids.size:  # grow once per batch, not once per doubling
            self._columns = _resized(self._columns, max(1024, needed), self.dimension or 0)
        slots = np.fromiter(
            (self._slot(memory_id) for memory_id in rows.ids.tolist()),
            dtype=np.int64,
            count=len(rows),
        )
        c = self._columns
        self.text_bytes += _text_bytes(rows.texts) - _text_bytes(c.texts[slots])
        same_width = bool(c.vectors.shape[1]) and c.vectors.shape[1] == width
        for f in fields(Rows):
            if f.name not in WIDE or same_width:
                getattr(c, f.name)[slots] = getattr(rows, f.name)

    def _slot(self, memory_id: int) -> int:
        slot = self.position.get(memory_id)
        if slot is None:
            if self.size == self._columns.ids.size:
                capacity = max(1024, 2 * self.size)
                self._columns = _resized(self._columns, capacity, self.dimension or 0)
            slot = self.position[memory_id] = self.size
            self.size += 1
        return slot


class VectorCache:
    """Agents' rows by agent id, least recently used evicted past `max_bytes`."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[uuid.UUID, AgentVectors] = OrderedDict()
        self._lock = threading.Lock()

    @classmethod
    def megabytes(cls, mb: int) -> VectorCache:
        return cls(mb * MEGABYTE)

    @contextmanager
    def agent(self, agent_id: uuid.UUID) -> Iterator[AgentVectors]:
        """The agent's entry (new and empty the first time), locked while in use."""
        with self._lock:
            entry = self._entries.get(agent_id)
            if entry is None:
                entry = self._entries[agent_id] = AgentVectors()
            self._entries.move_to_end(agent_id)
        with entry.lock:
            yield entry
        self._evict()

    def discard(self, agent_id: uuid.UUID) -> None:
        with self._lock:
            self._entries.pop(agent_id, None)

    def fits(self, entry: AgentVectors) -> bool:
        return entry.nbytes <= self.max_bytes

    @property
    def nbytes(self) -> int:
        with self._lock:
            return sum(entry.nbytes for entry in self._entries.values())

    def __contains__(self, agent_id: object) -> bool:
        return agent_id in self._entries

    def _evict(self) -> None:
        with self._lock:
            total = sum(entry.nbytes for entry in self._entries.values())
            while total > self.max_bytes and self._entries:
                _, entry = self._entries.popitem(last=False)
                total -= entry.nbytes


_process_cache: VectorCache | None = None
_process_lock = threading.Lock()


def use_process_cache(megabytes: int) -> None:
    """Size this process's cache (`HEARTH_RETRIEVAL_CACHE_MB`, passed in by the edge; 0 turns
    it off). The same budget again keeps the cache and what it holds."""
    global _process_cache
    with _process_lock:
        if _process_cache is None or _process_cache.max_bytes != megabytes * MEGABYTE:
            _process_cache = VectorCache.megabytes(megabytes)


def process_cache() -> VectorCache | None:
    """This process's cache (None when its budget is 0); DEFAULT_RETRIEVAL_CACHE_MB if the
    process never sized it."""
    global _process_cache
    with _process_lock:
        if _process_cache is None:
            _process_cache = VectorCache.megabytes(DEFAULT_RETRIEVAL_CACHE_MB)
    return _process_cache if _process_cache.max_bytes > 0 else None


def _empty_columns(capacity: int, dimension: int) -> Rows:
    return Rows(
        ids=np.zeros(capacity, dtype=np.int64),
        kinds=np.zeros(capacity, dtype=np.uint8),
        importance=np.zeros(capacity, dtype=np.float64),
        created_us=np.zeros(capacity, dtype=np.int64),
        accessed_us=np.zeros(capacity, dtype=np.int64),
        scale=np.zeros(capacity, dtype=np.float64),
        exact=np.zeros(capacity, dtype=np.bool_),
        embedded=np.zeros(capacity, dtype=np.bool_),
        vectors=np.zeros((capacity, dimension), dtype=np.float32),
        dimensions=np.zeros(capacity, dtype=np.int32),
        codes=np.zeros((capacity, dimension), dtype=np.int8),
        code_scale=np.zeros(capacity, dtype=np.float64),
        code_error=np.zeros(capacity, dtype=np.float64),
        texts=np.full(capacity, None, dtype=np.object_),
    )


def _resized(columns: Rows, capacity: int, dimension: int) -> Rows:
    """The columns copied into arrays of `capacity` rows (vectors of `dimension`)."""
    grown = _empty_columns(capacity, dimension)
    n = min(columns.ids.size, capacity)
    same_width = columns.vectors.shape[1] == dimension
    for f in fields(Rows):
        if f.name not in WIDE or same_width:
            getattr(grown, f.name)[:n] = getattr(columns, f.name)[:n]
    return grown


def _fitted(rows: Rows, own: npt.NDArray[np.bool_]) -> Rows:
    """Rows of a foreign dimension kept as not embedded: never scored from here (the entry is
    searched in SQL while any exist)."""
    if bool(own.all()):
        return rows
    fits = own & rows.embedded
    return replace(
        rows,
        embedded=fits,
        scale=np.where(fits, rows.scale, 0.0),
        exact=fits & rows.exact,
        dimensions=np.where(fits, rows.dimensions, 0),
        code_scale=np.where(fits, rows.code_scale, 0.0),
        code_error=np.where(fits, rows.code_error, 0.0),
    )


def _text_bytes(texts: npt.NDArray[np.object_]) -> int:
    return sum(text.nbytes for text in texts.tolist() if text is not None)


def kind_codes(kinds: Sequence[str]) -> list[int]:
    return [KIND_CODES[kind] for kind in kinds if kind in KIND_CODES]
