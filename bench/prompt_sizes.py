"""How many tokens each Mind operation's prompt holds as Hearth renders it, against its budget.

    python -m bench.prompt_sizes [--gguf PATH] [--agents 3] [--memories 150]

The town of `bench.realmodel` (the run whose calls a real model served) is lived through
again, each answer given by the offline mind, and every request rendered as the LLM mind
sends it (`cognition.asks.ask_for`): once as that run had it, once with every resident
remembering `--memories` more things (a long-memoried agent: its records, evidence and
summary lists run long). Per operation it prints the prompts' median and largest size in
tokens as the budget counts them (`cognition.tokens.estimate_tokens`, characters / 4), the
budget (`cognition.prompt_budget.PROMPT_BUDGETS`), the largest before the budget cut it, and,
when the served model's GGUF is on disk (`hearth model fetch`), the whole request (system
prompt and chat template included) counted with the model's own tokenizer
(`bench.gguf_tokens`) beside the mean the model server reported in the stored run
(`bench/data/realmodel/`). Figures, not verdicts.
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
from typing import TypeVar

from bench import gguf_tokens
from bench.realmodel import Life, Meter, live_town, persona
from bench.town import PUBLIC, RESIDENTS, seed_memories
from cognition import prompting
from cognition import requests as rq
from cognition.asks import ask_for
from cognition.offline import OfflineMind
from cognition.prompt_budget import PROMPT_BUDGETS
from cognition.tokens import estimate_tokens
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
    ]
    print(table(runs, served()))
    over = [op for _, sizes in runs for op, s in sizes.items() if max(s.sent) > PROMPT_BUDGETS[op]]
    print(f"\nover budget after the cut: {', '.join(sorted(set(over))) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
