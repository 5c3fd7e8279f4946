"""A game's past as the caller may see it: the pages of its log, its replay, the undo status and
where a fork comes from (the resolvers of ``Game.events``, ``replay``, ``canUndo``,
``undoRequest`` and ``forkedFrom``).

Every version these answer is a number of the caller's own log (``numbering.Timeline``): an
event private to another seat has none, so the numbers a seat sees have no gaps.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types.nodes import SelectedField

from domain import table as tables
from domain import undo
from service.api.graphql.clocktypes import GameClock, game_clock
from service.api.graphql.context import Info
from service.api.graphql.gameviews import typed_view
from service.api.graphql.pages import Connection, paged
from service.api.graphql.types import (
    ForkSource,
    GameEvent,
    ReplayStep,
    UndoRequest,
    UndoStatus,
    decode_cursor,
    page_size,
)
from service.app import numbering, views
from service.app.caller import Caller
from service.app.clocks import clock_view_at
from service.app.errors import BadInput
from service.app.tables import GameTable

#: the caller's log of a game, read the first time it is needed (``Game._seen``): an argument
#: is checked before it is read
Seen = Callable[[Info], Awaitable[numbering.Timeline]]

#: ``version`` of the time-travel fields: a number of the caller's own log
Version = Annotated[
    int,
    strawberry.argument(
        description="An event number of the caller's log (`GameEvent.version`, 1 = first)."
    ),
]
#: ``first`` of a page of the log or of a replay
First = Annotated[
    int | None,
    strawberry.argument(description="Page size, 0-200 (default 100)."),
]
#: ``after`` of ``Game.events``
EventCursor = Annotated[
    str | None,
    strawberry.argument(description="A cursor (`GameEventEdge.cursor`): the page starts after it."),
]
#: ``after`` of ``Game.replay``
ReplayStart = Annotated[
    int,
    strawberry.argument(
        description="An event number of the caller's log: the steps start after it "
        "(0: from the first event)."
    ),
]


@paged(
    "A page of a game's log (Relay connection).",
    edges="The page's events with cursors.",
    nodes="The page's events.",
    total_count="Events of the log the caller may see, over all pages.",
    edge="An event of a page, with its cursor.",
    cursor="Pass as `after` to read the events after it.",
    node="The event.",
)
class GameEventConnection(Connection[GameEvent]):
    """A page of ``Game.events``."""


async def events(
    info: Info, game: GameTable, caller: Caller, seen: Seen, first: int | None, after: str | None
) -> GameEventConnection:
    """The page of the caller's log of ``game`` after the cursor ``after``."""
    limit = page_size(first, default=100)
    start = decode_cursor("event", after) or 0
    log = await seen(info)
    context = info.context
    shown, more = await context.run(
        numbering.page, context.app.tables, game, caller, log, start, limit
    )
    nodes = [GameEvent.of(s) for s in shown]

    async def count() -> int:
        return log.version

    return GameEventConnection.of(
        nodes, [n.version for n in nodes], prefix="event", after=after, more=more, count=count
    )


async def replay(
    info: Info, game: GameTable, caller: Caller, seen: Seen, after: int, first: int | None
) -> list[ReplayStep]:
    """The steps of the caller's log after its event ``after``, each with the state right
    after it as the caller may see it (everything once the game is over)."""
    limit = page_size(first, default=100)
    if after < 0:
        raise BadInput("after must not be negative.")
    log = await seen(info)
    current = game.table
    revealed = views.is_revealed(current)
    window = numbering.replay_window(log, after, limit)
    typed, timed = selects(info, "view"), selects(info, "clock")

    def steps() -> list[ReplayStep]:
        if window is None:
            return []
        return [
            replay_step(
                current.kind,
                GameEvent.of(views.event(current, entry, caller, log)),
                views.state(table, caller, revealed=revealed),
                game_clock(clock_view_at(table)) if timed else None,
                typed=typed,
            )
            for table, entry in info.context.app.audit.replay(str(game.id), *window)
            if log.sees(entry.version)
        ]

    return await info.context.run(steps)


def replay_step(
    kind: str,
    event: GameEvent,
    shown: dict[str, object],
    clock: GameClock | None = None,
    *,
    typed: bool = True,
) -> ReplayStep:
    """One replay step: the event and the state right after it, as JSON and (``typed``: when
    the query asks for it) typed, and the clock of a timed table right after it."""
    return ReplayStep(
        event=event,
        state=JSON(shown),
        view=typed_view(kind, shown) if shown and typed else None,
        clock=clock,
    )


def selects(info: Info, name: str) -> bool:
    """Whether the field being resolved selects ``name`` among its own fields (through
    fragments too): what nobody asked for need not be built."""

    def within(selections: list[Any]) -> bool:
        return any(
            s.name == name if isinstance(s, SelectedField) else within(s.selections)
            for s in selections
        )

    return any(within(field.selections) for field in info.selected_fields)


def undo_status(game: GameTable, caller: Caller, log: numbering.Timeline) -> UndoStatus:
    """Whether the caller may take back its last action now, and why."""
    table = game.table
    seat = views.my_seat(table, caller)
    verdict = undo.can_undo(table, seat, log.number)
    target = undo.last_own_start(table, seat) if seat is not None else None
    return UndoStatus(
        allowed=verdict.allowed,
        immediate=verdict.immediate,
        to_version=log.number(target) if verdict.allowed and target is not None else None,
        reason=verdict.reason,
    )


def undo_request(request: tables.UndoRequest, log: numbering.Timeline) -> UndoRequest:
    """A pending request to take actions back, its versions numbered in the caller's log."""
    return UndoRequest(
        version=log.number(request.version),
        seat=request.seat,
        to_version=log.number(request.to_version),
        waiting=list(request.waiting),
    )


def fork_source(source: dict[str, Any], log: numbering.Timeline) -> ForkSource:
    """Where a fork comes from, its version numbered in the caller's log."""
    return ForkSource.of(log.fork_source(source))
