"""The values a request may carry (in its query, its path or its body), parsed as loosely as
the API always has: integers may come as strings, ``kind`` and ``status`` in any case.

Each type is an ``Annotated`` pydantic type, so FastAPI validates with it and writes its JSON
schema into the OpenAPI document. A refusal is a ``PydanticCustomError`` whose message follows
the parameter's name ("seats must be between 1 and 100, not 500."): see ``problems.in_words``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any, Literal

from annotated_types import Interval
from pydantic import BeforeValidator, WithJsonSchema
from pydantic_core import PydanticCustomError

from domain import table as tables
from service.app.errors import BadInput

#: the largest integer a parameter may carry (GraphQL's Int; the stores' columns hold it)
MAX_INT = 2**31 - 1
MAX_LIMIT = 200
MAX_SEATS = 100
KINDS = {"imhotep": "imhotep", "amun_re": "amun_re"}
STATUSES = (tables.OPEN, tables.ACTIVE, tables.FINISHED, tables.ABANDONED)

KindName = Literal["IMHOTEP", "AMUN_RE"]
StatusName = Literal["OPEN", "ACTIVE", "FINISHED", "ABANDONED"]
JsonObject = dict[str, Any]


def whole(minimum: int, maximum: int, required: bool = False) -> Callable[[Any], int | None]:
    """An integer between ``minimum`` and ``maximum`` (null: absent, unless ``required``)."""

    def check(value: Any) -> int | None:
        if value is None:
            if required:
                raise PydanticCustomError("required", "is required.")
            return None
        if isinstance(value, bool):
            raise PydanticCustomError("integer", "must be an integer.")
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise PydanticCustomError(
                "integer", "must be an integer, not {value}.", {"value": repr(value)}
            ) from None
        if not minimum <= number <= maximum:
            raise PydanticCustomError(
                "range",
                "must be between {minimum} and {maximum}, not {number}.",
                {"minimum": minimum, "maximum": maximum, "number": number},
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
        raise PydanticCustomError("choice", 'must be "IMHOTEP" or "AMUN_RE".')
    return KINDS[value.lower()]


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
    WithJsonSchema({"type": "string", "enum": ["IMHOTEP", "AMUN_RE"]}),
]
Status = Annotated[
    str, BeforeValidator(status_of), WithJsonSchema({"type": "string", "enum": list(STATUSES)})
]
#: a game kind in a path: an unknown one is NOT_FOUND (see ``readmodels.kind_in_path``)
KindInPath = Annotated[str, WithJsonSchema({"type": "string", "enum": sorted(KINDS)})]
