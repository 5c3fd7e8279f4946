"""The clock scheduler: it fires the expirations of every running timed game
(``service.app.clocks`` holds the expiry command it calls, ``Clocks.expire``).

``Scheduler`` keeps the next deadline of every running timed game in memory, rebuilt from the
log when it starts (the running games are listed by the read models and each is loaded from the
store: there is no timer state anywhere else) and kept current by the saves of this process and
the store's feed of every other process. A thread fires every deadline that has passed, earliest
first (after a restart: every deadline that passed while the server was down, in order).

Several processes may run a scheduler over the same games: the store's version key lets exactly
one expiry through (``service.app.clocks``). A store that fails is an outage, not a game's fault:
the deadline stays and the scheduler tries again ``STORE_RETRY_SECONDS`` later, logging one line
each try; any other failure of one game's expiry is logged and that game's deadline dropped, so
one broken game never holds back every other clock.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from domain import clock as clocks
from domain import table as tables
from service.app.errors import NotFound, Unavailable
from service.store.failures import is_store_failure

if TYPE_CHECKING:
    from service.app.clocks import Clocks

log = logging.getLogger("papyrus.clocks")
#: after the store failed, the scheduler tries again this long after (seconds)
STORE_RETRY_SECONDS = 1.0


def store_failed(failure: BaseException) -> bool:
    """The store failed or its breaker is open (an outage), as opposed to a bug."""
    return isinstance(failure, Unavailable) or is_store_failure(failure)


#: how often the scheduler looks again at the earliest deadline at most (a clock may be moved
#: by tests, and a deadline may change in another process between two notifications)
POLL_SECONDS = 1.0


#: how many games without a clock the scheduler remembers as such (their saves cost it nothing)
UNTIMED_MEMORY = 100_000


class Scheduler:
    """Fires the expirations of every running timed game (see the module's docstring)."""

    def __init__(
        self,
        clocks_: Clocks,
        running_games: Callable[[], Iterable[str]],
        poll_seconds: float = POLL_SECONDS,
    ) -> None:
        """``running_games()``: the ids of every game that may be running (a read-model query:
        each is loaded and checked here)."""
        self.clocks = clocks_
        self.running_games = running_games
        self.poll_seconds = poll_seconds
        self._deadlines: dict[str, int] = {}
        self._dirty: set[str] = set()
        self._untimed: set[str] = set()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.fired: list[tuple[str, int]] = []
        """(game id, deadline) of every expiry this scheduler recorded, in order."""

    # -- what the scheduler knows -------------------------------------------------------------

    def rebuild(self) -> None:
        """Every running game's next deadline, from the log."""
        for game_id in self.running_games():
            self.track(game_id)

    def track(self, game_id: str) -> int | None:
        """Read the game again: its next deadline (``None``: no running clock)."""
        if game_id in self._untimed:
            return None
        try:
            table = self.clocks.tables.get(game_id).table
        except NotFound:
            table = None
        if table is not None and table.clock is None:  # it never gets one: not read again
            if len(self._untimed) >= UNTIMED_MEMORY:
                self._untimed.clear()
            self._untimed.add(game_id)
        deadline = None
        if table is not None and table.clock is not None and table.status == tables.ACTIVE:
            # a seat's deadline, else the end of a game nobody plays (``unattended_until``)
            deadline = clocks.next_deadline(table.clock) or table.unattended_until()
        with self._lock:
            if deadline is None:
                self._deadlines.pop(game_id, None)
            else:
                self._deadlines[game_id] = deadline
        return deadline

    def notify(self, game_id: str, version: int = 0, *_: Any) -> None:
        """A game changed (in this process or another): read it again soon."""
        with self._lock:
            self._dirty.add(game_id)
        self._wake.set()

    def next_deadline(self) -> int | None:
        with self._lock:
            return min(self._deadlines.values(), default=None)

    # -- firing -------------------------------------------------------------------------------

    def run_due(self) -> int:
        """Re-read the games that changed, then fire every deadline passed by now, earliest
        first; the number of expiry commands that recorded something."""
        with self._lock:
            dirty, self._dirty = self._dirty, set()
        for done, game_id in enumerate(sorted(dirty)):
            try:
                self.track(game_id)
            except BaseException:  # read again next time, with those not read yet
                with self._lock:
                    self._dirty.update(sorted(dirty)[done:])
                raise
        fired = 0
        while True:
            now = self.clocks.now()
            with self._lock:
                due = sorted((d, g) for g, d in self._deadlines.items() if d <= now)
            if not due:
                return fired
            deadline, game_id = due[0]
            try:
                recorded = self.clocks.expire(game_id)
            except Exception as failure:
                if store_failed(failure):  # not the game's fault: its deadline stays, and the
                    raise  # scheduler tries again once the store answers (``_run``)
                # one broken game must not hold back every other clock
                log.exception("the expiry of game %s failed", game_id)
                with self._lock:
                    self._deadlines.pop(game_id, None)
                continue
            if recorded:
                fired += 1
                self.fired.append((game_id, deadline))
            if self.track(game_id) == deadline:  # nothing changed (it cannot expire yet)
                with self._lock:
                    self._deadlines.pop(game_id, None)
                    self._dirty.add(game_id)
                return fired

    def start(self) -> None:
        """Rebuild the clocks and fire the passed deadlines on the scheduler's own thread (the
        server is ready meanwhile: a slow or unreachable store does not hold its start)."""
        self._thread = threading.Thread(target=self._run, name="papyrus-clocks", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _run(self) -> None:
        rebuilt = False
        while not self._stop.is_set():
            failed = False
            try:
                if not rebuilt:
                    self.rebuild()
                    rebuilt = True
                self.run_due()
            except Exception as failure:  # try again at the next wake-up
                failed = True
                if store_failed(failure):  # an outage: one line each try, no traceback
                    log.warning(
                        "the clock scheduler could not reach the store (%s); trying again in %g s",
                        str(failure).splitlines()[0][:200] if str(failure) else type(failure),
                        STORE_RETRY_SECONDS,
                    )
                else:
                    log.exception("the clock scheduler failed; trying again")
            wait = self.poll_seconds
            upcoming = self.next_deadline()
            if upcoming is not None:
                wait = min(wait, max(0.0, (upcoming - self.clocks.now()) / 1000))
            if failed:  # a deadline already passed would have it try again at once
                wait = max(wait, min(self.poll_seconds, STORE_RETRY_SECONDS))
            self._wake.wait(timeout=wait)
            self._wake.clear()
