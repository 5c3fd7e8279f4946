"""One bot move, in its own command: what the bot driver's lanes (and ``BotDriver.step``) do to
a game whose bot is due.

The game is read (a private copy), the due seat's level chooses its action on it outside any
command (``levels.choose_action``, with the lane's ``Budget``), then the move is recorded with
``Tables.command``, deciding again only if the game is still at the version the bot thought
about (``Stale`` otherwise: somebody else moved, the driver looks at the game again). With
several processes the store's version key lets exactly one of them record a turn's move.

A running game where no person holds a seat (``bots.bots_alone``) gets no move: its end is
recorded instead, ``game_abandoned`` with the reason ``only bots left``. One whose persons' seats
are all taken over (``bots.unattended``) gets none either: it waits for a person to reclaim a
seat, and the clock scheduler ends it when they have not (``Table.unattended_until``).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable

from domain.registry import rules_for
from domain.table import abandoned_for_bots
from service.app.bots import bots_alone, due_bot, record_bot_move, unattended
from service.app.bots.levels import Budget, choose_action
from service.app.errors import NotFound
from service.app.tables import Tables
from service.store import GameTable

log = logging.getLogger("papyrus.bots")

#: the bot moves ``played`` remembers (the newest)
PLAYED_MEMORY = 10_000


class Stale(Exception):
    """The game moved on while the bot was thinking: nothing is recorded."""


class BotMoves:
    """Plays one game's due bot, or ends a game only bots play (module docstring)."""

    def __init__(self, tables_: Tables) -> None:
        self.tables = tables_
        self._played: deque[tuple[str, int, int]] = deque(maxlen=PLAYED_MEMORY)

    @property
    def played(self) -> list[tuple[str, int, int]]:
        """(game id, version decided at, seat) of the moves recorded here, oldest first."""
        return list(self._played)

    def play(self, game_id: str, wanted: Callable[[str], bool] | None, budget: Budget) -> bool:
        """Play the due bot of one game if ``wanted(level)`` (any level when ``None``), or end
        the game when only bots play it; True when something was recorded or the game moved
        on meanwhile (look again), False when there was nothing to do."""
        try:
            game = self.tables.get(game_id)
        except NotFound:
            return False
        table = game.table
        due = due_bot(table)
        if due is None:
            return False
        if bots_alone(table):
            return self.end(game_id)
        if unattended(table):
            return False  # nobody to play against: it waits for a person (module docstring)
        seat, level = due
        if wanted is not None and not wanted(level):
            return False  # the other lane's (the save that changed the level woke the driver)
        version = game.version
        rules = rules_for(table.kind)
        action = choose_action(level, rules, table.game, seat, table.seed, version, budget)

        def decide(fresh: GameTable) -> None:
            if fresh.version != version or due_bot(fresh.table) != due:
                raise Stale
            record_bot_move(fresh, seat, action)

        try:
            self.tables.command(game_id, decide)
        except Stale:
            return True  # look again at the game as it is now
        self._played.append((game_id, version, seat))
        return True

    def end(self, game_id: str) -> bool:
        """Record the end of a running game no person holds a seat at (True: recorded, or
        somebody else changed the game meanwhile)."""

        def decide(fresh: GameTable) -> None:
            if not bots_alone(fresh.table):
                raise Stale
            fresh.record(abandoned_for_bots())

        try:
            self.tables.command(game_id, decide)
        except Stale:
            return True
        log.info("game %s ended: no person holds a seat, only bots", game_id)
        return True
