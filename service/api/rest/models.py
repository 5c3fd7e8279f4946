"""The REST bodies as pydantic models: what requests carry and what responses show.

FastAPI validates requests with these and writes the OpenAPI document from them, so the two
cannot drift. JSON members are camelCase (``alias_generator``). Response models built by the
presenters forbid undeclared members: a presenter that adds one without declaring it here fails
(the tests see it) instead of losing it silently.

This module holds the bases of every body (``Camel``, ``Shown``, ``Body``), the request bodies
and the error body (``Problem``); the bodies of successful responses (players, games, events,
pages) are in ``service.api.rest.responses``.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
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
    KIND_NAMES,
    JsonObject,
    Kind,
    MaybeCount,
    Seats,
    Version,
    one_of,
)
from service.api.rest.typedactions import TypedAction
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
    refusals: ClassVar[dict[str, str]] = {"kind": f"kind must be {one_of(KIND_NAMES)}."}
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
        '(docs/bots.md "Bot levels").',
    )


class AbandonGame(Body):
    reason: str | None = None


class ReclaimSeat(Body):
    seat: MaybeCount = Field(None, description="Which of your seats (default: every one).")


def action_body(kind: str, spec: actions.ActionSpec) -> type[BaseModel]:
    """The named body of one action of ``kind``, for the document only: its JSON Schema is the
    domain's (``actions.json_schema``), titled with its component name (``ImhotepPlaceStone``),
    so that a client generated from the document has one named class per action. Requests are
    not validated with it: the rules check an action and say which rule it breaks."""
    schema = actions.json_schema(spec)
    del schema["$schema"]
    name = "".join(part[:1].upper() + part[1:] for part in f"{kind}_{spec.name}".split("_"))

    def declared(generated: dict[str, Any]) -> None:
        generated.clear()
        generated.update(schema, title=name)

    return type(
        name,
        (BaseModel,),
        {
            "__module__": __name__,
            "__doc__": spec.label,
            "model_config": ConfigDict(title=name, json_schema_extra=declared),
        },
    )


#: one named body per action of every game kind (``action_body``)
ACTION_BODIES: tuple[type[BaseModel], ...] = tuple(
    action_body(catalog.kind, spec) for catalog in actions.catalogs() for spec in catalog.actions
)


def any_object(value: Any) -> dict[str, Any]:
    """An action as sent: any JSON object (the rules check it)."""
    if not isinstance(value, dict):
        raise ValueError("an action is a JSON object")
    return value


def one_of_the_actions(schema: dict[str, Any]) -> None:
    """The ``action`` member's schema: exactly one of the named action bodies (pydantic writes
    ``anyOf`` for a union; the actions exclude each other by game kind and ``type``)."""
    schema["oneOf"] = schema.pop("anyOf")
    schema.update(type="object", required=["type"], additionalProperties=True)


#: the ``action`` of ``act``: one of the actions declared in the domain (``domain.actions``),
#: each a named component of the document; validated as any object
AnyAction = Annotated[
    JsonObject,
    PlainValidator(any_object, json_schema_input_type=Union[ACTION_BODIES]),  # noqa: UP007
]


class Act(Body):
    refusals: ClassVar[dict[str, str]] = {
        "action": 'Send {"action": {"type": ...}, "expectedVersion": N}.',
        "typedAction": 'Send {"typedAction": {"imhotepPlaceStone": {"ship": 2, "slot": 3}}}: '
        "one member, the action's parameters its value.",
    }
    action: AnyAction | SkipJsonSchema[None] = Field(
        None,
        description='{"type": "snake_case_name", ...parameters}: one of `legalActions`; '
        "its shape per action is in `GET /catalog/{kind}/actions`. Exactly one of `action` "
        "and `typedAction`.",
        json_schema_extra=one_of_the_actions,
    )
    typed_action: TypedAction | SkipJsonSchema[None] = Field(  # type: ignore[valid-type]
        None,
        description="The same action typed, as `moves[].typedAction` shows each legal action "
        '(`{"imhotepPlaceStone": {"ship": 2, "slot": 3}}`). Exactly one of `action` and '
        "`typedAction`.",
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
    """An RFC 9457 problem with a stable ``code`` (docs/API.md "Errors")."""

    type: str
    title: str
    status: int
    detail: str
    code: ErrorCode
    rule: str | SkipJsonSchema[None] = Field(None, description="The rule an illegal action breaks.")
    requestId: str | SkipJsonSchema[None] = Field(
        None, description="The request's id, as in its `X-Request-Id` header and the server's log."
    )
