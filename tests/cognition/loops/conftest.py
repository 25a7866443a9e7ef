from __future__ import annotations

import pytest

from cognition.testing import FixedClock

from ..offline.personas import NOW
from .support import RecordingStore


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(NOW)


@pytest.fixture
def store() -> RecordingStore:
    return RecordingStore()
