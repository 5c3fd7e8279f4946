"""Pydantic bodies derived from the shared response shapes (``service.api.shapes``).

``@rest_model(shape)`` on a body class (its base says how it is shown: ``Shown`` camelCases
the members; its docstring, if any, is REST's wording of the shape) gives the body one member
per field of the shape that REST shows, in the shape's REST order, with the shape's type
(markers mapped: ``Id`` a string, ``Kind`` a ``KindName``, ``Status`` a ``StatusName``,
``Json`` an object, ``Value`` any value, ``Timestamp``, ``Instant`` and ``Moment`` a
``date-time`` string, a ``Choice`` one of its ids, a nested shape its derived body; an ``Own``
field its ``rest_type``) and description. A field named like an attribute of pydantic's
``BaseModel`` (``schema``) is the member ``json_<name>``, aliased to the name. ``shown(shape,
data)`` is the body's snake_case data (keyed by the shape's field names), each value as REST
shows it (a kind upper-cased, an instant and a moment in ISO 8601).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, Field, create_model

from service.api.rest.models import Timestamp
from service.api.rest.params import JsonObject, KindName, StatusName
from service.api.rest.typedactions import ShownAction, ShownTyped
from service.api.shapes import declare
from service.api.shapes.declare import Declared, declared_fields, is_shape, names_of

M = TypeVar("M", bound=type[BaseModel])
#: ``convert(value)``: a value of the data as REST shows it
Convert = Callable[[Any], Any]


def same(value: Any) -> Any:
    return value


def instant(ms: int | None) -> str | None:
    return None if ms is None else datetime.fromtimestamp(ms / 1000, UTC).isoformat()


#: each marker's REST type, and how a value of the data becomes one
MARKERS: dict[type, tuple[Any, Convert]] = {
    declare.Id: (str, same),
    declare.Kind: (KindName, str.upper),
    declare.Status: (StatusName, same),
    declare.Json: (JsonObject, same),
    declare.Action: (ShownAction, same),
    declare.TypedForm: (ShownTyped, same),
    declare.Value: (Any, same),
    declare.Timestamp: (Timestamp, same),
    declare.Instant: (Timestamp, instant),
    declare.Moment: (Timestamp, datetime.isoformat),
}

#: the body derived from each shape, and the converters of the shape's REST fields
DERIVED: dict[type, type[BaseModel]] = {}
FIELDS: dict[type, list[tuple[str, Convert]]] = {}


def rest_fields(shape: type) -> list[Declared]:
    """The fields REST shows, in REST's order."""
    shown_fields = [d for d in declared_fields(shape) if d.spec.rest]
    order = names_of(shape).rest_order
    if order is None:
        return shown_fields
    by_name = {d.name: d for d in shown_fields}
    if sorted(order) != sorted(by_name):
        raise TypeError(f"{shape.__name__}: rest_order must name every REST field once")
    return [by_name[name] for name in order]


def rest_model(shape: type) -> Callable[[M], M]:
    """The body class, with the members of ``shape`` (see the module)."""
    names = names_of(shape)
    if names.rest is None:
        raise TypeError(f"{shape.__name__} is not shown in REST")
    name = names.rest

    def derive(cls: M) -> M:
        members: dict[str, Any] = {}
        converters: list[tuple[str, Convert]] = []
        for declared in rest_fields(shape):
            where = f"{shape.__name__}.{declared.name}"
            spec = declared.spec
            annotation, convert = node(spec.rest_type or declared.hint, where)
            wording = spec.rest_description or spec.description
            extra: dict[str, Any] = (
                {} if declared.default is dataclasses.MISSING else {"default": declared.default}
            )
            member = declared.name
            if hasattr(BaseModel, member):  # ``schema``: a member of its own, aliased
                member, extra["alias"] = f"json_{member}", member
            members[member] = (annotation, Field(description=wording, **extra))
            converters.append((declared.name, convert))
        model = create_model(
            name,
            __base__=cls,
            __doc__=cls.__doc__ or names.description,
            __module__=cls.__module__,
            **members,
        )
        DERIVED[shape] = model
        FIELDS[shape] = converters
        return typing.cast(M, model)

    return derive


def node(hint: Any, where: str) -> tuple[Any, Convert]:
    """The REST annotation of a declared type, and the converter of its values."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        inner = [a for a in args if a is not type(None)]
        if len(inner) != 1:
            raise TypeError(f"{where}: only `X | None` unions are shapes")
        annotation, convert = node(inner[0], where)
        return annotation | None, lambda value: None if value is None else convert(value)
    if origin is list:
        annotation, convert = node(args[0], where)
        return list[annotation], lambda values: [convert(v) for v in values]  # type: ignore[valid-type]
    if origin is dict:
        annotation, convert = node(args[1], where)
        return dict[args[0], annotation], lambda values: {  # type: ignore[valid-type]
            k: convert(v) for k, v in values.items()
        }
    if is_shape(hint):
        if hint not in DERIVED:
            raise TypeError(f"{where}: derive {hint.__name__} first")
        return DERIVED[hint], lambda value: shown(hint, value)
    if isinstance(hint, type) and issubclass(hint, declare.Choice):
        return Literal[hint.ids], same
    if hint in MARKERS:
        return MARKERS[hint]
    if hint in (int, str, bool, float):
        return hint, same
    raise TypeError(f"{where}: {hint!r} is not a type of a shape")


def shown(shape: type, data: Mapping[str, Any]) -> dict[str, Any]:
    """The snake_case members of ``shape``'s body (keys REST does not show are left out; a
    missing key is left to the member's default)."""
    return {name: convert(data[name]) for name, convert in FIELDS[shape] if name in data}
