"""The bot driver: every bot plays off the request path, in its own command, and every account's
bots get a fair share of the time (issue #20).

A human's command records only what it caused; a bot that becomes due, of any level, is played
here, in its own command:

1. **Woken** by this process's saves (``Tables.subscribe``: ``wake``) at once, and by the
   store's feed of every other process's saves (``heard``) after a grace period (the think
   bound and a second), and then only if the game is still at the version that save left:
   the process that saved plays the bot that became due (its own save woke its driver), so
   several processes do not all think about the same move; another steps in when that one did
   not (it stopped, died or is far behind). At start the driver looks at every running game
   (the read models list them), so a bot that was due when the server stopped plays now.
2. **Sorted** into a lane by the level of the bot due: the *quick lane* (``random``, ``greedy``:
   a move costs a millisecond or two) or the *search lane* (``levels.SEARCHING``: ``mcts``,
   hundreds of milliseconds). Each lane has its own thread, so a cheap bot never waits behind
   a search. A running game where no person holds a seat is ended instead: ``game_abandoned``
   with the reason ``only bots left`` (``bots.bots_alone``); one whose persons' seats are all
   taken over after their time ran out is left alone (``bots.unattended``): nothing thinks for
   nobody, and the clock scheduler ends it if none of them comes back in a seat's full time.
3. **Served fairly**: each lane is a ``queues.FairQueue``, accounts (the table's creator) in
   turn, then each account's tables in turn: one account's twenty tables never hold back
   another account's one, which waits for at most one move of each other account.
4. **Thinks with a bounded time** outside any command: the game is a private copy, the level
   chooses on it (``levels.choose_action``); in the search lane the move's wall time is bounded
   (``budget.ThinkLimits``: at most ``--bot-think-seconds``, and less when many tables wait,
   so that every table waiting has its move within about ``--bot-reply-seconds``). The search
   lane's thread runs at a lower OS priority (``initializer``), and the process's short switch
   interval (``share_the_interpreter``) hands the event loop its turn within a millisecond.
5. **Records** the move in its own command (``moves.BotMoves``), deciding again only if the
   game is still at the version the bot thought about; with several processes the store's
   version key lets exactly one of them record a turn's move.

A move decided within its iterations is a function of the log (the table's seed and version),
whichever process records it; one cut short by the time bound is recorded like any other, and
replays read it from the log. Without a runtime (tests, tools) ``settle`` plays a game's bots to
quiescence on the calling thread, each move with its full iterations.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from service.app.bots import bots_alone, due_bot, unattended
from service.app.bots.budget import ThinkLimits
from service.app.bots.levels import DEFAULT_BUDGET, SEARCHING, Budget
from service.app.bots.moves import BotMoves
from service.app.bots.queues import FairQueue, Heard
from service.app.errors import Conflict, NotFound
from service.app.tables import Tables
from service.store.failures import is_store_failure

log = logging.getLogger("papyrus.bots")

QUICK, SEARCH = "quick", "search"
#: seconds a game heard from another process waits, beyond the think bound, before this
#: process looks at it (the other process's driver records its move meanwhile)
GRACE_MARGIN = 1.0
#: seconds before a game is looked at again after the store failed while it was served
RETRY_SECONDS = 2.0


def lane_of(level: str) -> str:
    return SEARCH if level in SEARCHING else QUICK


class BotDriver:
    """Plays the due bots of every game it is told about (module docstring)."""

    def __init__(
        self,
        tables_: Tables,
        running_games: Callable[[], Iterable[str]] | None = None,
        think: ThinkLimits | None = None,
        initializer: Callable[[], None] | None = None,
    ) -> None:
        """``running_games()``: the ids of every game that may be running (checked at start);
        ``think``: the search lane's bounds on think time; ``initializer``: run first on the
        search lane's thread (the server lowers its OS priority)."""
        self.tables = tables_
        self.running_games = running_games
        self.think = think or ThinkLimits()
        self.initializer = initializer
        self.grace = self.think.move_seconds + GRACE_MARGIN
        self.lanes = {QUICK: FairQueue(), SEARCH: FairQueue()}
        self._woken: OrderedDict[str, None] = OrderedDict()
        self._heard = Heard()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._search = threading.Event()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.moves = BotMoves(tables_)

    @property
    def played(self) -> list[tuple[str, int, int]]:
        """(game id, version decided at, seat) of the bot moves this driver recorded, in order
        (the newest ``moves.PLAYED_MEMORY``)."""
        return self.moves.played

    # -- being told -------------------------------------------------------------------------

    def wake(self, game_id: str, *_: Any) -> None:
        """This process saved the game: look for a due bot now (cheap: called after saves)."""
        with self._lock:
            self._woken[game_id] = None
        self._wake.set()

    def heard(self, game_id: str, version: int | None = None, *_: Any) -> None:
        """Another process (or this one: the feed tells every process) saved the game at
        ``version``: look at it after the grace period if it is still there (the quick lane's
        thread looks at least once a second: no need to wake it for every event)."""
        with self._lock:
            self._heard.hold(game_id, version, time.monotonic() + self.grace)

    # -- threads ----------------------------------------------------------------------------

    def start(self) -> None:
        """The quick lane's thread (which also sorts the woken games, after looking at every
        running game: a slow or unreachable store does not hold the server's start) and the
        search lane's."""
        self._threads = [
            threading.Thread(target=self._run_quick, name="papyrus-bots", daemon=True),
            threading.Thread(target=self._run_search, name="papyrus-bots-search", daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self._search.set()
        for thread in self._threads:
            thread.join(timeout=10)

    def _wake_running(self) -> None:
        if self.running_games is None:
            return
        try:
            for game_id in self.running_games():
                self.wake(game_id)
        except Exception:  # the store is down: games are woken again by their next save
            log.exception("the bot driver could not list the running games")

    def _run_quick(self) -> None:
        self._wake_running()
        while not self._stop.is_set():
            self._wake.wait(timeout=self._until_heard())
            self._wake.clear()
            while not self._stop.is_set():
                self._sort()
                with self._lock:
                    item = self.lanes[QUICK].pop()
                if item is None:
                    break
                self._attempt(item[1], QUICK, DEFAULT_BUDGET)

    def _run_search(self) -> None:
        if self.initializer is not None:
            try:
                self.initializer()
            except Exception:  # a nicety: the lane works without it
                log.exception("the search lane's initializer failed")
        while not self._stop.is_set():
            self._search.wait(timeout=1.0)
            self._search.clear()
            while not self._stop.is_set():
                with self._lock:
                    queue = self.lanes[SEARCH]
                    oldest, item = queue.oldest(), queue.pop()
                    waiting = len(queue) + 1
                if item is None or oldest is None:
                    break
                waited = time.monotonic() - oldest
                self._attempt(item[1], SEARCH, self.think.budget(waiting, waited))

    def _until_heard(self) -> float:
        with self._lock:
            upcoming = self._heard.next_due()
        if upcoming is None:
            return 1.0
        return min(1.0, max(0.0, upcoming - time.monotonic()))

    # -- sorting ----------------------------------------------------------------------------

    def _sort(self) -> None:
        """Put every woken game, and every heard game whose grace period passed, in the lane of
        the bot due there (all at once: the lanes see the burst as a whole)."""
        with self._lock:
            checks: list[tuple[str, int | None]] = [(g, None) for g in self._woken]
            self._woken.clear()
            checks += self._heard.due(time.monotonic())
        if not checks:
            return
        placed: list[tuple[str, str, str]] = []
        for game_id, version in checks:
            try:
                found = self._lane_for(game_id, version)
            except Exception as failure:
                self._failed(game_id, failure)
                continue
            if found is not None:
                placed.append((*found, game_id))
        now = time.monotonic()
        with self._lock:
            for lane, owner, game_id in placed:
                self.lanes[lane].add(owner, game_id, now)
        if any(lane == SEARCH for lane, _, _ in placed):
            self._search.set()

    def _lane_for(self, game_id: str, version: int | None) -> tuple[str, str] | None:
        """(lane, owning account) of the game's due bot; ``None``: nothing to do here."""
        game = self.tables.peek(game_id)
        if game is None:
            try:
                game = self.tables.get(game_id)
            except NotFound:
                return None
        if version is not None and game.version != version:
            return None  # it moved on since: whoever moved it was told, or is telling us
        table = game.table
        due = due_bot(table)
        if due is None:
            return None
        owner = table.created_by or ""
        if bots_alone(table):
            return QUICK, owner  # ending it is one cheap command
        if unattended(table):
            return None  # no bot plays for nobody: it waits for a person to reclaim a seat
        return lane_of(due[1]), owner

    # -- serving ----------------------------------------------------------------------------

    def _attempt(self, game_id: str, lane: str, budget: Budget) -> None:
        try:
            if self.moves.play(game_id, lambda level: lane_of(level) == lane, budget):
                self.wake(game_id)  # the next bot of the game may be due
        except Exception as failure:  # one broken game must not stop every other game's bots
            self._failed(game_id, failure)

    def _failed(self, game_id: str, failure: Exception) -> None:
        """The store failed (look again soon) or the game is broken (look again at its next
        save: it is not tried in a loop)."""
        if is_store_failure(failure) or isinstance(failure, Conflict):
            log.warning("the bot driver will look at game %s again: %s", game_id, failure)
            with self._lock:
                self._heard.hold(game_id, None, time.monotonic() + RETRY_SECONDS)
            return
        log.error("a bot of game %s could not play", game_id, exc_info=failure)

    def step(self, game_id: str) -> bool:
        """Play the due bot of one game, if any, in its own command (with its full iterations:
        tests and tools); True when a move was recorded or the game moved on meanwhile (look
        again), False when no bot is due."""
        return self.moves.play(game_id, None, DEFAULT_BUDGET)

    def settle(self, game_id: str, limit: int = 10_000) -> int:
        """Play the bots of one game on this thread until none is due (tests and tools without
        a running driver); the number of moves recorded. ``limit`` guards against a game whose
        bots would never stop."""
        moves = 0
        while self.step(game_id):
            moves += 1
            if moves >= limit:
                raise RuntimeError(f"the bots of game {game_id} did not settle in {limit} moves")
        return moves
