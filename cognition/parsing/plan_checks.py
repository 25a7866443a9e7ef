"""A careful reader's checks on a model's plan, before it is stored and lived.

A schema makes a plan well formed; it does not make it sensible. Small models write days that
go to bed three times (at noon, at 4:30 pm, at 9 pm), skip the hours a persona keeps, list
times out of order, or "decompose" an hour by copying the day's outline into it ("Ada wakes up
at 6:00 am" at 07:15, 07:30 and 07:45). Each check raises `InvalidOutput` naming the problem in
words the model can act on, so the adapter's one re-ask quotes it; what passes is lived.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta
from itertools import pairwise

from cognition.errors import InvalidOutput
from cognition.offline.clock import MINUTES_PER_DAY, find_times, wake_and_bed
from cognition.parsing import repairs
from cognition.prompting import clock
from cognition.types import Granularity, Persona, PlanItem

BED = re.compile(
    r"\b(go(?:es|ing)? to bed|bedtime|go(?:es|ing)? to sleep|falls? asleep)\b|^sleeps?\b", re.I
)
WAKE = re.compile(r"\b(wakes? up|waking up|gets? up|getting up)\b", re.I)
TIME_PHRASE = re.compile(
    r"\s*\b(?:(?:from|at|until|till|to|between|and|by|around|starting at)\s+)?"
    r"(?:\d{1,2}:\d{2}\s*(?:[ap]\.?m\b\.?)?|\d{1,2}\s*[ap]\.?m\b\.?)",
    re.I,
)
"""A clock time with what introduces it: "from 8am", " to 8:30 pm", "at 07:15"."""
WAKE_SLACK_MIN = 90
BED_SLACK_MIN = 120
"""How far a plan may stray from the hours a persona's lifestyle fixes before it is re-asked."""


def check_day(
    plan: Sequence[PlanItem], *, persona: Persona, written: Sequence[datetime], raw: str
) -> None:
    """The day as a reader checks it: times in the order written, one bedtime (the last
    item), and the wake-up and bedtime the persona's lifestyle fixes, within slack."""
    for position, (before, after) in enumerate(pairwise(written), start=2):
        if after < before:
            raise InvalidOutput(
                f"item {position} starts at {clock(after)}, before item {position - 1} "
                f"({clock(before)}): list the day in time order",
                raw=raw,
            )
    bedtimes = [item for item in plan if BED.search(item.description)]
    if len(bedtimes) > 1:
        times = ", ".join(clock(item.start) for item in bedtimes)
        raise InvalidOutput(
            f"the plan goes to bed {len(bedtimes)} times ({times}): a day has one bedtime, "
            "its last item",
            raw=raw,
        )
    if bedtimes and bedtimes[0] is not plan[-1]:
        raise InvalidOutput(
            f"the plan goes to bed at {clock(bedtimes[0].start)} and then goes on: going to "
            "bed is the last item",
            raw=raw,
        )
    _check_fixed_hours(plan, persona=persona, raw=raw)


def _check_fixed_hours(plan: Sequence[PlanItem], *, persona: Persona, raw: str) -> None:
    """The wake-up and bedtime the lifestyle states, where it states them."""
    if not find_times(persona.lifestyle):
        return
    wake, bed = wake_and_bed(persona.lifestyle)
    day = plan[0].start.replace(hour=0, minute=0, second=0, microsecond=0)
    first = plan[0]
    if _off_by(first.start, day + timedelta(minutes=wake)) > WAKE_SLACK_MIN:
        raise InvalidOutput(
            f"{persona.name} wakes up around {clock(day + timedelta(minutes=wake))} "
            f"(lifestyle: {persona.lifestyle!r}), but the plan starts at {clock(first.start)}",
            raw=raw,
        )
    last = plan[-1]
    bedtime = day + timedelta(minutes=bed)
    if BED.search(last.description) and _off_by(last.start, bedtime) > BED_SLACK_MIN:
        raise InvalidOutput(
            f"{persona.name} goes to bed around {clock(bedtime)} (lifestyle: "
            f"{persona.lifestyle!r}), but the plan goes to bed at {clock(last.start)}",
            raw=raw,
        )


def check_steps(
    steps: Sequence[tuple[str, int]],
    *,
    parent: PlanItem,
    schedule: Sequence[PlanItem],
    raw: str,
    granularity: Granularity,
) -> list[tuple[str, int]]:
    """Steps that break the item down: another item of the day copied in or a copied wake-up
    is dropped, as a repair, while other steps remain (the call is re-asked when none do), and
    5–15 minute tasks are not all the item (hour chunks may all be: a chunk is the item's hour,
    its tasks carry the detail). A clock time in a step ("works at the cafe from 8am to 8pm")
    is cut out, as a repair: a step's time is its place in the list."""
    own = _key(without_times(parent.description))  # hour chunks of one item share it
    outline = {_key(without_times(item.description)) for item in schedule} - {own}
    mended: list[tuple[str, int]] = []
    problems: list[str] = []
    for position, (written, minutes) in enumerate(steps, start=1):
        description = without_times(written)
        problem = _copied(description, parent=parent, outline=outline)
        if problem:
            problems.append(f"step {position} ({written!r}) {problem}")
            continue
        if description != written:
            repairs.note(f"step {position}: clock times cut from {written!r}")
        mended.append((description, minutes))
    if not mended:
        raise InvalidOutput(f"{problems[0]}: list what {parent.description!r} is made of", raw=raw)
    for problem in problems:
        repairs.note(f"{problem}: dropped")
    repeats_only = granularity is Granularity.TASK and len(mended) > 1
    if repeats_only and all(_key(d) == own for d, _ in mended):
        raise InvalidOutput(
            f"every step repeats {parent.description!r}: list the smaller actions it is made of",
            raw=raw,
        )
    return mended


def _copied(description: str, *, parent: PlanItem, outline: set[str]) -> str:
    """Why a step is no part of its parent ("" when it is one)."""
    if not description:
        return "restates the day's outline: describe an action only, without clock times"
    if _key(description) in outline:
        return "is another item of the day's plan"
    if WAKE.search(description) and not WAKE.search(parent.description):
        return "restates the day's outline (a wake-up): describe an action only"
    return ""


def without_times(text: str) -> str:
    """`text` without its clock-time phrases ("from 8am to 8pm", "at 7:15 am")."""
    cut = TIME_PHRASE.sub("", text)
    return " ".join(cut.split()).strip(" ,;:-–") if cut != text else text


def _off_by(a: datetime, b: datetime) -> float:
    """Minutes between two times of day, the shorter way around midnight."""
    minutes = abs((a - b).total_seconds()) / 60 % MINUTES_PER_DAY
    return min(minutes, MINUTES_PER_DAY - minutes)


def _key(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())
