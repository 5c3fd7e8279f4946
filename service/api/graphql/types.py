"""GraphQL object types of docs/API.md ("Players", "Games").

The fields of ``Player``, ``PlayerSession``, ``Seat``, ``GameResult``, ``LogVerification``,
``ForkSource``, ``GameEvent`` and ``ReplayStep`` are declared once, for both transports, in
``service.api.shapes`` (``players``, ``games``, ``events``); here they are derived
(``service.api.graphql.shaped``), with their builders."""

from __future__ import annotations

import base64
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any

import strawberry
from strawberry.scalars import JSON

from domain import registry
from domain import table as tables
from service.api.graphql import clocktypes  # noqa: F401  (derives GameClock: ReplayStep holds it)
from service.api.graphql.gameviews import GameView
from service.api.graphql.shaped import Derived, build, graphql_type
from service.api.shapes import events, games, players
from service.app.caller import Caller
from service.app.errors import BadInput

MAX_PAGE = 200


def game_kinds_enum() -> type[Enum]:
    """``GameKind``: one value per registered game (``domain.registry``), its kind upper-cased,
    described by the game's summary."""
    members = {
        game.kind.upper(): strawberry.enum_value(game.kind, description=game.summary)
        for game in registry.games()
    }
    kinds = Enum("GameKind", members)  # type: ignore[misc]
    kinds.__module__ = __name__
    return strawberry.enum(
        kinds,
        description="A game the server plays; its rules version is `Game.rulesVersion`, its "
        "static data `catalog(kind)`, its actions `actionCatalog(kind)`.",
    )


if TYPE_CHECKING:

    class GameKind(Enum):
        _value_: str  # the game's kind ("imhotep"): values are described by the registry

else:
    GameKind = game_kinds_enum()


@strawberry.enum(description="Where a table is in its life.")
class GameStatus(Enum):
    _value_: str  # the table status (domain.table), for the type checker

    OPEN = strawberry.enum_value(tables.OPEN, description="Waiting for players; seats are free.")
    ACTIVE = strawberry.enum_value(
        tables.ACTIVE, description="Being played: every seat is taken and the game has started."
    )
    FINISHED = strawberry.enum_value(
        tables.FINISHED, description="Over: `result` holds the scores and winners."
    )
    ABANDONED = strawberry.enum_value(
        tables.ABANDONED, description="Given up before the end (`abandonGame`); no result."
    )


@graphql_type(players.Player)
class Player(Derived):
    @classmethod
    def of(cls, caller: Caller) -> Player | None:
        """The caller as a player; ``None`` for a spectator."""
        if caller.player_id is None:
            return None
        return build(cls, players.player(caller.player_id, caller.name or ""))


@graphql_type(players.PlayerSession)
class PlayerSession(Derived):
    pass


@graphql_type(games.Seat)
class Seat(Derived):
    @classmethod
    def of(cls, shown: dict[str, Any]) -> Seat:
        """A seat as ``views.seat_list`` shows it."""
        return build(cls, games.seat(shown))


@graphql_type(games.GameResult)
class GameResult(Derived):
    pass


@graphql_type(events.GameEvent)
class GameEvent(Derived):
    @classmethod
    def of(cls, shown: dict[str, Any]) -> GameEvent:
        """An entry of the log as ``views.event`` shows it."""
        return build(cls, shown)


@strawberry.interface(
    description="An object with a global id that `node(id:)` finds again (Relay); "
    "today every node is a `Game`."
)
class Node:
    @strawberry.field(description="The object's global id.")
    def id(self) -> strawberry.ID:
        raise NotImplementedError  # each type implementing the interface resolves it


@strawberry.type(description="Relay page information of a connection.")
class PageInfo:
    has_next_page: bool = strawberry.field(description="More items follow this page.")
    end_cursor: str | None = strawberry.field(
        description="The cursor of this page's last item, to pass as `after` for the next page."
    )
    has_previous_page: bool = strawberry.field(
        default=False, description="Whether items come before this page (an `after` was given)."
    )
    start_cursor: str | None = strawberry.field(
        default=None, description="The cursor of this page's first item (null when empty)."
    )

    @classmethod
    def of(cls, cursors: list[str], after: str | None, has_next: bool) -> PageInfo:
        """The page of items with these ``cursors``, read after the cursor ``after``."""
        return cls(
            has_next_page=has_next,
            end_cursor=cursors[-1] if cursors else after,
            has_previous_page=bool(after),
            start_cursor=cursors[0] if cursors else None,
        )


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


@strawberry.type(
    description="Whether the caller may take its last action back now (`requestUndo`)."
)
class UndoStatus:
    allowed: bool = strawberry.field(description="The caller may take its last action back.")
    immediate: bool = strawberry.field(description="Without asking the other seats.")
    to_version: int | None = strawberry.field(
        description="The version the game would return to; null when not allowed."
    )
    reason: str = strawberry.field(description="Why it is allowed or not, in words.")


@strawberry.type(description="An undo asked for and waiting for the other seats' answers.")
class UndoRequest:
    version: int = strawberry.field(description="The game's version when it was asked.")
    seat: int = strawberry.field(description="The seat that asked.")
    to_version: int = strawberry.field(description="The version the game would return to.")
    waiting: list[int] = strawberry.field(description="Seats whose answer is still needed.")


@graphql_type(games.Verification)
class LogVerification(Derived):
    pass


@graphql_type(events.ReplayStep)
class ReplayStep(Derived):
    view: GameView | None  # the shape's ``Own`` field: the typed state is GraphQL's alone


@graphql_type(games.ForkSource)
class ForkSource(Derived):
    @classmethod
    def of(cls, shown: dict[str, Any]) -> ForkSource:
        """Where a fork comes from, as ``numbering.Timeline.fork_source`` shows it."""
        return build(cls, games.fork_source(shown))


@strawberry.input(description="A new table (`createGame`).")
class CreateGameInput:
    kind: GameKind = strawberry.field(description="Which game.")
    seats: int = strawberry.field(
        description="Number of seats, in the game's range (`gameKinds { minSeats maxSeats }`)."
    )
    options: JSON | None = strawberry.field(
        default=None,
        description="Table options as a JSON object, named by each game's rules (docs/playing.md "
        '"Table options"); unknown or invalid options are BAD_INPUT. Null: the defaults.',
    )
    seed: str | None = strawberry.field(
        default=None,
        description="Makes the game deterministic (the same seed and actions give the same "
        "events) and unranked; hidden until the game is over. Omit it for a ranked game.",
    )


GameID = Annotated[strawberry.ID, strawberry.argument(description="A game's id.")]
