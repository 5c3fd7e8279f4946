"""What the view shapes (``domain/<game>/view_shape.py``) are declared with, and how a view's
JSON is derived from an instance of its shape.

A view shape is a dataclass (``kw_only``; the games' are not frozen, which builds them twice as
fast): each field a key of the JSON object, of the annotated type. ``view.py`` builds an instance
of it and ``to_json`` derives the JSON view from that instance, so the shape is the one
declaration of the view (no second, hand-written dict to keep in line):

* the keys come in declaration order; a nested shape, a list and a map (``dict[K, V]``) are
  converted item by item, a value that is JSON already (``int``, ``str``, ``bool``, ``None``, a
  closed id, a free ``JSON`` object, a list or map of those) is taken as it is, not copied (so
  a view is built from new lists, never from the state's own);
* a field whose value is ``ABSENT`` is a key left out of the JSON. ``ABSENT`` is the default of
  the fields that are keys present only for some viewers or some sides; ``None`` is no absence:
  a present key whose value is ``None`` is ``null`` in the JSON.

``Closed`` marks a string of the view whose values form a closed set of domain ids (a card, a
province, a phase): declared as ``Annotated[str, Closed(...)]``, it is a plain string in the JSON
view and an enum in the typed GraphQL view (``service/api/graphql/gameviews``). The ids come from
the domain's own data (``data.json`` or the constants the rules use), never from a second list.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from domain.contract import JSON


@dataclass(frozen=True)
class Closed:
    """A closed set of domain ids: ``name`` of the typed enum, the ``ids`` in domain order, what
    one id is (``description``) and, optionally, a label per id (``labels[i]`` for ``ids[i]``).

    The enum value of an id is the id upper-cased (``paved_path`` → ``PAVED_PATH``)."""

    name: str
    ids: tuple[str, ...]
    description: str
    labels: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if len(set(self.ids)) != len(self.ids) or not self.ids:
            raise ValueError(f"{self.name}: ids must be distinct and not empty")
        if self.labels is not None and len(self.labels) != len(self.ids):
            raise ValueError(f"{self.name}: one label per id")
        for value in self.ids:
            if not value.upper().replace("_", "").isalnum() or value[0].isdigit():
                raise ValueError(f"{self.name}: {value!r} is no enum value name once upper-cased")
        if len({value.upper() for value in self.ids}) != len(self.ids):
            raise ValueError(f"{self.name}: two ids upper-case alike")

    def label(self, index: int) -> str:
        value = self.ids[index]
        if self.labels is None:
            return f'The domain id "{value}".'
        return f'{self.labels[index]} (domain id "{value}").'


# --- the JSON of an instance of a view shape ----------------------------------------------------


class Absent:
    """The type of ``ABSENT`` (one instance only: copies and pickles of it are ``ABSENT``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ABSENT"

    def __reduce__(self) -> str:
        return "ABSENT"


#: the value of a field whose key the JSON leaves out (the default of an optional key). Typed
#: ``Any`` so that it is the default of a field of any declared type, ``X | None`` as it is.
ABSENT: Final[Any] = Absent()

#: ``convert(value)``: the JSON of one value of a declared type (``None``: JSON as it is)
Convert = Callable[[Any], Any]
#: ``encode(instance)``: the JSON object of an instance of one shape, by shape (``encoder``)
ENCODERS: dict[type, Callable[[Any], JSON]] = {}


def to_json(instance: Any) -> JSON:
    """The JSON object of an instance of a view shape: its keys in declaration order, a key
    whose value is ``ABSENT`` left out (``None`` is ``null``), nested shapes, lists and maps
    converted, every other value as it is (not copied)."""
    cls = type(instance)
    encode = ENCODERS.get(cls) or encoder(cls)
    return encode(instance)


def encoder(shape: type) -> Callable[[Any], JSON]:
    """The JSON of the instances of ``shape``, compiled once per shape from its declaration:
    which fields need converting (a nested shape, or a list or map of them) and which keys may
    be ``ABSENT`` (a field whose default is ``ABSENT``).

    An instance's JSON starts as a copy of its attribute dict, which a dataclass's ``__init__``
    fills in declaration order (a copy in C, much faster than a dict built key by key); a shape
    with ``__slots__`` (no attribute dict) is read field by field instead. A shape may not nest
    itself (nor may the typed view's, ``service/api/graphql/gameviews``)."""
    known = ENCODERS.get(shape)
    if known is not None:
        return known
    if not dataclasses.is_dataclass(shape):
        raise TypeError(f"{shape!r} is not a view shape (a dataclass)")
    hints = typing.get_type_hints(shape, include_extras=True)
    declared = dataclasses.fields(shape)
    fields = tuple((f.name, converter(hints[f.name])) for f in declared)
    converted = tuple((name, convert) for name, convert in fields if convert is not None)
    optional = tuple(f.name for f in declared if f.default is ABSENT)

    def encode(instance: Any) -> JSON:
        out: JSON = instance.__dict__.copy()
        for name, convert in converted:
            value = out[name]
            if value is not None and value is not ABSENT:
                out[name] = convert(value)
        for name in optional:
            if out[name] is ABSENT:
                del out[name]
        return out

    def encode_slots(instance: Any) -> JSON:
        out: JSON = {}
        for name, convert in fields:
            value = getattr(instance, name)
            if value is ABSENT and name in optional:
                continue
            out[name] = value if convert is None or value is None else convert(value)
        return out

    if "__slots__" in shape.__dict__:
        encode_shape = encode_slots
    elif converted or optional:
        encode_shape = encode
    else:  # plain values only, all present: the copy is the JSON
        encode_shape = copy_fields
    ENCODERS[shape] = encode_shape
    return encode_shape


def copy_fields(instance: Any) -> JSON:
    """The JSON of an instance whose values are all JSON as they are and all present."""
    return instance.__dict__.copy()


def converter(hint: Any) -> Convert | None:
    """The converter of a value of the declared type ``hint`` (``None`` for a value that is
    JSON as it is); a ``None`` value is never converted (it is ``null``)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Annotated or hint in (int, str, bool, float, type(None)) or hint is Any:
        return None  # a closed id is the id itself; ``Any``: a free JSON value
    if origin in (typing.Union, types.UnionType):
        inner = [converter(a) for a in args if a is not type(None)]
        if all(c is None for c in inner):
            return None
        if len(inner) != 1:
            raise TypeError(f"{hint!r}: a view shape allows one type or None, not a union")
        return inner[0]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return encoder(hint)
    if origin is list:
        item = converter(args[0])
        if item is None:
            return None
        if item is copy_fields and not is_optional(args[0]):  # no call per item
            return lambda value: [v.__dict__.copy() for v in value]
        return lambda value: [None if v is None else item(v) for v in value]
    if origin is dict:
        entry = converter(args[1])
        if entry is None:
            return None  # a map of plain values, or a free ``JSON`` object
        return lambda value: {k: None if v is None else entry(v) for k, v in value.items()}
    raise TypeError(f"no JSON for the declared type {hint!r}")


def is_optional(hint: Any) -> bool:
    """``hint`` is ``X | None``."""
    union = typing.get_origin(hint) in (typing.Union, types.UnionType)
    return union and type(None) in typing.get_args(hint)
