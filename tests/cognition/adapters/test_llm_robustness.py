"""What a real small model says, through `LLMMind` and the real `openai` client, against the fake
server: schemas it cannot satisfy degenerately, near-misses repaired without a second call,
plans a careful reader would send back, output modes per operation, a local model's pace.

The answers scripted here are the ones Qwen2.5-Coder-1.5B gave Hearth's prompts by hand (issue
24): an empty ratings array, one memory rated twice, three bedtimes, outline items copied into
an hour's tasks.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime, timedelta
from itertools import pairwise
from typing import Any

from cognition.adapters.llm import LLMConfig, LLMMind
from cognition.mind import ListAudit
from cognition.offline import OfflineMind
from cognition.places import PlaceOption
from cognition.requests import ChooseLocation, Decompose, PlanDay, RankAnswers, RateImportance
from cognition.types import Granularity, Persona, PlanItem
from tests.fakes.openai_server import FakeOpenAI, slow

MODEL = "qwen-test"
DAY = datetime(2023, 2, 13, 6, 0)
ADA = Persona(name="Ada Brook", age=30, lifestyle="wakes up at 7am, goes to bed at 11pm")
PLACES = ["Ada's house: bedroom", "Hobbs Cafe: counter", "Johnson Park: lawn"]
MEMORIES = ["ate breakfast", "the house burned down", "saw a cat"]


def make_mind(
    fake: FakeOpenAI, repairs: list[str] | None = None, **overrides: Any
) -> tuple[LLMMind, ListAudit]:
    audit = ListAudit()
    config = LLMConfig(base_url=fake.base_url, api_key="k", model=MODEL, max_retries=0)
    mind = LLMMind(
        replace(config, **overrides),
        audit=audit,
        fallback=OfflineMind(),
        sleep=lambda _: None,
        on_repair=lambda _, what: (repairs if repairs is not None else []).extend(what),
    )
    return mind, audit


def sent_schema(fake: FakeOpenAI, index: int = 0) -> dict[str, Any]:
    schema: dict[str, Any] = fake.requests()[index]["response_format"]["json_schema"]["schema"]
    return schema


def plan_day(**changes: Any) -> PlanDay:
    request = PlanDay(
        persona=ADA, summary="", previous_day="", directives=[], now=DAY, known_places=PLACES
    )
    return replace(request, **changes)


def day(*items: tuple[str, int, str, str]) -> str:
    return json.dumps(
        {
            "items": [
                {"start": s, "duration_min": m, "description": d, "location": where}
                for s, m, d, where in items
            ]
        }
    )


GOOD_DAY = day(
    ("07:00", 60, "wake up and have breakfast", "Ada's house"),
    ("08:00", 480, "work at the cafe", "Hobbs Cafe"),
    ("16:00", 120, "walk in the park", "Johnson Park"),
    ("18:00", 300, "read at home", "Ada's house"),
    ("23:00", 480, "go to bed", "Ada's house"),
)


# --- schemas a grammar cannot satisfy degenerately --------------------------------------------


def test_ratings_are_exactly_the_batch_each_of_a_shown_memory_on_the_scale(
    fake_openai: FakeOpenAI,
) -> None:
    fake_openai.script_chat(
        '{"ratings": [{"memory": 1, "rating": 1}, {"memory": 2, "rating": 9},'
        ' {"memory": 3, "rating": 2}]}'
    )
    mind, _ = make_mind(fake_openai)
    assert mind.think(RateImportance(MEMORIES)) == [1, 9, 2]
    ratings = sent_schema(fake_openai)["properties"]["ratings"]
    assert (ratings["minItems"], ratings["maxItems"]) == (3, 3)
    assert ratings["items"]["properties"]["memory"]["enum"] == [1, 2, 3]
    assert ratings["items"]["properties"]["rating"]["enum"] == list(range(1, 11))


def test_day_plan_locations_are_required_and_chosen_from_the_known_areas(
    fake_openai: FakeOpenAI,
) -> None:
    fake_openai.script_chat(GOOD_DAY)
    mind, _ = make_mind(fake_openai)
    plan = mind.think(plan_day())
    assert [item.location for item in plan][:2] == ["Ada's house", "Hobbs Cafe"]
    schema = sent_schema(fake_openai)
    items = schema["properties"]["items"]
    location = items["items"]["properties"]["location"]
    assert location == {"type": "string", "enum": ["Ada's house", "Hobbs Cafe", "Johnson Park"]}
    assert "location" in items["items"]["required"]
    assert "$defs" not in schema  # inlined: simpler for a grammar


def test_the_day_plan_asks_for_parts_of_day_not_clock_times(fake_openai: FakeOpenAI) -> None:
    # a 1.5B model asked for times went to bed at 11 am and listed 7 am after 11 am
    fake_openai.script_chat(GOOD_DAY)
    mind, _ = make_mind(fake_openai)
    mind.think(plan_day())
    items = sent_schema(fake_openai)["properties"]["items"]
    item = items["items"]
    assert item["properties"]["part"] == {
        "type": "string",
        "enum": ["morning", "afternoon", "evening"],
    }
    assert set(item["required"]) == {"part", "description", "location"}
    assert (items["minItems"], items["maxItems"]) == (3, 6)  # with wake-up and bed: 5 to 8
    prompt = fake_openai.requests()[0]["messages"][-1]["content"]
    assert "wakes up at 7:00 am and goes to bed at 11:00 pm" in prompt


def parts(*items: tuple[str, str, str]) -> str:
    return json.dumps(
        {"items": [{"part": p, "description": d, "location": where} for p, d, where in items]}
    )


def test_a_day_by_parts_is_laid_between_the_personas_wake_up_and_bedtime(
    fake_openai: FakeOpenAI,
) -> None:
    fake_openai.script_chat(
        parts(
            ("afternoon", "walk in the park", "Johnson Park"),
            ("morning", "work at the cafe", "Hobbs Cafe"),
            ("evening", "meet Bob at the cafe at 7pm", "Hobbs Cafe"),
            ("evening", "go to bed", "Ada's house"),  # Hearth places the bedtime itself
        )
    )
    mind, audit = make_mind(fake_openai)
    plan = mind.think(plan_day())
    assert fake_openai.calls() == 1 and not any(call.degraded for call in audit.calls)
    laid = [(i.start.strftime("%H:%M"), i.description) for i in plan]
    assert laid == [
        ("07:00", "wakes up, gets ready and has breakfast"),
        ("08:00", "work at the cafe"),
        ("12:00", "walk in the park"),
        ("19:00", "meet Bob at the cafe at 7pm"),
        ("23:00", "goes to bed"),
    ]
    assert all(a.end == b.start for a, b in pairwise(plan))
    assert plan[-1].end.hour == 7  # asleep until tomorrow


def test_the_wake_up_lasts_until_the_first_item_a_time_stated_in_it_sets(
    fake_openai: FakeOpenAI,
) -> None:
    fake_openai.script_chat(
        parts(
            ("morning", "Ada wakes up at 7:00 am and goes to bed at 11:00 pm", "Ada's house"),
            ("afternoon", "works at Hobbs Cafe from 9am to 5pm", "Hobbs Cafe"),
            ("evening", "reads at home", "Ada's house"),
        )
    )
    mind, _ = make_mind(fake_openai)
    plan = mind.think(plan_day())
    laid = [(i.start.strftime("%H:%M"), i.end.strftime("%H:%M")) for i in plan]
    assert laid == [("07:00", "09:00"), ("09:00", "18:00"), ("18:00", "23:00"), ("23:00", "07:00")]


def test_choices_are_enums(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat('{"location": "Hobbs Cafe"}', '{"ranking": [2, 1]}')
    mind, _ = make_mind(fake_openai)
    options = [PlaceOption("Ada's house"), PlaceOption("Hobbs Cafe")]
    assert mind.think(ChooseLocation(action="work", options=options, at=DAY)) == "Hobbs Cafe"
    assert sent_schema(fake_openai)["properties"]["location"]["enum"] == [
        "Ada's house",
        "Hobbs Cafe",
    ]
    ranked = mind.think(RankAnswers(name="Ada", summary="", question="q", answers=["a", "b"]))
    assert ranked == [2, 1]
    ranking = sent_schema(fake_openai, 1)["properties"]["ranking"]
    assert (ranking["items"]["enum"], ranking["minItems"], ranking["maxItems"]) == ([1, 2], 2, 2)


def test_every_request_carries_an_answer_budget(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat('{"ratings": [{"memory": 1, "rating": 3}]}', GOOD_DAY)
    mind, _ = make_mind(fake_openai)
    mind.think(RateImportance(["x"]))
    mind.think(plan_day())
    short, long = (body["max_tokens"] for body in fake_openai.requests())
    assert 0 < short < long


# --- near-misses repaired without a second call -----------------------------------------------


def test_a_complete_list_numbered_wrongly_is_read_in_order(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(
        '{"ratings": [{"memory": 1, "rating": 2}, {"memory": 1, "rating": 9},'
        ' {"memory": 1, "rating": 3}]}'
    )
    repairs: list[str] = []
    mind, _ = make_mind(fake_openai, repairs)
    assert mind.think(RateImportance(MEMORIES)) == [2, 9, 3]
    assert fake_openai.calls() == 1
    assert repairs and "in order" in repairs[0]


def test_a_memory_rated_twice_and_one_skipped_keeps_the_first_and_rates_the_other(
    fake_openai: FakeOpenAI,
) -> None:
    # as the 1.5B model answered under json_object: memory 1 twice, the others skipped
    fake_openai.script_chat('{"ratings": [{"memory": 1, "rating": 1}, {"memory": 1, "rating": 4}]}')
    repairs: list[str] = []
    mind, audit = make_mind(fake_openai, repairs)
    ratings = mind.think(RateImportance(MEMORIES))
    assert ratings[0] == 1 and all(1 <= r <= 10 for r in ratings[1:])
    assert fake_openai.calls() == 1
    assert not any(call.degraded for call in audit.calls)
    assert any("rated twice" in r for r in repairs)
    assert any("memory 2 unrated" in r for r in repairs)


def test_a_ranking_with_a_repeat_is_completed(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat('{"ranking": [3, 3, 1]}')
    repairs: list[str] = []
    mind, _ = make_mind(fake_openai, repairs)
    assert mind.think(RankAnswers(name="A", summary="", question="q", answers=["a", "b", "c"])) == [
        3,
        1,
        2,
    ]
    assert fake_openai.calls() == 1 and repairs


# --- a plan as a careful reader checks it ----------------------------------------------------


def correction(fake: FakeOpenAI) -> str:
    """The problem the re-ask quoted to the model."""
    content: str = fake.requests()[1]["messages"][-1]["content"]
    return content


def test_three_bedtimes_are_sent_back_with_the_problem(fake_openai: FakeOpenAI) -> None:
    # the outline the 1.5B model stored through Hearth's loop, before these checks
    fake_openai.script_chat(
        day(
            ("07:00", 60, "wake up", "Ada's house"),
            ("12:00", 60, "go to bed", "Ada's house"),
            ("16:30", 60, "go to bed", "Ada's house"),
            ("21:00", 60, "go to bed", "Ada's house"),
        ),
        GOOD_DAY,
    )
    mind, audit = make_mind(fake_openai)
    plan = mind.think(plan_day())
    assert fake_openai.calls() == 2
    assert "goes to bed 3 times (12:00 pm, 4:30 pm, 9:00 pm)" in correction(fake_openai)
    assert [i.description for i in plan][-1] == "go to bed"
    assert not any(call.degraded for call in audit.calls)


def test_times_out_of_order_are_sent_back(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(
        day(
            ("07:00", 60, "wake up", "Ada's house"),
            ("13:00", 60, "lunch", "Hobbs Cafe"),
            ("09:00", 60, "work", "Hobbs Cafe"),
            ("23:00", 60, "go to bed", "Ada's house"),
        ),
        GOOD_DAY,
    )
    mind, _ = make_mind(fake_openai)
    mind.think(plan_day())
    assert "item 3 starts at 9:00 am, before item 2" in correction(fake_openai)


def test_midnight_after_a_shift_that_runs_late_is_midnight(fake_openai: FakeOpenAI) -> None:
    """A night owl's ten-hour shift from 2 pm, then "00:00" supper: midnight, not a slip for
    noon (the offline mind's own plan was sent back for it)."""
    owl = replace(ADA, lifestyle="wakes up at 10am, goes to bed at 2am")
    fake_openai.script_chat(
        day(
            ("10:00", 75, "wake up", "Ada's house"),
            ("14:00", 600, "work", "Hobbs Cafe"),
            ("00:00", 60, "late supper", "Ada's house"),
            ("02:00", 480, "go to bed", "Ada's house"),
        )
    )
    mind, audit = make_mind(fake_openai)
    plan = mind.think(plan_day(persona=owl))
    assert fake_openai.calls() == 1 and not any(call.degraded for call in audit.calls)
    supper = next(i for i in plan if i.description == "late supper")
    assert supper.start == DAY.replace(hour=0, minute=0) + timedelta(days=1)


def test_the_personas_fixed_hours_are_kept(fake_openai: FakeOpenAI) -> None:
    late = day(
        ("10:30", 60, "wake up", "Ada's house"),
        ("12:00", 600, "work", "Hobbs Cafe"),
        ("23:00", 480, "go to bed", "Ada's house"),
    )
    fake_openai.script_chat(late, late)
    mind, audit = make_mind(fake_openai)
    plan = mind.think(plan_day())
    assert "wakes up around 7:00 am" in correction(fake_openai)
    # asked twice and still wrong: the offline mind's day stands in, marked degraded
    assert any(call.degraded for call in audit.calls)
    assert plan and plan[0].start.hour < 10


def test_twelve_am_after_a_late_morning_item_is_read_as_noon(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(
        day(
            ("07:00", 60, "wake up", "Ada's house"),
            ("11:00", 60, "work", "Hobbs Cafe"),
            ("12:00 am", 60, "lunch", "Hobbs Cafe"),
            ("23:00", 480, "go to bed", "Ada's house"),
        )
    )
    repairs: list[str] = []
    mind, _ = make_mind(fake_openai, repairs)
    plan = mind.think(plan_day())
    assert fake_openai.calls() == 1
    assert [(i.start.hour, i.description) for i in plan][2] == (12, "lunch")
    assert repairs == ["item 3 at '12:00 am' read as just after noon"]


def test_a_bedtime_before_the_end_of_the_day_is_sent_back(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(
        day(
            ("07:00", 60, "wake up", "Ada's house"),
            ("08:00", 60, "go to bed", "Ada's house"),
            ("09:00", 600, "work", "Hobbs Cafe"),
        ),
        GOOD_DAY,
    )
    mind, _ = make_mind(fake_openai)
    mind.think(plan_day(persona=Persona(name="Ada Brook")))
    assert "going to bed is the last item" in correction(fake_openai)


HOUR = PlanItem(datetime(2023, 2, 13, 7, 0), 60, "have breakfast", "Ada's house")
OUTLINE = [
    PlanItem(datetime(2023, 2, 13, 6, 0), 60, "Ada Brook wakes up at 6:00 am"),
    HOUR,
    PlanItem(datetime(2023, 2, 13, 8, 0), 480, "work at Hobbs Cafe"),
]


def decompose() -> Decompose:
    return Decompose(
        item=HOUR, granularity=Granularity.TASK, persona=ADA, summary="", schedule=OUTLINE
    )


def steps(*descriptions: str) -> str:
    return json.dumps({"steps": [{"description": d, "duration_min": 15} for d in descriptions]})


def test_tasks_that_copy_the_outline_are_sent_back(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(
        steps("Ada Brook wakes up at 6:00 am", "Ada Brook wakes up at 6:00 am"),
        steps("make coffee", "fry eggs", "eat", "wash up"),
    )
    mind, _ = make_mind(fake_openai)
    tasks = mind.think(decompose())
    assert "is another item of the day's plan" in correction(fake_openai)
    assert [t.description for t in tasks] == ["make coffee", "fry eggs", "eat", "wash up"]


def test_clock_times_in_steps_are_cut_as_a_repair(fake_openai: FakeOpenAI) -> None:
    # the hour chunk the 1.5B model wrote from the persona's "works at Hobbs Cafe from 8am to 8pm"
    fake_openai.script_chat(steps("works at Hobbs Cafe from 8am to 8am", "serve coffee at 9:15 am"))
    repairs: list[str] = []
    mind, _ = make_mind(fake_openai, repairs)
    tasks = mind.think(decompose())
    assert fake_openai.calls() == 1
    assert [t.description for t in tasks][:2] == ["works at Hobbs Cafe", "serve coffee"]
    assert len(repairs) == 2


def test_a_step_like_its_item_is_no_copy_of_the_outline(fake_openai: FakeOpenAI) -> None:
    # hour chunks of one day item share its description: the first step may echo it
    chunk = PlanItem(datetime(2023, 2, 13, 8, 0), 60, "work at Hobbs Cafe", "Hobbs Cafe")
    sibling = PlanItem(datetime(2023, 2, 13, 9, 0), 60, "work at Hobbs Cafe", "Hobbs Cafe")
    fake_openai.script_chat(steps("work at Hobbs Cafe", "serve coffee", "wipe the counter"))
    mind, _ = make_mind(fake_openai)
    request = replace(decompose(), item=chunk, schedule=[chunk, sibling])
    assert [t.description for t in mind.think(request)][:2] == [
        "work at Hobbs Cafe",
        "serve coffee",
    ]
    assert fake_openai.calls() == 1


def test_steps_that_only_repeat_the_item_or_copy_a_wake_up_are_sent_back(
    fake_openai: FakeOpenAI,
) -> None:
    fake_openai.script_chat(
        steps("have breakfast", "have breakfast"),
        steps("make coffee", "eat"),
        steps("wake up", "wake up"),
        steps("make coffee", "eat"),
    )
    mind, _ = make_mind(fake_openai)
    mind.think(decompose())
    assert "every step repeats" in correction(fake_openai)
    mind.think(decompose())
    assert "restates the day's outline" in fake_openai.requests()[3]["messages"][-1]["content"]


def test_a_copied_step_among_real_ones_is_dropped_as_a_repair(fake_openai: FakeOpenAI) -> None:
    # the 1.5B model broke "wake up" into "wake up", "get ready" (the next hour chunk), ...
    fake_openai.script_chat(steps("wake up", "make coffee", "work at Hobbs Cafe", "eat"))
    repairs: list[str] = []
    mind, _ = make_mind(fake_openai, repairs)
    tasks = mind.think(decompose())
    assert fake_openai.calls() == 1
    assert [t.description for t in tasks][:2] == ["make coffee", "eat"]
    assert len(repairs) == 2 and all(r.endswith("dropped") for r in repairs)


def test_the_item_is_shown_without_its_clock_times(fake_openai: FakeOpenAI) -> None:
    # "works at Hobbs Cafe from 8am to 8pm" shown for 8–9 am was copied as "... 8am to 8am"
    fake_openai.script_chat(steps("make coffee", "eat"))
    mind, _ = make_mind(fake_openai)
    item = replace(HOUR, description="works at Hobbs Cafe from 8am to 8pm")
    mind.think(replace(decompose(), item=item))
    prompt = fake_openai.requests()[0]["messages"][-1]["content"]
    assert "<<<plan\nworks at Hobbs Cafe\n>>>" in prompt


def test_hour_chunks_may_all_carry_their_item(fake_openai: FakeOpenAI) -> None:
    # an hour chunk is the item's hour; the tasks under it break it down
    day_item = PlanItem(datetime(2023, 2, 13, 8, 0), 180, "work at Hobbs Cafe", "Hobbs Cafe")
    fake_openai.script_chat(steps(*["work at Hobbs Cafe"] * 3))
    mind, _ = make_mind(fake_openai)
    request = replace(decompose(), item=day_item, granularity=Granularity.HOUR)
    chunks = mind.think(request)
    assert chunks and {c.description for c in chunks} == {"work at Hobbs Cafe"}
    assert fake_openai.calls() == 1


def test_a_decomposition_asks_for_at_least_two_steps(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(steps("make coffee", "eat"))
    mind, _ = make_mind(fake_openai)
    mind.think(decompose())
    schema = sent_schema(fake_openai)["properties"]["steps"]
    assert schema["minItems"] == 2 and schema["maxItems"] == 60 // 5


# --- output modes, timeouts and concurrency for a local model ---------------------------------


def test_the_output_mode_is_chosen_per_operation(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(GOOD_DAY, '{"ratings": [{"memory": 1, "rating": 3}]}')
    mind, _ = make_mind(fake_openai, output_modes={"plan_day": "json_object"})
    mind.think(plan_day())
    mind.think(RateImportance(["x"]))
    day_format, rating_format = (b["response_format"] for b in fake_openai.requests())
    assert day_format == {"type": "json_object"}
    assert rating_format["type"] == "json_schema"


def test_a_slow_answer_within_the_timeout_is_an_answer(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(slow(0.3, '{"ratings": [{"memory": 1, "rating": 3}]}'))
    mind, audit = make_mind(fake_openai, timeout_s=5.0)
    assert mind.think(RateImportance(["x"])) == [3]
    assert [call.error for call in audit.calls] == [None]
