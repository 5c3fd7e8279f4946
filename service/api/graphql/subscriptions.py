"""The subscriptions: a game's events and the lobby's changes, live over the websocket.

A live subscriber reads the store only when it is woken: the hub wakes it on every new event of
its game, whichever process recorded it (this process's saves, and the store's feed for the
others: ``service.api.hub``), so an idle subscription costs nothing. ``RECHECK_SECONDS`` is a
safety net only: a wake-up lost anyway is made good within that time.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
from collections.abc import AsyncGenerator
from typing import Annotated, Any

import strawberry
from strawberry.scalars import JSON

from domain import table as tables
from domain.registry import rules_for
from service.api.graphql.clocktypes import GameClock, game_clock
from service.api.graphql.context import Context, Info
from service.api.graphql.gameviews import GameView, typed_view
from service.api.graphql.readtypes import (
    GameSummary,
)
from service.api.graphql.types import (
    GameEvent,
    GameID,
    GameKind,
    GameStatus,
)
from service.app import numbering, views
from service.app.clocks import clock_view_at
from service.app.errors import BadInput
from service.app.tables import GameTable, Recorded

#: a live subscriber that was not woken re-reads the store after this long all the same
RECHECK_SECONDS = 30.0


#: ``afterVersion`` of the game subscriptions
AfterVersion = Annotated[
    int | None,
    strawberry.argument(
        description="Catch up from the event after this number of the caller's log (0: from "
        "the first); null: only what happens from now on."
    ),
]


@strawberry.type(description="Live updates over the websocket (`graphql-transport-ws`).")
class Subscription:
    @strawberry.subscription(
        description="Every event after `afterVersion` (catch-up; default: the current version), "
        "then live, as the caller may see it; completes after the game ends."
    )
    async def game_events(
        self, info: Info, game_id: GameID, after_version: AfterVersion = None
    ) -> AsyncGenerator[GameEvent, None]:
        caller = info.context.caller
        async for _, current, log, record in game_entries(info.context, game_id, after_version):
            yield GameEvent.of(views.event(current.table, record, caller, log))

    @strawberry.subscription(
        description="Like `gameEvents` (the same events, numbered alike), each with everything "
        "a client needs to redraw the game right after it, as the caller may see it: a client "
        "can keep its screen current from this subscription alone."
    )
    async def game_changed(
        self, info: Info, game_id: GameID, after_version: AfterVersion = None
    ) -> AsyncGenerator[GameChange, None]:
        caller = info.context.caller
        async for table, current, log, record in game_entries(info.context, game_id, after_version):
            revealed = views.is_revealed(current.table)  # over: everything is public
            shown = views.state(table, caller, revealed=revealed)
            event = GameEvent.of(views.event(current.table, record, caller, log))
            yield GameChange(
                version=event.version,
                status=GameStatus(table.status),
                active_seats=views.active_seats(table),
                view=typed_view(table.kind, shown) if shown else None,
                state=JSON(shown),
                legal_actions=[JSON(a) for a in views.legal_actions(table, caller)],
                event=event,
                clock=game_clock(clock_view_at(table)),
            )

    @strawberry.subscription(
        description="Tables as they are created, seated, started, finished or abandoned "
        "(the summary after the change; a table left the lobby when it is no longer OPEN)."
    )
    async def lobby_changed(
        self,
        info: Info,
        kind: Annotated[
            GameKind | None,
            strawberry.argument(description="Only tables of this kind (null: every kind)."),
        ] = None,
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


@strawberry.type(
    description="A game right after one event, as the caller may see it (`gameChanged`)."
)
class GameChange:
    version: int = strawberry.field(
        description="Number of the event in the caller's log (as `Game.version` right after it)."
    )
    status: GameStatus = strawberry.field(description="The game's status right after the event.")
    active_seats: list[int] = strawberry.field(description="Who must act right after the event.")
    view: GameView | None = strawberry.field(
        description="The caller's typed view right after the event (the same information as "
        "`state`); null before the game starts."
    )
    state: JSON = strawberry.field(description="The caller's view right after the event.")
    legal_actions: list[JSON] = strawberry.field(
        description="Exactly the actions `act` accepts from the caller right after the event."
    )
    event: GameEvent = strawberry.field(description="The event, as the caller may see it.")
    clock: GameClock | None = strawberry.field(
        default=None,
        description="A timed table's clock right after the event (its `now`: the event's "
        "time on the clock); null for a table without a time control.",
    )


async def game_entries(
    context: Context, game_id: GameID, after_version: int | None
) -> AsyncGenerator[tuple[tables.Table, GameTable, numbering.Timeline, Recorded], None]:
    """The caller's entries of a game after its number ``after_version`` (catch-up; default:
    the current version), then live, until the game is over: each with the table right after
    it, the game as it is now, and the caller's log (``numbering.Timeline``) now."""
    games, caller = context.app.tables, context.caller
    game = await context.run(games.get, str(game_id))
    if after_version is not None and after_version < 0:
        raise BadInput("afterVersion must not be negative.")
    # versions are numbers of the caller's log: its entries only (``numbering.Timeline``)
    log = await context.run(numbering.timeline, games, game, caller)
    last = game.version if after_version is None else log.after(after_version)
    floor = log.version if after_version is None else after_version
    key = str(game.id)
    table: tables.Table | None = None  # the table right after entry ``last``, once needed
    if last == game.version:
        table = copy.deepcopy(game.table)
    elif last > 0:
        table = (await context.run(games.past, game, last)).table
    rules = rules_for(game.table.kind)
    waiter = context.hub.waiter(key)
    try:
        while True:
            waiter.clear()
            records = await context.run(games.events, key, last, 500)
            if records:
                await context.run(context.recheck)  # a token revoked meanwhile ends it
                current = await context.run(games.get, key)
                # the store may hold entries this process does not know of yet (a save
                # committing here, or another process's, not yet heard): the caller's log
                # is the game's as this process knows it, so entries past it wait for the
                # wake-up that follows once the game here is current (``Hub``)
                records = [r for r in records if r.version <= current.version]
            if records:
                log = await context.run(numbering.timeline, games, current, caller)
                for record in records:
                    last = record.version
                    if table is None:
                        table = tables.start(record)
                    else:
                        table = tables.evolve(table, record, rules)
                    if log.sees(record.version) and log.number(record.version) > floor:
                        yield table, current, log, record
                if current.table.status in (tables.FINISHED, tables.ABANDONED) and (
                    last >= current.version
                ):
                    return
                continue
            # ``asyncio.timeout``, not ``wait_for``: on Python 3.11 ``wait_for`` drops a
            # cancellation (the client gone) that lands in the same turn as the wake-up, and
            # the subscription would run on, unseen, for ever
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(RECHECK_SECONDS):
                    await waiter.wait()
    finally:
        context.hub.release(key, waiter)


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
