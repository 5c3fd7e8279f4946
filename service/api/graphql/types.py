"""GraphQL object types of API.md ("Players", "Games")."""

from __future__ import annotations

import base64
from datetime import datetime
from enum import Enum
from typing import Annotated, Any

import strawberry
from strawberry.scalars import JSON

from domain import table as tables
from service.api.graphql.clocktypes import GameClock
from service.api.graphql.gameviews import GameView
from service.app.errors import BadInput

MAX_PAGE = 200


@strawberry.enum(
    description="A game the server plays; its rules version is `Game.rulesVersion`, its static "
    "data `catalog(kind)`, its actions `actionCatalog(kind)`."
)
class GameKind(Enum):
    _value_: str  # the domain's kind ("imhotep"), for the type checker (values are described)

    IMHOTEP = strawberry.enum_value("imhotep", description="Imhotep, 2-4 players.")
    AMUN_RE = strawberry.enum_value(
        "amun_re", description="Amun-Re, 3-5 players, with the Expanded Pack modules as options."
    )


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


@strawberry.type(description="A registered player (open registration, `registerPlayer`).")
class Player:
    id: strawberry.ID = strawberry.field(description="The player's id (stable).")
    name: str = strawberry.field(description="The name shown to others (not unique).")


@strawberry.type(description="What `registerPlayer` returns: the new player and its token.")
class PlayerSession:
    player: Player = strawberry.field(description="The player just registered.")
    token: str = strawberry.field(description="Shown once; the server keeps only its hash.")


@strawberry.type(description="One seat of a table and who holds it.")
class Seat:
    seat: int = strawberry.field(description="The seat number, 0-based in seating order.")
    player: Player | None = strawberry.field(
        description="The player seated here; null for a free seat or a bot."
    )
    is_bot: bool = strawberry.field(description="A server-side bot plays this seat (`addBot`).")
    strategy: str | None = strawberry.field(
        default=None, description="The bot's strategy (`addBot`); null for a human seat."
    )
    taken_over: bool = strawberry.field(
        default=False,
        description="A bot of the table's take-over level plays the seat since its player's "
        "time ran out (zombie); `reclaimSeat` gives it back.",
    )


@strawberry.type(description="The outcome of a finished game.")
class GameResult:
    scores: list[int] = strawberry.field(description="Final score (points or VP) per seat.")
    winners: list[int] = strawberry.field(description="The winning seats (several on a tie).")
    ranks: list[int] = strawberry.field(
        description="Rank per seat, 1 = first; tied seats share a rank."
    )


@strawberry.type(description="One entry of a game's log, as the caller may see it.")
class GameEvent:
    version: int = strawberry.field(
        description="The event's number in the game's log (1 = first; `Game.version` is the last)."
    )
    at: datetime = strawberry.field(description="When the event was recorded (UTC).")
    seat: int | None = strawberry.field(
        description="The seat the event is about; null for events no seat caused."
    )
    type: str = strawberry.field(
        description="The event type in snake_case (each game's rules spec names them)."
    )
    data: JSON = strawberry.field(
        description="The event's data, redacted for the caller (hidden information becomes a "
        "count or is left out)."
    )
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


@strawberry.type(description="An event of a page, with its cursor.")
class GameEventEdge:
    cursor: str = strawberry.field(description="Pass as `after` to read the events after it.")
    node: GameEvent = strawberry.field(description="The event.")


@strawberry.type(description="A page of a game's log (Relay connection).")
class GameEventConnection:
    edges: list[GameEventEdge] = strawberry.field(description="The page's events with cursors.")
    nodes: list[GameEvent] = strawberry.field(description="The page's events.")
    page_info: PageInfo = strawberry.field(description="Where this page lies.")
    total_count: int = strawberry.field(
        description="Events of the log the caller may see, over all pages."
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


@strawberry.type(
    description="The result of `verifyLog`: the hash chain, the seed against its commitment "
    "and every event replayed through the rules."
)
class LogVerification:
    ok: bool = strawberry.field(description="Every checked event holds.")
    checked_events: int = strawberry.field(description="How many events were checked.")
    bad_version: int | None = strawberry.field(description="The first event that does not hold.")
    reason: str | None = strawberry.field(
        description="What does not hold at `badVersion`; null when ok."
    )


@strawberry.type(description="One step of `Game.replay`: an event and the state after it.")
class ReplayStep:
    event: GameEvent = strawberry.field(description="The event (as the caller may see it).")
    state: JSON = strawberry.field(description="The state right after the event.")
    view: GameView | None = strawberry.field(
        default=None,
        description="The state right after the event as typed GraphQL (the same information "
        "as `state`); null before the game starts.",
    )
    clock: GameClock | None = strawberry.field(
        default=None,
        description="A timed table's clock right after the event (each seat's thinking time "
        "so far and remaining time, from the log's own times); null without a time control.",
    )


@strawberry.type(description="Where a forked game (`forkGame`) comes from.")
class ForkSource:
    game_id: strawberry.ID = strawberry.field(description="The game it was forked from.")
    version: int = strawberry.field(description="The version of that game it starts from.")
    seats: list[int] | None = strawberry.field(
        description="The seats whose view the fork of an unfinished game was dealt from (what "
        "they could not see was re-dealt); null for the fork of a finished game, which replays "
        "it exactly."
    )


@strawberry.input(description="A new table (`createGame`).")
class CreateGameInput:
    kind: GameKind = strawberry.field(description="Which game.")
    seats: int = strawberry.field(
        description="Number of seats (Imhotep 2-4, Amun-Re 3-5: `catalog(kind) players`)."
    )
    options: JSON | None = strawberry.field(
        default=None,
        description="Table options as a JSON object, named by each game's rules (Imhotep: the "
        "sites' sides and its variants; Amun-Re: the Expanded Pack modules and the scoring "
        "variants); unknown or invalid options are BAD_INPUT. Null: the defaults.",
    )
    seed: str | None = strawberry.field(
        default=None,
        description="Makes the game deterministic (the same seed and actions give the same "
        "events) and unranked; hidden until the game is over. Omit it for a ranked game.",
    )


GameID = Annotated[strawberry.ID, strawberry.argument(description="A game's id.")]
