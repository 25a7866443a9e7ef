"""The mind's level of detail: which agents think with the model, and which offline.

A game marks the agents in focus (near the player, in a scene); the world's policy says what
that changes. Under `all` (the default, and every world before issue 22) every agent thinks
with the configured mind and the mark only labels its calls. Under `focused` an agent out of
focus thinks with the offline mind, so a town of a thousand spends its model calls on the few
the player can see; the world's budget still bounds the focused ones. Memories, plans and
conversations are the same rows whichever mind wrote them, so an agent moving in or out of
focus carries on from where it is.
"""

from __future__ import annotations

from enum import StrEnum


class MindFocus(StrEnum):
    """A world's policy (`settings.mind_focus`)."""

    ALL = "all"
    FOCUSED = "focused"


DEFAULT_MIND_FOCUS = MindFocus.ALL
"""Everyone thinks with the configured mind: a world that never marks focus is unchanged."""


class Focus(StrEnum):
    """What a unit of work is for: agents in focus, agents out of it, or no agent (NONE is
    never written: it is NULL in `llm_calls.focus`, "none" in usage and metrics)."""

    FOCUSED = "focused"
    UNFOCUSED = "unfocused"
    NONE = "none"

    @classmethod
    def of(cls, in_focus: bool) -> Focus:
        return cls.FOCUSED if in_focus else cls.UNFOCUSED


def thinks_offline(policy: MindFocus, focus: Focus) -> bool:
    """Whether work for `focus` is answered by the offline mind under `policy`."""
    return policy is MindFocus.FOCUSED and focus is Focus.UNFOCUSED
