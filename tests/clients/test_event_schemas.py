"""Every event a world's stream carries has a schema in the OpenAPI document, and the Python
SDK types it: checked on the events of a real town run (API, workers, beat)."""

from __future__ import annotations

import typing

from hearth_client import event_types
from pydantic import ValidationError

from service.schemas.events import EVENT_PAYLOADS
from tests.town_run import ShortTown


def test_every_event_of_a_town_run_matches_its_schema(short_town: ShortTown) -> None:
    seen: set[str] = set()
    for event in short_town.events:
        assert event.type in EVENT_PAYLOADS, event.type
        try:
            EVENT_PAYLOADS[event.type].model_validate(event.data, strict=False)
        except ValidationError as exc:  # pragma: no cover - the message is the point
            raise AssertionError(f"{event.type} {event.data}: {exc}") from None
        extra = set(event.data) - set(EVENT_PAYLOADS[event.type].model_fields)
        assert not extra, (event.type, extra)
        seen.add(event.type)
    # a two-hour town plans, acts, moves, talks and reacts
    assert {
        "agent_created",
        "plan_created",
        "action_changed",
        "agents_moved",
        "utterance",
        "reaction",
    } <= seen


def test_the_sdk_types_every_event_as_the_server_declares_it() -> None:
    assert set(event_types.EVENT_TYPES) == set(EVENT_PAYLOADS)
    for name, model in EVENT_PAYLOADS.items():
        typed = event_types.EVENT_TYPES[name]
        assert set(typing.get_type_hints(typed)) == set(model.model_fields), name
    assert set(typing.get_args(event_types.EventType)) == set(EVENT_PAYLOADS)
