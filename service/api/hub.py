"""Wakes live subscribers when a game has new events, recorded in this process (the application
calls ``notify`` after each save) or in another (the store's feed calls it: LISTEN/NOTIFY on
PostgreSQL, one poll of the notification log per process on SQLite).

The hub carries no event data: a woken subscriber reads the new events from the store after the
last version it delivered, so delivery is exactly once and in order whatever the wake-ups.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any

from service.app.cache import Memo

#: steps and executed events kept for the subscribers of the same game: only a burst's worth
#: is needed (every subscriber of a game is served within moments of the others), and a step
#: with the typed view is tens of KB
SHARED = 512


class Hub:
    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiters: dict[str, set[asyncio.Event]] = defaultdict(set)
        self._lobby: set[asyncio.Queue[tuple[str, int]]] = set()
        #: what live subscribers are pushed, computed once and handed to each: the steps of a
        #: game's entries by version and caller (``steps.fold``) and the executed events
        #: by document and step (``streaming.EventExecution``)
        self.shared = Memo(SHARED)
        #: the worker trips in flight for spectators woken together (``gamestream.woken_news``)
        self.flights: dict[tuple[Any, ...], asyncio.Future[None]] = {}

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def notify(self, game_id: str, version: int = 0) -> None:
        """Thread-safe: called by the store writer after each save."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(self._wake, game_id)

    def _wake(self, game_id: str) -> None:
        for waiter in self._waiters.get(game_id, ()):
            waiter.set()

    # -- the lobby: every subscriber gets the ids of the tables that changed ----------------------

    def lobby_changed(self, game_id: str, version: int) -> None:
        """Thread-safe: a table was created, seated, started, finished or abandoned (the entry
        ``version`` of ``game_id`` did it)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(self._push_lobby, game_id, version)

    def _push_lobby(self, game_id: str, version: int) -> None:
        for queue in self._lobby:
            queue.put_nowait((game_id, version))

    def lobby_queue(self) -> asyncio.Queue[tuple[str, int]]:
        queue: asyncio.Queue[tuple[str, int]] = asyncio.Queue()
        self._lobby.add(queue)
        return queue

    def release_lobby(self, queue: asyncio.Queue[tuple[str, int]]) -> None:
        self._lobby.discard(queue)

    def subscriptions(self) -> int:
        """Live subscribers in this process (game event streams and lobby watchers)."""
        return sum(len(w) for w in list(self._waiters.values())) + len(self._lobby)

    def waiter(self, game_id: str) -> asyncio.Event:
        event = asyncio.Event()
        self._waiters[game_id].add(event)
        return event

    def release(self, game_id: str, event: asyncio.Event) -> None:
        waiters = self._waiters.get(game_id)
        if waiters is not None:
            waiters.discard(event)
            if not waiters:
                del self._waiters[game_id]
