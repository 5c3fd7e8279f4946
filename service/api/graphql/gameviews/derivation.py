"""Strawberry types derived from the domain's view shapes (``domain/<game>/view_shape.py``).

``derive(shape)`` makes one strawberry type per shape dataclass (the root and every shape it
nests), of the same name, with the fields in declaration order (camelCased by strawberry), their
descriptions and nullability; a map (``dict`` with ``metadata["entries"]``) becomes a list of its
entry type, a free ``JSON`` object the ``JSON`` scalar, a closed set of domain ids
(``Annotated[str, Closed(...)]``, ``domain/shapes.py``) a GraphQL enum whose values are the ids
upper-cased (one enum per ``Closed`` name, shared by every shape that uses it). With the types it
compiles ``read``, which turns a JSON view into the typed object and copies only what is there (a
key the view leaves out is a null field), but raises ``ViewShapeError`` at a key the shape does
not declare, a required key that is missing, a value of another type or a string outside its
closed set: a key or an id added on one side only fails at once.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

import strawberry
from strawberry.scalars import JSON

from domain.shapes import Closed

#: ``read(value, path)``: the typed value of one JSON value (``path`` names it in errors)
Read = Callable[[Any, str], Any]
#: the module the derived types say they come from (where they can be imported)
MODULE = "service.api.graphql.gameviews"


class ViewShapeError(ValueError):
    """A JSON view that does not match its declared shape."""


#: the enum derived for each ``Closed`` name, with the set it was derived from
ENUMS: dict[str, tuple[Closed, type[enum.Enum]]] = {}


def enum_of(closed: Closed) -> type[enum.Enum]:
    """The strawberry enum of a closed set of ids (derived once per name)."""
    if closed.name in ENUMS:
        known, derived = ENUMS[closed.name]
        if known.ids != closed.ids:
            raise TypeError(f"two closed sets named {closed.name}")
        return derived
    members = {
        value.upper(): strawberry.enum_value(value, description=closed.label(i))
        for i, value in enumerate(closed.ids)
    }
    python_enum = enum.Enum(closed.name, members, module=MODULE)  # type: ignore[misc]
    description = (
        f"{closed.description} Enum values are the domain ids upper-cased (the domain id is "
        f'the value lower-cased, e.g. {closed.ids[0].upper()} is "{closed.ids[0]}"); the JSON '
        "view (`Game.state`) carries the domain id itself."
    )
    if any(value != value.lower() for value in closed.ids):
        description = (
            f"{closed.description} Enum values are the domain ids upper-cased (here the domain "
            f"ids are {', '.join(repr(v) for v in closed.ids)}); the JSON view (`Game.state`) "
            "carries the domain id itself."
        )
    derived = strawberry.enum(python_enum, description=description)
    ENUMS[closed.name] = (closed, derived)
    return derived


def closed_reader(closed: Closed, derived: type[enum.Enum]) -> Read:
    members = {value: derived(value) for value in closed.ids}

    def read(value: Any, path: str) -> Any:
        expect(value, str, path)
        try:
            return members[value]
        except KeyError:
            raise ViewShapeError(f"{path}: {value!r} is not a {closed.name} id") from None

    return read


@dataclass(frozen=True)
class Key:
    """One declared key: its JSON name, its typed field name, whether it is always there."""

    key: str
    name: str
    required: bool
    read: Read


@dataclass(frozen=True)
class Derived:
    """The strawberry types of one view shape (``by_name``) and the reader of its JSON views."""

    root: type
    by_name: dict[str, type]
    read_root: Read

    def read(self, view: Any) -> Any:
        return self.read_root(view, "view")


def derive(shape: type) -> Derived:
    """The strawberry types of ``shape`` and of every shape it nests, with its reader."""
    derivation = Derivation()
    root, read = derivation.shape(shape)
    return Derived(root, {t.__name__: t for t, _ in derivation.done.values()}, read)


class Derivation:
    """The shapes derived so far (a shape nested twice is one type)."""

    def __init__(self) -> None:
        self.done: dict[type, tuple[type, Read]] = {}

    def shape(self, cls: type) -> tuple[type, Read]:
        if cls not in self.done:
            self.done[cls] = self._derive(cls)
        return self.done[cls]

    def _derive(self, cls: type) -> tuple[type, Read]:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls!r} is not a view shape (a dataclass)")
        hints = typing.get_type_hints(cls, include_extras=True)
        annotations: dict[str, Any] = {}
        namespace: dict[str, Any] = {"__module__": MODULE, "__annotations__": annotations}
        keys = []
        for f in dataclasses.fields(cls):
            where = f"{cls.__name__}.{f.name}"
            annotation, read = self.node(hints[f.name], f.metadata, where)
            required = f.default is dataclasses.MISSING
            if not required and not is_optional(hints[f.name]):
                raise TypeError(f"{where}: a key that may be absent must be nullable")
            if f.metadata.get("typed_nullable"):
                annotation = annotation | None
            name = f.metadata.get("typed_name", f.name)
            annotations[name] = annotation
            if "description" in f.metadata:
                namespace[name] = strawberry.field(description=f.metadata["description"])
            keys.append(Key(f.name, name, required, read))
        typed = strawberry.type(type(cls.__name__, (), namespace), description=docstring(cls))
        return typed, object_reader(cls.__name__, typed, keys)

    def node(self, hint: Any, metadata: Mapping[str, Any], where: str) -> tuple[Any, Read]:
        """The strawberry annotation and the reader of one declared type."""
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin is Annotated:
            closed = next((a for a in hint.__metadata__ if isinstance(a, Closed)), None)
            if args[0] is not str or closed is None:
                raise TypeError(f"{where}: only Annotated[str, Closed(...)] is a view type")
            derived = enum_of(closed)
            return derived, closed_reader(closed, derived)
        if hint in (int, str, bool):
            return hint, scalar_reader(hint)
        if is_optional(hint):
            (inner,) = (a for a in args if a is not type(None))
            annotation, read = self.node(inner, metadata, where)
            return annotation | None, optional_reader(read)
        if origin is list:
            annotation, read = self.node(args[0], metadata, where)
            return types.GenericAlias(list, (annotation,)), list_reader(read)
        if origin is dict and "entries" in metadata:
            return self.entries(hint, metadata["entries"], where)
        if origin is dict and args == (str, Any):
            return JSON, json_reader
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            return self.shape(hint)
        raise TypeError(f"{where}: no typed field for {hint!r} (a map needs metadata 'entries')")

    def entries(self, hint: Any, entry: type, where: str) -> tuple[Any, Read]:
        """A map shown as a list of ``entry`` objects: its first field the key, its second the
        value, which must be the map's key and value types."""
        entry_hints = typing.get_type_hints(entry, include_extras=True)
        key, value = (f.name for f in dataclasses.fields(entry))
        if typing.get_args(hint) != (entry_hints[key], entry_hints[value]):
            raise TypeError(f"{where}: {hint!r} does not match its entries {entry.__name__}")
        typed, read_entry = self.shape(entry)

        def read(d: Any, path: str) -> list[Any]:
            expect(d, dict, path)
            return [read_entry({key: k, value: v}, f"{path}[{k!r}]") for k, v in d.items()]

        return types.GenericAlias(list, (typed,)), read


def is_optional(hint: Any) -> bool:
    args = typing.get_args(hint)
    optional = typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in args
    if optional and len(args) != 2:
        raise TypeError(f"{hint!r}: a view shape allows one type or None, not a union")
    return optional


def docstring(cls: type) -> str | None:
    """The class docstring as one line; None for the one ``dataclass`` writes by itself."""
    doc = cls.__doc__
    if doc is None or doc.startswith(f"{cls.__name__}("):
        return None
    return " ".join(doc.split())


def expect(value: Any, kind: type, path: str) -> None:
    # ``type() is``: a bool is not an int here, nor an int a bool
    if type(value) is not kind:
        raise ViewShapeError(f"{path}: expected {kind.__name__}, got {value!r}")


def scalar_reader(kind: type) -> Read:
    def read(value: Any, path: str) -> Any:
        expect(value, kind, path)
        return value

    return read


def json_reader(value: Any, path: str) -> Any:
    expect(value, dict, path)
    return value


def optional_reader(read: Read) -> Read:
    return lambda value, path: None if value is None else read(value, path)


def list_reader(read: Read) -> Read:
    def read_list(value: Any, path: str) -> list[Any]:
        expect(value, list, path)
        return [read(v, f"{path}[{i}]") for i, v in enumerate(value)]

    return read_list


def object_reader(name: str, typed: type, keys: list[Key]) -> Read:
    known = {k.key for k in keys}
    required = {k.key for k in keys if k.required}

    def read(d: Any, path: str) -> Any:
        expect(d, dict, path)
        unknown = d.keys() - known
        if unknown:
            raise ViewShapeError(f"{path}: {sorted(unknown)} not declared in {name}")
        missing = required - d.keys()
        if missing:
            raise ViewShapeError(f"{path}: required {sorted(missing)} of {name} missing")
        return typed(
            **{k.name: k.read(d[k.key], f"{path}.{k.key}") if k.key in d else None for k in keys}
        )

    return read
