"""Place paths and the map tree, as pure values shared by cognition, db and the API.

A place is addressed by its path from the area down: "The Copper Kettle: counter: coffee
machine". `:` separates segments, so no name may contain one; spacing around it is not
significant ("a:b" and "a : b" are the same place) and `join_path` writes the one canonical
form, which is what the database stores.

A game announces a state change in the paper's form, "<path> is <state>" (angle brackets
required), parsed by `parse_state_statement`.

What an agent knows of the map is a `KnownMap`: the paths it knows (ancestors implied), each
with its norms and how many others are there, walked level by level when it chooses where to
act (`cognition.locating`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from cognition.errors import InvalidInput
from cognition.norms import Norms

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


def within_sight(path: str, place: str, *, alarming: bool = False) -> bool:
    """Whether someone at `place` notices a change of `path`. An ordinary change is seen in the
    object's room ("The Copper Kettle: counter" for its espresso machine, "Riverside Apartments:
    apartment 1: kitchen" for that kitchen's stove: a neighbour's stove or a dorm-mate's desk is
    no news, and no two objects in sight share a name); an `alarming` one (a fire, a flood) is
    noticed through the whole area, as smoke or water would be."""
    scope = parse_path(path)
    scope = scope[:1] if alarming else scope[: max(1, len(scope) - 1)]
    try:
        here = parse_path(place)
    except InvalidInput:
        return False
    return tuple(p.casefold() for p in here[: len(scope)]) == tuple(p.casefold() for p in scope)


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
        norms = node.get("norms") or {}
        try:
            Norms.parse(norms)
        except InvalidInput as exc:
            raise InvalidInput(str(exc), field=f"{where}.norms.{exc.field}") from None
        yield PlaceSpec(
            path=path, name=name, depth=depth, parent=parent, state=node.get("state"), norms=norms
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


@dataclass(frozen=True)
class KnownPlace:
    """A place an agent knows, with what choosing it depends on: its norms, and how many others
    are there now (agents whose current action is located in it)."""

    path: str
    norms: Norms = field(default_factory=Norms)
    occupancy: int = 0


@dataclass(frozen=True)
class PlaceOption:
    """One place offered when choosing where to act: its name, the names of the known places
    inside it (in map order), its norms and how many others are there now."""

    name: str
    contains: tuple[str, ...] = ()
    norms: Norms = field(default_factory=Norms)
    occupancy: int = 0


class KnownMap:
    """The subtree an agent knows, for walking it level by level.

    Built from paths (or `KnownPlace`s) in any order; a path's ancestors are known with it.
    Children keep the order in which they first appear. Lookups ignore case and spacing.
    """

    def __init__(self, places: Iterable[str | KnownPlace]) -> None:
        self._places: dict[str, KnownPlace] = {}
        self._children: dict[str | None, list[str]] = {None: []}
        self._keys: dict[str, str] = {}
        for place in places:
            known = place if isinstance(place, KnownPlace) else KnownPlace(place)
            self._add(known)

    def _add(self, known: KnownPlace) -> None:
        parts = parse_path(known.path)
        parent: str | None = None
        for end in range(1, len(parts) + 1):
            path = join_path(parts[:end])
            if path not in self._places:
                self._places[path] = KnownPlace(path)
                self._children.setdefault(parent, []).append(path)
                self._children[path] = []
                self._keys[_key(path)] = path
            parent = path
        self._places[join_path(parts)] = replace(known, path=join_path(parts))

    def __len__(self) -> int:
        return len(self._places)

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and self.canonical(path) is not None

    def canonical(self, path: str | None) -> str | None:
        """The known path spelled `path` (any case or spacing), or None."""
        if not path:
            return None
        try:
            return self._keys.get(_key(normalize_path(path)))
        except InvalidInput:
            return None

    def paths(self) -> list[str]:
        """Every known path, parents before children."""
        return list(self._places)

    def areas(self) -> list[str]:
        return list(self._children[None])

    def children(self, path: str | None) -> list[str]:
        """The known places directly inside `path` (None: the areas)."""
        return list(self._children.get(path, []))

    def is_object(self, path: str) -> bool:
        """A known place with nothing known inside it: the end of a descent."""
        return path in self._places and not self._children[path]

    def option(self, path: str) -> PlaceOption:
        place = self._places[path]
        return PlaceOption(
            name=parse_path(path)[-1],
            contains=tuple(parse_path(p)[-1] for p in self._inside(path)),
            norms=place.norms,
            occupancy=place.occupancy,
        )

    def _inside(self, path: str) -> Iterator[str]:
        for child in self._children[path]:
            yield child
            yield from self._inside(child)


def _key(path: str) -> str:
    return path.casefold()
