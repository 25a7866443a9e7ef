"""The demo report as text, from a hand-made story: a short story per agent, the town, the
table, and the commands to look further — all within 100 terminal columns."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from hearth_client.demo import NEWS, load_town
from hearth_client.demo.report import AgentStory, Chunk, Reflected, Said, Spread, TownStory, lived
from hearth_client.demo.run import next_steps
from hearth_client.demo.story import WIDTH, columns, cut, render

START = datetime(2023, 2, 13, 7, 0)
LONG_LINE = "Hi Tomas! " + "I was just thinking about the party at The Copper Kettle. " * 8


def _at(minutes: int) -> datetime:
    return START + timedelta(minutes=minutes)


def _agent(name: str, **changes: Any) -> AgentStory:
    story = AgentStory(
        name=name,
        chunks=(),
        partners=(),
        conversations=0,
        lines_said=0,
        said=None,
        reflection=None,
        doing="",
        where="",
        memories=0,
        reflections=0,
        day_items=0,
        tasks=0,
        model_calls=0,
    )
    return AgentStory(**{**story.__dict__, **changes})


JUNIE = _agent(
    "Junie Halvorsen",
    chunks=(
        Chunk(
            _at(0),
            _at(60),
            "open the cafe and serve the morning customers: brewing coffee "
            "and warming the pastries for the first customers of the day",
            "The Copper Kettle",
        ),
        Chunk(_at(60), _at(75), "say hello to Tomas and chat", "The Copper Kettle"),
    ),
    partners=("Tomas Ferreira", "Lucia Bellandi"),
    conversations=2,
    lines_said=3,
    said=Said("Tomas Ferreira", LONG_LINE),
    reflection=Reflected(
        "Junie wants everyone in Larkspur to come to her party",
        ("Junie is planning a Valentine's Day party", "Tomas said he would come", "Lucia too"),
    ),
    doing="🍽️ eating breakfast with a very long description that goes on and on and on",
    where="The Copper Kettle",
    memories=40,
    reflections=1,
    day_items=8,
    tasks=20,
    model_calls=70,
)
TOMAS = _agent(
    "Tomas Ferreira",
    where="The Copper Kettle",
    partners=("Junie Halvorsen",),
    conversations=1,
    lines_said=1,
    said=Said("Junie Halvorsen", "See you there!"),
)
NOOR = _agent("Noor Haddad", where="Wren College Dormitory")
STORY = TownStory(
    start=START,
    now=_at(105),
    agents=(JUNIE, TOMAS, NOOR),
    conversations=2,
    lines=5,
    news=(Spread(NEWS[0], ("Junie Halvorsen",), ("Tomas Ferreira",)), Spread(NEWS[1], (), ())),
)


def test_every_line_fits_a_100_column_terminal() -> None:
    text = render(STORY)
    assert max(columns(line) for line in text.splitlines()) <= WIDTH


def test_each_agent_has_a_short_story() -> None:
    text = render(STORY)
    section = text[text.index("Junie Halvorsen\n") : text.index("Tomas Ferreira\n---")]
    assert "  07:00–08:00  open the cafe and serve the morning customers" in section
    assert "…  (The Copper Kettle)" in section  # a long chunk is cut, its place kept
    assert "  08:00–08:15  say hello to Tomas and chat  (The Copper Kettle)" in section
    assert (
        "talked with Tomas Ferreira and Lucia Bellandi (2 conversations, 3 lines said)" in section
    )
    quote = [line for line in section.splitlines() if line.startswith("  to Tomas: ")]
    assert quote and quote[0].startswith("  to Tomas: “Hi Tomas! I was just thinking")
    following = section.splitlines()[section.splitlines().index(quote[0]) :][:4]
    assert following[2].endswith("…") and not following[3].startswith("            ")
    assert "  reflected: “Junie wants everyone in Larkspur to come to her party”" in section
    assert "    citing 3 memories, e.g. “Junie is planning a Valentine's Day party”" in section
    assert "  now: 🍽️ eating breakfast" in section and "…  (The Copper Kettle)" in section
    noor = text[text.index("Noor Haddad\n") : text.index("The town")]
    assert "(no plan yet)" in noor and "talked with nobody" in noor


def test_the_town_tells_who_heard_the_news_and_who_is_where() -> None:
    town = render(STORY).split("The town\n--------\n")[1]
    assert "2 conversations, 5 lines; 2 of 3 people talked with someone" in town
    assert "the party — Junie Halvorsen's Valentine's Day party" in town
    assert "knew it at the start: Junie Halvorsen" in town
    assert "heard it during the day: Tomas Ferreira (1)" in town
    assert "the candidacy — Walter Brigg" in town and "heard it during the day: nobody yet" in town
    assert "where everyone is at 08:45:" in town
    assert "The Copper Kettle       Junie Halvorsen, Tomas Ferreira" in town
    assert "Wren College Dormitory  Noor Haddad" in town


def test_the_table_counts_lines_said_not_lines_heard() -> None:
    table = render(STORY).split("In numbers\n")[1].splitlines()
    assert table[1].split() == [
        "agent",
        "memories",
        "reflections",
        "day",
        "plan",
        "tasks",
        "said",
        "model",
        "calls",
        "doing",
        "now",
    ]
    junie = table[2].split()
    assert junie[:8] == ["Junie", "Halvorsen", "40", "1", "8", "20", "3", "70"]
    assert table[2].endswith("…")


def test_the_news_is_in_the_pack() -> None:
    """Someone in the town starts out knowing each piece of news the report follows."""
    import re

    backgrounds = [p["background"] for p in load_town()["personas"]]
    for news in NEWS:
        assert any(re.search(news.pattern, b, re.I) for b in backgrounds), news.name


def _node(
    level: str,
    minute: int,
    length: int,
    what: str,
    *,
    status: str = "done",
    children: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "id": minute,
        "level": level,
        "start": _at(minute).isoformat(),
        "duration_min": length,
        "location": f"The Copper Kettle: {what}",
        "description": what,
        "emoji": None,
        "object_state": None,
        "status": status,
        "superseded_by": None,
        "children": children or [],
    }


def test_lived_chunks_are_the_live_hour_chunks_or_their_day_item() -> None:
    day = {
        "day": "2023-02-13",
        "now": _at(120).isoformat(),
        "current_action": None,
        "items": [
            _node("day", -90, 90, "wake up"),  # over before the run began
            _node(
                "day",
                0,
                120,
                "open the cafe",
                children=[
                    _node("hour", 0, 60, "brew coffee"),
                    _node("hour", 60, 60, "serve", status="superseded"),
                ],
            ),
            _node("day", 60, 15, "say hello"),  # a reaction: no chunks of its own
            _node("day", 75, 45, "serve again"),
            _node("day", 180, 60, "lunch"),  # not begun yet
        ],
    }
    chunks = lived([day], start=START, now=_at(120))  # type: ignore[list-item]
    assert [(c.start, c.what, c.where) for c in chunks] == [
        (_at(0), "brew coffee", "The Copper Kettle"),
        (_at(60), "say hello", "The Copper Kettle"),
        (_at(75), "serve again", "The Copper Kettle"),
    ]


def test_the_commands_to_look_further_fit_the_terminal() -> None:
    text = next_steps(
        "http://127.0.0.1:41234",
        "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
        "hk_world_" + "x" * 43,
        hearth_env="HEARTH_HOME=/tmp/demo HEARTH_API_PORT=41234 ",
    )
    lines = text.splitlines()
    assert "  export HEARTH_HOME=/tmp/demo HEARTH_API_PORT=41234" in lines
    assert "  export KEY=hk_world_" + "x" * 43 in lines
    assert '  this world   curl -H "Authorization: Bearer $KEY" $WORLD' in lines
    assert max(len(line) for line in lines) <= WIDTH


def test_cut_counts_terminal_columns() -> None:
    assert cut("abc", 3) == "abc" and cut("abcdef", 4) == "abc…"
    assert columns("🍽️ x") == 4 and columns(cut("💼 working through problems", 10)) <= 10
