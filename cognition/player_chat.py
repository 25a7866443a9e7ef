"""A player talks to an agent. The agent answers like in any conversation (`dialogue.turn`);
what the player says is remembered as the player's claim, attributed and in quotes, never as
the agent's own first-person memory — a player cannot tell an agent who it is."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from cognition.dialogue import Speaker, said_memory, turn
from cognition.mind import Mind
from cognition.types import MemorySource, NewMemory, Turn


def player_label(player: str, persona: str) -> str:
    """How the agent refers to the player: "Sam (a reporter)"."""
    return f"{player} ({persona})" if persona.strip() else player


def player_claim(*, label: str, agent_name: str, message: str, now: datetime) -> NewMemory:
    """The player's line as the agent heard it: attributed, quoted, source=player."""
    return said_memory(label, agent_name, message, at=now, source=MemorySource.PLAYER)


def own_line(*, agent_name: str, label: str, text: str, now: datetime) -> NewMemory:
    """The agent's own reply, remembered as something it said."""
    return said_memory(agent_name, label, text, at=now, source=MemorySource.AGENT)


def reply_to_player(
    *,
    agent: Speaker,
    label: str,
    message: str,
    history: Sequence[Turn],
    mind: Mind,
    now: datetime,
) -> Turn:
    """The agent's answer to the player's latest `message`, grounded in retrieved memories."""
    heard = Turn(speaker=label, text=message, spoken_at=now, ends=False, memory_ids=())
    return turn(speaker=agent, listener=label, mind=mind, history=[*history, heard], now=now)
