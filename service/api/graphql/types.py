"""GraphQL object types of API.md ("Players", "Games")."""

from __future__ import annotations

import base64
from datetime import datetime
from enum import Enum
from typing import Annotated, Any

import strawberry
from strawberry.scalars import JSON

from domain import table as tables
from service.api.graphql.gameviews import GameView
from service.app.errors import BadInput

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


@strawberry.interface(
    description="An object with a global id that `node(id:)` finds again (Relay); "
    "today every node is a `Game`."
)
class Node:
    @strawberry.field(description="The object's global id.")
    def id(self) -> strawberry.ID:
        raise NotImplementedError  # each type implementing the interface resolves it


@strawberry.type
class PageInfo:
    has_next_page: bool
    end_cursor: str | None
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
    view: GameView | None = strawberry.field(
        default=None,
        description="The state right after the event as typed GraphQL (the same information "
        "as `state`); null before the game starts.",
    )


@strawberry.type
class ForkSource:
    game_id: strawberry.ID
    version: int
    seats: list[int] | None = strawberry.field(
        description="The seats whose view the fork of an unfinished game was dealt from (what "
        "they could not see was re-dealt); null for the fork of a finished game, which replays "
        "it exactly."
    )


@strawberry.input
class CreateGameInput:
    kind: GameKind
    seats: int
    options: JSON | None = None
    seed: str | None = strawberry.field(
        default=None,
        description="Makes the game deterministic (the same seed and actions give the same "
        "events) and unranked; hidden until the game is over. Omit it for a ranked game.",
    )


GameID = Annotated[strawberry.ID, strawberry.argument(description="A game's id.")]
