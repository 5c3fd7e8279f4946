"""The subscriptions: a game's events and the lobby's changes, live over the websocket.

A live subscriber reads the store only when it is woken: the hub wakes it on every new event of
its game, whichever process recorded it (this process's saves, and the store's feed for the
others: ``service.api.hub``), so an idle subscription costs nothing. The stream of a game's
entries, its catch-up and its work off the event loop: ``gamestream``; what a subscription may
cost: ``budget``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Annotated, Any

import strawberry
from strawberry.scalars import JSON

from service.api.graphql.budget import charge
from service.api.graphql.clocktypes import GameClock, game_clock
from service.api.graphql.context import Context, Info
from service.api.graphql.cost import event_cost, selected_fields
from service.api.graphql.gamestream import CLOCK, LEGAL_ACTIONS, STATE, VIEW, game_entries
from service.api.graphql.gameviews import GameView
from service.api.graphql.readtypes import (
    GameSummary,
)
from service.api.graphql.types import (
    GameEvent,
    GameID,
    GameKind,
    GameStatus,
)

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
        cost = event_cost(info._raw_info)
        async for step in game_entries(info.context, str(game_id), after_version, cost):
            event = step.made.get("event")
            if event is None:
                event = step.made["event"] = GameEvent.of(step.event)
            yield event

    @strawberry.subscription(
        description="Like `gameEvents` (the same events, numbered alike), each with everything "
        "a client needs to redraw the game right after it, as the caller may see it: a client "
        "can keep its screen current from this subscription alone."
    )
    async def game_changed(
        self, info: Info, game_id: GameID, after_version: AfterVersion = None
    ) -> AsyncGenerator[GameChange, None]:
        cost = event_cost(info._raw_info)
        needs = selected_fields(info._raw_info) & {STATE, VIEW, LEGAL_ACTIONS, CLOCK}
        entries = game_entries(info.context, str(game_id), after_version, cost, needs)
        async for step in entries:
            change = step.made.get("change")
            if change is None:  # made once per step: a shared step is executed once too
                event = GameEvent.of(step.event)
                change = step.made["change"] = GameChange(
                    version=event.version,
                    status=GameStatus(step.status),
                    active_seats=step.active_seats,
                    view=step.view,  # each only when selected (``steps.Step``)
                    state=JSON(step.state),
                    legal_actions=[JSON(a) for a in step.legal_actions or ()],
                    event=event,
                    clock=game_clock(step.clock),
                )
            yield change

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
        await charge(context, event_cost(info._raw_info), 0)  # the caller checked first
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
