"""`memories.detail` as JSON and back: the fields of a memory's text (`MemoryDetail`).

The document is small and flat so analysts can query it with SQL:
`{"said": {"speaker", "listener", "quote"} | null, "news": [{"kind", "what", "who", "place",
"month", "day", "weekday", "start_min", "end_min", "open_to_all", "weight", "source",
"purpose"}…]}`.
"""

from __future__ import annotations

from dataclasses import asdict, fields
from typing import Any

from cognition.types import FactRecord, LineSaid, MemoryDetail

_FACT_FIELDS = frozenset(f.name for f in fields(FactRecord))


def to_json(detail: MemoryDetail | None) -> dict[str, Any] | None:
    """The document stored for `detail` (None stays NULL: not read yet)."""
    if detail is None:
        return None
    return {
        "said": asdict(detail.said) if detail.said is not None else None,
        "news": [asdict(fact) for fact in detail.news],
    }


def from_json(document: Any) -> MemoryDetail | None:
    """The detail a stored document holds; NULL or a shape this version does not know is
    None (the memory is then read from its words)."""
    if not isinstance(document, dict):
        return None
    try:
        said = document.get("said")
        line = LineSaid(**said) if isinstance(said, dict) else None
        news = tuple(
            FactRecord(**{k: v for k, v in fact.items() if k in _FACT_FIELDS})
            for fact in document.get("news") or ()
        )
    except TypeError:
        return None
    return MemoryDetail(said=line, news=news)
