"""The emergence figure: how many agents knew each piece of news over game time (traced
through what they remember), and the network of acquaintances at the start and the end (an
edge where both said they know of each other), drawn with the same node positions."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from bench.emergence_report import Emergence
from bench.emergence_topics import PAPER, TOPICS
from cognition.offline.text import first_name

COLOURS = {"party": "#c2185b", "election": "#1565c0"}
LAYOUT_SEED = 7
"""networkx's spring layout is seeded, so a figure is the same for the same network."""


def plot(e: Emergence, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")  # files only: no display, no GUI toolkit
    import matplotlib.dates as mdates
    import matplotlib.pyplot as plt
    import networkx as nx

    figure, (spread, first, last) = plt.subplots(
        1, 3, figsize=(16, 5.2), gridspec_kw={"width_ratios": [1.3, 1, 1]}
    )
    n = len(e.agents)
    for topic in TOPICS:
        times, counts = _steps(e.knowledge[topic.key].since.values(), e.start.at, e.end.at)
        colour = COLOURS[topic.key]
        spread.step(
            times,
            [c / n for c in counts],
            where="post",
            color=colour,
            label=f"{topic.title}: knew, traced",
        )
        said = [
            e.start.diffusion[e.judge][topic.key].share,
            e.end.diffusion[e.judge][topic.key].share,
        ]
        spread.plot(
            [e.start.at, e.end.at],
            said,
            "o",
            color=colour,
            label=f"{topic.title}: said yes in interview",
        )
        paper = getattr(PAPER, f"{topic.key}_end") / PAPER.agents
        spread.axhline(
            paper, color=colour, linestyle=":", linewidth=1, label=f"{topic.title}: paper, end"
        )
    spread.set_ylim(0, 1.05)
    spread.set_ylabel("share of agents")
    spread.set_title("Information diffusion")
    spread.xaxis.set_major_locator(mdates.AutoDateLocator(maxticks=6))
    spread.xaxis.set_major_formatter(mdates.DateFormatter("%a %H:%M"))
    spread.legend(fontsize=7, loc="lower right")

    graph = nx.Graph()
    graph.add_nodes_from(e.agents)
    graph.add_edges_from(tuple(edge) for edge in e.end.network[e.judge].edges)
    positions = nx.spring_layout(graph, seed=LAYOUT_SEED)
    labels = {name: first_name(name) for name in e.agents}
    for axes, phase, title in ((first, e.start, "start"), (last, e.end, "end")):
        net = phase.network[e.judge]
        shown = nx.Graph()
        shown.add_nodes_from(e.agents)
        shown.add_edges_from(tuple(edge) for edge in net.edges)
        nx.draw_networkx(
            shown,
            positions,
            ax=axes,
            labels=labels,
            node_size=260,
            font_size=7,
            node_color="#ffe0b2",
            edge_color="#888888",
            width=0.6,
        )
        axes.set_title(f"Relationships at the {title}: density {net.density:.2f}")
        axes.set_axis_off()
    figure.suptitle(f"Emergence in Larkspur: {n} agents, {e.hours:g} game hours (judge: {e.judge})")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def _steps(
    since: Iterable[datetime], start: datetime, end: datetime
) -> tuple[list[datetime], list[int]]:
    """How many knew at each moment someone learnt, from start to end."""
    moments = sorted(since)
    times, counts = [start], [sum(1 for t in moments if t <= start)]
    for moment in moments:
        if start < moment <= end:
            times.append(moment)
            counts.append(counts[-1] + 1)
    times.append(end)
    counts.append(counts[-1])
    return times, counts
