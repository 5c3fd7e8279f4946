"""GraphQL object types of API.md ("Players", "Games")."""

from __future__ import annotations

import base64
from datetime import datetime
from enum import Enum
from typing import Annotated, Any

import strawberry
from strawberry.scalars import JSON

from domain import table as tables
from domain import undo
from service.api.graphql.context import Context
from service.api.graphql.gameviews import GameView, typed_view
from service.app import views
from service.app.errors import BadInput
from service.app.games import Caller
from service.store import GameTable

MAX_PAGE = 200


@strawberry.enum
class GameKind(Enum):
    IMHOTEP = "imhotep"
    AMUN_RE = "amun_re"


@strawberry.enum
class GameStatus(Enum):
    OPEN = tables.OPEN
    ACTIVE = tables.ACTIVE
    FINISHED = tables.FINISHED
    ABANDONED = tables.ABANDONED


@strawberry.type
class Player:
    id: strawberry.ID
    name: str


@strawberry.type
class PlayerSession:
    player: Player
    token: str = strawberry.field(description="Shown once; the server keeps only its hash.")


@strawberry.type
class Seat:
    seat: int
    player: Player | None
    is_bot: bool
    strategy: str | None = None


@strawberry.type
class GameResult:
    scores: list[int]
    winners: list[int]
    ranks: list[int]


@strawberry.type
class GameEvent:
    version: int
    at: datetime
    seat: int | None
    type: str
    data: JSON
    automatic: bool = strawberry.field(
        description="True for a step nobody chose (the only legal option, applied at once)."
    )
    by_seat: int | None = strawberry.field(
        description="The seat whose action recorded this event (null for table steps)."
    )
    undone: bool = strawberry.field(description="Taken back by a later undo.")
    hash: str = strawberry.field(
        description="SHA-256 sealing this event to the one before (see verifyLog)."
    )

    @classmethod
    def of(cls, shown: dict[str, Any]) -> GameEvent:
        return cls(**shown)


@strawberry.type
class PageInfo:
    has_next_page: bool
    end_cursor: str | None


@strawberry.type
class GameEventEdge:
    cursor: str
    node: GameEvent


@strawberry.type
class GameEventConnection:
    edges: list[GameEventEdge]
    nodes: list[GameEvent]
    page_info: PageInfo
    total_count: int


def encode_cursor(prefix: str, value: int | str) -> str:
    return base64.urlsafe_b64encode(f"{prefix}:{value}".encode()).decode()


def decode_cursor(prefix: str, cursor: str | None) -> int | None:
    """The position a cursor of ours holds; BAD_INPUT for anything else."""
    if cursor is None:
        return None
    refused = BadInput(f"The cursor {cursor!r} is not one this server gave out.")
    try:
        kind, _, value = base64.urlsafe_b64decode(cursor.encode()).decode().partition(":")
    except (ValueError, UnicodeDecodeError):
        raise refused from None
    if kind != prefix or not value.isdigit() or len(value) > 18:
        raise refused
    return int(value)


def page_size(first: int | None, default: int = 50) -> int:
    if first is None:
        return default
    if not 0 <= first <= MAX_PAGE:
        raise BadInput(f"first must be between 0 and {MAX_PAGE}, not {first}.")
    return first


@strawberry.type
class UndoStatus:
    allowed: bool = strawberry.field(description="The caller may take its last action back.")
    immediate: bool = strawberry.field(description="Without asking the other seats.")
    to_version: int | None
    reason: str


@strawberry.type
class UndoRequest:
    version: int
    seat: int
    to_version: int
    waiting: list[int] = strawberry.field(description="Seats whose answer is still needed.")


@strawberry.type
class LogVerification:
    ok: bool
    checked_events: int
    bad_version: int | None = strawberry.field(description="The first event that does not hold.")
    reason: str | None


@strawberry.type
class ReplayStep:
    event: GameEvent
    state: JSON = strawberry.field(description="The state right after the event.")


@strawberry.type
class ForkSource:
    game_id: strawberry.ID
    version: int
    seats: list[int] | None = strawberry.field(
        description="The seats whose view the fork of an unfinished game was dealt from (what "
        "they could not see was re-dealt); null for the fork of a finished game, which replays "
        "it exactly."
    )


@strawberry.type
class Game:
    _game: strawberry.Private[GameTable]
    _caller: strawberry.Private[Caller]

    @property
    def _table(self) -> tables.Table:
        return self._game.table

    @strawberry.field
    def id(self) -> strawberry.ID:
        return strawberry.ID(str(self._game.id))

    @strawberry.field
    def kind(self) -> GameKind:
        return GameKind(self._table.kind)

    @strawberry.field
    def status(self) -> GameStatus:
        return GameStatus(self._table.status)

    @strawberry.field
    def options(self) -> JSON:
        return JSON(self._table.options)

    @strawberry.field(description="Number of the last event.")
    def version(self) -> int:
        return int(self._game.version)

    @strawberry.field(description="Undo is allowed at this table (false: ranked play).")
    def undo_allowed(self) -> bool:
        return self._table.undo_allowed

    @strawberry.field(description="The secret seed, revealed once the game is over (else null).")
    def seed(self) -> str | None:
        return self._table.seed if views.is_revealed(self._table) else None

    @strawberry.field(description="Commitment (SHA-256) to the secret seed of the game.")
    def seed_commitment(self) -> str:
        return self._table.seed_commitment

    @strawberry.field
    def rules_version(self) -> str:
        return self._table.rules_version

    @strawberry.field
    def created_at(self) -> datetime:
        return self._game.created_on

    @strawberry.field
    def updated_at(self) -> datetime:
        return self._game.modified_on

    @strawberry.field
    def seats(self) -> list[Seat]:
        return [
            Seat(
                seat=s["seat"],
                player=Player(id=strawberry.ID(s["player_id"]), name=s["name"])
                if s["player_id"]
                else None,
                is_bot=s["is_bot"],
                strategy=s["strategy"],
            )
            for s in views.seat_list(self._table)
        ]

    @strawberry.field(description="The caller's seat; null for spectators.")
    def my_seat(self) -> int | None:
        return views.my_seat(self._table, self._caller)

    @strawberry.field(description="Who must act now.")
    def active_seats(self) -> list[int]:
        return views.active_seats(self._table)

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
        return [JSON(a) for a in views.legal_actions(self._table, self._caller)]

    @strawberry.field(description="The public score track, by seat.")
    def scores(self) -> list[int]:
        return views.scores(self._table)

    @strawberry.field
    def result(self) -> GameResult | None:
        shown = views.result(self._table)
        return GameResult(**shown) if shown else None

    @strawberry.field(description="The audit log, as the caller may see it.")
    async def events(
        self,
        info: strawberry.Info[Context, None],
        first: int | None = None,
        after: str | None = None,
    ) -> GameEventConnection:
        limit = page_size(first, default=100)
        start = decode_cursor("event", after) or 0
        records = await info.context.run(
            info.context.games.events, str(self._game.id), start, limit + 1
        )
        shown = [views.event(self._table, r, self._caller) for r in records[:limit]]
        nodes = [GameEvent.of(s) for s in shown]
        edges = [GameEventEdge(cursor=encode_cursor("event", n.version), node=n) for n in nodes]
        return GameEventConnection(
            edges=edges,
            nodes=nodes,
            page_info=PageInfo(
                has_next_page=len(records) > limit,
                end_cursor=edges[-1].cursor if edges else after,
            ),
            total_count=int(self._game.version),
        )

    @strawberry.field(description="Whether the caller may take back its last action now, and why.")
    def can_undo(self) -> UndoStatus:
        seat = views.my_seat(self._table, self._caller)
        verdict = undo.can_undo(self._table, seat)
        target = undo.last_own_start(self._table, seat) if seat is not None else None
        return UndoStatus(
            allowed=verdict.allowed,
            immediate=verdict.immediate,
            to_version=target if verdict.allowed else None,
            reason=verdict.reason,
        )

    @strawberry.field(description="A pending request to take actions back.")
    def undo_request(self) -> UndoRequest | None:
        request = self._table.undo_request
        if request is None:
            return None
        return UndoRequest(
            version=request.version,
            seat=request.seat,
            to_version=request.to_version,
            waiting=list(request.waiting),
        )

    @strawberry.field(description="The game this sandbox was forked from.")
    def forked_from(self) -> ForkSource | None:
        source = self._table.forked_from
        if source is None:
            return None
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
        self, info: strawberry.Info[Context, None], after: int = 0, first: int | None = None
    ) -> list[ReplayStep]:
        limit = page_size(first, default=100)
        if after < 0:
            raise BadInput("after must not be negative.")
        revealed = views.is_revealed(self._table)
        caller = self._caller
        current = self._table

        def steps() -> list[ReplayStep]:
            return [
                ReplayStep(
                    event=GameEvent.of(views.event(current, entry, caller)),
                    state=JSON(views.state(table, caller, revealed=revealed)),
                )
                for table, entry in info.context.timeline.replay(str(self._game.id), after, limit)
            ]

        return await info.context.run(steps)

    @strawberry.field(description="Replay: the state right after event `version`.")
    async def state_at(self, info: strawberry.Info[Context, None], version: int) -> JSON:
        past = await info.context.run(info.context.games.at_version, str(self._game.id), version)
        # Time travel shows what was visible then; once the game is over everything is public.
        return JSON(views.state(past.table, self._caller, revealed=views.is_revealed(self._table)))


@strawberry.type
class GameEdge:
    cursor: str
    node: Game


@strawberry.type
class GameConnection:
    edges: list[GameEdge]
    nodes: list[Game]
    page_info: PageInfo


@strawberry.type
class ActResult:
    game: Game
    events: list[GameEvent]


@strawberry.input
class CreateGameInput:
    kind: GameKind
    seats: int
    options: JSON | None = None
    seed: str | None = None


GameID = Annotated[strawberry.ID, strawberry.argument(description="A game's id.")]
