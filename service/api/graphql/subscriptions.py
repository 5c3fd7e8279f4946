"""The subscriptions: a game's events and the lobby's changes, live over the websocket."""

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
from service.app import views
from service.app.errors import BadInput

#: a live subscriber also re-reads the store this often, to catch events saved by other processes
POLL_SECONDS = 1.0


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
        last = game.version if after_version is None else after_version
        key = str(game.id)
        waiter = context.hub.waiter(key)
        try:
            while True:
                waiter.clear()
                records = await context.run(games.events, key, last, 500)
                if records:
                    current = await context.run(games.get, key)
                    for record in records:
                        yield GameEvent.of(views.event(current.table, record, caller))
                        last = record.version
                    if current.table.status in (tables.FINISHED, tables.ABANDONED) and (
                        last >= current.version
                    ):
                        return
                    continue
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(waiter.wait(), timeout=POLL_SECONDS)
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
        if (row is not None and row["version"] >= version) or loop.time() > deadline:
            return row
        await asyncio.sleep(LOBBY_POLL)
