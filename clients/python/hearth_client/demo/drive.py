"""Drive the demo town as a headless game would: advance the clock, report where everyone is
and what they see, read back what they are doing — only through the public HTTP API.

Perception follows one simple rule a game engine would compute from positions: an agent sees
the other agents in the same area (the first segment of the place path) and the state of any
object someone there is using in the agent's own room. Each step waits (up to `settle_s`)
until every agent has an action for the new time, so the workers planning in the background
keep up with the clock.
After each step the run keeps a `Snapshot`: where the game put everyone, what they were doing,
and who was talking — read from the world's event stream, so a conversation held entirely
between two reads of the step route is still counted.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hearth_client._core import DEFAULT_TIMEOUT_S
from hearth_client.client import Hearth
from hearth_client.demo import TOWN_START, load_town
from hearth_client.game_types import Action, AgentNow, AgentStep, Perceived, StepResult
from hearth_client.types import Agent, PersonaPack

SETTLE_POLL_S = 0.5
QUIET_S = 3.0
QUIET_TIMEOUT_S = 60.0
"""After the last step, how long the world's event stream must stay silent (at most how long
to wait) before the town is read back: conversations started in the last step finish."""
SETTLE_QUIET_S = 1.5
"""A step ends once no agent's action has changed for this long: the workers decompose, react
and talk between steps, and a town that moved on as soon as everyone had some action would
outrun them."""


@dataclass(frozen=True)
class DemoConfig:
    hours: float = 12.0
    step_minutes: int = 15
    settle_s: float = 20.0
    world_name: str = "Larkspur"
    agents: int | None = None
    """Only the town's first N personas (and the relationships among them); None: all 25."""
    pack: PersonaPack | None = None
    """Another town to drive instead of the demo's (a scenario's)."""
    start: str = TOWN_START
    """The game time the world starts at."""
    request_timeout_s: float = DEFAULT_TIMEOUT_S
    """How long one call to Hearth may take: an interview waits for the model's answer, which a
    local model on a CPU gives in minutes."""


@dataclass
class Progress:
    """What one step looked like, for a progress line."""

    step: int
    steps: int
    now: str
    acting: int
    talking: int
    agents: int


@dataclass(frozen=True)
class Snapshot:
    """The town as the game saw it at the end of one step."""

    now: str
    places: dict[str, str | None]
    """agent id → where the game put it (its action's location, else its last place)"""
    doing: dict[str, str]
    """agent id → its action's description, for agents that had one"""
    talking: frozenset[str]
    """agents in a conversation at this game time: a line said or heard since the previous
    step (the world's `utterance` events), or a conversation still open"""


@dataclass
class TownRun:
    world_id: str
    world_key: str
    agents: list[Agent]
    steps: int = 0
    snapshots: list[Snapshot] = field(default_factory=list)
    last_event: int | None = None
    """The last event of the world's stream read so far."""
    places: frozenset[str] | None = None
    """The map's paths: a game reports only places of its map (None: report every place)."""

    def on_map(self, place: str | None) -> bool:
        return place is not None and (self.places is None or place in self.places)


def area(place: str | None) -> str:
    return place.split(":")[0].strip() if place else ""


def perceptions(
    me: Agent, now: dict[str, AgentNow], agents: Sequence[Agent], run: TownRun | None = None
) -> list[Perceived]:
    """What `me` sees: the others in its area and what they are doing, and the objects (those
    of the map) they use in `me`'s room."""
    mine = area(where(me, now))
    seen: list[Perceived] = []
    for other in agents:
        action = action_of(other, now)
        if other["id"] == me["id"] or not action or area(where(other, now)) != mine:
            continue
        seen.append({"kind": "agent", "subject": other["name"], "state": action["description"]})
        on_map = run is None or run.on_map(action["location"])
        seen_from_here = in_its_room(action["location"], where(me, now))
        if action["object_state"] and action["location"] and on_map and seen_from_here:
            seen.append(
                {"kind": "object", "subject": action["location"], "state": action["object_state"]}
            )
    return seen


def in_its_room(thing: str | None, place: str | None) -> bool:
    """Whether someone at `place` sees the object at path `thing`: from inside its room (the
    path without its last segment). A neighbour's stove, in another apartment of the same
    building, is not in sight (the server's `cognition.places.within_sight` rule)."""
    if not thing or not place:
        return False
    room = [p.strip().casefold() for p in thing.split(":")][:-1] or [thing.strip().casefold()]
    here = [p.strip().casefold() for p in place.split(":")]
    return here[: len(room)] == room


def where(agent: Agent, now: dict[str, AgentNow]) -> str | None:
    """Where the game puts an agent: at its current action's location, else where it was."""
    action = action_of(agent, now)
    return (action["location"] if action else None) or agent["place"]


def action_of(agent: Agent, now: dict[str, AgentNow]) -> Action | None:
    entry = now.get(agent["id"])
    return entry["action"] if entry is not None else None


def step_town(client: Hearth, run: TownRun, now: dict[str, AgentNow]) -> StepResult:
    batch: list[AgentStep] = []
    for agent in run.agents:
        entry: AgentStep = {
            "agent_id": agent["id"],
            "perceived": perceptions(agent, now, run.agents, run),
        }
        if (place := where(agent, now)) and run.on_map(place):
            entry["place"] = place
        batch.append(entry)
    return client.step(run.world_id, batch)


def acting(result: StepResult) -> int:
    return sum(1 for a in result["agents"] if a["action"])


def settle(client: Hearth, run: TownRun, result: StepResult, settle_s: float) -> StepResult:
    """Re-read (without new perceptions) while the workers are still changing agents'
    actions: until nothing changed for SETTLE_QUIET_S, or `settle_s` is up."""
    start = last_change = time.monotonic()
    seen = _actions(result)
    while time.monotonic() - start < settle_s and time.monotonic() - last_change < SETTLE_QUIET_S:
        time.sleep(SETTLE_POLL_S)
        result = client.step(run.world_id, [{"agent_id": a["id"]} for a in run.agents])
        if _actions(result) != seen:
            seen, last_change = _actions(result), time.monotonic()
    return result


def _actions(result: StepResult) -> list[str]:
    return [repr(a["action"]) for a in result["agents"]]


def start_town(admin: Hearth, base_url: str, config: DemoConfig) -> tuple[Hearth, TownRun]:
    """A fresh world on the pack's date, the pack imported; returns the world's own client and
    the run, its agents in the pack's order (the report tells them in that order)."""
    world = admin.create_world(config.world_name, clock={"mode": "driven", "start": config.start})
    client = Hearth(base_url, api_key=world["api_key"], timeout=config.request_timeout_s)
    pack = config.pack if config.pack is not None else load_town(agents=config.agents)
    client.import_personas(world["id"], pack)
    order = {persona["name"]: i for i, persona in enumerate(pack["personas"])}
    agents = sorted(client.list_agents(world["id"]), key=lambda a: order.get(a["name"], len(order)))
    places = frozenset(_paths(client.get_map(world["id"])["children"]))
    return client, TownRun(
        world_id=world["id"], world_key=world["api_key"], agents=agents, places=places
    )


def _paths(nodes: Sequence[Any]) -> list[str]:
    return [p for node in nodes for p in (node["path"], *_paths(node["children"]))]


def conversing(client: Hearth, run: TownRun) -> set[str]:
    """Agents who said or heard a line since the last call (the world's events, read on from
    `run.last_event`)."""
    found: set[str] = set()
    for event in client.events(run.world_id, after=run.last_event, once=True):
        run.last_event = event.id
        if event.type == "utterance":
            found.update(str(event.data.get(key)) for key in ("agent_id", "listener_id"))
    return found


def snapshot(run: TownRun, result: StepResult, spoke: set[str]) -> Snapshot:
    now = {a["agent_id"]: a for a in result["agents"]}
    open_talk = {a["agent_id"] for a in result["agents"] if a["utterance"]}
    return Snapshot(
        now=result["now"],
        places={agent["id"]: where(agent, now) for agent in run.agents},
        doing={i: a["action"]["description"] for i, a in now.items() if a["action"]},
        talking=frozenset((spoke | open_talk) & {agent["id"] for agent in run.agents}),
    )


def drive(
    client: Hearth,
    run: TownRun,
    config: DemoConfig,
    on_step: Callable[[Progress], None],
    *,
    pace: Callable[[], object] | None = None,
) -> None:
    """Step the town `config.hours` of game time. `pace`, called before the clock moves on,
    may hold it the way a turn-based game would (a slow local model's conversation finishes
    before the town's next step instead of being overtaken by the clock)."""
    steps = max(1, int(config.hours * 60 // config.step_minutes))
    now: dict[str, AgentNow] = {}
    conversing(client, run)  # start the event cursor after the import
    for index in range(steps):
        if index:
            if pace is not None:
                pace()
            client.advance_clock(run.world_id, config.step_minutes)
        result = settle(client, run, step_town(client, run, now), config.settle_s)
        now = {a["agent_id"]: a for a in result["agents"]}
        run.steps += 1
        seen = snapshot(run, result, conversing(client, run))
        run.snapshots.append(seen)
        on_step(
            Progress(
                step=index + 1,
                steps=steps,
                now=result["now"],
                agents=len(run.agents),
                acting=acting(result),
                talking=len(seen.talking),
            )
        )


def quiesce(
    client: Hearth, run: TownRun, *, quiet_s: float = QUIET_S, timeout_s: float = QUIET_TIMEOUT_S
) -> bool:
    """Wait until the world's event stream has had nothing new for `quiet_s`, so a report reads
    a town at rest; False if it was still busy after `timeout_s`."""
    start = last_news = time.monotonic()
    while time.monotonic() - start < timeout_s:
        before = run.last_event
        conversing(client, run)
        if run.last_event != before:
            last_news = time.monotonic()
        elif time.monotonic() - last_news >= quiet_s:
            return True
        time.sleep(SETTLE_POLL_S)
    return False
