"""How a response shape is declared: the shape decorator, its fields and the type markers."""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T", bound=type)


# -- the types the two transports spell differently ----------------------------------------------


class Marker:
    """A type that GraphQL and REST show each in its own way (never instantiated)."""


class Id(Marker):
    """An id: ``ID`` in GraphQL, a string in REST."""


class Kind(Marker):
    """A game kind, the domain id ("imhotep") in the data: the ``GameKind`` enum in GraphQL,
    its upper-cased name ("IMHOTEP") in REST."""


class Status(Marker):
    """A table status: the ``GameStatus`` enum in GraphQL, its name in REST."""


class Json(Marker):
    """A JSON object: the ``JSON`` scalar in GraphQL, an object in REST."""


class Action(Json):
    """An action in its JSON form (``{"type": "place_stone", ...}``): the ``JSON`` scalar in
    GraphQL, one of the named action bodies (``ImhotepPlaceStone``...) in REST."""


class TypedForm(Json):
    """An action in its typed form, one member named by the game kind and the action: the
    ``JSON`` scalar in GraphQL (``ActionInput``'s value), ``TypedAction`` in REST."""


class Value(Marker):
    """Any JSON value (a string, a number, ...): the ``JSON`` scalar in GraphQL, any value in
    REST."""


class Timestamp(Marker):
    """An ISO 8601 text in the data: a string in GraphQL, a ``date-time`` string in REST."""


class Instant(Marker):
    """Milliseconds since the epoch in the data: a ``DateTime`` in GraphQL, a ``date-time``
    string (ISO 8601, UTC) in REST."""


class Moment(Marker):
    """A Python ``datetime`` in the data: a ``DateTime`` in GraphQL, a ``date-time`` string
    (its ``isoformat``, microseconds kept) in REST."""


class Own(Marker):
    """A field whose type only the derived class can say (a GraphQL union, say): the shape
    gives its description, place and default; the class that derives the shape annotates or
    resolves it. REST shows it only as its ``rest_type`` (else declare it ``rest=False``)."""


class Choice(Marker):
    """One of a closed set of ids (``ids``): a GraphQL enum (its derivation is told which), a
    string of the set in REST."""

    ids: tuple[str, ...] = ()


# -- fields and shapes ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    """What a field says besides its name and type.

    ``graphql``/``rest``: whether the transport shows it; ``rest_type``: the type REST shows
    instead of the declared one; ``rest_description``: REST's wording where GraphQL's would not
    fit."""

    description: str
    graphql: bool = True
    rest: bool = True
    rest_type: Any = None
    rest_description: str | None = None


def described(
    description: str,
    *,
    graphql: bool = True,
    rest: bool = True,
    rest_type: Any = None,
    rest_description: str | None = None,
    default: Any = dataclasses.MISSING,
) -> Any:
    """A field of a shape: its description, and where the transports differ."""
    spec = Spec(description, graphql, rest, rest_type, rest_description)
    return dataclasses.field(default=default, metadata={"spec": spec})


@dataclass(frozen=True)
class Names:
    """A shape's description and its type's name in each transport (None: not shown there);
    ``rest_order``: REST's order of the fields where it is not the declared one."""

    description: str
    graphql: str | None
    rest: str | None
    rest_order: tuple[str, ...] | None = None


def shape(
    description: str,
    *,
    graphql: str | bool | None = True,
    rest: str | bool | None = True,
    rest_order: tuple[str, ...] | None = None,
) -> Callable[[T], T]:
    """Declares a shape: a name that is True is the class's own, False: not in that transport."""

    def declare(cls: T) -> T:
        def named(name: str | bool | None) -> str | None:
            return cls.__name__ if name is True else name or None

        declared: Any = dataclass(frozen=True, kw_only=True)(cls)
        declared.__shape__ = Names(description, named(graphql), named(rest), rest_order)
        return typing.cast(T, declared)

    return declare


def names_of(shape_cls: type) -> Names:
    names = getattr(shape_cls, "__shape__", None)
    if not isinstance(names, Names):
        raise TypeError(f"{shape_cls!r} is not a declared shape")
    return names


def is_shape(hint: Any) -> bool:
    return isinstance(hint, type) and isinstance(getattr(hint, "__shape__", None), Names)


@dataclass(frozen=True)
class Declared:
    """One field of a shape: its name, its declared type, what it says, its default."""

    name: str
    hint: Any
    spec: Spec
    default: Any


def declared_fields(shape_cls: type) -> Iterator[Declared]:
    """The fields of a shape in declaration order, their types resolved."""
    hints = typing.get_type_hints(shape_cls)
    for f in dataclasses.fields(shape_cls):
        yield Declared(f.name, hints[f.name], f.metadata["spec"], f.default)
