"""Interviewing the town through `POST …/interview`, as a user of the API would, and judging
each answer yes or no.

Interviews are independent reads (an interview touches nothing and is not remembered), so
they are sent a few at a time. Two judges label each answer: the offline rule always, and the
configured model when there is one (`cognition.requests.JudgeAnswer` either way).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from hearth_client.client import Hearth

from cognition.mind import ListAudit, Mind
from cognition.offline import OFFLINE_MODEL
from cognition.requests import JudgeAnswer

PARALLEL_INTERVIEWS = 4
"""Requests in flight: enough to keep the API's threads busy on two cores, few enough that
the step path of another town would not notice."""


@dataclass(frozen=True)
class Question:
    agent_id: str
    agent: str
    text: str
    subject: str
    """What knowing means for the judge ("Tomas Ferreira", "… Valentine's Day party …")."""
    cues: tuple[str, ...]
    about: str = ""
    """The person asked about, for "Do you know of <name>?"; "" otherwise."""


@dataclass(frozen=True)
class Reply:
    question: Question
    answer: str
    memory_ids: tuple[int, ...]
    """The memories the answer rests on, as the interview route returns them."""
    memories: tuple[str, ...]


@dataclass(frozen=True)
class Judged:
    reply: Reply
    labels: dict[str, bool]
    """judge name → whether the answer says the agent knows."""


def interview(
    client: Hearth,
    world_id: str,
    questions: Sequence[Question],
    *,
    label: str,
    quiet: bool = False,
) -> list[Reply]:
    """Every question answered, in order; progress on stderr."""
    done = 0

    def ask(question: Question) -> Reply:
        nonlocal done
        said = client.interview(world_id, question.agent_id, question.text)
        done += 1
        if not quiet and (done % 50 == 0 or done == len(questions)):
            print(f"\r{label}: {done}/{len(questions)} interviews", end="", file=sys.stderr)
        return Reply(
            question,
            said["answer"],
            tuple(m["id"] for m in said["memories"]),
            tuple(m["description"] for m in said["memories"]),
        )

    with ThreadPoolExecutor(PARALLEL_INTERVIEWS) as pool:
        replies = list(pool.map(ask, questions))
    if not quiet and questions:
        print(file=sys.stderr)
    return replies


class Judge:
    """A named Mind asked `JudgeAnswer` for each reply; its calls are kept to be counted."""

    def __init__(self, name: str, mind: Mind) -> None:
        self.name = name
        self.audit = ListAudit()
        self.mind = mind.with_audit(self.audit)

    @property
    def model_calls(self) -> int:
        """Calls a language model answered (not the offline rule, not a failed call)."""
        return model_calls(self.audit)

    def knows(self, reply: Reply) -> bool:
        q = reply.question
        return self.mind.think(
            JudgeAnswer(
                question=q.text,
                answer=reply.answer,
                subject=q.subject,
                cues=q.cues,
                cited=reply.memories,
            )
        )


def judged(replies: Sequence[Reply], judges: Sequence[Judge]) -> list[Judged]:
    """Each reply with every judge's label (a model judge is asked a few at a time)."""

    def label(reply: Reply) -> Judged:
        return Judged(reply, {judge.name: judge.knows(reply) for judge in judges})

    with ThreadPoolExecutor(PARALLEL_INTERVIEWS) as pool:
        return list(pool.map(label, replies))


def model_calls(audit: ListAudit) -> int:
    """The audited calls a language model answered."""
    return sum(1 for c in audit.calls if c.model != OFFLINE_MODEL and c.error is None)
