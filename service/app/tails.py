"""The last entries of each game this process saved or read (``Tails``): a wake-up answered
from memory.

Every live subscriber of a game reads the entries after its last one when it is woken
(``service.api.graphql.gamestream``): four seats and their spectators, each its own query for
the same few entries. The entries a process saves (``Tables.command``) or fast-forwards its
cached game with (``Tables.get``) are the store's own, in order: kept here, a tail that reaches
back far enough answers those reads with no query.

A tail is contiguous: it holds every entry from its first version to its last, as recorded (the
store's log, undone entries and the table's own entries included). Entries that do not join on
(a gap: events this process never read) replace it. Memory: ``KEEP`` entries of at most
``maxsize`` games (least recently used dropped).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from domain.log import Entry

#: entries kept per game: a subscriber further behind reads the store
KEEP = 64


class Tails:
    """The last entries of recently used games, by game id; thread-safe."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._tails: OrderedDict[str, list[Entry]] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, game_id: str, entries: list[Entry]) -> None:
        """``entries`` (consecutive, in order) were recorded for ``game_id``."""
        if not entries or not self.maxsize:
            return
        with self._lock:
            tail = self._tails.get(game_id)
            if tail is not None and tail[0].version <= entries[0].version <= tail[-1].version + 1:
                kept = [e for e in tail if e.version < entries[0].version] + list(entries)
            else:  # a gap (or older news): what follows joins on to these
                kept = list(entries)
            self._tails[game_id] = kept[-KEEP:]
            self._tails.move_to_end(game_id)
            while len(self._tails) > self.maxsize:
                self._tails.popitem(last=False)

    def after(self, game_id: str, after: int, upto: int, limit: int | None) -> list[Entry] | None:
        """The entries after version ``after`` up to ``upto`` (``limit`` at most), or ``None``
        when the tail does not hold all of them (the store must be asked)."""
        with self._lock:
            tail = self._tails.get(game_id)
            if tail is None or tail[0].version > after + 1 or tail[-1].version < upto:
                return None
            found = [e for e in tail if after < e.version <= upto]
        return found if limit is None else found[:limit]
