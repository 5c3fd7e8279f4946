"""The values a request may carry (in its query, its path or its body), parsed as loosely as
the API always has: integers may come as strings, ``kind`` and ``status`` in any case.

Each type is an ``Annotated`` pydantic type, so FastAPI validates with it and writes its JSON
schema into the OpenAPI document. A refusal is a ``PydanticCustomError`` whose message follows
the parameter's name ("seats must be between 1 and 100, not 500."): see ``problems.in_words``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal

from annotated_types import Interval
from fastapi import Path
from pydantic import BeforeValidator, WithJsonSchema
from pydantic_core import PydanticCustomError

from domain import registry
from domain import table as tables
from service.app.errors import BadInput

#: the largest integer a parameter may carry (GraphQL's Int; the stores' columns hold it)
MAX_INT = 2**31 - 1
MAX_LIMIT = 200
MAX_SEATS = 100
#: every registered game's kind (``domain.registry``), and as the API spells it (upper case)
KINDS = registry.kinds()
KIND_NAMES = tuple(kind.upper() for kind in KINDS)
STATUSES = (tables.OPEN, tables.ACTIVE, tables.FINISHED, tables.ABANDONED)


def one_of(names: tuple[str, ...]) -> str:
    """'"A" or "B"', '"A", "B" or "C"': the choices a refusal names."""
    quoted = [f'"{name}"' for name in names]
    return " or ".join([", ".join(quoted[:-1]), quoted[-1]] if len(quoted) > 1 else quoted)


if TYPE_CHECKING:
    KindName = str
else:
    KindName = Literal[KIND_NAMES]  # the registered games, as an enum of the schema
StatusName = Literal["OPEN", "ACTIVE", "FINISHED", "ABANDONED"]
JsonObject = dict[str, Any]


#: the longest text read as an integer (a parameter is at most ``MAX_INT``: 10 digits)
MAX_DIGITS = 20
#: the longest client value a refusal repeats
SHOWN = 40


def shown(value: Any) -> str:
    """``value`` as a refusal repeats it: its ``repr``, cut past ``SHOWN`` characters (a
    5,000-digit number is named by its length, not written out)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**SHOWN:
        return f"a number of {len(str(abs(value)))} digits"
    text = repr(value)
    if len(text) <= SHOWN:
        return text
    return f"{text[:SHOWN]}… ({len(str(value))} characters)"


def whole(minimum: int, maximum: int, required: bool = False) -> Callable[[Any], int | None]:
    """An integer between ``minimum`` and ``maximum`` (null: absent, unless ``required``)."""

    def check(value: Any) -> int | None:
        if value is None:
            if required:
                raise PydanticCustomError("required", "is required.")
            return None
        if isinstance(value, bool):
            raise PydanticCustomError("integer", "must be an integer.")
        if isinstance(value, str) and len(value.strip()) > MAX_DIGITS:  # not read at all
            raise PydanticCustomError(
                "range",
                "must be between {minimum} and {maximum}, not {value}.",
                {"minimum": minimum, "maximum": maximum, "value": shown(value)},
            )
        try:
            number = int(value)
        except (TypeError, ValueError, OverflowError):
            raise PydanticCustomError(
                "integer", "must be an integer, not {value}.", {"value": shown(value)}
            ) from None
        if not minimum <= number <= maximum:
            raise PydanticCustomError(
                "range",
                "must be between {minimum} and {maximum}, not {number}.",
                {"minimum": minimum, "maximum": maximum, "number": shown(number)},
            )
        return number

    return check


# Interval first: the validator runs before the bounds that pydantic checks (and documents)
Seats = Annotated[int, Interval(ge=1, le=MAX_SEATS), BeforeValidator(whole(1, MAX_SEATS, True))]
Limit = Annotated[int, Interval(ge=1, le=MAX_LIMIT), BeforeValidator(whole(1, MAX_LIMIT, True))]
#: a version, a position or an offset: 0 or more
Count = Annotated[int, Interval(ge=0, le=MAX_INT), BeforeValidator(whole(0, MAX_INT, True))]
#: a version that is an event's: 1 or more
Version = Annotated[int, Interval(ge=1, le=MAX_INT), BeforeValidator(whole(1, MAX_INT, True))]
MaybeCount = Annotated[Count | None, BeforeValidator(whole(0, MAX_INT))]
MaybeVersion = Annotated[Version | None, BeforeValidator(whole(1, MAX_INT))]


def kind_of(value: Any) -> str:
    if not isinstance(value, str) or value.lower() not in KINDS:
        raise PydanticCustomError("choice", f"must be {one_of(KIND_NAMES)}.")
    return value.lower()


def status_of(value: Any) -> str:
    if not isinstance(value, str) or value.upper() not in STATUSES:
        raise PydanticCustomError(
            "choice", "must be one of {choices}.", {"choices": ", ".join(STATUSES)}
        )
    return value.upper()


def json_object(value: str | None, name: str) -> JsonObject | None:
    """A JSON object sent as one query string value (a query cannot carry an object)."""
    if value is None:
        return None
    try:
        parsed = json.loads(value)
    except ValueError:
        parsed = None
    if not isinstance(parsed, dict):
        raise BadInput(f"{name} must be a JSON object.")
    return parsed


#: a game kind in any case; the value is the kind's internal name ("imhotep")
Kind = Annotated[
    str,
    BeforeValidator(kind_of),
    WithJsonSchema({"type": "string", "enum": list(KIND_NAMES)}),
]
Status = Annotated[
    str, BeforeValidator(status_of), WithJsonSchema({"type": "string", "enum": list(STATUSES)})
]
#: the ``{id}`` of a game in a path
GameId = Annotated[str, Path(alias="id", description="The game's id.")]
#: a game kind in a path: an unknown one is NOT_FOUND (see ``readmodels.kind_in_path``)
KindInPath = Annotated[str, WithJsonSchema({"type": "string", "enum": sorted(KINDS)})]
