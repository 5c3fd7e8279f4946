"""The bot driver: every bot plays off the request path, in its own command.

A human's command records only what it caused (the human's action, the end of the game if it
came); a bot that becomes due, of any level, is played here, in its own command:

1. **Woken** by this process's saves (``Tables.subscribe``) and by the store's feed (every
   other process's saves), with the game's id; at start it looks at every running game (the
   read models list them; each is loaded from the store), so a bot that was due when the server
   stopped plays after the restart.
2. **Thinks outside any command**: the game is read (a private copy), the due seat's level
   chooses its action on it (``levels.choose_action``: microseconds for ``random``, up to a
   second for the searching levels). No lock is held and no request waits.
3. **Records** the move with ``Tables.command``, deciding again only if the game is still at the
   version the bot thought about (``Stale`` otherwise: somebody else moved, the game is read
   again). With several processes the store's version key lets exactly one of them record the
   bot's move for that turn; the others find the game moved on. Its save wakes the driver
   again, so the next bot due plays next, in its own command.

One thread plays every game's bots in turn (the games that were woken, oldest first); a bot's
move is a function of the log, so whichever process records it, it is the same. Without a
runtime (tests, tools) ``settle`` plays a game's bots to quiescence on the calling thread.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from domain.registry import rules_for
from service.app.bots import due_bot, record_bot_move
from service.app.bots.levels import choose_action
from service.app.errors import NotFound
from service.app.tables import Tables
from service.store import GameTable

log = logging.getLogger("papyrus.bots")


class Stale(Exception):
    """The game moved on while the bot was thinking: nothing is recorded."""


class BotDriver:
    """Plays the due bots of every game it is told about (module docstring)."""

    def __init__(
        self, tables_: Tables, running_games: Callable[[], Iterable[str]] | None = None
    ) -> None:
        """``running_games()``: the ids of every game that may be running (checked at start)."""
        self.tables = tables_
        self.running_games = running_games
        self._pending: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.played: list[tuple[str, int, int]] = []
        """(game id, version decided at, seat) of every bot move this driver recorded."""

    def wake(self, game_id: str, *_: Any) -> None:
        """A game changed (here or in another process): look for a due bot soon (cheap: the
        listeners of saves and of the feed call it)."""
        with self._lock:
            self._pending[game_id] = None
        self._wake.set()

    def start(self) -> None:
        """Look at every running game and play their bots on the driver's own thread (a slow
        or unreachable store does not hold the server's start, as for the clocks' scheduler)."""
        self._thread = threading.Thread(target=self._run, name="papyrus-bots", daemon=True)
        self._thread.start()

    def _wake_running(self) -> None:
        if self.running_games is None:
            return
        try:
            for game_id in self.running_games():
                self.wake(game_id)
        except Exception:  # the store is down: games are woken again by their next save
            log.exception("the bot driver could not list the running games")

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _run(self) -> None:
        self._wake_running()
        while not self._stop.is_set():
            self._wake.wait(timeout=1.0)
            self._wake.clear()
            while not self._stop.is_set() and (game_id := self._next()) is not None:
                try:
                    if self.step(game_id):
                        self.wake(game_id)  # the next bot of the game may be due
                except Exception:  # one broken game must not stop every other game's bots
                    log.exception("a bot of game %s could not play", game_id)

    def _next(self) -> str | None:
        with self._lock:
            if not self._pending:
                return None
            game_id, _ = self._pending.popitem(last=False)
            return game_id

    def step(self, game_id: str) -> bool:
        """Play the due bot of one game, if any, in its own command; True when a move was
        recorded or the game moved on meanwhile (look again), False when no bot is due."""
        try:
            game = self.tables.get(game_id)
        except NotFound:
            return False
        table = game.table
        due = due_bot(table)
        if due is None:
            return False
        seat, level = due
        version = game.version
        rules = rules_for(table.kind)
        action = choose_action(level, rules, table.game, seat, table.seed, version)

        def decide(fresh: GameTable) -> None:
            if fresh.version != version or due_bot(fresh.table) != due:
                raise Stale
            record_bot_move(fresh, seat, action)

        try:
            self.tables.command(game_id, decide)
        except Stale:
            return True  # look again at the game as it is now
        self.played.append((game_id, version, seat))
        return True

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
