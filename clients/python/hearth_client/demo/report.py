"""The end-of-demo report: per agent, what it remembered, reflected, planned, said and cost —
read back through the API, as any game or dashboard could."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from hearth_client.client import Hearth
from hearth_client.demo.drive import TownRun
from hearth_client.game_types import PlanNode


@dataclass(frozen=True)
class AgentReport:
    name: str
    memories: int
    reflections: int
    plan_items: int
    tasks: int
    utterances: int
    model_calls: int
    doing: str


def _count_levels(nodes: list[PlanNode], counts: Counter[str]) -> None:
    for node in nodes:
        if node["status"] != "superseded":
            counts[node["level"]] += 1
        _count_levels(node["children"], counts)


def agent_reports(client: Hearth, run: TownRun) -> list[AgentReport]:
    calls = {row["agent"]: int(row["calls"]) for row in client.usage(run.world_id)["by_agent"]}
    reports = []
    for agent in run.agents:
        kinds = Counter(
            m["kind"] for m in client.list_memories(run.world_id, agent["id"], page_size=500)
        )
        plan = client.plans(run.world_id, agent["id"])
        levels: Counter[str] = Counter()
        _count_levels(plan["items"], levels)
        current = plan["current_action"]
        reports.append(
            AgentReport(
                name=agent["name"],
                memories=sum(kinds.values()),
                reflections=kinds["reflection"],
                plan_items=levels["day"],
                tasks=levels["task"],
                utterances=kinds["utterance"],
                model_calls=calls.get(agent["name"], 0),
                doing=f"{current['emoji'] or ''} {current['description']}".strip()
                if current
                else "",
            )
        )
    return reports


COLUMNS = (
    "agent",
    "memories",
    "reflections",
    "day plan",
    "tasks",
    "utterances",
    "model calls",
    "doing now",
)


def format_reports(reports: list[AgentReport]) -> str:
    rows = [
        (
            r.name,
            str(r.memories),
            str(r.reflections),
            str(r.plan_items),
            str(r.tasks),
            str(r.utterances),
            str(r.model_calls),
            r.doing[:48],
        )
        for r in reports
    ]
    widths = [max(len(c), *(len(row[i]) for row in rows)) for i, c in enumerate(COLUMNS)]
    line = "  ".join(c.ljust(w) for c, w in zip(COLUMNS, widths, strict=True))
    body = ["  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)) for row in rows]
    return "\n".join([line, "-" * len(line), *body])
