"""Fail fast while the event store is down.

The store library retries a failing database for many seconds on every call; once one call
has found the store unreachable, the next calls are answered ``UNAVAILABLE`` at once for a short
while instead of piling up behind the same retries.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from service.app.errors import Unavailable
from service.store import STORE_FAILURES

T = TypeVar("T")
MESSAGE = "The event store is unreachable or too busy right now; try again shortly."


class Breaker:
    def __init__(self, cool_down: float = 3.0) -> None:
        self.cool_down = cool_down
        self._down_until = 0.0
        self._lock = threading.Lock()

    def trip(self) -> None:
        with self._lock:
            self._down_until = time.monotonic() + self.cool_down

    def is_open(self) -> bool:
        return time.monotonic() < self._down_until

    def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Store work; an unreachable or overloaded store is ``UNAVAILABLE``, not a bug."""
        if self.is_open():
            raise Unavailable(MESSAGE)
        try:
            return fn(*args)
        except STORE_FAILURES as failure:
            self.trip()
            raise Unavailable(MESSAGE) from failure
        except StopIteration as bug:  # a future cannot carry it: the request would hang
            raise RuntimeError(f"StopIteration escaped from {fn!r}") from bug
