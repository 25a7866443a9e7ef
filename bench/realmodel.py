"""Every Mind operation against a real model: what it answers, how often at once, how fast.

    hearth model serve --threads 1 &
    python -m bench.realmodel --base-url http://127.0.0.1:8088/v1 --minutes 80

A small town (the first `--agents` residents of `bench.town`, a morning of a couple of game
hours) lived through the Mind's operations in the order Hearth asks them: each resident's
summary, day plan, its decomposition into hours and tasks, where to go, the object and emoji
of the task, the importance of what it saw; pairs notice each other, react, talk turn by turn,
take notes and sum up their relationship; then each reflects (questions, insights), revises
what it is doing, is interviewed, and the answer is judged and ranked. Each answer feeds the
next request, as in the game. Cognition is called in process (no database, no queue), so the
figures are the model's and the mind's, not the service's.

Per operation it prints: calls, valid on the first try, repaired (a near-miss the parser
mended), re-asked (valid on the second try), fell back to the offline mind, timeouts, latency
p50/p95 of the whole call (re-ask included) and mean prompt/completion tokens. It stores (in
`--out`) the model's own plan, conversation and reflection, marked when the offline mind had
to answer instead.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from bench.town import PUBLIC, RESIDENTS, Resident, seed_memories
from cognition import requests as rq
from cognition.adapters.llm import LLMMind
from cognition.adapters.llm_config import LLMConfig, OutputMode
from cognition.mind import ListAudit
from cognition.offline import OfflineMind
from cognition.places import PlaceOption
from cognition.prompting import clock
from cognition.types import Granularity, Persona, PlanItem

T = TypeVar("T")
DAY = datetime(2023, 2, 13, 6, 0)
MORNING = DAY.replace(hour=8)
MS_PER_S = 1000.0
TURNS = 3
DEFAULT_TIMEOUT_S = 900.0
DEFAULT_OUT = Path("test-artifacts/realmodel")


@dataclass
class Outcome:
    """One logical call (an ask and, maybe, its re-ask) as the bench saw it."""

    operation: str
    result: str
    """first_try, repaired, reasked or fallback."""
    seconds: float
    prompt_tokens: int
    completion_tokens: int
    timeouts: int
    errors: list[str] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)
    """What the model wrote, each try (the re-ask's too)."""


class Deadline(Exception):
    """The run's wall-clock budget is spent: report what was measured."""


class Meter:
    """Runs requests through the model one at a time and classifies each outcome."""

    def __init__(self, config: LLMConfig, *, verbose: bool, deadline: float) -> None:
        self.deadline = deadline
        self.repairs: list[str] = []
        self.mind = LLMMind(
            config,
            fallback=OfflineMind(),
            on_repair=lambda op, what: self.repairs.extend(what),
        )
        self.outcomes: list[Outcome] = []
        self.verbose = verbose

    def ask(self, request: rq.Request[T]) -> tuple[T, bool]:
        """The answer, and whether the model (not the offline mind) gave it."""
        if time.monotonic() > self.deadline:
            raise Deadline
        audit = ListAudit()
        self.repairs = []
        started = time.perf_counter()
        result = self.mind.with_audit(audit).think(request)
        seconds = time.perf_counter() - started
        sent = [call for call in audit.calls if not call.degraded]
        fell_back = any(call.degraded for call in audit.calls)
        answered = [call for call in sent if call.error is None]
        kind = (
            "fallback"
            if fell_back
            else "reasked"
            if len(answered) > 1
            else "repaired"
            if self.repairs
            else "first_try"
        )
        errors = [call.error for call in audit.calls if call.error]
        outcome = Outcome(
            operation=request.operation,
            result=kind,
            seconds=seconds,
            prompt_tokens=sum(call.tokens_in for call in sent),
            completion_tokens=sum(call.tokens_out for call in sent),
            timeouts=sum(1 for e in errors if "timed out" in e.lower() or "timeout" in e.lower()),
            errors=errors + self.repairs,
            answers=[call.response or "" for call in sent],
        )
        self.outcomes.append(outcome)
        if self.verbose:
            note = f" ({'; '.join(outcome.errors)[:200]})" if outcome.errors else ""
            print(f"  {request.operation:22} {kind:9} {seconds:6.1f} s{note}", flush=True)
        return result, kind != "fallback"


def persona(resident: Resident) -> Persona:
    return Persona(
        name=resident.name,
        age=resident.age,
        innate=resident.innate,
        currently=resident.currently,
        lifestyle=resident.lifestyle,
        living_area=f"{resident.home}: bedroom",
        daily_plan_requirement=resident.daily_plan_requirement,
    )


def known_places(resident: Resident) -> list[str]:
    """Home and the public areas with their first rooms, as paths."""
    paths = [f"{resident.home}: bedroom", f"{resident.home}: kitchen"]
    for place in PUBLIC:
        rooms = [child["name"] for child in place.get("children", [])]
        paths += [f"{place['name']}: {room}" for room in rooms] or [place["name"]]
    return paths


def area_options(resident: Resident) -> list[PlaceOption]:
    options = [PlaceOption(name=resident.home, contains=("bedroom", "kitchen"))]
    for place in PUBLIC:
        rooms = tuple(child["name"] for child in place.get("children", []))
        options.append(PlaceOption(name=place["name"], contains=rooms))
    return options


@dataclass
class Life:
    """What one resident has become so far in the run."""

    resident: Resident
    persona: Persona
    memories: list[str]
    summary: str = ""
    plan: list[PlanItem] = field(default_factory=list)
    doing: str = "having a coffee"
    task: PlanItem | None = None
    """Until its own morning is lived, a resident is met as its persona describes it."""

    def __post_init__(self) -> None:
        self.summary = self.summary or f"{self.persona.name} {self.persona.currently}"


def live_morning(meter: Meter, lives: Sequence[Life], samples: dict[str, Any]) -> None:
    """Summary, plan, its decomposition into hours and tasks, and the importance of what the
    resident then sees: each resident's morning."""
    for life in lives:
        print(f"{life.persona.name}: morning", flush=True)
        life.summary, _ = meter.ask(
            rq.SummarizeAgent(persona=life.persona, retrieved={"core": life.memories})
        )
        plan, own = meter.ask(
            rq.PlanDay(
                persona=life.persona,
                summary=life.summary,
                previous_day="",
                directives=[life.resident.daily_plan_requirement],
                now=DAY,
                known_places=known_places(life.resident),
            )
        )
        life.plan = plan
        if own and "plan" not in samples:
            samples["plan"] = {"agent": life.persona.name, "items": [_item(i) for i in plan]}
        item = _awake_item(plan)
        hours, _ = meter.ask(
            rq.Decompose(
                item=item,
                granularity=Granularity.HOUR,
                persona=life.persona,
                summary=life.summary,
                schedule=plan,
            )
        )
        tasks, own = meter.ask(
            rq.Decompose(
                item=hours[0],
                granularity=Granularity.TASK,
                persona=life.persona,
                summary=life.summary,
                schedule=hours,
            )
        )
        if own:
            samples.setdefault("tasks", {"of": _item(hours[0]), "tasks": [_item(t) for t in tasks]})
        life.task = tasks[0]
        life.doing = life.task.description
        seen = [
            f"{life.persona.name} is {life.doing}",
            "the coffee machine is brewing",
            f"{life.persona.name} heard that a storm may hit the town tonight",
        ]
        meter.ask(rq.RateImportance(memories=seen, personas=[life.persona]))
        life.memories += seen


def place_and_props(meter: Meter, life: Life) -> None:
    """Where the task happens, the state of an object it uses, its emoji."""
    task = life.task or PlanItem(MORNING, 15, life.doing)
    meter.ask(
        rq.ChooseLocation(
            action=task.description,
            options=area_options(life.resident),
            at=task.start,
            until=task.end,
            home=f"{life.resident.home}: bedroom",
            name=life.persona.name,
        )
    )
    meter.ask(rq.ObjectState(action=task.description, obj="coffee machine"))
    meter.ask(rq.Emoji(action=task.description))


def meet(meter: Meter, a: Life, b: Life, samples: dict[str, Any]) -> None:
    """a notices b, reacts, and they talk turn by turn; a takes notes and sums b up."""
    print(f"{a.persona.name} meets {b.persona.name}", flush=True)
    reaction, _ = meter.ask(
        rq.React(
            persona=a.persona,
            summary=a.summary,
            status=a.doing,
            observation=f"{b.persona.name} is {b.doing} nearby",
            context=f"{a.persona.name} knows {b.persona.name}. {b.summary}.",
            now=MORNING,
        )
    )
    history: list[tuple[str, str]] = []
    speakers = [(a, b), (b, a)]
    samples.setdefault("conversation", {"between": [a.persona.name, b.persona.name], "lines": []})
    for turn in range(TURNS):
        speaker, listener = speakers[turn % 2]
        said, own = meter.ask(
            rq.NextUtterance(
                speaker=speaker.persona,
                listener=listener.persona.name,
                summary=speaker.summary,
                relationship=f"{speaker.persona.name} knows {listener.persona.name}",
                intent=reaction.what if turn == 0 and reaction.react else "",
                memories=speaker.memories[-4:],
                history=history,
                now=MORNING + timedelta(minutes=turn),
                place="Hobbs Cafe",
                listener_status=listener.doing,
                speaker_status=speaker.doing,
            )
        )
        history.append((speaker.persona.name, said.text))
        if samples["conversation"]["between"] == [a.persona.name, b.persona.name]:
            mark = "" if own else " [offline mind]"
            samples["conversation"]["lines"].append(f"{speaker.persona.name}: {said.text}{mark}")
        if said.ends and turn > 0:
            break
    notes, _ = meter.ask(
        rq.ConversationNotes(name=a.persona.name, other=b.persona.name, lines=history, now=MORNING)
    )
    a.memories += [text for text in (notes.planning, notes.memo) if text]
    meter.ask(
        rq.SummarizeRelationship(
            name=a.persona.name, other=b.persona.name, statements=[t for _, t in history]
        )
    )


def reflect(meter: Meter, life: Life, samples: dict[str, Any]) -> None:
    """The paper's reflection: questions from recent memories, then insights citing them."""
    print(f"{life.persona.name}: reflects", flush=True)
    questions, own_q = meter.ask(
        rq.ReflectionQuestions(records=life.memories, n=2, name=life.persona.name)
    )
    insights, own_i = meter.ask(
        rq.Insights(question=questions[0], statements=life.memories, n=3, name=life.persona.name)
    )
    if own_q and own_i and "reflection" not in samples:
        samples["reflection"] = {
            "agent": life.persona.name,
            "questions": questions,
            "insights": [
                {"text": i.text, "because": [life.memories[n - 1] for n in i.cited_indices]}
                for i in insights
            ],
        }


def interview(meter: Meter, life: Life) -> None:
    """The revised `currently`, an interview, and the judge's verdict and ranking."""
    print(f"{life.persona.name}: interviewed", flush=True)
    meter.ask(
        rq.ReviseCurrently(
            persona=life.persona,
            plan_notes=[i.description for i in life.plan[:3]],
            events=life.memories[-3:],
            now=DAY + timedelta(days=1),
        )
    )
    question = "What are you doing today, and did you hear any news?"
    answer, _ = meter.ask(
        rq.AnswerQuestion(
            question=question,
            persona=life.persona,
            summary=life.summary,
            asker="an interviewer",
            memories=life.memories[-5:],
            now=MORNING,
        )
    )
    meter.ask(rq.JudgeAnswer(question=question, answer=answer.text, subject="the storm tonight"))
    meter.ask(
        rq.RankAnswers(
            name=life.persona.name,
            summary=life.summary,
            question=question,
            answers=[answer.text, "I don't know.", f"I am {life.doing}."],
        )
    )


def live_town(meter: Meter, lives: Sequence[Life], samples: dict[str, Any]) -> None:
    """Each operation early, then again: the first resident's whole day (meeting the second
    as its persona describes it), then the next's, each meeting the one before. Within a day
    the operations the paper's loop depends on come first; those the economy profile answers
    offline anyway (place, object, emoji) come last, so a run cut short still has the rest."""
    for position, life in enumerate(lives):
        live_morning(meter, [life], samples)
        reflect(meter, life, samples)
        interview(meter, life)
        other = lives[position + 1] if position == 0 else lives[position - 1]
        meet(meter, life, other, samples)
        place_and_props(meter, life)


def _awake_item(plan: Sequence[PlanItem]) -> PlanItem:
    """The first item of the day that is not sleep, at least an hour long (a plan's work)."""
    for item in plan:
        if item.duration_min >= 60 and "sleep" not in item.description.lower():
            return item
    return plan[0]


def _item(item: PlanItem) -> str:
    where = f" @ {item.location}" if item.location else ""
    return f"{clock(item.start)} ({item.duration_min} min) {item.description}{where}"


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def table(outcomes: Sequence[Outcome]) -> str:
    """The per-operation table, as Markdown."""
    by_op: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        by_op[outcome.operation].append(outcome)
    lines = [
        "| operation | calls | first try | repaired | re-asked | fell back | timeouts "
        "| p50 s | p95 s | prompt tok | completion tok |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for op, rows in [*sorted(by_op.items()), ("all", list(outcomes))]:
        count = {k: sum(1 for r in rows if r.result == k) for k in _KINDS}
        seconds = [r.seconds for r in rows]
        lines.append(
            f"| {op} | {len(rows)} | {count['first_try']} | {count['repaired']} "
            f"| {count['reasked']} | {count['fallback']} | {sum(r.timeouts for r in rows)} "
            f"| {statistics.median(seconds):.1f} | {percentile(seconds, 0.95):.1f} "
            f"| {statistics.mean(r.prompt_tokens for r in rows):.0f} "
            f"| {statistics.mean(r.completion_tokens for r in rows):.0f} |"
        )
    return "\n".join(lines)


_KINDS = ("first_try", "repaired", "reasked", "fallback")


def parse_modes(text: str) -> dict[str, OutputMode]:
    """ "plan_day=json_object,next_utterance=json_object" → a mode per operation."""
    modes: dict[str, OutputMode] = {}
    for pair in filter(None, (p.strip() for p in text.split(","))):
        op, _, mode = pair.partition("=")
        if mode not in ("auto", "json_schema", "json_object", "text"):
            raise SystemExit(f"--output-modes: {mode!r} is not an output mode")
        modes[op.strip()] = mode  # type: ignore[assignment]
    return modes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base-url", default="http://127.0.0.1:8088/v1")
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct")
    parser.add_argument("--api-key", default="local")
    parser.add_argument("--agents", type=int, default=2, help="residents (2 meet; 3 meet twice)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S)
    parser.add_argument("--output-mode", default="auto")
    parser.add_argument("--output-modes", default="", help="op=mode,… per operation")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument(
        "--minutes", type=float, default=0, help="stop asking after this long (0: no limit)"
    )
    args = parser.parse_args(argv)
    config = LLMConfig(
        base_url=args.base_url,
        api_key=args.api_key,
        model=args.model,
        timeout_s=args.timeout,
        max_retries=1,
        max_concurrency=1,
        output_mode=args.output_mode,
        output_modes=parse_modes(args.output_modes),
    )
    limit = args.minutes * 60 if args.minutes > 0 else float("inf")
    meter = Meter(config, verbose=not args.quiet, deadline=time.monotonic() + limit)
    residents = RESIDENTS[: max(2, args.agents)]
    lives = [Life(r, persona(r), seed_memories(r, residents)) for r in residents]
    samples: dict[str, Any] = {}
    started = time.perf_counter()
    stopped = ""
    try:
        live_town(meter, lives, samples)
    except Deadline:
        stopped = f" (stopped after {args.minutes:g} min)"
    wall = time.perf_counter() - started
    report = table(meter.outcomes)
    print(
        f"\n{args.model} at {args.base_url}: {len(meter.outcomes)} calls in "
        f"{wall / 60:.1f} min{stopped}\n"
    )
    print(report)
    args.out.mkdir(parents=True, exist_ok=True)
    stored = {
        "model": args.model,
        "wall_s": round(wall, 1),
        "table": report,
        "samples": samples,
        "outcomes": [asdict(o) for o in meter.outcomes],
    }
    path = args.out / f"{args.model}.json"
    path.write_text(json.dumps(stored, indent=2, ensure_ascii=False))
    print(f"\nstored the model's plan, conversation and reflection in {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
