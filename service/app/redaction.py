"""Deleted players' names, taken out of everything a caller is shown (accounts: deletion).

The log is never rewritten: a deleted player's name stays in the entries that recorded it
(``seat_taken``, ``game_abandoned``), and every read path shows ``DELETED_PLAYER`` instead. The
reads go through two places, and both redact: ``Tables`` (a game's seats, its events, its
replay and its state at a version, on GraphQL, REST and the subscriptions alike; exports too,
with the list that lets them verify: ``domain.redaction``) and the read models (summaries,
the lobby, profiles and leaderboards: ``RedactedReadModels``).

Which players deleted their account is read from the store's notification log (the
``Player.Deleted`` events), incrementally: at most every ``REFRESH_SECONDS`` when names are
shown, two small queries (the head of the log, and the deletions since the last look). A
deletion in this process is known here at once; in another process within that bound. A
server follows the store's feed (``follow``), which tells of every deletion: the log is then read
again only after the feed failed (``missed``), and a read of a game asks the store nothing.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterable
from typing import Any

from eventsourcing.utils import get_topic

from domain import redaction
from domain import table as tables
from domain.log import Entry
from domain.redaction import DELETED_PLAYER
from service.readmodels import ReadModels
from service.store import GameTable, Player
from service.store.database import Store

#: how stale this process's list of deleted players may be (seconds)
REFRESH_SECONDS = 0.5
#: notifications read per query when catching up with the log
BATCH = 1000
DELETED_TOPIC = get_topic(Player.Deleted)

Row = dict[str, Any]


class Redaction:
    """Who deleted their account, and the redaction of their names."""

    def __init__(
        self,
        store: Store,
        refresh_seconds: float = REFRESH_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.refresh_seconds = refresh_seconds
        self.clock = clock
        self._deleted: frozenset[str] = frozenset()
        self._position = 0
        self._checked: float | None = None
        self._followed = False
        self._lock = threading.Lock()

    def follow(self) -> None:
        """The feed tells ``add`` of every deletion from now on; the log is read once more up to
        its head (which the feed started after)."""
        with self._lock:
            self._followed = True
            self._checked = None

    def missed(self) -> None:
        """The feed failed and may have missed deletions: read the log again at the next look."""
        with self._lock:
            self._checked = None

    # -- who ------------------------------------------------------------------------------------

    def deleted(self) -> frozenset[str]:
        """The ids of the players who deleted their account (at most ``refresh_seconds`` old)."""
        checked = self._checked
        if checked is None or (
            not self._followed and self.clock() - checked >= self.refresh_seconds
        ):
            self._refresh()
        return self._deleted

    def known_deleted(self) -> frozenset[str] | None:
        """``deleted()`` when it needs no read of the store now; ``None`` when it does."""
        checked = self._checked
        if checked is None or (
            not self._followed and self.clock() - checked >= self.refresh_seconds
        ):
            return None
        return self._deleted

    def names_deleted(self, table: tables.Table, deleted: frozenset[str]) -> bool:
        """Whether a seat of ``table`` is held by one of the ``deleted`` players."""
        return bool(deleted) and any(
            h is not None and h.player_id in deleted for h in table.holders
        )

    def is_deleted(self, player_id: str | None) -> bool:
        return player_id is not None and player_id in self.deleted()

    def add(self, player_id: str) -> None:
        """A deletion this process just saved: redacted here from now on."""
        with self._lock:
            self._deleted = self._deleted | {player_id}

    def _refresh(self) -> None:
        with self._lock:
            checked = self._checked
            now = self.clock()
            if checked is not None and (self._followed or now - checked < self.refresh_seconds):
                return  # another thread just did
            recorder: Any = self.store.recorder
            head = int(recorder.max_notification_id() or 0)
            found: set[str] = set()
            while self._position < head:
                notes = recorder.select_notifications(
                    self._position + 1, BATCH, stop=head, topics=[DELETED_TOPIC]
                )
                found.update(str(uuid.UUID(str(note.originator_id))) for note in notes)
                self._position = notes[-1].id if len(notes) == BATCH else head
            if found:
                self._deleted = self._deleted | found
            self._checked = now

    # -- what is shown --------------------------------------------------------------------------

    def name(self, player_id: str | None, name: str | None) -> str | None:
        return DELETED_PLAYER if self.is_deleted(player_id) else name

    def game(self, game: GameTable) -> GameTable:
        """A private copy of a game, its seats redacted (changed in place and returned)."""
        self.table(game.table)
        return game

    def table(self, table: tables.Table) -> tables.Table:
        """A private copy of a table, its seats redacted (changed in place and returned)."""
        deleted = self.deleted()
        if self.names_deleted(table, deleted):
            table.holders = [
                tables.Holder(h.player_id, DELETED_PLAYER, h.bot)
                if h is not None and h.player_id in deleted
                else h
                for h in table.holders
            ]
        return table

    def entries(self, entries: Iterable[Entry]) -> list[Entry]:
        """The entries as shown: those that name a deleted player name nobody."""
        shown = list(entries)
        deleted = self.deleted()
        if not deleted:
            return shown
        return [redaction.redact(e) if redaction.names_player(e, deleted) else e for e in shown]

    def row(self, row: Row | None) -> Row | None:
        """A read-model row as shown (a summary's players, a profile, a rating)."""
        if row is None:
            return None
        deleted = self.deleted()
        if not deleted:
            return row
        if isinstance(row.get("players"), list) and any(
            isinstance(p, dict) and p.get("player_id") in deleted for p in row["players"]
        ):
            row = {
                **row,
                "players": [
                    {**p, "name": DELETED_PLAYER} if p.get("player_id") in deleted else p
                    for p in row["players"]
                ],
            }
        if row.get("player_id") in deleted and "name" in row:
            row = {**row, "name": DELETED_PLAYER}
        return row

    def rows(self, rows: Iterable[Row]) -> list[Row]:
        return [shown for row in rows if (shown := self.row(row)) is not None]


class RedactedReadModels:
    """The read models as the transports query them: every row that shows a player's name
    shows a deleted player as ``DELETED_PLAYER``. Each query is declared here, redacted or
    said to show no name: nothing passes through undeclared (a test holds every public method
    of ``ReadModels`` to it), so a new query cannot show a deleted player's name by default."""

    def __init__(self, readmodels: ReadModels, redaction_: Redaction) -> None:
        self._readmodels = readmodels
        self._redaction = redaction_

    # -- no player's name in these: counts, positions, game ids ---------------------------------

    def count_summaries(self, **criteria: Any) -> int:
        return self._readmodels.count_summaries(**criteria)

    def count_ratings(self, kind: str) -> int:
        return self._readmodels.count_ratings(kind)

    def statistics(self, kind: str) -> dict[str, Any]:
        return self._readmodels.statistics(kind)

    def bot_seats(self, account: str) -> list[tuple[str, str]]:
        return self._readmodels.bot_seats(account)

    def positions(self) -> dict[str, int]:
        return self._readmodels.positions()

    def store_position(self) -> int:
        return self._readmodels.store_position()

    def public_positions(self) -> tuple[int, dict[str, int]]:
        return self._readmodels.public_positions()

    def wait_for_public(self, position: int, timeout: float = 5.0) -> bool:
        return self._readmodels.wait_for_public(position, timeout)

    def wait_for(self, position: int, timeout: float = 5.0) -> bool:
        return self._readmodels.wait_for(position, timeout)

    def is_current(self) -> bool:
        return self._readmodels.is_current()

    def fresh(self) -> None:
        self._readmodels.fresh()

    def catch_up(self, names: tuple[str, ...] | None = None) -> int:
        return self._readmodels.catch_up(names)

    def rebuild(self, names: tuple[str, ...] | None = None) -> int:
        return self._readmodels.rebuild(names)

    def close(self) -> None:
        self._readmodels.close()

    # -- rows that name players -----------------------------------------------------------------

    def summaries(self, **criteria: Any) -> list[Row]:
        return self._redaction.rows(self._readmodels.summaries(**criteria))

    def summary(self, game_id: str) -> Row | None:
        return self._redaction.row(self._readmodels.summary(game_id))

    def profile(self, player_id: str) -> Row | None:
        return self._redaction.row(self._readmodels.profile(player_id))

    def leaderboard(self, kind: str, limit: int, offset: int = 0) -> list[Row]:
        return self._redaction.rows(self._readmodels.leaderboard(kind, limit, offset))

    def player_ratings(self, player_id: str) -> list[tuple[int, Row]]:
        return [
            (rank, self._redaction.row(row) or row)
            for rank, row in self._readmodels.player_ratings(player_id)
        ]
