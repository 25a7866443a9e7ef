"""The demo town: a persona pack (a map and 25 original personas with relationships) ready for
`Hearth.import_personas`. One of them is planning a Valentine's Day party at the cafe; another
has a secret crush. Import it into a world starting on 2023-02-13 and watch the news spread.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import cast

from hearth_client.types import PersonaPack

TOWN_FILE = "town.json"
TOWN_START = "2023-02-13T07:00:00"
"""The game time the pack is written for: the morning before the party."""


def load_town() -> PersonaPack:
    """The pack as a dict, read from the installed package data."""
    text = resources.files(__package__).joinpath(TOWN_FILE).read_text(encoding="utf-8")
    return cast(PersonaPack, json.loads(text))
