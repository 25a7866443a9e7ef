"""A scenario: any town, the news it starts with, and what to ask and check — as one JSON file.

    {
      "name": "Saltmarsh",
      "start": "2024-05-06T07:00:00",          the world's first game moment
      "days": 2,                               driven to 21:00 on the last day
      "pack": {"map": …, "personas": […]} | "demo",
      "news": [
        {"key": "wedding", "title": "the wedding",
         "originator": "Ines Duarte",          who knows it first
         "seed": "Ines is getting married …",  written to the originator's memory (or null when
                                               the persona already knows it)
         "question": "Did you hear about the wedding?",
         "cues": ["wedding"],                  words an answer that knows it contains
         "pattern": "wedding|married",         a memory or line that mentions it (regex)
         "event": {"place": "St. Brigid's Chapel", "start": "…", "end": "…"} | null}
      ]
    }

`bench.emergence --scenario FILE` and `bench.audit --scenario FILE` run it; the demo town is
`bench/scenarios/larkspur.json`. Shipped scenarios live in `bench/scenarios/`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any, cast

from hearth_client.client import Hearth
from hearth_client.demo import load_town
from hearth_client.demo.drive import DemoConfig, TownRun
from hearth_client.types import PersonaPack

from bench.emergence_topics import Gathering, Topic

EVENING_ENDS = 21
"""A run's last day ends at 21:00: the end of its evening."""


@dataclass(frozen=True)
class NewsItem:
    """One piece of news the town starts with, and how to measure it."""

    topic: Topic
    seed: str | None
    gathering: Gathering | None
    """Where and when it happens, for news with a time."""


@dataclass(frozen=True)
class Scenario:
    name: str
    start: datetime
    days: int
    pack: PersonaPack
    news: tuple[NewsItem, ...]

    @property
    def hours(self) -> float:
        """From the start to 21:00 on the last day."""
        return (self.days - 1) * 24 + EVENING_ENDS - self.start.hour - self.start.minute / 60

    def config(self, *, step_minutes: int, hours: float | None = None) -> DemoConfig:
        return DemoConfig(
            hours=hours if hours is not None else self.hours,
            step_minutes=step_minutes,
            world_name=self.name,
            pack=self.pack,
            start=self.start.isoformat(),
        )


def load(path: Path) -> Scenario:
    """A scenario from its file: a path, or the name of a shipped one ("larkspur")."""
    text = path.read_text(encoding="utf-8") if path.exists() else _shipped(path.stem)
    raw = cast(dict[str, Any], json.loads(text))
    pack = load_town() if raw["pack"] == "demo" else cast(PersonaPack, raw["pack"])
    names = {p["name"] for p in pack["personas"]}
    news = tuple(_news(item, names) for item in raw["news"])
    return Scenario(
        name=str(raw["name"]),
        start=datetime.fromisoformat(raw["start"]),
        days=int(raw.get("days", 2)),
        pack=pack,
        news=news,
    )


def _shipped(name: str) -> str:
    found = resources.files("bench").joinpath("scenarios", f"{name}.json")
    if not found.is_file():
        raise SystemExit(f"bench: no scenario file {name!r} (give a path to a JSON scenario)")
    return found.read_text(encoding="utf-8")


def _news(item: dict[str, Any], names: set[str]) -> NewsItem:
    if item["originator"] not in names:
        raise SystemExit(f"bench: news {item['key']!r}: no persona named {item['originator']!r}")
    event = item.get("event")
    topic = Topic(
        key=item["key"],
        title=item["title"],
        originator=item["originator"],
        question=item["question"],
        subject=item["title"],
        cues=tuple(item["cues"]),
        pattern=item["pattern"],
    )
    gathering = (
        Gathering(
            place=event["place"],
            start=datetime.fromisoformat(event["start"]),
            end=datetime.fromisoformat(event["end"]),
            why_question=f"Why didn't you go to {item['title']}? What was your plan that day?",
        )
        if event
        else None
    )
    return NewsItem(topic=topic, seed=item.get("seed"), gathering=gathering)


def seed(client: Hearth, run: TownRun, scenario: Scenario) -> None:
    """Write each piece of news into its originator's memory, as the admin would."""
    ids = {agent["name"]: agent["id"] for agent in run.agents}
    for item in scenario.news:
        if item.seed:
            client.add_memories(
                run.world_id,
                ids[item.topic.originator],
                [{"description": item.seed, "kind": "seed", "source": "admin"}],
            )
