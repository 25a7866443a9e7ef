"""Which observation a step asks to be decided, one per agent (the economy profile)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any, cast

from db.queries.reactions import candidates

HOST = uuid.uuid4()
DINERS = ["Dennis Fairweather", "Megan Pryce", "Helen Ashdown", "Terry Oakes", "Jade Oakes"]


@dataclass
class Seen:
    id: int
    agent_id: uuid.UUID
    subject: str | None
    description: str
    kind: str = "observation"
    importance: int = 2
    predicate: str | None = "is"
    object: str | None = "eating"


def test_among_equally_important_sights_the_one_decided_changes_from_step_to_step() -> None:
    names = {HOST: "Callum Reid", **{uuid.uuid4(): name for name in DINERS}}
    chosen = set()
    next_id = 1
    for _ in range(12):  # twelve steps at a lunch table, everyone seen at each
        seen = []
        for name in DINERS:
            seen.append(Seen(next_id, HOST, name, f"{name} is eating"))
            next_id += 1
        picked = candidates(
            cast(Any, None),
            world_id=uuid.uuid4(),
            memories=seen,
            names=names,
            states_before={s.id: None for s in seen},
        )
        assert len(picked) == 1 and picked[0][0] == HOST
        chosen.add(next(s.subject for s in seen if s.id == picked[0][1]))
    assert len(chosen) >= 3, chosen  # not the first diner every time
    louder = [Seen(900, HOST, DINERS[0], "Dennis Fairweather is eating", importance=2)]
    louder.append(Seen(901, HOST, DINERS[1], "Megan Pryce is shouting for help", importance=8))
    (pair,) = candidates(
        cast(Any, None),
        world_id=uuid.uuid4(),
        memories=louder,
        names=names,
        states_before={900: None, 901: None},
    )
    assert pair == (HOST, 901)  # importance still comes first
