"""How many tokens each Mind operation's prompt holds as Hearth renders it, against its budget.

    python -m bench.prompt_sizes [--gguf PATH] [--agents 2] [--memories 150]

Three sets of requests, each rendered as the LLM mind sends it (`cognition.asks.ask_for`),
the offline mind answering so the town goes on without a model: `town`, the town of
`bench.realmodel` (the run a real model served) lived through again; `+N memories`, the same
with every resident remembering `--memories` more things (its records, evidence and summary
lists run long); `at defaults`, one request per operation with every list as long as Hearth
makes it at its defaults (the retrievals' k, a hundred recent records, eight lines of talk, a
rating batch of a hundred, split into batches that fit). Per operation it prints the prompts'
median and largest size in tokens as the budget counts them (`estimate_tokens`, characters /
4), the budget (`cognition.prompt_budget.PROMPT_BUDGETS`) and the largest before the cut; and,
when the served model's GGUF is on disk (`hearth model fetch`), the whole request (system
prompt and chat template included) counted by the model's own tokenizer (`bench.gguf_tokens`),
beside the mean the model server reported for the stored run (`bench/data/realmodel/`).
Figures, not verdicts.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from bench import gguf_tokens
from bench.realmodel import MORNING, Life, Meter, known_places, live_town, persona
from bench.town import PUBLIC, RESIDENTS, seed_memories
from cognition import prompt_budget, prompting
from cognition import requests as rq
from cognition.asks import ask_for
from cognition.dialogue import (
    DEFAULT_MAX_TURNS,
    DEFAULT_NEWS_K,
    DEFAULT_RELATIONSHIP_K,
    DEFAULT_TURN_K,
)
from cognition.interview import DEFAULT_INTERVIEW_K
from cognition.offline import OfflineMind
from cognition.planning import DEFAULT_DETAIL_K, DEFAULT_NOTES_K
from cognition.prompt_budget import PROMPT_BUDGETS
from cognition.reacting import DEFAULT_CONTEXT_K, DEFAULT_EXCHANGED_K
from cognition.reflection import DEFAULT_EVIDENCE_K, DEFAULT_RECENT_RECORDS
from cognition.requests import PlanDay
from cognition.summary import DEFAULT_SUMMARY_K
from cognition.tokens import estimate_tokens
from cognition.types import Granularity
from db.flows.enrichment import DEFAULT_RATE_BATCH
from db.flows.plans import MAX_DIRECTIVES
from db.settings import Settings

T = TypeVar("T")
MODEL_FILE = "qwen2.5-coder-1.5b-instruct.gguf"
STORED_RUN = Path(__file__).parent / "data" / "realmodel" / "qwen2.5-coder-1.5b-instruct.json"
DEFAULT_MEMORIES = 150
ACTIVITIES = (
    "brewing coffee",
    "talking about the mayoral election",
    "carrying a box of apples",
    "reading the notice board",
    "sweeping the steps",
    "asking about the Valentine's Day party",
    "writing in a notebook",
    "fixing a bicycle chain",
)


@dataclass
class Sizes:
    """One operation's prompts: as sent (budget tokens), before the cut, and model tokens."""

    sent: list[int] = field(default_factory=list)
    uncut: list[int] = field(default_factory=list)
    model: list[int] = field(default_factory=list)


class PromptMeter(Meter):
    """Renders each request as the LLM mind would send it, then lets the offline mind answer
    (the town goes on as in `bench.realmodel`, with no model)."""

    def __init__(self, count: Callable[[str], int] | None) -> None:
        self.count = count
        self.offline = OfflineMind()
        self.sizes: dict[str, Sizes] = defaultdict(Sizes)
        self.system = prompting.render("system")

    def ask(self, request: rq.Request[T]) -> tuple[T, bool]:
        sizes = self.sizes[request.operation]
        prompt = ask_for(request).prompt
        sizes.sent.append(estimate_tokens(prompt))
        sizes.uncut.append(estimate_tokens(ask_for(request, budgets={}).prompt))
        if self.count is not None:
            whole = self.count(self.system) + self.count(prompt) + gguf_tokens.CHAT_OVERHEAD
            sizes.model.append(whole)
        return self.offline.think(request), True


def remembered(name: str, n: int) -> list[str]:
    """`n` everyday observations a resident of the town could hold (newest last)."""
    others = [r.name for r in RESIDENTS if r.name != name]
    places = [str(p["name"]) for p in PUBLIC]
    return [
        f"{others[i % len(others)]} is {ACTIVITIES[i % len(ACTIVITIES)]} at "
        f"{places[(i // len(ACTIVITIES)) % len(places)]}"
        for i in range(n)
    ]


def measure(agents: int, extra: int, count: Callable[[str], int] | None) -> dict[str, Sizes]:
    """The town's requests, with `extra` more memories per resident."""
    meter = PromptMeter(count)
    residents = RESIDENTS[: max(2, agents)]
    lives = [
        Life(r, persona(r), [*remembered(r.name, extra), *seed_memories(r, residents)])
        for r in residents
    ]
    with contextlib.redirect_stdout(io.StringIO()):  # the town's progress lines
        live_town(meter, lives, {})
    return meter.sizes


def at_defaults(meter: PromptMeter, life: Life, other: Life, count: int) -> None:
    """One request per operation with every list as long as Hearth makes it at its defaults
    (the retrievals' k, a hundred recent records, eight lines of talk), drawn from `count`
    memories of the resident, newest first."""
    memories = remembered(life.persona.name, count)[::-1]
    name, them = life.persona.name, other.persona.name
    lines = [(name if n % 2 == 0 else them, memories[n]) for n in range(DEFAULT_MAX_TURNS)]
    day = PlanDay(
        persona=life.persona,
        summary=life.summary,
        previous_day=" ".join(memories[:3]),
        directives=memories[:MAX_DIRECTIVES],
        now=MORNING,
        notes=memories[: 3 * DEFAULT_NOTES_K],
        known_places=known_places(life.resident),
    )
    plan, _ = meter.ask(day)
    item = next((i for i in plan if i.duration_min >= 60), plan[0])
    asked: list[rq.Request[Any]] = [
        *(
            rq.RateImportance(batch, personas=[life.persona])
            for batch in prompt_budget.batches(
                memories[:DEFAULT_RATE_BATCH],
                lambda b: ask_for(rq.RateImportance(b, personas=[life.persona])).prompt,
                budget=PROMPT_BUDGETS["rate_importance"],
                most=DEFAULT_RATE_BATCH,
            )
        ),
        rq.ReflectionQuestions(memories[:DEFAULT_RECENT_RECORDS], name=name),
        rq.Insights("What is Isabella planning?", memories[:DEFAULT_EVIDENCE_K], name=name),
        rq.Decompose(
            item=item,
            granularity=Granularity.HOUR,
            persona=life.persona,
            summary=life.summary,
            schedule=plan,
            memories=memories[:DEFAULT_DETAIL_K],
        ),
        rq.React(
            persona=life.persona,
            summary=life.summary,
            status=item.description,
            observation=f"{them} is reading a book",
            context="\n".join(memories[: 2 * DEFAULT_CONTEXT_K + 2 * DEFAULT_EXCHANGED_K]),
            now=MORNING,
        ),
        rq.SummarizeRelationship(name, them, memories[:DEFAULT_RELATIONSHIP_K]),
        rq.NextUtterance(
            speaker=life.persona,
            listener=them,
            summary=life.summary,
            relationship=memories[0],
            intent=item.description,
            memories=memories[: DEFAULT_TURN_K + DEFAULT_NEWS_K + DEFAULT_EXCHANGED_K],
            history=lines[:-1],
            now=MORNING,
            place=item.location or "",
        ),
        rq.SummarizeAgent(
            life.persona,
            {
                section: memories[n * DEFAULT_SUMMARY_K : (n + 1) * DEFAULT_SUMMARY_K]
                for n, section in enumerate(("core", "daily", "progress"))
            },
        ),
        rq.AnswerQuestion(
            "Who is coming to the party?",
            life.persona,
            life.summary,
            "an interviewer",
            memories[:DEFAULT_INTERVIEW_K],
            MORNING,
        ),
        rq.ConversationNotes(name, them, lines, MORNING),
        rq.ReviseCurrently(
            life.persona,
            memories[:DEFAULT_NOTES_K],
            memories[DEFAULT_NOTES_K:][:DEFAULT_NOTES_K],
            MORNING,
        ),
    ]
    for request in asked:
        meter.ask(request)


def defaults(agents: int, count: int, counter: Callable[[str], int] | None) -> dict[str, Sizes]:
    """Every resident's requests at Hearth's defaults (`at_defaults`)."""
    meter = PromptMeter(counter)
    residents = RESIDENTS[: max(2, agents)]
    lives = [Life(r, persona(r), seed_memories(r, residents)) for r in residents]
    for n, life in enumerate(lives):
        at_defaults(meter, life, lives[n - 1], count)
    return meter.sizes


def served() -> dict[str, float]:
    """Mean prompt tokens per call the model server reported in the stored run (calls
    answered at once; a re-ask's second prompt would count twice)."""
    if not STORED_RUN.exists():
        return {}
    outcomes = json.loads(STORED_RUN.read_text())["outcomes"]
    by_op: dict[str, list[int]] = defaultdict(list)
    for o in outcomes:
        if o["result"] in ("first_try", "repaired"):  # one call each, no re-ask
            by_op[o["operation"]].append(int(o["prompt_tokens"]))
    return {op: statistics.mean(values) for op, values in by_op.items()}


def table(runs: Sequence[tuple[str, dict[str, Sizes]]], server: dict[str, float]) -> str:
    """One Markdown row per operation and run."""
    lines = [
        "| operation | agent | prompts | median | max | budget | max uncut "
        "| model tok median | model tok max | server reported |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for op in sorted(PROMPT_BUDGETS):
        for label, sizes in runs:
            s = sizes.get(op)
            if s is None or not s.sent:
                continue
            model = f"{statistics.median(s.model):.0f} | {max(s.model)}" if s.model else "– | –"
            reported = f"{server[op]:.0f}" if op in server and label == runs[0][0] else "–"
            lines.append(
                f"| {op} | {label} | {len(s.sent)} | {statistics.median(s.sent):.0f} "
                f"| {max(s.sent)} | {PROMPT_BUDGETS[op]} | {max(s.uncut)} | {model} "
                f"| {reported} |"
            )
    return "\n".join(lines)


def counter(path: Path) -> Callable[[str], int] | None:
    if not path.exists():
        print(f"{path} not found (`hearth model fetch`): model tokens not counted\n")
        return None
    return gguf_tokens.load(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--gguf", type=Path, default=None, help=f"default: HOME/models/{MODEL_FILE}"
    )
    parser.add_argument("--agents", type=int, default=2)
    parser.add_argument("--memories", type=int, default=DEFAULT_MEMORIES)
    args = parser.parse_args(argv)
    count = counter(args.gguf or Settings().home / "models" / MODEL_FILE)
    runs = [
        ("town", measure(args.agents, 0, count)),
        (f"+{args.memories} memories", measure(args.agents, args.memories, count)),
        ("at defaults", defaults(args.agents, args.memories, count)),
    ]
    print(table(runs, served()))
    over = [op for _, sizes in runs for op, s in sizes.items() if max(s.sent) > PROMPT_BUDGETS[op]]
    print(f"\nover budget after the cut: {', '.join(sorted(set(over))) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
