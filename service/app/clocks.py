"""Timed tables: the expiry and reclaim commands, the clock as callers read it, and the
scheduler that fires expirations (``domain.clock`` holds the rules of the clock itself).

**Expiry.** ``Clocks.expire(game_id)`` is a command like any other (``Tables.command``): it
loads the game, asks the pure clock which seats are past their deadline at the application's
``now``, and records ``time_expired`` for each, earliest deadline first, then what the table's
policy says: ``seat_taken_over`` (a bot of the table's level plays the seat from then on:
``Table.bot_level``) or ``game_abandoned`` (``reason: "time"``, ``timed_out``: the seat).
Several processes may fire the same expiry: the store's version key lets exactly one save
through, and the loser decides again on the fresh game, finds no seat past its deadline and
records nothing.

**Reclaim.** A taken-over seat's player takes it back with ``reclaimSeat`` (an explicit
command: a bot plays a taken-over seat at once whenever it must act, so the player would never
find the seat waiting for them). The bot stops; the player is on the clock again from the seat's
next turn (at once if the seat must act now), with a full move or a full bank. The game still
counts as a loss for them in ratings.

**Scheduler.** ``Scheduler`` keeps the next deadline of every running timed game in memory,
rebuilt from the log when it starts (the running games are listed by the read models and each
is loaded from the store: there is no timer state anywhere else) and kept current by the saves
of this process and the store's feed of every other process. A thread fires every deadline that
has passed, earliest first (after a restart: every deadline that passed while the server was
down, in order).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from typing import Any

from domain import clock as clocks
from domain import table as tables
from domain.contract import JSON, Event
from service.app.caller import Caller, require_player
from service.app.errors import Conflict, Forbidden, GameNotActive, NotFound
from service.app.tables import Recorded, Tables
from service.store import GameTable

log = logging.getLogger("papyrus.clocks")

#: how often the scheduler looks again at the earliest deadline at most (a clock may be moved
#: by tests, and a deadline may change in another process between two notifications)
POLL_SECONDS = 1.0


#: how many games without a clock the scheduler remembers as such (their saves cost it nothing)
UNTIMED_MEMORY = 100_000


class NothingToDo(Exception):
    """The command found nothing to record (no seat past its deadline, say)."""


class Clocks:
    """The commands and reads of timed tables."""

    def __init__(self, tables_: Tables) -> None:
        self.tables = tables_

    def now(self) -> int:
        return self.tables.clock.now_ms()

    def expire(self, game_id: str) -> list[Recorded]:
        """Record the expiry of every seat of the game past its deadline now (none: nothing is
        recorded and ``[]`` returned)."""

        def decide(game: GameTable) -> None:
            table = game.table
            clock = table.clock
            if clock is None or table.status != tables.ACTIVE:
                raise NothingToDo
            now = self.now()
            late = clocks.expired(clock, now)
            if not late:
                raise NothingToDo
            command = f"clock:{game.version + 1}"
            for seat in late:
                if game.table.status != tables.ACTIVE:
                    break
                for event in clocks.expire(clock, seat, now):
                    game.record(event, command=command)
                if clock.control["on_expiry"] == clocks.ABANDON:
                    game.record(abandoned_for_time(seat), command=command)

        try:
            _, saved = self.tables.command(game_id, decide)
        except NothingToDo:
            return []
        return saved

    def reclaim(self, caller: Caller, game_id: str, seat: int | None = None) -> GameTable:
        """The caller takes back their seat that a bot plays since their time ran out."""
        require_player(caller)
        player = caller.player_id or ""

        def decide(game: GameTable) -> None:
            table = game.table
            held = table.seats_of(player)
            if not held:
                raise Forbidden("You do not hold a seat at this table.")
            if table.status != tables.ACTIVE:
                raise GameNotActive(f"This game is {table.status.lower()}; no seat to reclaim.")
            if seat is not None and seat not in held:
                raise Forbidden(f"You do not hold seat {seat} at this table.")
            taken = table.clock.taken_over if table.clock is not None else []
            mine = [s for s in ([seat] if seat is not None else held) if s in taken]
            if not mine or table.clock is None:
                raise Conflict("None of your seats is taken over by a bot: nothing to reclaim.")
            for chosen in mine:
                game.record(clocks.reclaim(table.clock, chosen, self.now()), actor=player)

        game, _ = self.tables.command(game_id, decide)
        return game


def abandoned_for_time(seat: int) -> Event:
    return Event(
        tables.GAME_ABANDONED,
        {"reason": clocks.TIME_REASON, "timed_out": seat, "by": None},
    )


def clock_view(table: tables.Table, now: int) -> JSON | None:
    """The table's clock as every caller may see it at ``now`` (``None``: no clock): the time
    control, each seat's remaining time, deadline, thinking time and take-over, and the
    earliest deadline."""
    clock = table.clock
    if clock is None:
        return None
    control = clock.control
    running = table.status == tables.ACTIVE
    seats = []
    for seat in range(table.seats):
        used, turns = clocks.thinking(clock, seat)
        seats.append(
            {
                "seat": seat,
                "remaining_ms": clocks.remaining(clock, seat, now),
                "deadline": clocks.deadline(clock, seat) if running else None,
                "running": running and seat in clock.started,
                "taken_over": seat in clock.taken_over,
                "timed_out": seat in clock.timed_out,
                "thinking_ms": used,
                "turns": turns,
            }
        )
    return {
        "mode": control["mode"],
        "move_ms": control.get("move_ms"),
        "bank_ms": control.get("bank_ms"),
        "increment_ms": control.get("increment_ms"),
        "on_expiry": control["on_expiry"],
        "bot": control["bot"],
        "now": now if now > 0 else None,  # a log that has recorded no time yet
        "deadline": clocks.next_deadline(clock) if running else None,
        "seats": seats,
    }


def clock_view_at(table: tables.Table) -> JSON | None:
    """The clock of a table as it was at some version of its log (a replay, ``clockAt``): read
    at the latest time the log had recorded then."""
    return None if table.clock is None else clock_view(table, table.clock.now)


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
            deadline = clocks.next_deadline(table.clock)
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
        for game_id in sorted(dirty):
            self.track(game_id)
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
            except Exception:  # one broken game must not hold back every other clock
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
            try:
                if not rebuilt:
                    self.rebuild()
                    rebuilt = True
                self.run_due()
            except Exception:  # the store is down, say: try again at the next wake-up
                log.exception("the clock scheduler failed; trying again")
            wait = self.poll_seconds
            upcoming = self.next_deadline()
            if upcoming is not None:
                wait = min(wait, max(0.0, (upcoming - self.clocks.now()) / 1000))
            self._wake.wait(timeout=wait)
            self._wake.clear()
