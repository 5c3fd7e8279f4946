"""What time it is, for the clocks of timed tables (``domain.clock``): the one place the
application asks for the time it hands to the pure clock functions.

The server uses ``SystemClock``. ``FakeClock`` is a controllable clock for tests in one process;
``OffsetFileClock`` is the system time plus a number of milliseconds read from a file at every
call, for tests that drive server *processes* (the ``PAPYRUS_CLOCK_OFFSET_FILE`` setting, which
only tests use: a server of players never sets it).
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Protocol


class Clock(Protocol):
    def now_ms(self) -> int:
        """Milliseconds since the epoch."""


class SystemClock:
    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


class FakeClock:
    """A clock that moves only when told (``advance``, ``set``); thread-safe."""

    def __init__(self, start_ms: int | None = None) -> None:
        self._now = SystemClock().now_ms() if start_ms is None else start_ms
        self._lock = threading.Lock()

    def now_ms(self) -> int:
        with self._lock:
            return self._now

    def advance(self, ms: int) -> int:
        with self._lock:
            self._now += ms
            return self._now

    def set(self, ms: int) -> None:
        with self._lock:
            self._now = ms


class OffsetFileClock:
    """The system time plus the whole number of milliseconds written in ``path`` (0 while the
    file is missing, empty or unreadable). For tests only."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def offset_ms(self) -> int:
        try:
            return int(self.path.read_text().strip() or 0)
        except (OSError, ValueError):
            return 0

    def now_ms(self) -> int:
        return SystemClock().now_ms() + self.offset_ms()
