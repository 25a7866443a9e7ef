"""Where an action happens: the paper's recursive descent over the places an agent knows (§4.3).

The paper prompts the model with the areas the agent knows ("Prefer to stay in the current
area if the activity can be done there"), then with the sub-areas of the chosen one, and so on
down to an object. `locate` does the same over the agent's `KnownMap`, one `ChooseLocation`
request per level, each carrying that level's options with what they contain, their norms
(opening hours, capacity) and how many others are there, where the agent is now, its home, and
when the action starts:

1. The area. An action that names a known area goes there ("… at The Lantern Tavern": every
   word of its name; "home": the agent's home) — another area than the current one first, the
   earliest named first. Otherwise a task stays in its hour chunk's area (`keep_area`), and
   anything else is the Mind's choice among the known areas.
2. Each level below: the Mind's choice among the known places inside the one chosen, until
   a place with nothing known inside (an object), or the Mind answers "" — nothing inside
   suits the action better than the place itself, so the action stays there.

A level with one option takes it without asking. Only a known path is ever returned, and
None only when the agent knows no place.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime

from cognition.mind import Mind
from cognition.places import KnownMap, area_of, parse_path
from cognition.requests import ChooseLocation

HOME_WORDS = frozenset({"home"})
"""Words that name the agent's own home area ("go home", "relax at home")."""
_NAME_FILLER = frozenset({"the", "a", "an", "of", "and"})
_WORD = re.compile(r"[\w']+")


def locate(
    mind: Mind,
    *,
    action: str,
    places: KnownMap,
    at: datetime,
    until: datetime | None = None,
    here: str | None = None,
    home: str | None = None,
    name: str = "",
    keep_area: bool = False,
    outlined: bool = False,
) -> str | None:
    """The known place where `action` happens (module docstring); `here` is where the agent
    is (for a task: its hour chunk's place), `home` its living area. With `outlined`, `here`
    is where the outline put the item: when the action names it among other areas ("buy
    groceries at the Stores; then volunteer at the Engine Shed", outlined at the shed, where
    most of it is spent), it stays there."""
    here_known, home_known = places.canonical(here), places.canonical(home)
    area = _named_area(action, places, here=here_known, home=home_known, stay=outlined)
    if area is None and keep_area and here_known is not None:
        area = area_of(here_known)
    ask = ChooseLocation(
        action=action,
        options=(),
        at=at,
        until=until,
        current=here_known or "",
        home=home_known or "",
        name=name,
    )
    chosen = area if area is not None else _choose(mind, ask, places, within=None)
    while chosen is not None:
        deeper = _choose(mind, ask, places, within=chosen)
        if deeper is None:
            return chosen
        chosen = deeper
    return None


def _choose(mind: Mind, ask: ChooseLocation, places: KnownMap, *, within: str | None) -> str | None:
    """The chosen path one level below `within` (None: among the areas); None to stop there."""
    inside = places.children(within)
    if len(inside) <= 1:
        return inside[0] if inside else None
    options = [places.option(path) for path in inside]
    answer = mind.think(replace(ask, options=options, within=within or ""))
    chosen = next((p for p in inside if _leaf(p).casefold() == answer.casefold()), None)
    if chosen is None:  # "" (stay here), or a name that is not an option: never invent one
        return None if within is not None else inside[0]
    return chosen


def _leaf(path: str) -> str:
    return parse_path(path)[-1]


def _named_area(
    action: str, places: KnownMap, *, here: str | None, home: str | None, stay: bool = False
) -> str | None:
    """The known area the action names (module docstring, rule 1), or None."""
    said = _words(action)
    named = [
        (said.index(words[0]), -len(words), area)
        for area, words in _area_words(places)
        if words and set(words) <= set(said)
    ]
    if home is not None and HOME_WORDS & set(said):
        named.append((min(said.index(w) for w in HOME_WORDS & set(said)), 0, area_of(home)))
    current = area_of(here) if here else None
    if stay and any(n[2] == current for n in named):
        return current
    elsewhere = sorted(n for n in named if n[2] != current)
    ranked = elsewhere or sorted(named)
    return ranked[0][2] if ranked else None


def _area_words(places: KnownMap) -> list[tuple[str, list[str]]]:
    return [(area, [w for w in _words(area) if w not in _NAME_FILLER]) for area in places.areas()]


def _words(text: str) -> list[str]:
    """Lower-cased words, possessives reduced ("Maria's" → "maria")."""
    return [w.removesuffix("'s") for w in _WORD.findall(text.casefold())]
