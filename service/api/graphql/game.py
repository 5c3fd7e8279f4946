"""The ``Game`` type: a game as the caller may see it, with its log, replays and undo status."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types.nodes import SelectedField

from domain import table as tables
from domain import undo
from service.api.graphql.catalog import Move, moves_of
from service.api.graphql.clocktypes import GameClock, game_clock
from service.api.graphql.context import Context
from service.api.graphql.gameviews import GameView, typed_view
from service.api.graphql.readtypes import Counter
from service.api.graphql.types import (
    ForkSource,
    GameEvent,
    GameEventConnection,
    GameEventEdge,
    GameKind,
    GameResult,
    GameStatus,
    Node,
    PageInfo,
    Player,
    ReplayStep,
    Seat,
    UndoRequest,
    UndoStatus,
    decode_cursor,
    encode_cursor,
    page_size,
)
from service.app import numbering, views
from service.app.caller import Caller
from service.app.clocks import clock_view, clock_view_at
from service.app.errors import BadInput
from service.app.tables import GameTable

Info = strawberry.Info[Context, None]
#: ``version`` of the time-travel fields: a number of the caller's own log
Version = Annotated[
    int,
    strawberry.argument(
        description="An event number of the caller's log (`GameEvent.version`, 1 = first)."
    ),
]
#: ``first`` of a page
First = Annotated[
    int | None,
    strawberry.argument(description="Page size, 0-200 (default 100)."),
]


def game_of(info: Info, game: object) -> Game:
    return Game(_game=game, _caller=info.context.caller)  # type: ignore[arg-type]


@strawberry.type(
    description="A game (a table) as the caller may see it: seats, status, the caller's view "
    "(`state` as JSON, `view` typed), its legal actions, the audit log and time travel."
)
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

    @strawberry.field(description="The game's id (its global `Node` id too).")
    def id(self) -> strawberry.ID:
        return strawberry.ID(str(self._game.id))

    @strawberry.field(description="Which game.")
    def kind(self) -> GameKind:
        return GameKind(self._table.kind)

    @strawberry.field(description="Where the table is in its life.")
    def status(self) -> GameStatus:
        return GameStatus(self._table.status)

    @strawberry.field(
        description="The table options, complete (defaults filled in) as the rules normalised "
        "them at creation."
    )
    def options(self) -> JSON:
        return JSON(self._table.options)

    @strawberry.field(
        description="Number of the last event of the log as the caller may see it: an event "
        "private to another seat is not part of it (every event is, once the game is over)."
    )
    async def version(self, info: Info) -> int:
        return (await self._seen(info)).version

    @strawberry.field(description="Undo is allowed at this table (false: ranked play).")
    def undo_allowed(self) -> bool:
        return self._table.undo_allowed

    @strawberry.field(description="The secret seed, revealed once the game is over (else null).")
    def seed(self) -> str | None:
        return self._table.seed if views.is_revealed(self._table) else None

    @strawberry.field(
        description="The secret salt of the seed's commitment (hex), revealed with the seed once "
        "the game is over (else null; null too for games older than salts)."
    )
    def seed_salt(self) -> str | None:
        return self._table.seed_salt if views.is_revealed(self._table) else None

    @strawberry.field(
        description="Commitment to the secret seed: hex SHA-256(salt || seed), salt the 32 bytes "
        "of seedSalt (domain/randomness.py; unsalted for games older than salts)."
    )
    def seed_commitment(self) -> str:
        return self._table.seed_commitment

    @strawberry.field(
        description="The game counts in ratings, profiles and statistics (false: see "
        "unrankedReason)."
    )
    def ranked(self) -> bool:
        return self._unranked_reason() is None

    @strawberry.field(
        description='Why the game counts in no rating, profile or statistic: "the creator chose '
        'the seed", "a fork" or "an imported copy"; null for a ranked game.'
    )
    def unranked_reason(self) -> str | None:
        return self._unranked_reason()

    def _unranked_reason(self) -> str | None:
        return self._table.unranked_reason(imported=self._game.imported_by is not None)

    @strawberry.field(
        description="The version of the rules this game is played by (fixed at creation; "
        "`catalog(kind, rulesVersion)` gives its data)."
    )
    def rules_version(self) -> str:
        return self._table.rules_version

    @strawberry.field(description="When the table was created (UTC).")
    def created_at(self) -> datetime:
        return self._game.created_on

    @strawberry.field(description="Time of the last event of the log as the caller may see it.")
    async def updated_at(self, info: Info) -> datetime:
        return (await self._seen(info)).updated

    @strawberry.field(description="Every seat, in seat order, and who holds it.")
    def seats(self) -> list[Seat]:
        return [
            Seat(
                seat=s["seat"],
                player=Player(id=strawberry.ID(s["player_id"]), name=s["name"])
                if s["player_id"]
                else None,
                is_bot=s["is_bot"],
                strategy=s["strategy"],
                taken_over=s["taken_over"],
            )
            for s in views.seat_list(self._table)
        ]

    @strawberry.field(description="The caller's seat; null for spectators.")
    def my_seat(self) -> int | None:
        return views.my_seat(self._table, self._caller)

    @strawberry.field(description="Who must act now.")
    def active_seats(self) -> list[int]:
        return views.active_seats(self._table)

    @strawberry.field(
        description="The table's clock now (time control, every seat's remaining time, "
        "deadline, thinking time and take-over); null for a table without a time control."
    )
    def clock(self, info: Info) -> GameClock | None:
        return game_clock(clock_view(self._table, info.context.app.clocks.now()))

    @strawberry.field(
        description="Replay: the clock right after event `version` (its `now` is the latest "
        "time the log had recorded then); null for a table without a time control."
    )
    async def clock_at(self, info: Info, version: Version) -> GameClock | None:
        past = await self._past(info, version)
        return game_clock(clock_view_at(past.table))

    @strawberry.field(description="The game state as the caller may see it.")
    def state(self) -> JSON:
        return JSON(views.state(self._table, self._caller))

    @strawberry.field(
        description="The caller's view as typed GraphQL (the same information as `state`); "
        "null before the game starts."
    )
    def view(self) -> GameView | None:
        shown = views.state(self._table, self._caller)
        return typed_view(self._table.kind, shown) if shown else None

    @strawberry.field(description="Exactly the actions `act` accepts from the caller now.")
    def legal_actions(self) -> list[JSON]:
        return [JSON(a) for a in self._legal()]

    @strawberry.field(
        description="`legalActions` in the same order, each with a label and its type."
    )
    def moves(self) -> list[Move]:
        return moves_of(self._table.kind, self._legal())

    @strawberry.field(description="The public score track, by seat.")
    def scores(self) -> list[int]:
        return views.scores(self._table)

    @strawberry.field(description="The outcome; null until the game is finished.")
    def result(self) -> GameResult | None:
        shown = views.result(self._table)
        return GameResult(**shown) if shown else None

    @strawberry.field(description="The audit log, as the caller may see it.")
    async def events(
        self,
        info: strawberry.Info[Context, None],
        first: First = None,
        after: Annotated[
            str | None,
            strawberry.argument(
                description="A cursor (`GameEventEdge.cursor`): the page starts after it."
            ),
        ] = None,
    ) -> GameEventConnection:
        limit = page_size(first, default=100)
        start = decode_cursor("event", after) or 0
        log = await self._seen(info)
        context = info.context
        shown, more = await context.run(
            numbering.page, context.app.tables, self._game, self._caller, log, start, limit
        )
        nodes = [GameEvent.of(s) for s in shown]
        edges = [GameEventEdge(cursor=encode_cursor("event", n.version), node=n) for n in nodes]
        return GameEventConnection(
            edges=edges,
            nodes=nodes,
            page_info=PageInfo.of([e.cursor for e in edges], after, more),
            total_count=log.version,
        )

    @strawberry.field(description="Whether the caller may take back its last action now, and why.")
    async def can_undo(self, info: Info) -> UndoStatus:
        seat = views.my_seat(self._table, self._caller)
        log = await self._seen(info)  # versions are numbers of the caller's log
        verdict = undo.can_undo(self._table, seat, log.number)
        target = undo.last_own_start(self._table, seat) if seat is not None else None
        return UndoStatus(
            allowed=verdict.allowed,
            immediate=verdict.immediate,
            to_version=log.number(target) if verdict.allowed and target is not None else None,
            reason=verdict.reason,
        )

    @strawberry.field(description="A pending request to take actions back.")
    async def undo_request(self, info: Info) -> UndoRequest | None:
        request = self._table.undo_request
        if request is None:
            return None
        log = await self._seen(info)  # versions are numbers of the caller's log
        return UndoRequest(
            version=log.number(request.version),
            seat=request.seat,
            to_version=log.number(request.to_version),
            waiting=list(request.waiting),
        )

    @strawberry.field(description="The game this sandbox was forked from.")
    async def forked_from(self, info: Info) -> ForkSource | None:
        source = self._table.forked_from
        if source is None:
            return None
        source = (await self._seen(info)).fork_source(source)  # numbered in the caller's log
        return ForkSource(
            game_id=strawberry.ID(source["game_id"]),
            version=source["version"],
            seats=source.get("seats"),
        )

    @strawberry.field(
        description="Replay: events after `after` with the state right after each, as the "
        "caller may see it (everything once the game is over)."
    )
    async def replay(
        self,
        info: strawberry.Info[Context, None],
        after: Annotated[
            int,
            strawberry.argument(
                description="An event number of the caller's log: the steps start after it "
                "(0: from the first event)."
            ),
        ] = 0,
        first: First = None,
    ) -> list[ReplayStep]:
        limit = page_size(first, default=100)
        if after < 0:
            raise BadInput("after must not be negative.")
        revealed = views.is_revealed(self._table)
        caller = self._caller
        current = self._table
        log = await self._seen(info)
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
                for table, entry in info.context.app.audit.replay(str(self._game.id), *window)
                if log.sees(entry.version)
            ]

        return await info.context.run(steps)

    @strawberry.field(
        description="Replay: the state right after event `version`; null, with a BAD_INPUT "
        "error on this field alone, for a version the game does not have."
    )
    async def state_at(self, info: strawberry.Info[Context, None], version: Version) -> JSON | None:
        past = await self._past(info, version)
        # Time travel shows what was visible then; once the game is over everything is public.
        return JSON(views.state(past.table, self._caller, revealed=views.is_revealed(self._table)))

    @strawberry.field(
        description="Replay: the typed view right after event `version` (the same information "
        "as `stateAt`); null before the game starts."
    )
    async def view_at(self, info: Info, version: Version) -> GameView | None:
        past = await self._past(info, version)
        shown = views.state(past.table, self._caller, revealed=views.is_revealed(self._table))
        return typed_view(self._table.kind, shown) if shown else None


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


@strawberry.type(description="A game of a page, with its cursor.")
class GameEdge:
    cursor: str = strawberry.field(description="Pass as `after` to read the games after it.")
    node: Game = strawberry.field(description="The game.")


@strawberry.type(description="A page of games (Relay connection).")
class GameConnection:
    edges: list[GameEdge] = strawberry.field(description="The page's games with cursors.")
    nodes: list[Game] = strawberry.field(description="The page's games.")
    page_info: PageInfo = strawberry.field(description="Where this page lies.")
    _count: strawberry.Private[Counter | None] = None

    @strawberry.field(
        description="How many games match the filters, over every page (not this page alone)."
    )
    async def total_count(self) -> int:
        assert self._count is not None, "a connection built without its count"
        return await self._count()


@strawberry.type(description="What `act` did.")
class ActResult:
    game: Game = strawberry.field(
        description="The game right after the action (bots reply afterwards, in their own "
        "commands: watch `gameChanged` or poll `version`)."
    )
    events: list[GameEvent] = strawberry.field(
        description="The events of the command, as the caller may see them: the caller's own "
        "action (and the end of the game if it came); bots' moves are not among them."
    )
