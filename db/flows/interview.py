"""Interviewing an agent, as the paper evaluates agents: outside the world, nothing
remembered, with `mode` ablating reflection, planning or all memory."""

from __future__ import annotations

from sqlalchemy.orm import Session

from cognition.focus import Focus
from cognition.interview import InterviewAnswer, InterviewMode, interview
from db.flows.faculties import Faculties
from db.models import Agent, World
from db.queries.agents import to_persona
from db.queries.memory_rows import news_around
from db.queries.places import known_paths
from db.queries.worlds import game_now

NEWS_DAYS_BEFORE = 1
"""Gatherings from yesterday on are looked up for an interview, beside what it retrieves."""


def ask(
    session: Session,
    faculties: Faculties,
    *,
    world: World,
    agent: Agent,
    question: str,
    interviewer: str,
    mode: InterviewMode,
) -> InterviewAnswer:
    """The agent's answer to an interviewer, from the memories `mode` lets it recall."""
    now = game_now(world)
    store = faculties.store(session, world, agent.id)
    # Someone is waiting for these words: the agent is in focus for them, marked or not.
    focused = Focus.FOCUSED
    with faculties.thinking(world=world, agent_id=agent.id, game_time=now, focus=focused) as mind:
        return interview(
            store,
            mind,
            persona=to_persona(agent),
            summary=agent.summary or "",
            question=question,
            interviewer=interviewer,
            mode=mode,
            now=now,
            looked_up=news_around(session, agent.id, now, days_before=NEWS_DAYS_BEFORE),
            known_places=known_paths(session, [agent.id])[agent.id],
        )
