"""The talk audit's measures, on lines and plans written by hand."""

from __future__ import annotations

from datetime import datetime, timedelta

from bench.audit_measures import LineRow, MemoryRow, PlanRow
from bench.audit_talk import audit_talk, openings

T0 = datetime(2024, 5, 6, 9, 0)


def line(conv: int, speaker: str, listener: str, text: str, minutes: int) -> LineRow:
    return LineRow(conv, speaker, listener, text, T0 + timedelta(minutes=minutes))


def task(agent: str, description: str) -> PlanRow:
    return PlanRow(1, None, agent, "task", T0, None, description, "planned")


def test_openings_are_the_first_three_words_of_each_sentence() -> None:
    assert openings("These days I'm fishing. Hi Ada! How have you been?") == {
        "these days i'm",
        "how have you",
    }


def test_an_abbreviation_does_not_end_a_sentence() -> None:
    assert openings("The funeral is at St. Brannoc's chapel on Thursday. All are welcome.") == {
        "the funeral is",
        "all are welcome",
    }


def test_the_audit_counts_what_a_player_would_notice() -> None:
    lines = [
        line(1, "Ada", "Bo", "These days I'm mending nets.", 0),
        line(1, "Bo", "Ada", "These days I'm baking.", 1),
        line(2, "Ada", "Cy", "These days I'm mending nets.", 30),  # again within the hour
        line(3, "Bo", "Ada", "Hello! I don't think we've met. I'm Bo.", 200),  # they talked
        line(4, "Cy", "Dee", "Nice to meet you, Dee. I'm Cy.", 300),  # strangers: fine
    ]
    audit = audit_talk(
        lines=lines,
        plans=[task("Ada", "checking the taps and glasses"), task("Ada", "mending nets")],
        memories=[
            MemoryRow("Ada", "observation", "x" * 700, T0),
            MemoryRow("Bo", "seed", "y" * 900, T0),
        ],
        relationships={"Ada": set(), "Bo": set(), "Cy": set(), "Dee": set()},
        jobs={"Ada": "Ada is a fisherman on the quay"},
    )
    assert audit.opening == ("these days i'm", 3)
    assert audit.repeats == 1
    assert audit.introduced == ("Bo → Ada: Hello! I don't think we've met. I'm Bo.",)
    assert audit.borrowed == ("Ada: checking the taps and glasses",)
    assert audit.longest[0] == 700
    assert not any(audit.targets().values())
    fine = audit_talk(
        lines=lines[-1:],
        plans=[],
        memories=[],
        relationships={},
        jobs={"Ada": "Ada tends the bar at the tavern"},
    )
    opening, *rest = fine.targets().values()
    assert not opening and all(rest)  # one line is all of the lines


def test_a_step_two_occupations_share_is_not_borrowed_by_either() -> None:
    from bench.audit_talk import borrowed_tasks

    jobs = {"Martin": "Martin is the pharmacist at Marigold Pharmacy", "Ada": "Ada is a fisherman"}
    plans = [task("Martin", "restocking the shelves"), task("Ada", "restocking the shelves")]
    assert borrowed_tasks(plans, jobs) == (2, ["Ada: restocking the shelves"])
