"""Fail fast while the event store is down.

Every call that reaches the store goes through ``Breaker.call`` (the transports run their
store work through it). A call that fails because of the store itself (down, refused, out of
connections, a statement or lock timeout, a locked SQLite file: see ``is_store_failure`` in
``service.store``) is answered ``UNAVAILABLE`` and opens the breaker: for ``cool_down``
seconds (1 by default) the calls that follow are answered ``UNAVAILABLE`` at once instead of
each waiting for the database. Then one call at a time is let through as a trial: its success
closes the breaker, its failure opens it again; the other calls keep failing fast meanwhile.

Real traffic is what trips it; ``/readyz`` failing trips it too.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from service.app.errors import Unavailable
from service.store.failures import STORE_FAILURES, is_store_failure

T = TypeVar("T")
MESSAGE = "The event store is unreachable or too busy right now; try again shortly."

__all__ = ["MESSAGE", "STORE_FAILURES", "Breaker", "is_store_failure"]


class Breaker:
    def __init__(self, cool_down: float = 1.0, trial_timeout: float = 3.0) -> None:
        """``trial_timeout``: a trial that has not ended after this long no longer holds
        the others back (the next call becomes the trial)."""
        self.cool_down = cool_down
        self.trial_timeout = trial_timeout
        self._down_until = 0.0
        self._tripped = False
        self._trial_since: float | None = None
        self._lock = threading.Lock()
        self.trips = 0
        """How many times the store was found failing (for tests and operators)."""
        self._on_trip: list[Callable[[], None]] = []

    def on_trip(self, listener: Callable[[], None]) -> None:
        """``listener()`` is called each time the store is found failing (quick, no I/O)."""
        self._on_trip.append(listener)

    def trip(self) -> None:
        with self._lock:
            self._tripped = True
            self._trial_since = None
            self._down_until = time.monotonic() + self.cool_down
            self.trips += 1
        for listener in self._on_trip:
            listener()

    def is_open(self) -> bool:
        """Calls are being refused at once right now: the store failed less than ``cool_down``
        ago, or a trial call is finding out whether it is back."""
        now = time.monotonic()
        with self._lock:
            trial = self._trial_since is not None and now - self._trial_since < self.trial_timeout
            return now < self._down_until or (self._tripped and trial)

    def _admit(self) -> bool | None:
        """``None``: refuse the call; ``True``: it is the trial of a tripped breaker; ``False``:
        an ordinary call."""
        now = time.monotonic()
        with self._lock:
            if not self._tripped:
                return False
            if now < self._down_until:
                return None
            if self._trial_since is not None and now - self._trial_since < self.trial_timeout:
                return None  # another call is finding out whether the store is back
            self._trial_since = now
            return True

    def _answered(self, trial: bool) -> None:
        """The store answered (the call may still have been refused for its own reasons)."""
        if trial:
            with self._lock:
                if self._trial_since is not None:  # not tripped again meanwhile
                    self._tripped = False
                    self._trial_since = None

    def _abandoned(self, trial: bool) -> None:
        """The call ended without telling whether the store is back: the next one tries."""
        if trial:
            with self._lock:
                self._trial_since = None

    def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Store work; an unreachable or overloaded store is ``UNAVAILABLE``, not a bug."""
        trial = self._admit()
        if trial is None:
            raise Unavailable(MESSAGE)
        try:
            result = fn(*args)
        except StopIteration as bug:  # a future cannot carry it: the request would hang
            self._answered(trial)
            raise RuntimeError(f"StopIteration escaped from {fn!r}") from bug
        except Unavailable:  # said by the work itself: no answer of the store either way
            self._abandoned(trial)
            raise
        except Exception as failure:
            if is_store_failure(failure):
                self.trip()
                raise Unavailable(MESSAGE) from failure
            self._answered(trial)  # the store answered; the call failed for its own reasons
            raise
        except BaseException:  # cancelled
            self._abandoned(trial)
            raise
        self._answered(trial)
        return result
