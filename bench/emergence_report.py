"""The emergence evaluation's result, printed beside the paper's table and as JSON."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bench.emergence_measures import Attendance, Diffusion, Edge, Network
from bench.emergence_topics import PAPER, TOPICS
from bench.emergence_trace import Knowledge


@dataclass(frozen=True)
class Phase:
    """The town as its interviews show it at one moment."""

    at: datetime
    diffusion: dict[str, dict[str, Diffusion]]
    """judge → topic key → what that judge's labels show"""
    network: dict[str, Network]
    """judge → the network of acquaintances"""


@dataclass(frozen=True)
class Emergence:
    world_id: str
    agents: tuple[str, ...]
    hours: float
    step_minutes: int
    judge: str
    """The judge whose labels the table shows: the model when one is configured."""
    start: Phase
    end: Phase
    knowledge: dict[str, Knowledge]
    attendance: Attendance
    party_over: bool
    """Whether the run lasted past the party's end: before it, attendance means nothing."""
    why: dict[str, str]
    """invited no-show → their answer to why they did not come"""
    relationships: dict[str, frozenset[Edge]]
    """ "start" / "end" → the `relationship_pairs` edges formed by then"""
    wall_s: float
    drive_s: float
    model_calls: int


@dataclass(frozen=True)
class Target:
    text: str
    met: Callable[[Emergence], bool]


TARGETS = (
    Target("party known by ≥ 52 % at the end", lambda e: _d(e, "party").share >= 0.52),
    Target("candidacy known by ≥ 32 % at the end", lambda e: _d(e, "election").share >= 0.32),
    Target(
        "0 hallucinated yes about the news",
        lambda e: all(not _d(e, t.key, phase).hallucinated for t in TOPICS for phase in "se"),
    ),
    Target("network density ≥ 0.74 at the end", lambda e: e.end.network[e.judge].density >= 0.74),
    Target("≥ 5 invited guests attend", lambda e: len(e.attendance.attended) >= 5),
    Target("the whole run ≤ 10 minutes wall", lambda e: e.wall_s <= 600),
)


def _d(e: Emergence, key: str, phase: str = "e") -> Diffusion:
    return (e.start if phase == "s" else e.end).diffusion[e.judge][key]


def _share(count: int, total: int) -> str:
    return f"{count}/{total} ({100 * count / total:.0f} %)" if total else "—"


def table(e: Emergence) -> str:
    """The paper's figures beside this run's."""
    p, n = PAPER, len(e.agents)
    rows: list[tuple[str, str, str]] = []
    for topic in TOPICS:
        start, end = _d(e, topic.key, "s"), _d(e, topic.key)
        paper_start, paper_end = getattr(p, f"{topic.key}_start"), getattr(p, f"{topic.key}_end")
        rows += [
            (
                f"{topic.title}: knew at start",
                _share(paper_start, p.agents),
                _share(len(start.knew), n),
            ),
            (f"{topic.title}: knew at end", _share(paper_end, p.agents), _share(len(end.knew), n)),
            (
                f"{topic.title}: hallucinated yes",
                "0",
                f"{len(start.hallucinated)} at start, {len(end.hallucinated)} at end",
            ),
        ]
    start_net, end_net = e.start.network[e.judge], e.end.network[e.judge]
    rows += [
        ("network density at start", f"{p.density_start:.3f}", f"{start_net.density:.3f}"),
        ("network density at end", f"{p.density_end:.3f}", f"{end_net.density:.3f}"),
        (
            "relationship answers hallucinated",
            _share(p.relationship_hallucinated, p.relationship_answers),
            _share(
                start_net.hallucinated + end_net.hallucinated, start_net.answers + end_net.answers
            ),
        ),
        (
            "invited guests who attended",
            f"{p.attended}/{p.invited}",
            f"{len(e.attendance.attended)}/{len(e.attendance.invited)}"
            if e.party_over
            else f"— ({len(e.attendance.invited)} invited; the run ends before the party)",
        ),
        ("wall time", "—", f"{e.wall_s:.0f} s (driving {e.drive_s:.0f} s)"),
        ("model calls", "—", f"{e.model_calls:,}"),
    ]
    head = f"{'measure':<36}{'paper (Smallville)':<22}this run"
    lines = [head, "-" * 94]
    lines += [f"{a:<36}{b:<22}{c}" for a, b, c in rows]
    return "\n".join(lines)


def transmission_tree(e: Emergence) -> str:
    """Per topic, who first learnt the news, from whom and when, in order."""
    lines = []
    for topic in TOPICS:
        knowledge = e.knowledge[topic.key]
        lines.append(f"{topic.title} (from {topic.originator}):")
        for agent, step in sorted(knowledge.first.items(), key=lambda kv: kv[1].at):
            lines.append(f"  {step.at:%a %H:%M}  {agent:<18} {step.how} {step.source}")
        unheard = [a for a in e.agents if a not in knowledge.since]
        if unheard:
            lines.append(f"  never reached: {', '.join(unheard)}")
    return "\n".join(lines)


def details(e: Emergence) -> str:
    """The cross-check with `relationship_pairs`, the no-shows' reasons, the judges' counts."""
    lines = []
    for phase, at in (("start", e.start), ("end", e.end)):
        said = at.network[e.judge].edges
        held = e.relationships[phase]
        lines.append(
            f"edges at {phase}: {len(said)} from interviews, {len(held)} in relationship_pairs, "
            f"{len(said & held)} in both"
        )
    for name, answer in e.why.items():
        lines.append(f"why {name} did not come: {answer}")
    for judge in e.end.diffusion:
        counts = ", ".join(
            f"{t.title} {len(e.end.diffusion[judge][t.key].knew)}/{len(e.agents)}" for t in TOPICS
        )
        lines.append(f"judge {judge}: {counts}, density {e.end.network[judge].density:.3f}")
    return "\n".join(lines)


def verdicts(e: Emergence) -> str:
    return "\n".join(f"{'met    ' if t.met(e) else 'NOT MET'}  {t.text}" for t in TARGETS)


def as_json(e: Emergence) -> dict[str, Any]:
    def diffusion(key: str, judge: str) -> dict[str, Any]:
        start, end = e.start.diffusion[judge][key], e.end.diffusion[judge][key]
        return {
            "start": start.share,
            "end": end.share,
            "hallucinated": len(start.hallucinated) + len(end.hallucinated),
            "knew": {"start": list(start.knew), "end": list(end.knew)},
            "hallucinated_by": {"start": list(start.hallucinated), "end": list(end.hallucinated)},
        }

    figures: dict[str, Any] = {
        "config": {"agents": len(e.agents), "hours": e.hours, "step_minutes": e.step_minutes},
        "world_id": e.world_id,
        "judge": e.judge,
    }
    for topic in TOPICS:
        knowledge = e.knowledge[topic.key]
        figures[topic.key] = diffusion(topic.key, e.judge) | {
            "tree": [
                {"agent": a, "from": s.source, "how": s.how, "at": s.at.isoformat()}
                for a, s in sorted(knowledge.first.items(), key=lambda kv: kv[1].at)
            ],
            "judges": {judge: diffusion(topic.key, judge) for judge in e.end.diffusion},
        }
    start_net, end_net = e.start.network[e.judge], e.end.network[e.judge]
    figures["density"] = {
        "start": start_net.density,
        "end": end_net.density,
        "edges": {"start": len(start_net.edges), "end": len(end_net.edges)},
        "answers": start_net.answers + end_net.answers,
        "hallucinated": start_net.hallucinated + end_net.hallucinated,
        "relationship_pairs": {k: len(v) for k, v in e.relationships.items()},
        "judges": {j: e.end.network[j].density for j in e.end.network},
    }
    figures["attendance"] = {
        "party_over": e.party_over,
        "invited": len(e.attendance.invited),
        "attended": len(e.attendance.attended),
        "present": list(e.attendance.present),
        "no_shows": [{"agent": a, "why": w} for a, w in e.why.items()],
    }
    figures |= {"wall_s": e.wall_s, "drive_s": e.drive_s, "model_calls": e.model_calls}
    figures["targets"] = {t.text: t.met(e) for t in TARGETS}
    return figures
