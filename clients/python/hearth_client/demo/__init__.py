"""The demo town: a persona pack (a map and 25 original personas with relationships) ready for
`Hearth.import_personas`. One of them is planning a Valentine's Day party at the cafe; another
is running for the town council; another has a secret crush. Import it into a world starting on
2023-02-13 and watch the news spread.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import cast

from hearth_client.types import PersonaPack, PersonaSpec

TOWN_FILE = "town.json"
TOWN_START = "2023-02-13T07:00:00"
"""The game time the pack is written for: the morning before the party."""


@dataclass(frozen=True)
class News:
    """A piece of news the town starts with, and how to recognise it in a memory."""

    name: str
    about: str
    pattern: str
    """A case-insensitive regular expression over memory descriptions."""


NEWS = (
    News(
        "the party",
        "Junie Halvorsen's Valentine's Day party at The Copper Kettle (Feb 14, 6-8 pm)",
        r"valentine|\bparty\b",
    ),
    News(
        "the candidacy",
        "Walter Brigg running for the town council (election on March 1)",
        r"\bcouncil\b|\belection\b|\bcampaign",
    ),
)


def load_town(*, agents: int | None = None) -> PersonaPack:
    """The pack as a dict, read from the installed package data; with `agents`, only the first
    N personas and the relationships among them (the map stays whole)."""
    text = resources.files(__package__).joinpath(TOWN_FILE).read_text(encoding="utf-8")
    pack = cast(PersonaPack, json.loads(text))
    if agents is not None:
        pack["personas"] = _first(pack["personas"], agents)
    return pack


def _first(personas: list[PersonaSpec], size: int) -> list[PersonaSpec]:
    chosen = personas[:size]
    names = {p["name"] for p in chosen}
    return [
        {**p, "relationships": [r for r in p.get("relationships", []) if r["other"] in names]}
        for p in chosen
    ]
