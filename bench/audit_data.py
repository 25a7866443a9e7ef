"""What the audit reads after a run: rows of the analyst views (`memory_stream`, `plan_tree`,
`dialogue`), logged in as `hearth_analyst` exactly as `hearth sql` does, and through the API
what the views do not hold (personas, cached summaries, the map)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from hearth_client.client import Hearth
from hearth_client.demo.drive import TownRun

from bench.audit_grammar import Kind, Names, Text, summary_text
from bench.audit_measures import LineRow, MemoryRow, PlanRow, Sample, area
from bench.audit_routine import Routine, place_names, read_routine
from service.sql_console import analyst_url

MEMORIES = sa.text(
    "SELECT agent, kind, description, created_at FROM memory_stream WHERE world_id = :world"
)
PLANS = sa.text(
    "SELECT id, parent_id, agent, level, start, location, description, status "
    "FROM plan_tree WHERE world_id = :world"
)
LINES = sa.text(
    "SELECT conversation_id, speaker, initiator, partner, text, spoken_at "
    "FROM dialogue WHERE world_id = :world AND NOT speaker_is_player ORDER BY spoken_at, seq"
)


@dataclass(frozen=True)
class RunRows:
    memories: list[MemoryRow]
    plans: list[PlanRow]
    lines: list[LineRow]
    summaries: dict[str, str]
    routines: dict[str, Routine]
    samples: list[Sample]
    names: Names

    def texts(self) -> Iterator[tuple[str, Text]]:
        """Everything the mind wrote, as (agent, text): lines by their speaker, the agent's
        own reflections, observations and day outline, its plan items and summary."""
        for line in self.lines:
            yield line.speaker, Text(Kind.UTTERANCE, line.text, line.speaker)
        kinds = {
            "reflection": Kind.REFLECTION,
            "observation": Kind.OBSERVATION,
            "plan": Kind.OUTLINE,
        }
        for memory in self.memories:
            if memory.kind in kinds:
                yield memory.agent, Text(kinds[memory.kind], memory.description)
        for plan in self.plans:
            yield plan.agent, Text(Kind.PLAN, plan.description)
        for agent, summary in self.summaries.items():
            yield agent, Text(Kind.SUMMARY, summary_text(summary))


def read_rows(database_url: str, client: Hearth, run: TownRun) -> RunRows:
    agents = list(client.list_agents(run.world_id))
    places = place_names(_map_children(client.get_map(run.world_id)))
    names = {agent["id"]: agent["name"] for agent in agents}
    engine = sa.create_engine(analyst_url(database_url), poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            params = {"world": run.world_id}
            memories = [MemoryRow(*row) for row in conn.execute(MEMORIES, params)]
            plans = [PlanRow(*row) for row in conn.execute(PLANS, params)]
            lines = [_line(row) for row in conn.execute(LINES, params)]
    finally:
        engine.dispose()
    return RunRows(
        memories=memories,
        plans=plans,
        lines=lines,
        summaries={a["name"]: a["summary"] for a in agents if a["summary"]},
        routines={
            a["name"]: read_routine(
                lifestyle=a["lifestyle"],
                living_area=a["living_area"],
                requirement=a["daily_plan_requirement"],
                places=places,
            )
            for a in agents
        },
        samples=[
            Sample(names[agent_id], datetime.fromisoformat(seen.now), area(place))
            for seen in run.snapshots
            for agent_id, place in seen.places.items()
        ],
        names=Names(frozenset(names.values())),
    )


def _line(row: Any) -> LineRow:
    conversation_id, speaker, initiator, partner, text, spoken_at = row
    listener = partner if speaker == initiator else initiator
    return LineRow(conversation_id, speaker, listener, text, spoken_at)


def _map_children(tree: Any) -> list[dict[str, Any]]:
    return list(tree.get("children", []))
