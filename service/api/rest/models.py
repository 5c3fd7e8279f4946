"""The REST bodies as pydantic models: what requests carry and what responses show.

FastAPI validates requests with these and writes the OpenAPI document from them, so the two
cannot drift. JSON members are camelCase (``alias_generator``). Response models built by the
presenters forbid undeclared members: a presenter that adds one without declaring it here fails
(the tests see it) instead of losing it silently.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    ValidationError,
    ValidatorFunctionWrapHandler,
    model_validator,
)
from pydantic.alias_generators import to_camel
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import PydanticCustomError

from domain import actions
from service.api.rest.params import (
    JsonObject,
    Kind,
    KindName,
    MaybeCount,
    Seats,
    StatusName,
    Version,
)
from service.app.errors import HTTP_STATUS

Timestamp = Annotated[str, Field(json_schema_extra={"format": "date-time"})]


class Camel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, validate_by_name=True)


class Shown(Camel):
    """A response object built by a presenter here: every member is declared."""

    model_config = ConfigDict(extra="forbid")


class Unreadable:
    """A request body that could not be read as JSON: validation refuses it with ``message``."""

    def __init__(self, message: str) -> None:
        self.message = message

    def __repr__(self) -> str:
        return f"Unreadable({self.message!r})"


class Body(Camel):
    """A request body. ``refusals`` say what a field's first error means, in a sentence."""

    refusals: ClassVar[dict[str, str]] = {}

    @model_validator(mode="wrap")
    @classmethod
    def worded(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        # FastAPI validates from attributes too: anything but an object must be refused here
        if isinstance(data, Unreadable):
            raise PydanticCustomError("sentence", data.message)
        if not isinstance(data, dict):
            raise PydanticCustomError("sentence", "The request body must be a JSON object.")
        try:
            return handler(data)
        except ValidationError as refused:
            loc = refused.errors()[0]["loc"]
            if loc and loc[0] in cls.refusals:
                raise PydanticCustomError("sentence", cls.refusals[str(loc[0])]) from None
            raise


# -- requests ----------------------------------------------------------------------------------


class RegisterPlayer(Body):
    refusals: ClassVar[dict[str, str]] = {"name": 'Send {"name": "..."}.'}
    # 40 characters once the application has collapsed the whitespace (so checked there)
    name: str = Field(json_schema_extra={"maxLength": 40})


class CreateGame(Body):
    refusals: ClassVar[dict[str, str]] = {"kind": 'kind must be "IMHOTEP" or "AMUN_RE".'}
    kind: Kind
    seats: Seats
    options: JsonObject | None = Field(None, description="Table options (each game's spec).")
    seed: str | None = Field(
        None,
        description="Makes the game deterministic (the same seed and actions give the same "
        "events) and unranked; hidden until the game is over. Omit it for a ranked game.",
    )


class JoinGame(Body):
    seat: MaybeCount = Field(None, description="The first free seat if none is given.")


class AddBot(Body):
    seat: MaybeCount = Field(None, description="The first free seat if none is given.")
    strategy: str | None = Field(
        None,
        description='The bot\'s level: "random" (the default), "greedy" or "mcts" '
        '(README "Bot levels").',
    )


class AbandonGame(Body):
    reason: str | None = None


class ReclaimSeat(Body):
    seat: MaybeCount = Field(None, description="Which of your seats (default: every one).")


#: the ``action`` of ``act``: one of the actions declared in the domain (``domain.actions``)
ACTION_SCHEMA: dict[str, Any] = {"required": ["type"], "oneOf": actions.any_action_schemas()}


class Act(Body):
    refusals: ClassVar[dict[str, str]] = {
        "action": 'Send {"action": {"type": ...}, "expectedVersion": N}.'
    }
    action: JsonObject = Field(
        description='{"type": "snake_case_name", ...parameters}: one of `legalActions`; '
        "its shape per action is in `GET /catalog/{kind}/actions`.",
        json_schema_extra=ACTION_SCHEMA,
    )
    expected_version: MaybeCount = Field(
        None, description="CONFLICT unless the game is at this version."
    )
    seat: MaybeCount = Field(
        None,
        description="Which of the caller's seats acts (for a player holding several; "
        "FORBIDDEN if the caller does not hold it). Default: the seat that must act now.",
    )


class RequestUndo(Body):
    to_version: MaybeCount = Field(None, description="Default: before your last action.")


class AnswerUndo(Body):
    refusals: ClassVar[dict[str, str]] = {"accept": 'Send {"accept": true} or {"accept": false}.'}
    accept: StrictBool


class ForkGame(Body):
    at_version: Version


# -- responses ---------------------------------------------------------------------------------

ErrorCode = Annotated[str, Field(json_schema_extra={"enum": list(HTTP_STATUS)})]


class Problem(BaseModel):
    """An RFC 9457 problem with a stable ``code`` (API.md "Errors")."""

    type: str
    title: str
    status: int
    detail: str
    code: ErrorCode
    rule: str | SkipJsonSchema[None] = Field(None, description="The rule an illegal action breaks.")
    requestId: str | SkipJsonSchema[None] = Field(
        None, description="The request's id, as in its `X-Request-Id` header and the server's log."
    )


class Player(Shown):
    id: str
    name: str


class PlayerSession(Shown):
    player: Player
    token: str = Field(description="Shown once: send it as `Authorization: Bearer <token>`.")


class Seat(Shown):
    seat: int
    player: Player | None
    is_bot: bool
    strategy: str | None
    taken_over: bool = Field(
        False,
        description="A bot of the table's take-over level plays the seat since its player's "
        "time ran out (zombie); `POST /games/{id}/reclaim` gives it back.",
    )


class SeatClock(Shown):
    """One seat's clock."""

    seat: int
    remaining_ms: int = Field(description="Time the seat has left now, in milliseconds.")
    deadline: Timestamp | None = Field(description="When its time runs out while it must act.")
    running: bool = Field(description="The seat is on the clock now.")
    taken_over: bool = Field(description="A bot plays the seat since its time ran out.")
    timed_out: bool = Field(description="Its time ran out at least once (a loss in ratings).")
    thinking_ms: int = Field(description="Time spent on its turns so far, in milliseconds.")
    turns: int = Field(description="How many of its turns were timed.")


class GameClock(Shown):
    """A timed table's clock (the table option `clock`)."""

    mode: Literal["move", "bank"]
    move_ms: int | None
    bank_ms: int | None
    increment_ms: int | None
    on_expiry: Literal["takeover", "abandon"]
    bot: str = Field(description="The level of the bot that takes a seat over.")
    now: Timestamp | None = Field(description="The time the clock was read at.")
    deadline: Timestamp | None = Field(description="The earliest deadline of a seat.")
    seats: list[SeatClock]


class GameResult(Shown):
    scores: list[int]
    winners: list[int]
    ranks: list[int]


class ForkSource(Shown):
    """The game a sandbox was forked from; ``seats`` are the seats whose view a fork of an
    unfinished game was dealt from (null for the fork of a finished game, which replays it)."""

    game_id: str
    version: int
    seats: list[int] | None


class Move(Shown):
    """A legal action with a label for a user interface."""

    action: JsonObject = Field(description="The action, exactly as `act` accepts it.")
    label: str = Field(description='A human label, e.g. "Place a stone on ship 2, slot 3".')
    type: str = Field(description="The action's `type` (its name in the action catalog).")


class Game(Shown):
    id: str
    kind: KindName
    status: StatusName
    options: JsonObject
    version: int
    seed_commitment: str
    rules_version: str
    seats: list[Seat]
    my_seat: int | None
    active_seats: list[int]
    state: JsonObject
    legal_actions: list[JsonObject]
    moves: list[Move] = Field(description="`legalActions` in the same order, with labels.")
    scores: list[int]
    result: GameResult | None
    forked_from: ForkSource | None
    ranked: bool = Field(description="The game counts in ratings, profiles and statistics.")
    unranked_reason: str | None = Field(
        description='Why it does not: "the creator chose the seed", "a fork" or "an imported '
        'copy"; null for a ranked game.'
    )
    created_at: Timestamp
    updated_at: Timestamp
    clock: GameClock | None = Field(
        None, description="The table's clock now; null for a table without a time control."
    )


class GameEvent(Shown):
    version: int
    at: Timestamp
    seat: int | None
    type: str
    data: JsonObject
    automatic: bool
    by_seat: int | None
    undone: bool
    hash: str


class GamePage(Shown):
    items: list[Game]
    next_cursor: str | None = Field(description="Send it as `cursor` for the next page.")
    total_count: int = Field(
        description="How many games match the filters, over every page (not this page alone)."
    )


class ActResult(Shown):
    game: Game
    events: list[GameEvent]


class EventPage(Shown):
    items: list[GameEvent]
    next_after: int | None = Field(description="Send it as `after` for the next page.")


class ReplayStep(Shown):
    event: GameEvent
    state: JsonObject
    clock: GameClock | None = Field(
        None, description="A timed table's clock right after the event (null: no clock)."
    )


class ReplayPage(Shown):
    items: list[ReplayStep]
    next_after: int | None = Field(
        None, description="Send it as `after` for the next page (null on the last page)."
    )


class Verification(Shown):
    ok: bool
    checked_events: int
    bad_version: int | None
    reason: str | None
