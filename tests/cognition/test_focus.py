"""Which agents think offline: only those out of focus, and only in a `focused` world."""

from __future__ import annotations

import pytest

from cognition.focus import DEFAULT_MIND_FOCUS, Focus, MindFocus, thinks_offline


@pytest.mark.parametrize(
    ("policy", "focus", "offline"),
    [
        (MindFocus.ALL, Focus.FOCUSED, False),
        (MindFocus.ALL, Focus.UNFOCUSED, False),
        (MindFocus.ALL, Focus.NONE, False),
        (MindFocus.FOCUSED, Focus.FOCUSED, False),
        (MindFocus.FOCUSED, Focus.UNFOCUSED, True),
        (MindFocus.FOCUSED, Focus.NONE, False),  # world-level work is not an agent's
    ],
)
def test_only_agents_out_of_focus_in_a_focused_world_think_offline(
    policy: MindFocus, focus: Focus, offline: bool
) -> None:
    assert thinks_offline(policy, focus) is offline


def test_the_default_keeps_every_agent_on_the_configured_mind() -> None:
    assert DEFAULT_MIND_FOCUS is MindFocus.ALL
    assert Focus.of(True) is Focus.FOCUSED and Focus.of(False) is Focus.UNFOCUSED
