"""The ``Game`` type: a game as the caller may see it, now and (``gamelog``: its log, replays
and undo status) in the past. Its fields and their descriptions are declared once, for both
transports, in ``service.api.shapes.games.Game``; here each is resolved (``@graphql_type``
makes each method named like a field its resolver)."""

from __future__ import annotations

import typing
from datetime import datetime
from typing import Any

import strawberry
from strawberry.scalars import JSON

from domain import table as tables
from service.api.graphql import gamelog
from service.api.graphql.catalog import Move, moves_of
from service.api.graphql.clocktypes import GameClock, game_clock
from service.api.graphql.context import Info
from service.api.graphql.gamelog import (
    EventCursor,
    First,
    GameEventConnection,
    ReplayStart,
    Version,
)
from service.api.graphql.gameviews import GameView, typed_view
from service.api.graphql.shaped import build, graphql_type
from service.api.graphql.types import (
    ForkSource,
    GameKind,
    GameResult,
    GameStatus,
    Node,
    ReplayStep,
    Seat,
    UndoRequest,
    UndoStatus,
)
from service.api.shapes import games
from service.app import numbering, views
from service.app.caller import Caller
from service.app.clocks import clock_view, clock_view_at
from service.app.tables import GameTable


def game_of(info: Info, game: GameTable) -> Game:
    """``game`` as the request's caller may see it."""
    made: Any = Game  # a derived strawberry type: its private fields are keyword arguments
    return typing.cast(Game, made(_game=game, _caller=info.context.caller))


async def current_table(info: Info, game_id: str) -> GameTable:
    """The game ``game_id`` now: the copy this process knows current, where it knows one (no
    trip to a worker; the cache's own, which ``Game`` only reads), else read on a worker;
    ``NotFound`` for no such game."""
    tables_ = info.context.app.tables
    found = tables_.peek(game_id)
    return found if found is not None else await info.context.run(tables_.get, game_id)


@graphql_type(games.Game)
class Game(Node):
    _game: strawberry.Private[GameTable]
    _caller: strawberry.Private[Caller]
    _log: strawberry.Private[numbering.Timeline | None] = None
    _legal_actions: strawberry.Private[list[Any] | None] = None

    @property
    def _table(self) -> tables.Table:
        return self._game.table

    async def _seen(self, info: Info) -> numbering.Timeline:
        """The caller's log of this game (``numbering.Timeline``), read once per ``Game``."""
        if self._log is None:
            context = info.context
            tables_ = context.app.tables
            known = numbering.known_timeline(tables_, self._game, self._caller)
            if known is None:
                known = await context.run(numbering.timeline, tables_, self._game, self._caller)
            self._log = known
        return self._log

    def _legal(self) -> list[Any]:
        """The caller's legal actions, listed once for ``legalActions`` and ``moves``."""
        if self._legal_actions is None:
            self._legal_actions = views.legal_actions(self._table, self._caller)
        return self._legal_actions

    async def _past(self, info: Info, version: int) -> GameTable:
        """The game right after event ``version``, a number of the caller's log."""
        recorded = (await self._seen(info)).version_of(version)
        return await info.context.run(info.context.app.tables.past, self._game, recorded)

    async def _shown_at(self, info: Info, version: int) -> dict[str, Any]:
        """The state right after event ``version`` as the caller could see it then; once the
        game is over everything is public."""
        past = await self._past(info, version)
        return views.state(past.table, self._caller, revealed=views.is_revealed(self._table))

    def _typed(self, shown: dict[str, Any]) -> GameView | None:
        """A state as typed GraphQL; ``None`` before the game starts (no state yet)."""
        return typed_view(self._table.kind, shown) if shown else None

    def id(self) -> strawberry.ID:
        return strawberry.ID(str(self._game.id))

    def kind(self) -> GameKind:
        return GameKind(self._table.kind)

    def status(self) -> GameStatus:
        return GameStatus(self._table.status)

    def options(self) -> JSON:
        return JSON(self._table.options)

    async def version(self, info: Info) -> int:
        return (await self._seen(info)).version

    def undo_allowed(self) -> bool:
        return self._table.undo_allowed

    def seed(self) -> str | None:
        return self._table.seed if views.is_revealed(self._table) else None

    def seed_salt(self) -> str | None:
        return self._table.seed_salt if views.is_revealed(self._table) else None

    def seed_commitment(self) -> str:
        return self._table.seed_commitment

    def ranked(self) -> bool:
        return self._unranked_reason() is None

    def unranked_reason(self) -> str | None:
        return self._unranked_reason()

    def _unranked_reason(self) -> str | None:
        # the rating rule itself (``domain.table.why_unrated``): what the ratings do
        return self._table.unrated_reason(imported=self._game.imported_by is not None)

    def rules_version(self) -> str:
        return self._table.rules_version

    def created_at(self) -> datetime:
        return self._game.created_on

    async def updated_at(self, info: Info) -> datetime:
        return (await self._seen(info)).updated

    def seats(self) -> list[Seat]:
        return [Seat.of(s) for s in views.seat_list(self._table)]

    def my_seat(self) -> int | None:
        return views.my_seat(self._table, self._caller)

    def active_seats(self) -> list[int]:
        return views.active_seats(self._table)

    def clock(self, info: Info) -> GameClock | None:
        return game_clock(clock_view(self._table, info.context.app.clocks.now()))

    async def clock_at(self, info: Info, version: Version) -> GameClock | None:
        past = await self._past(info, version)
        return game_clock(clock_view_at(past.table))

    def state(self) -> JSON:
        return JSON(views.state(self._table, self._caller))

    def view(self) -> GameView | None:
        return self._typed(views.state(self._table, self._caller))

    def legal_actions(self) -> list[JSON]:
        return [JSON(a) for a in self._legal()]

    def moves(self) -> list[Move]:
        return moves_of(self._table.kind, self._legal())

    def scores(self) -> list[int]:
        return views.scores(self._table)

    def result(self) -> GameResult | None:
        shown = views.result(self._table)
        return build(GameResult, shown) if shown else None

    async def events(
        self,
        info: Info,
        first: First = None,
        after: EventCursor = None,
    ) -> GameEventConnection:
        return await gamelog.events(info, self._game, self._caller, self._seen, first, after)

    async def can_undo(self, info: Info) -> UndoStatus:
        return gamelog.undo_status(self._game, self._caller, await self._seen(info))

    async def undo_request(self, info: Info) -> UndoRequest | None:
        request = self._table.undo_request  # the log is read only for a request
        return None if request is None else gamelog.undo_request(request, await self._seen(info))

    async def forked_from(self, info: Info) -> ForkSource | None:
        source = self._table.forked_from  # the log is read only for a fork
        return None if source is None else gamelog.fork_source(source, await self._seen(info))

    async def replay(
        self, info: Info, after: ReplayStart = 0, first: First = None
    ) -> list[ReplayStep]:
        return await gamelog.replay(info, self._game, self._caller, self._seen, after, first)

    async def state_at(self, info: Info, version: Version) -> JSON | None:
        return JSON(await self._shown_at(info, version))

    async def view_at(self, info: Info, version: Version) -> GameView | None:
        return self._typed(await self._shown_at(info, version))
