"""The subscriptions: a game's events and the lobby's changes, live over the websocket.

A live subscriber reads the store only when it is woken: the hub wakes it on every new event of
its game, whichever process recorded it (this process's saves, and the store's feed for the
others: ``service.api.hub``), so an idle subscription costs nothing. ``RECHECK_SECONDS`` is a
safety net only: a wake-up lost anyway is made good within that time.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator
from typing import Any

import strawberry

from domain import table as tables
from service.api.graphql.context import Context, Info
from service.api.graphql.readtypes import (
    GameSummary,
)
from service.api.graphql.types import (
    GameEvent,
    GameID,
    GameKind,
)
from service.app import numbering, views
from service.app.errors import BadInput

#: a live subscriber that was not woken re-reads the store after this long all the same
RECHECK_SECONDS = 30.0


@strawberry.type
class Subscription:
    @strawberry.subscription(
        description="Every event after `afterVersion` (catch-up; default: the current version), "
        "then live, as the caller may see it; completes after the game ends."
    )
    async def game_events(
        self, info: Info, game_id: GameID, after_version: int | None = None
    ) -> AsyncGenerator[GameEvent, None]:
        context = info.context
        games, caller = context.app.tables, context.caller
        game = await context.run(games.get, str(game_id))
        if after_version is not None and after_version < 0:
            raise BadInput("afterVersion must not be negative.")
        # versions are numbers of the caller's log: its entries only (``numbering.Timeline``)
        log = await context.run(numbering.timeline, games, game, caller)
        last = game.version if after_version is None else log.after(after_version)
        floor = log.version if after_version is None else after_version
        key = str(game.id)
        waiter = context.hub.waiter(key)
        try:
            while True:
                waiter.clear()
                records = await context.run(games.events, key, last, 500)
                if records:
                    await context.run(context.recheck)  # a token revoked meanwhile ends it
                    current = await context.run(games.get, key)
                    log = await context.run(numbering.timeline, games, current, caller)
                    for record in records:
                        last = record.version
                        if log.sees(record.version) and log.number(record.version) > floor:
                            yield GameEvent.of(views.event(current.table, record, caller, log))
                    if current.table.status in (tables.FINISHED, tables.ABANDONED) and (
                        last >= current.version
                    ):
                        return
                    continue
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(waiter.wait(), timeout=RECHECK_SECONDS)
        finally:
            context.hub.release(key, waiter)

    @strawberry.subscription(
        description="Tables as they are created, seated, started, finished or abandoned "
        "(the summary after the change; a table left the lobby when it is no longer OPEN)."
    )
    async def lobby_changed(
        self, info: Info, kind: GameKind | None = None
    ) -> AsyncGenerator[GameSummary, None]:
        context = info.context
        context.caller  # noqa: B018 - a token the store could not check yet: UNAVAILABLE here
        queue = context.hub.lobby_queue()
        try:
            while True:
                game_id, version = await queue.get()
                row = await summary_after(context, game_id, version)
                if row is not None and (kind is None or row["kind"] == kind.value):
                    yield GameSummary.of(row)
        finally:
            context.hub.release_lobby(queue)


#: how long a lobby change waits for the read model to show it (another process may be
#: applying that entry right now), and how often it looks
LOBBY_WAIT, LOBBY_POLL = 5.0, 0.02


async def summary_after(context: Context, game_id: str, version: int) -> dict[str, Any] | None:
    """The game's summary once the read model shows entry ``version`` or later; after
    ``LOBBY_WAIT`` seconds the latest there is. Waits on the event loop, not on a worker."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + LOBBY_WAIT
    while True:
        row = await context.run(context.app.readmodels.summary, game_id)
        seen = None if row is None else row.get("log_version", row["version"])
        if (seen is not None and seen >= version) or loop.time() > deadline:
            return row
        await asyncio.sleep(LOBBY_POLL)
