"""Two agents talking (fast queue): `hearth.converse` opens, `hearth.converse_turn` speaks one
line, `hearth.end_conversation` closes, notes what each side takes away, and re-flows plans.

Lines take game time (`HEARTH_CONVERSATION_LINE_S`, a minute by default): line n is said at
`started_at + (n − 1) × line` (`dialogue.line_due`), so a conversation spans the steps of a
game and each line is heard in turn (the step route shows it while it is being said). A turn
job that comes early does nothing; the beat sweep sends each line when it comes due.

Opening interrupts the partner too: its plan gets "talk with <initiator>" from now on (the
initiator's reaction already holds its own), so neither walks off mid-sentence — in the paper
profile by a re-plan, in the economy profile as a task spliced into the hour chunk under way
(`reactions.splice_task`: the rest of its day and its steps stay). Ending
(`end_conversation`): each side's view of the other (relationship summary and sentiment),
each side's notes (`dialogue.conversation_notes`: a planning note "For <name>'s planning: …"
that tomorrow's outline recalls, and a memo citing the lines it heard), and both plans
re-flowed for the conversation's real length (`reactions.resize_span`).

One job per turn, not one job for the whole conversation: a turn is one model call, so no job
holds a fast worker for the length of eight; each line is committed (and announced as an
`utterance` event) as soon as it is said; and a redelivered turn repeats at most one call, its
result key being `utterances (conversation_id, seq)`, checked under the conversation's row
lock before the model is asked. The conversation ends when a side ends it, a line comes back
blank, or at the cap (`cognition.dialogue.DEFAULT_MAX_TURNS`).

Coherence: the initiator speaks with the intent of its reaction (the conversation's topic,
the very `what` of its plan item); the partner with its current plan item
(`cognition.dialogue.speaking_intent`).
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from cognition import dialogue
from cognition.focus import Focus
from cognition.locating import locate
from cognition.mind import Mind
from cognition.offline.text import first_name, mentions
from cognition.places import KnownMap
from cognition.reacting import DEFAULT_REACTION_MINUTES
from cognition.types import Granularity, PlanItem, Turn
from db import jobs
from db.deferred_touches import DeferredTouchStore
from db.flows.agent_scope import Outcome, enrich_later
from db.flows.faculties import Faculties
from db.jobs import Job
from db.models import Agent, Conversation, World
from db.queries import conversations, reactions
from db.queries.agents import to_persona
from db.queries.due import due_for_agent
from db.queries.events import emit
from db.queries.memory_rows import EXCHANGED_K, news_exchanged, on_mind
from db.queries.places import known_places
from db.queries.plans import current_action, live_from
from db.queries.relationships import recent_views, set_relationship
from db.queries.worlds import game_now

VIEW_FRESHNESS = timedelta(hours=6)
"""In the economy profile, a view of the other formed this recently is not asked again when a
conversation ends (the paper profile asks after every conversation)."""
BEFORE = timedelta(minutes=1)
"""Looking this far before a conversation began finds what each side was doing (the
conversation interrupted it)."""


def converse(
    session: Session,
    faculties: Faculties,
    *,
    world_id: uuid.UUID,
    initiator_id: uuid.UUID,
    partner_id: uuid.UUID,
    intent: str,
    decision_id: int,
) -> Outcome:
    """Open the conversation decision `decision_id` asked for (once), and let it begin."""
    world = session.get(World, world_id)
    if world is None:
        return Outcome({"conversation_id": None})
    now = game_now(world)
    opened = conversations.open_for_decision(
        session,
        world_id=world.id,
        initiator_id=initiator_id,
        partner_id=partner_id,
        topic=intent,
        decision_id=decision_id,
        at=now,
    )
    if opened is None:
        return Outcome({"conversation_id": None})  # one of them is talking to someone else
    conversation, new = opened
    paper = faculties.settings.paper
    due = _interrupt_partner(session, conversation, now, paper=paper) if new else []
    follow_ups = [jobs.decompose(partner_id, plan_id, level) for plan_id, level in due]
    if conversation.status == "open":
        next_seq = conversations.spoken(session, conversation.id) + 1
        follow_ups.append(jobs.converse_turn(conversation.id, next_seq))
    return Outcome({"conversation_id": conversation.id}, tuple(follow_ups))


def _interrupt_partner(
    session: Session, conversation: Conversation, now: datetime, *, paper: bool
) -> list[tuple[int, Granularity]]:
    """The partner's plan holds "talk with <initiator>" from now; its steps are due now."""
    partner = session.get_one(Agent, conversation.partner_agent_id)
    initiator = session.get_one(Agent, conversation.initiator_id)
    doing = current_action(session, agent_id=partner.id, at=now)
    conversation.partner_doing = doing.description if doing is not None else ""
    item = PlanItem(
        start=now.replace(second=0, microsecond=0),
        duration_min=DEFAULT_REACTION_MINUTES,
        description=f"talk with {first_name(initiator.name)}",
        location=partner.place,
    )
    if not paper:
        spliced = reactions.splice_task(session, agent_id=partner.id, item=item, decided_at=now)
        if spliced is not None:
            return []  # a task already: nothing to decompose
    replanned = reactions.apply_reaction(session, agent_id=partner.id, item=item, decided_at=now)
    plan_id = replanned.reaction.id
    return [d for d in due_for_agent(session, partner, now=now) if d[0] == plan_id]


def converse_turn(
    session: Session, faculties: Faculties, *, conversation_id: int, seq: int
) -> Outcome:
    """Say line `seq` of an open conversation, once, when its time has come."""
    line_time = timedelta(seconds=faculties.settings.conversation_line_s)
    conversation = conversations.locked(session, conversation_id)
    if conversation is None or conversation.status != "open":
        return Outcome({"spoken": False})
    said = conversations.history(session, conversation_id)
    closed = conversation.last_seq is not None
    if closed or len(said) != seq - 1 or conversation.partner_agent_id is None:
        return Outcome({"spoken": False})  # said already (a redelivery), over, or not agents'
    world = session.get_one(World, conversation.world_id)
    at = dialogue.line_due(conversation.started_at, seq, line=line_time)
    if game_now(world) < at:
        return Outcome({"spoken": False, "waiting": True})  # the sweep sends it when due
    speaker, listener = _sides(session, conversation, seq)
    side, store = _speaker(session, faculties, conversation, speaker, listener)
    focus = Focus.of(speaker.in_focus)
    with faculties.thinking(world=world, agent_id=speaker.id, game_time=at, focus=focus) as mind:
        line = dialogue.turn(speaker=side, listener=listener.name, history=said, now=at, mind=mind)
    store.finish()
    written = _say(session, conversation, seq, speaker, listener, line) if line.text else []
    over = line.ends or not line.text or seq >= dialogue.DEFAULT_MAX_TURNS
    if over:
        conversation.last_seq = seq
    next_due = dialogue.line_due(conversation.started_at, seq + 1, line=line_time)
    follow_ups: tuple[Job, ...] = enrich_later(conversation.world_id, written)
    if over:
        follow_ups += (jobs.end_conversation(conversation_id),)
    elif game_now(world) >= next_due:
        follow_ups += (jobs.converse_turn(conversation_id, seq + 1),)
    return Outcome({"spoken": bool(line.text), "over": over}, follow_ups)


def end_conversation(session: Session, faculties: Faculties, *, conversation_id: int) -> Outcome:
    """End an open conversation: views of each other, notes, plans re-flowed, then closed."""
    line_time = timedelta(seconds=faculties.settings.conversation_line_s)
    conversation = conversations.locked(session, conversation_id)
    if conversation is None or conversation.status != "open":
        return Outcome({"ended": False})
    if conversation.partner_agent_id is None:
        return Outcome({"ended": False})
    world = session.get_one(World, conversation.world_id)
    lines = conversations.history(session, conversation_id)
    ended = dialogue.line_due(conversation.started_at, len(lines) + 1, line=line_time)
    ended = max(ended, conversation.started_at + line_time)
    initiator = session.get_one(Agent, conversation.initiator_id)
    partner = session.get_one(Agent, conversation.partner_agent_id)
    written: list[int] = []
    for me, other in ((initiator, partner), (partner, initiator)):
        written += _take_away(session, faculties, world, conversation, me, other, lines, ended)
    _reflow(session, conversation, [initiator, partner], ended)
    conversations.end_conversation(session, conversation, at=ended)
    emit(
        session,
        world_id=world.id,
        type="conversation_ended",
        payload={
            "conversation_id": conversation_id,
            "topic": conversation.topic,
            "agent_ids": [str(initiator.id), str(partner.id)],
            "turns": len(lines),
        },
    )
    return Outcome({"ended": True}, enrich_later(world.id, written))


def _sides(session: Session, conversation: Conversation, seq: int) -> tuple[Agent, Agent]:
    """The initiator speaks the odd lines, the partner the even ones."""
    initiator = session.get_one(Agent, conversation.initiator_id)
    partner = session.get_one(Agent, conversation.partner_agent_id)
    return (initiator, partner) if seq % 2 == 1 else (partner, initiator)


def _acquainted(session: Session, conversation: Conversation, me: Agent, other: Agent) -> bool:
    """Whether the world's records say the two know each other, whatever `me` recalls: an
    earlier conversation, or the other side's relationship or persona naming `me` (knowing
    someone goes both ways)."""
    if conversations.talked_before(session, conversation, me.id, other.id):
        return True
    if conversations.relationship_summary(session, agent_id=other.id, other_name=me.name):
        return True
    return mentions(f"{other.background} {other.currently}", me.name)


def _speaker(
    session: Session,
    faculties: Faculties,
    conversation: Conversation,
    me: Agent,
    other: Agent,
) -> tuple[dialogue.Speaker, DeferredTouchStore]:
    world = session.get_one(World, conversation.world_id)
    partner_doing = conversation.partner_doing or ""
    if me.id == conversation.initiator_id:
        intent, doing, theirs = (
            conversation.topic,
            _before(session, conversation, me),
            partner_doing,
        )
    else:
        intent = partner_doing  # the plan item under way: what drives the partner's words
        doing, theirs = partner_doing, _before(session, conversation, other)
    store = faculties.job_store(session, world, me.id)
    side = dialogue.Speaker(
        persona=to_persona(me),
        summary=me.summary or "",
        store=store,
        intent=intent,
        relationship=conversations.relationship_summary(
            session, agent_id=me.id, other_name=other.name
        ),
        place=me.place or "",
        listener_status=theirs,
        doing=doing,
        known_by_world=_acquainted(session, conversation, me, other),
        on_mind=on_mind(session, me.id, game_now(world)),
        exchanged=tuple(
            m.recalled()
            for m in news_exchanged(session, me.id, me=me.name, other=other.name, limit=EXCHANGED_K)
        ),
    )
    return side, store


def _before(session: Session, conversation: Conversation, agent: Agent) -> str:
    """What `agent` was doing just before the conversation began (it interrupted that)."""
    doing = current_action(session, agent_id=agent.id, at=conversation.started_at - BEFORE)
    return doing.description if doing is not None else ""


def _say(
    session: Session,
    conversation: Conversation,
    seq: int,
    speaker: Agent,
    listener: Agent,
    line: Turn,
) -> list[int]:
    """Store the line, as a memory of both, and announce it."""
    conversations.append_utterance(
        session,
        conversation_id=conversation.id,
        text=line.text,
        at=line.spoken_at,
        speaker_agent_id=speaker.id,
        seq=seq,
    )
    memories = conversations.remember_utterance(
        session, conversation=conversation, speaker=speaker, listener=listener, turn=line
    )
    emit(
        session,
        world_id=conversation.world_id,
        type="utterance",
        payload={
            "conversation_id": conversation.id,
            "seq": seq,
            "agent_id": str(speaker.id),
            "name": speaker.name,
            "listener_id": str(listener.id),
            "text": line.text,
            "ends": line.ends,
            "spoken_at": line.spoken_at.isoformat(),
        },
    )
    return [m.id for m in memories]


def _take_away(
    session: Session,
    faculties: Faculties,
    world: World,
    conversation: Conversation,
    me: Agent,
    other: Agent,
    lines: list[Turn],
    at: datetime,
) -> list[int]:
    """How `me` now sees `other` (history kept), and the notes it keeps of the talk."""
    store = faculties.job_store(session, world, me.id)
    heard = store.get(conversations.utterance_memories(session, conversation, me.id))
    fresh = not faculties.settings.paper and other.name in recent_views(
        session, agent_id=me.id, since=at - VIEW_FRESHNESS
    )
    focus = Focus.of(me.in_focus)
    with faculties.thinking(world=world, agent_id=me.id, game_time=at, focus=focus) as mind:
        view = None
        if not fresh:  # economy: a view formed in the last hours stands
            view = dialogue.reflect_on_relationship(
                store, mind, name=me.name, other=other.name, now=at
            )
        taken = dialogue.conversation_notes(
            mind, name=me.name, other=other.name, lines=lines, heard=heard, now=at
        )
        if taken.appointment is not None:
            _plan_today(session, world, me, taken.appointment, mind=mind, at=at)
    kept = store.add(taken.memories, now=at) if taken.memories else []
    store.finish()
    if view is not None:
        set_relationship(
            session,
            agent_id=me.id,
            other_name=other.name,
            other_agent_id=other.id,
            summary=view.summary,
            sentiment=view.sentiment,
            at=at,
            keep_existing=view.evidence == 0,
        )
    return [m.id for m in kept]


def _plan_today(
    session: Session, world: World, me: Agent, item: PlanItem, *, mind: Mind, at: datetime
) -> None:
    """A gathering agreed for later today goes into today's plan at its time, at the known
    place its name points to, unless the plan already holds it."""
    if any(
        row.description == item.description and row.start == item.start
        for row in live_from(session, agent_id=me.id, at=at)
    ):
        return
    action = f"{item.description} at {item.location}" if item.location else item.description
    places = KnownMap(known_places(session, agent_id=me.id, world_id=world.id, at=item.start))
    where = locate(
        mind,
        action=action,
        places=places,
        at=item.start,
        until=item.end,
        here=me.place,
        home=me.living_area,
        name=me.name,
    )
    reactions.apply_reaction(
        session, agent_id=me.id, item=replace(item, location=where), decided_at=at
    )


def _reflow(
    session: Session, conversation: Conversation, agents: list[Agent], ended: datetime
) -> None:
    """Both plans re-flowed for the conversation's real length (module docstring)."""
    start = conversation.started_at.replace(second=0, microsecond=0)
    planned_end = start + timedelta(minutes=DEFAULT_REACTION_MINUTES)
    for agent in sorted(agents, key=lambda a: a.id):
        reactions.resize_span(
            session, agent_id=agent.id, start=start, end=planned_end, new_end=ended
        )
