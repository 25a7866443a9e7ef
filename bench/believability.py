"""`python -m bench.believability [--hours H] [--agents N] [--interviewed K] [--json FILE]`:
the paper's controlled evaluation (§6) with a model in the evaluators' place.

It drives the demo town on the launched stack (as `bench.emergence` does), then asks each of
the first K agents the 25 questions of Appendix B under five conditions: the full
architecture, no reflection, no reflection and no planning, no memory (`POST …/interview`
with its `mode`), and an answer the model writes from the agent's memory dump (the newest
memories that fit, standing in for the paper's crowdworkers, who answered after reading the
memory stream). The configured model ranks the five answers to each question from most to
least believable, seeing the agent's summary and recent memories; the rankings give each
condition a TrueSkill rating, and the Kruskal–Wallis test asks whether the conditions'
ranks differ. It needs a model (`HEARTH_LLM_BASE_URL`, `HEARTH_LLM_MODEL`): the offline
heuristics would rank by rule, not by believability.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, fields
from datetime import datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from hearth_client.demo.drive import DemoConfig, drive, quiesce
from hearth_client.types import Agent

from bench.audit import TownUnderAudit, progress, town_on_stack
from bench.believability_questions import Asked, interview_for
from bench.believability_stats import kruskal_wallis, ranks_by_condition, trueskill_ratings
from bench.emergence import town_arguments, town_config
from bench.emergence_data import analyst, calls_by_model
from bench.emergence_interviews import PARALLEL_INTERVIEWS, model_calls
from cognition.mind import ListAudit, Mind
from cognition.offline import OFFLINE_MODEL
from cognition.requests import AnswerQuestion, RankAnswers
from cognition.types import Persona
from db.providers import build_mind
from db.settings import Settings

CONDITIONS = ("full", "no_reflection", "no_reflection_no_planning", "no_memory", "memory_dump")
MODES = CONDITIONS[:4]
"""The conditions the interview route answers; the memory dump is answered here."""
PAPER = {
    "full": (29.89, 0.72),
    "no_reflection": (26.88, 0.69),
    "no_reflection_no_planning": (25.64, 0.68),
    "memory_dump": (22.95, 0.69),
    "no_memory": (21.21, 0.70),
}
"""TrueSkill μ and σ in the paper (§6.5.1); its human crowdworkers sit on the memory dump's row."""
PAPER_H = 150.29
DUMP_CHARS = 24_000
"""How much of the memory stream the dump condition reads, newest first (~6k tokens)."""
JUDGE_MEMORIES = 60
"""The newest memories the judge sees beside the summary (the evaluators watched a replay)."""
INTERVIEWER = "an interviewer"

DUMP = sa.text(
    "SELECT description FROM memory_stream WHERE agent_id = :agent ORDER BY created_at, id"
)
HEARD_FROM = sa.text(
    "SELECT speaker FROM heard WHERE listener_id = :agent AND NOT speaker_is_player"
)


@dataclass(frozen=True)
class Ranked:
    agent: str
    asked: Asked
    answers: dict[str, str]
    order: tuple[str, ...]
    """The conditions, most believable first."""


def persona_of(agent: Agent) -> Persona:
    return Persona(**{f.name: agent[f.name] for f in fields(Persona)})  # type: ignore[literal-required]


def memory_of(town: TownUnderAudit, agent_id: str) -> tuple[list[str], list[str]]:
    """(the agent's memories, oldest first; the names of those it heard a line from)."""
    with analyst(town.database_url) as conn:
        stream = [row[0] for row in conn.execute(DUMP, {"agent": agent_id})]
        heard = [row[0] for row in conn.execute(HEARD_FROM, {"agent": agent_id})]
    return stream, heard


def newest_fitting(stream: Sequence[str], chars: int) -> list[str]:
    """The newest memories whose text fits in `chars`, oldest of them first."""
    kept: list[str] = []
    for memory in reversed(stream):
        chars -= len(memory) + 1
        if chars < 0:
            break
        kept.append(memory)
    return kept[::-1]


def rank_one(
    town: TownUnderAudit,
    mind: Mind,
    *,
    agent: Agent,
    asked: Asked,
    stream: Sequence[str],
    now: datetime,
) -> Ranked:
    """The five conditions' answers to one question, and the judge's ranking of them."""
    world = town.run.world_id
    answers = {
        mode: town.client.interview(world, agent["id"], asked.text, mode=mode)["answer"]  # type: ignore[arg-type]
        for mode in MODES
    }
    dump = mind.think(
        AnswerQuestion(
            question=asked.text,
            persona=persona_of(agent),
            summary=agent["summary"] or "",
            asker=INTERVIEWER,
            memories=newest_fitting(stream, DUMP_CHARS),
            now=now,
        )
    )
    answers["memory_dump"] = dump.text
    shown = list(CONDITIONS)
    random.Random(f"{agent['name']}|{asked.text}").shuffle(shown)  # the judge sees no labels
    ranking = mind.think(
        RankAnswers(
            name=agent["name"],
            summary=agent["summary"] or "",
            question=asked.text,
            answers=[answers[c] for c in shown],
            memories=list(stream[-JUDGE_MEMORIES:]),
        )
    )
    return Ranked(agent["name"], asked, answers, tuple(shown[i - 1] for i in ranking))


def evaluate(
    config: DemoConfig, *, interviewed: int, quiet: bool = False, keep: Path | None = None
) -> dict[str, Any]:
    settings = Settings()
    if not settings.llm_configured:
        raise SystemExit(
            "bench.believability needs a model: set HEARTH_LLM_BASE_URL and HEARTH_LLM_MODEL"
        )
    audit = ListAudit()
    mind = build_mind(settings).with_audit(audit)
    started = time.monotonic()
    with town_on_stack(config, keep=keep) as town:
        drive(town.client, town.run, config, progress(quiet))
        quiesce(town.client, town.run)
        now = datetime.fromisoformat(town.run.snapshots[-1].now)
        agents = [town.client.get_agent(town.run.world_id, a["id"]) for a in town.run.agents]
        everyone = [a["name"] for a in agents]
        jobs = []
        for agent in agents[:interviewed]:
            stream, heard = memory_of(town, agent["id"])
            for asked in interview_for(agent["name"], talked_with=heard, others=everyone):
                jobs.append((agent, asked, stream))
        done: list[Ranked] = []

        def one(job: tuple[Agent, Asked, list[str]]) -> Ranked:
            agent, asked, stream = job
            ranked = rank_one(town, mind, agent=agent, asked=asked, stream=stream, now=now)
            done.append(ranked)
            if not quiet:
                print(f"\rinterviews: {len(done)}/{len(jobs)} questions", end="", file=sys.stderr)
            return ranked

        with ThreadPoolExecutor(PARALLEL_INTERVIEWS) as pool:
            rankings = list(pool.map(one, jobs))
        if not quiet:
            print(file=sys.stderr)
        with analyst(town.database_url) as conn:
            served = calls_by_model(conn, town.run.world_id)
    orders = [r.order for r in rankings]
    ratings = trueskill_ratings(orders, CONDITIONS)
    test = kruskal_wallis(ranks_by_condition(orders, CONDITIONS))
    by_category: dict[str, list[tuple[str, ...]]] = defaultdict(list)
    for r in rankings:
        by_category[r.asked.category].append(r.order)
    return {
        "config": {
            "agents": len(agents),
            "interviewed": min(interviewed, len(agents)),
            "hours": config.hours,
            "step_minutes": config.step_minutes,
        },
        "world_id": town.run.world_id,
        "rankings": len(rankings),
        "conditions": {c: vars(ratings[c]) for c in CONDITIONS},
        "by_category": {
            k: {c: vars(v) for c, v in trueskill_ratings(o, CONDITIONS).items()}
            for k, o in by_category.items()
        },
        "kruskal_wallis": vars(test),
        "paper": {
            "conditions": {c: {"mu": m, "sigma": s} for c, (m, s) in PAPER.items()},
            "kruskal_wallis": {"h": PAPER_H, "df": 4},
        },
        "examples": [
            {
                "agent": r.agent,
                "question": r.asked.text,
                "answers": r.answers,
                "order": list(r.order),
            }
            for r in rankings[: len(CONDITIONS)]
        ],
        "model_calls": model_calls(audit)
        + sum(n for model, n in served.items() if model != OFFLINE_MODEL),
        "wall_s": time.monotonic() - started,
    }


def table(figures: dict[str, Any]) -> str:
    lines = [
        f"{'condition':<28}{'paper μ (σ)':>14}{'this run μ (σ)':>18}{'mean rank':>11}",
        "-" * 71,
    ]
    for c in sorted(CONDITIONS, key=lambda c: -figures["conditions"][c]["mu"]):
        mine, (mu, sigma) = figures["conditions"][c], PAPER[c]
        paper = f"{mu:.2f} ({sigma:.2f})"
        ours = "{:.2f} ({:.2f})".format(mine["mu"], mine["sigma"])
        lines.append(f"{c:<28}{paper:>14}{ours:>18}{mine['mean_rank']:>11.2f}")
    kw = figures["kruskal_wallis"]
    lines.append(
        f"Kruskal–Wallis: H({kw['df']}) = {kw['h']:.2f}, p = {kw['p']:.3g} "
        f"(paper: H(4) = {PAPER_H}, p < 0.001); {figures['rankings']} rankings, "
        f"{figures['model_calls']:,} model calls, {figures['wall_s']:.0f} s"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.believability",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    town_arguments(parser)
    parser.add_argument("--interviewed", type=int, default=25, help="agents interviewed")
    args = parser.parse_args(argv)
    if args.agents is not None and args.agents < 2:
        parser.error("--agents: at least 2 (the questions name other agents)")
    config = town_config(args, world_name="Larkspur believability")
    figures = evaluate(config, interviewed=args.interviewed, keep=args.keep)
    print(table(figures))
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
