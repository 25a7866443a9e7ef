"""Place paths and the map tree, as pure values shared by cognition, db and the API.

A place is addressed by its path from the area down: "The Copper Kettle: counter: coffee
machine". `:` separates segments, so no name may contain one; spacing around it is not
significant ("a:b" and "a : b" are the same place) and `join_path` writes the one canonical
form, which is what the database stores.

A game announces a state change in the paper's form, "<path> is <state>" (angle brackets
required), parsed by `parse_state_statement`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cognition.errors import InvalidInput

SEPARATOR = ":"
JOINER = ": "
DEFAULT_STATE = "idle"
MAX_MAP_DEPTH = 6
"""Area → sub-area → … → object: six levels covers a house in a district in a town."""
MAX_MAP_NODES = 5000
"""A town of several hundred rooms and objects; a map bigger than this is a 413, not a hang."""

_STATEMENT = re.compile(r"^\s*<(?P<path>[^<>]+)>\s+is\s+(?P<state>\S.*?)\s*\.?\s*$", re.S)


def parse_path(path: str) -> tuple[str, ...]:
    """The segments of a path; an empty path or segment is the caller's mistake."""
    parts = tuple(part.strip() for part in path.split(SEPARATOR))
    if not all(parts):
        raise InvalidInput(f"{path!r} is not a place path (empty segment)")
    return parts


def join_path(parts: Sequence[str]) -> str:
    """The canonical spelling of a path, as stored."""
    return JOINER.join(parts)


def normalize_path(path: str) -> str:
    return join_path(parse_path(path))


def ancestors(path: str) -> list[str]:
    """Every proper prefix of a path, area first: knowing a stove means knowing its kitchen."""
    parts = parse_path(path)
    return [join_path(parts[:end]) for end in range(1, len(parts))]


def area_of(path: str) -> str:
    """The top segment: the area (a house, the cafe) the place belongs to."""
    return parse_path(path)[0]


def parse_state_statement(text: str) -> tuple[str, str]:
    """`"<kitchen: stove> is burning"` → `("kitchen: stove", "burning")`."""
    match = _STATEMENT.match(text)
    if match is None:
        raise InvalidInput('expected "<place: path> is <state>"')
    return normalize_path(match["path"]), match["state"]


@dataclass(frozen=True)
class PlaceSpec:
    """One node of a map as the designer gave it, flattened: `state` None keeps the live state."""

    path: str
    name: str
    depth: int
    parent: str | None
    state: str | None = None
    norms: Mapping[str, Any] = field(default_factory=dict)


def flatten_map(children: Sequence[Mapping[str, Any]]) -> list[PlaceSpec]:
    """The tree under the world root, parents before children; validated.

    Raises `InvalidInput` with the field at fault as a dotted path under the root
    (`children.2.children.0.name`): a name with ':', a repeated sibling name, a tree deeper
    than MAX_MAP_DEPTH. The caller checks MAX_MAP_NODES on the result.
    """
    return list(_walk(children, parent=None, depth=0, field_prefix="children"))


def _walk(
    nodes: Sequence[Mapping[str, Any]], *, parent: str | None, depth: int, field_prefix: str
) -> Iterator[PlaceSpec]:
    if nodes and depth >= MAX_MAP_DEPTH:
        raise InvalidInput(f"the map is deeper than {MAX_MAP_DEPTH} levels", field=field_prefix)
    seen: set[str] = set()
    for index, node in enumerate(nodes):
        where = f"{field_prefix}.{index}"
        name = _checked_name(node.get("name", ""), seen, field=f"{where}.name")
        path = join_path([*(parse_path(parent) if parent else ()), name])
        yield PlaceSpec(
            path=path,
            name=name,
            depth=depth,
            parent=parent,
            state=node.get("state"),
            norms=node.get("norms") or {},
        )
        yield from _walk(
            node.get("children") or [],
            parent=path,
            depth=depth + 1,
            field_prefix=f"{where}.children",
        )


def _checked_name(raw: str, seen: set[str], *, field: str) -> str:
    name = raw.strip()
    if not name:
        raise InvalidInput("a place needs a name", field=field)
    if SEPARATOR in name:
        raise InvalidInput(
            f"{SEPARATOR!r} separates path segments; not allowed in a name", field=field
        )
    if name in seen:
        raise InvalidInput(f"two places under one parent are both named {name!r}", field=field)
    seen.add(name)
    return name
