"""The games this process knows (``GameCache``): read without asking the store what it knows.

Each entry is the newest version of a game this process has seen, never changed in place (a
newer version replaces it; readers and commands take private copies). An entry is *fresh* while
no newer version is known to exist: this process's own saves replace it, and the store's feed
(``service.store.feed``: LISTEN/NOTIFY on PostgreSQL, polling on SQLite) marks it stale as soon
as any process records a newer version, so the next read fast-forwards it with one query.

A fresh entry is only trusted (read with no SQL at all) while the feed is followed
(``follow``): without one, as in scripts and tests that build an application alone, every read
asks the store for newer events, as before. A stale cache can never make a command win on an old
version: the version key of the store refuses the save, and ``Tables.command`` decides again on
the game fast-forwarded from the store.

Races between a load and a notification are closed by counting loads in flight: a notification
heard while a game is being loaded is kept until the loaded version is offered, and an older
offered version is kept stale. A save offers its game only where an entry exists (an entry
evicted meanwhile may have missed a notification).

Memory: ``maxsize`` games at most (least recently used evicted). A game holds its table with
its effective history (``domain.table.Table.history``: every entry): about 240 KiB for a
finished 4-player Imhotep game of 200 events, so about 240 MiB per 1,000 such games
(``bench/cache_memory.py``); the default of 2,000 is the bound the store's own aggregate cache
had before.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from service.store import GameTable

#: games kept by default (``PAPYRUS_GAME_CACHE``)
GAME_CACHE = 2000
#: callers' logs kept (``Memo``): a log that hides entries holds them all (an Amun-Re game of 600
#: entries: about 0.5 MB), so few
TIMELINES = 256


class GameCache:
    """An LRU of games by id, each fresh or stale; thread-safe.

    ``get`` and ``cache`` and ``maxsize`` are what the server's metrics read (the same shape as
    the ``eventsourcing`` aggregate cache they used to watch)."""

    def __init__(self, maxsize: int = GAME_CACHE) -> None:
        self.maxsize = maxsize
        self.cache: OrderedDict[uuid.UUID, GameTable] = OrderedDict()
        self.trusted = False
        self._stale: set[uuid.UUID] = set()
        self._heard: dict[uuid.UUID, int] = {}  # newest version heard of a cached/loading game
        self._loading: dict[uuid.UUID, int] = {}  # loads in flight, by game
        self._lock = threading.Lock()

    # -- lookups ----------------------------------------------------------------------------------

    def get(self, key: uuid.UUID, *, evict: bool = False) -> GameTable:
        """The fresh, trusted entry of ``key`` (shared: copy it before any change), or
        ``KeyError`` when the store must be asked (missing, stale, or no feed followed)."""
        with self._lock:
            game = self.cache.get(key)
            if game is None or key in self._stale or not self.trusted:
                raise KeyError(key)
            self.cache.move_to_end(key)
            if evict:
                self._drop(key)
            return game

    def base(self, key: uuid.UUID) -> GameTable | None:
        """The entry of ``key`` whether fresh or not (a stale one is fast-forwarded from its
        version), registering a load in flight: ``offer`` or ``abandon`` ends it."""
        with self._lock:
            self._loading[key] = self._loading.get(key, 0) + 1
            return self.cache.get(key)

    def offer(self, game: GameTable) -> None:
        """A load ended with ``game`` as the store had it."""
        key = game.id
        with self._lock:
            self._end_load(key)
            self._put(key, game)

    def abandon(self, key: uuid.UUID) -> None:
        """A load ended without a game (not found, the store failed)."""
        with self._lock:
            self._end_load(key)
            if key not in self.cache:
                self._heard.pop(key, None)

    def saved(self, game: GameTable, *, new: bool = False) -> None:
        """This process saved ``game`` (``new``: a table it just created)."""
        key = game.id
        with self._lock:
            if new or key in self.cache:
                self._put(key, game)

    # -- news -------------------------------------------------------------------------------------

    def heard(self, key: uuid.UUID, version: int) -> None:
        """Some process recorded ``version`` of game ``key`` (the store's feed)."""
        with self._lock:
            cached = self.cache.get(key)
            if cached is None and key not in self._loading:
                return
            if version > self._heard.get(key, 0):
                self._heard[key] = version
            if cached is not None and version > cached.version:
                self._stale.add(key)

    def doubt(self, key: uuid.UUID) -> None:
        """The store may hold more of ``key`` than the entry (a lost race, a failed save)."""
        with self._lock:
            if key in self.cache:
                self._stale.add(key)

    def doubt_all(self) -> None:
        """Every entry may be behind (the feed missed notifications, or was not followed)."""
        with self._lock:
            self._stale.update(self.cache)

    def follow(self) -> None:
        """The feed is followed from now on: fresh entries can be trusted. What was cached
        before may have missed a notification, so it is checked once more."""
        with self._lock:
            self._stale.update(self.cache)
            self.trusted = True

    # -- inside the lock --------------------------------------------------------------------------

    def _end_load(self, key: uuid.UUID) -> None:
        left = self._loading.get(key, 1) - 1
        if left:
            self._loading[key] = left
        else:
            self._loading.pop(key, None)

    def _put(self, key: uuid.UUID, game: GameTable) -> None:
        cached = self.cache.get(key)
        if cached is not None and cached.version > game.version:
            self.cache.move_to_end(key)
            return  # a newer version got here first
        self.cache[key] = game
        self.cache.move_to_end(key)
        if game.version >= self._heard.get(key, 0):
            self._stale.discard(key)
        else:
            self._stale.add(key)
        while len(self.cache) > self.maxsize:
            oldest = next(iter(self.cache))
            self._drop(oldest)

    def _drop(self, key: uuid.UUID) -> None:
        self.cache.pop(key, None)
        self._stale.discard(key)
        if key not in self._loading:
            self._heard.pop(key, None)

    def __len__(self) -> int:
        return len(self.cache)


class Memo:
    """A small thread-safe LRU of what is computed from a game at one version (the log a
    caller sees, ``service.app.numbering``): the log up to a version never changes, so a key
    holding the game's id and version never goes stale."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._values: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any | None:
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.maxsize:
                self._values.popitem(last=False)
