"""A stand-in language model for benches and tests: it reads each Mind operation's prompt back
into the operation's inputs and answers what the offline heuristics answer, as JSON in the
operation's schema — so a whole town runs through the real LLM path (prompt rendering, the
`openai` client, HTTP, parsing, clamps, the audit) with plausible, deterministic content.

Plug it into the fake OpenAI-compatible server (`tests/fakes/openai_server.py`) as its chat
responder. `overrides` replaces the answer of any operation (a test scripts importances,
reactions or lines), given the parsed `Prompt`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, replace
from datetime import date, datetime, timedelta
from typing import Any

from cognition import requests as rq
from cognition.norms import Norms
from cognition.offline import OfflineMind
from cognition.parsing.plans import NOTES_SEPARATOR
from cognition.places import PlaceOption
from cognition.types import Granularity, Persona, PlanItem

FENCE = re.compile(r"^<<<(\w+)\n(.*?)\n>>>$", re.S | re.M)
NUMBERED = re.compile(r"^(\d+)\. (.*)$", re.M)
LABELS = {
    "Innate traits": "innate",
    "Background": "background",
    "Currently": "currently",
    "Lifestyle": "lifestyle",
    "Living area": "living_area",
    "Daily plan requirement": "daily_plan_requirement",
    "Speaking style": "speaking_style",
}
EMPTY = "(none)"

Override = Callable[["Prompt"], Mapping[str, Any]]


@dataclass(frozen=True)
class Prompt:
    """One chat request as the operation that asked it: its name, text and fenced data."""

    operation: str
    text: str
    blocks: Mapping[str, str]

    def block(self, label: str) -> str:
        value = self.blocks.get(label, "")
        return "" if value == EMPTY else value

    def numbered(self, label: str) -> list[str]:
        return [text for _, text in NUMBERED.findall(self.block(label))]

    def bulleted(self, label: str) -> list[str]:
        return [line[2:] for line in self.block(label).splitlines() if line.startswith("- ")]

    def number(self, pattern: str, default: int) -> int:
        found = re.search(pattern, self.text)
        return int(found.group(1)) if found else default

    def character(self) -> tuple[Persona, str]:
        """The persona block back into a `Persona`, and the summary line(s) after it."""
        fields: dict[str, Any] = {}
        summary: list[str] = []
        for line in self.block("character").splitlines():
            label, _, value = line.partition(": ")
            if label == "Name":
                found = re.match(r"(.*?)(?: \(age: (\d+)\))?$", value)
                assert found is not None
                fields["name"], age = found.group(1), found.group(2)
                fields["age"] = int(age) if age else None
            elif label in LABELS:
                fields[LABELS[label]] = value
            else:
                summary.append(line)
        return Persona(**fields), "\n".join(summary)


WHOLE_MAP = "(the whole map)"
WHEN = re.compile(
    r"^(?:At (\S+ [ap]m)|From (\S+ [ap]m) to (\S+ [ap]m)), (.+?) is going to do this:", re.M
)
_OPEN = re.compile(r"^open (.+?)(?: \(closed then\))?$")
_CAPACITY = re.compile(r"^capacity (\d+) \((\d+) there now(?:, full)?\)$")


def _option(line: str) -> PlaceOption:
    """An option line of the choose_location prompt back into the option it shows."""
    name, _, notes = line.partition(NOTES_SEPARATOR)
    contains: tuple[str, ...] = ()
    norms: dict[str, Any] = {}
    occupancy = 0
    for note in filter(None, notes.split("; ")):
        if note.startswith("contains: "):
            contains = tuple(note.removeprefix("contains: ").split(", "))
        elif opened := _OPEN.match(note):
            norms["opening_hours"] = opened[1]
        elif capacity := _CAPACITY.match(note):
            norms["capacity"], occupancy = int(capacity[1]), int(capacity[2])
        else:
            key, _, value = note.partition(": ")
            norms[key] = value
    return PlaceOption(name, contains=contains, norms=Norms.parse(norms), occupancy=occupancy)


def read(body: Mapping[str, Any]) -> Prompt:
    """The request's operation (the json_schema name) and its first user message."""
    form = body.get("response_format") or {}
    operation = str((form.get("json_schema") or {}).get("name", ""))
    asked = next(m["content"] for m in body["messages"] if m["role"] == "user")
    return Prompt(operation, asked, {label: text for label, text in FENCE.findall(asked)})


class OfflineResponder:
    """Answers chat requests with the offline mind's answers (see the module docstring)."""

    def __init__(self, *, year: int, overrides: Mapping[str, Override] | None = None) -> None:
        self.year = year
        self.overrides = dict(overrides or {})
        self._mind = OfflineMind()

    def __call__(self, body: dict[str, Any]) -> str:
        prompt = read(body)
        answer = self.overrides.get(prompt.operation) or getattr(self, prompt.operation)
        return json.dumps(answer(prompt))

    def rate_importance(self, p: Prompt) -> dict[str, Any]:
        ratings = self._mind.think(rq.RateImportance(p.numbered("memories")))
        return {"ratings": [{"memory": n, "rating": r} for n, r in enumerate(ratings, start=1)]}

    def reflection_questions(self, p: Prompt) -> dict[str, Any]:
        n = p.number(r"what are (\d+) most salient", 3)
        return {"questions": self._mind.think(rq.ReflectionQuestions(p.numbered("statements"), n))}

    def insights(self, p: Prompt) -> dict[str, Any]:
        n = p.number(r"What (\d+) high-level insights", 5)
        found = self._mind.think(rq.Insights(p.block("question"), p.numbered("statements"), n))
        return {"insights": [{"text": i.text, "because": list(i.cited_indices)} for i in found]}

    def plan_day(self, p: Prompt) -> dict[str, Any]:
        """The offline outline at its own clock times (the parser still reads an answer with
        times), so the LLM path lives exactly the offline day."""
        persona, summary = p.character()
        items = self._mind.think(
            rq.PlanDay(
                persona=persona,
                summary=summary,
                previous_day=p.block("yesterday"),
                directives=p.bulleted("requirements"),
                now=self._today(p),
                notes=p.numbered("recalled"),
                known_places=p.bulleted("places"),
            )
        )
        return {
            "items": [
                {
                    "start": f"{i.start:%H:%M}",
                    "duration_min": i.duration_min,
                    "description": i.description,
                    "location": i.location,
                }
                for i in items
            ]
        }

    def decompose(self, p: Prompt) -> dict[str, Any]:
        persona, summary = p.character()
        found = re.search(r"From (.+?) to .+? \((\d+) minutes\)", p.text)
        assert found is not None, p.text
        start = datetime.combine(
            self._today(p).date(), datetime.strptime(found.group(1), "%I:%M %p").time()
        )
        item = PlanItem(start, int(found.group(2)), p.block("plan"), p.block("place") or None)
        level = Granularity.TASK if "each 5 to 15 minutes long" in p.text else Granularity.HOUR
        steps = self._mind.think(
            rq.Decompose(item=item, granularity=level, persona=persona, summary=summary)
        )
        return {
            "steps": [{"description": s.description, "duration_min": s.duration_min} for s in steps]
        }

    def choose_location(self, p: Prompt) -> dict[str, Any]:
        found = WHEN.search(p.text)
        assert found is not None, p.text
        at = self._clock(found[1] or found[2])
        until = self._clock(found[3]) if found[3] else None
        if until is not None and until <= at:
            until += timedelta(days=1)
        within = p.block("within")
        request = rq.ChooseLocation(
            action=p.block("action"),
            options=[_option(line) for line in p.bulleted("options")],
            at=at,
            until=until,
            within="" if within == WHOLE_MAP else within,
            current=p.block("current"),
            home=p.block("home"),
            name=found[4],
        )
        return {"location": self._mind.think(request)}

    def object_state(self, p: Prompt) -> dict[str, Any]:
        return {"state": self._mind.think(rq.ObjectState(p.block("action"), p.block("object")))}

    def emoji(self, p: Prompt) -> dict[str, Any]:
        return {"emoji": self._mind.think(rq.Emoji(p.block("action")))}

    def react(self, p: Prompt) -> dict[str, Any]:
        persona, summary = p.character()
        reaction = self._mind.think(
            rq.React(
                persona=persona,
                summary=summary,
                status=p.block("status"),
                observation=p.block("observation"),
                context=p.block("context"),
                now=self._today(p),
            )
        )
        return asdict(reaction)

    def relationship(self, p: Prompt) -> dict[str, Any]:
        name = p.text.split(" remembers these statements")[0].splitlines()[-1]
        update = self._mind.think(
            rq.SummarizeRelationship(
                name=name, other=p.block("person"), statements=p.numbered("statements")
            )
        )
        return asdict(update)

    def next_utterance(self, p: Prompt) -> dict[str, Any]:
        persona, summary = p.character()
        history = [tuple(line.split(": ", 1)) for line in p.block("dialogue").splitlines()]
        situation = p.bulleted("situation")
        place = next((line[3:] for line in situation if line.startswith("at ")), "")
        listener = p.block("listener")
        status = next(
            (line.split(" is ", 1)[1] for line in situation if line.startswith(f"{listener} is ")),
            "",
        )
        doing = next((line.split(" was ", 1)[1] for line in situation if " was " in line), "")
        said = self._mind.think(
            rq.NextUtterance(
                speaker=persona,
                listener=p.block("listener"),
                summary=summary,
                relationship=p.block("relationship"),
                intent=p.block("intent"),
                memories=p.numbered("memories"),
                now=self._today(p),
                history=[(h[0], h[1]) for h in history if len(h) == 2],
                place=place,
                listener_status=status,
                speaker_status=doing,
            )
        )
        return {"text": said.text, "ends": said.ends}

    def summarize_agent(self, p: Prompt) -> dict[str, Any]:
        persona, _ = p.character()
        retrieved: dict[str, list[str]] = {}
        for part in re.split(r"^About ", p.block("statements"), flags=re.M)[1:]:
            key, _, rest = part.partition(":\n")
            retrieved[key] = [text for _, text in NUMBERED.findall(rest)]
        return {
            "summary": self._mind.think(rq.SummarizeAgent(persona=persona, retrieved=retrieved))
        }

    def answer(self, p: Prompt) -> dict[str, Any]:
        persona, summary = p.character()
        said = self._mind.think(
            rq.AnswerQuestion(
                question=p.block("question"),
                persona=persona,
                summary=summary,
                asker=p.block("asker"),
                memories=p.numbered("memories"),
            )
        )
        return {"answer": said.text, "cited": list(said.cited)}

    def conversation_notes(self, p: Prompt) -> dict[str, Any]:
        found = re.search(r"\. (.+?) has just finished this conversation with (.+?):\n", p.text)
        assert found is not None, p.text
        lines = [tuple(line.split(": ", 1)) for line in p.block("dialogue").splitlines()]
        notes = self._mind.think(
            rq.ConversationNotes(
                name=found.group(1),
                other=found.group(2),
                lines=[(line[0], line[1]) for line in lines if len(line) == 2],
                now=self._today(p),
            )
        )
        return asdict(notes)

    def revise_currently(self, p: Prompt) -> dict[str, Any]:
        persona, _ = p.character()
        asked = rq.ReviseCurrently(
            persona=replace(persona, currently=p.block("currently")),
            plan_notes=p.numbered("plans"),
            events=p.numbered("events"),
            now=self._today(p),
        )
        return {"currently": self._mind.think(asked)}

    def judge_answer(self, p: Prompt) -> dict[str, Any]:
        """The prompt does not list the offline rule's cues: the subject's own words stand in."""
        subject = p.block("subject")
        asked = rq.JudgeAnswer(
            question=p.block("question"),
            answer=p.block("answer"),
            subject=subject,
            cues=[word for word in re.findall(r"[A-Za-z]+", subject) if len(word) > 3],
        )
        return {"knows": self._mind.think(asked)}

    def rank_answers(self, p: Prompt) -> dict[str, Any]:
        name, _, summary = p.block("character").partition("\n")
        asked = rq.RankAnswers(
            name=name,
            summary=summary,
            question=p.block("question"),
            answers=p.numbered("answers"),
            memories=p.numbered("memories"),
        )
        return {"ranking": self._mind.think(asked)}

    def _clock(self, text: str) -> datetime:
        """A prompt's "7:30 am" as a time on a day of the bench's year (only the time counts)."""
        moment = datetime.strptime(text, "%I:%M %p").time()
        return datetime.combine(date(self.year, 1, 1), moment)

    def _today(self, p: Prompt) -> datetime:
        """The prompt's "Today is Monday February 13" (or "It is February 13, 2023, …")."""
        found = re.search(r"Today is (\w+ \w+ \d+)", p.text)
        if found:
            day = datetime.strptime(f"{found.group(1)} {self.year}", "%A %B %d %Y")
            return datetime.combine(day.date(), datetime.min.time())
        found = re.search(r"It is (\w+ \d+, \d+, \d+:\d+ [ap]m)", p.text)
        if found:
            return datetime.strptime(found.group(1), "%B %d, %Y, %I:%M %p")
        return datetime.combine(date(self.year, 1, 1), datetime.min.time())
