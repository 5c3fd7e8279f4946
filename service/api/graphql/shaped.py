"""Strawberry types derived from the shared response shapes (``service.api.shapes``).

``@graphql_type(shape)`` on a class (which may hold resolvers and builders) gives it one field
per field of the shape that GraphQL shows, in declaration order, with the shape's description
and type (markers mapped: ``Id`` an ``ID``, ``Kind`` the ``GameKind`` enum, ``Status``
``GameStatus``, ``Json`` and ``Value`` the ``JSON`` scalar, ``Timestamp`` a string, ``Instant`` and
``Moment`` a ``DateTime``, a ``Choice`` the enum given in ``enums``, a nested shape its derived
type; an ``Own`` field keeps the type the class gives it), and makes it a strawberry type of
the shape's GraphQL name. A method of the class named like a field is that field's resolver (its
return type must be the shape's, unless the field is ``Own``); the class's private annotations
(``_name``) stay. ``build(cls, data)`` makes one from the shape's snake_case data, converting
each value to its GraphQL type.
"""

from __future__ import annotations

import dataclasses
import inspect
import types
import typing
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar

import strawberry
from strawberry.scalars import JSON

from service.api.shapes.declare import (
    Action,
    Choice,
    Declared,
    Id,
    Instant,
    Json,
    Kind,
    Moment,
    Own,
    Status,
    Timestamp,
    TypedForm,
    Value,
    declared_fields,
    is_shape,
    names_of,
)

T = TypeVar("T")
C = TypeVar("C", bound=type)
#: ``convert(value)``: a value of the data as its GraphQL type
Convert = Callable[[Any], Any]


def same(value: Any) -> Any:
    return value


def instant(ms: int | None) -> datetime | None:
    return None if ms is None else datetime.fromtimestamp(ms / 1000, UTC)


#: each marker's GraphQL type, and how a value of the data becomes one
MARKERS: dict[type, tuple[Any, Convert]] = {
    Id: (strawberry.ID, strawberry.ID),
    Json: (JSON, same),
    Action: (JSON, same),
    TypedForm: (JSON, same),
    Value: (JSON, same),
    Timestamp: (str, same),
    Instant: (datetime, instant),
    Moment: (datetime, same),
}


class Derived:
    """The base of a derived type: to the type checker, it has the fields its shape declares."""

    if TYPE_CHECKING:

        def __init__(self, **fields: Any) -> None: ...

        def __getattr__(self, name: str) -> Any: ...


#: the type derived from each shape, and its fields with their converters
DERIVED: dict[type, type] = {}
FIELDS: dict[type, list[tuple[Declared, Convert]]] = {}


def graphql_type(
    shape: type, *, enums: Mapping[type, type[Enum]] | None = None
) -> Callable[[C], C]:
    """The class, made the strawberry type of ``shape`` (see the module)."""
    names = names_of(shape)
    if names.graphql is None:
        raise TypeError(f"{shape.__name__} is not shown in GraphQL")

    def derive(cls: C) -> C:
        own: dict[str, Any] = dict(inspect.get_annotations(cls))
        annotations = {name: hint for name, hint in own.items() if name.startswith("_")}
        fields: list[tuple[Declared, Convert]] = []
        for declared in declared_fields(shape):
            if not declared.spec.graphql:
                continue
            description = declared.spec.description
            where = f"{shape.__name__}.{declared.name}"
            resolver = cls.__dict__.get(declared.name)
            if inspect.isfunction(resolver):
                if declared.hint is not Own:
                    agree(resolver, node(declared.hint, enums or {}, where)[0], where)
                setattr(cls, declared.name, strawberry.field(resolver, description=description))
                continue
            annotation: Any
            convert: Convert
            if declared.hint is Own:
                if declared.name not in own:
                    raise TypeError(f"{where}: the derived class must annotate or resolve it")
                annotation, convert = own[declared.name], same
            else:
                annotation, convert = node(declared.hint, enums or {}, where)
            annotations[declared.name] = annotation
            default = (
                {} if declared.default is dataclasses.MISSING else {"default": declared.default}
            )
            setattr(cls, declared.name, strawberry.field(description=description, **default))
            fields.append((declared, convert))
        stray = set(own) - set(annotations)
        if stray:
            raise TypeError(f"{cls.__name__}: {', '.join(stray)} not in {shape.__name__}")
        cls.__annotations__ = annotations
        typed = strawberry.type(cls, name=names.graphql, description=names.description)
        DERIVED[shape] = typed
        FIELDS[typed] = fields
        return typed

    return derive


def agree(resolver: Callable[..., Any], annotation: Any, where: str) -> None:
    """A resolver's return type must be the one its field is declared with."""
    returned = typing.get_type_hints(resolver).get("return")
    if returned != annotation:
        raise TypeError(f"{where}: the resolver returns {returned!r}, declared {annotation!r}")


def node(hint: Any, enums: Mapping[type, type[Enum]], where: str) -> tuple[Any, Convert]:
    """The GraphQL annotation of a declared type, and the converter of its values."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        inner = [a for a in args if a is not type(None)]
        if len(inner) != 1:
            raise TypeError(f"{where}: only `X | None` unions are shapes")
        annotation, convert = node(inner[0], enums, where)
        # an optional id that is empty is none (a free seat's player, as the read model has it)
        empty = (None, "") if inner[0] is Id else (None,)
        return annotation | None, lambda value: None if value in empty else convert(value)
    if origin is list:
        annotation, convert = node(args[0], enums, where)
        return list[annotation], lambda values: [convert(v) for v in values]  # type: ignore[valid-type]
    if is_shape(hint):
        if hint not in DERIVED:
            raise TypeError(f"{where}: derive {hint.__name__} first")
        derived = DERIVED[hint]
        return derived, lambda value: build(derived, value)
    if isinstance(hint, type) and issubclass(hint, Choice):
        enum = enums[hint]
        return enum, enum
    if hint in (Kind, Status):
        # here, not at the top: ``types`` imports the clock, derived here
        from service.api.graphql.types import GameKind, GameStatus

        enum = GameKind if hint is Kind else GameStatus
        return enum, enum
    if hint in MARKERS:
        return MARKERS[hint]
    if hint in (int, str, bool, float):
        return hint, same
    raise TypeError(f"{where}: {hint!r} is not a type of a shape")


def build(cls: type[T], data: Mapping[str, Any]) -> T:
    """A derived type's value of its shape's snake_case ``data`` (keys GraphQL does not show
    are left out; a missing key takes the field's default)."""
    values = {
        declared.name: convert(data[declared.name])
        for declared, convert in FIELDS[cls]
        if declared.name in data or declared.default is dataclasses.MISSING
    }
    made: Any = cls
    return typing.cast(T, made(**values))
