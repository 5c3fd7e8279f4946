"""The typed action input of ``act`` (``ActionInput``), generated from the domain's one
declaration of every game's actions (``domain.actions``), next to the JSON ``action``.

``ActionInput`` is a ``@oneOf`` input with one member per (game kind, action): its name is the
kind and the action's name in camelCase (``imhotepPlaceStone``, ``amunReBid``). A member is an
input type with one field per parameter (``ImhotepPlaceStoneInput { ship: Int! slot: Int! }``):
a string with a closed set of values is an enum (the typed views' own where they have the same
set, ``ImhotepSite``, else one of its own; values are the catalog's values upper-cased:
``BURIAL_CHAMBER`` for "burial_chamber"), an object an input type
of its fields, an array a list. An action without parameters (``pass``) is a ``Boolean`` member
that must be ``true``. Integer ranges and integer value sets stay ``Int`` (GraphQL enums cannot
be numbers); the rules check them, as they do for the JSON action.

``action_of`` turns a typed input back into exactly the dict the JSON action would be, so `act`
plays both the same way; ``typed_of`` goes the other way (the GraphQL variables of a JSON action),
for clients and tests. Nothing here is a second list of actions: add an action to a catalog and it
is here.
"""

from __future__ import annotations

import keyword
from dataclasses import dataclass
from enum import Enum
from typing import Any

import strawberry

from domain import actions, registry
from service.api.graphql import gameviews  # noqa: F401 - derives the views' enums (ENUMS)
from service.api.graphql.gameviews.derivation import ENUMS
from service.api.graphql.strawberry_private import to_camel_case
from service.app.errors import BadInput

#: the module the generated types say they come from
MODULE = __name__


def pascal(snake: str) -> str:
    """``amun_re`` -> ``AmunRe``."""
    return "".join(part[:1].upper() + part[1:] for part in snake.split("_"))


def enum_name(value: str) -> str:
    """The GraphQL name of a catalog value: ``burial_chamber`` -> ``BURIAL_CHAMBER``."""
    name = "".join(c if c.isalnum() else "_" for c in value).upper()
    return name if name[:1].isalpha() else f"V_{name}"


def kind_title(kind: str) -> str:
    """The game's display name (``GameModule.name``)."""
    return registry.game(kind).name


@dataclass(frozen=True, slots=True)
class Member:
    """One member of ``ActionInput``: an action of a game kind."""

    field: str  #: its Python name (``imhotep_place_stone``)
    graphql: str  #: its GraphQL name (``imhotepPlaceStone``)
    kind: str
    spec: actions.ActionSpec


class Generation:
    """Makes the strawberry types of every catalog, each type once (enums and nested objects
    are shared between the actions of a kind that use the same ones)."""

    def __init__(self) -> None:
        self.enums: dict[tuple[str, tuple[actions.Scalar, ...]], type[Enum]] = {}
        self.objects: dict[tuple[str, tuple[str, ...]], type] = {}
        self.names: set[str] = set()
        self.members: list[Member] = []

    def claim(self, name: str) -> str:
        assert name not in self.names, f"two generated action input types are named {name}"
        self.names.add(name)
        return name

    def enum(self, kind: str, param: actions.Param) -> type[Enum]:
        key = (kind, param.allowed)
        shared = view_enum(kind, param.allowed)
        if shared is not None:
            return shared
        if key not in self.enums:
            name = self.claim(f"{pascal(kind)}Action{pascal(param.name)}")
            members = {
                enum_name(str(v)): strawberry.enum_value(v, description=value_description(param, v))
                for v in param.allowed
            }
            assert len(members) == len(param.allowed), f"{name}: two values share a name"
            made = Enum(name, members)  # type: ignore[misc]
            made.__module__ = MODULE
            self.enums[key] = strawberry.enum(
                made,
                description=f"The values of `{param.name}` in {kind_title(kind)} actions: "
                f"{param.description}",
            )
        return self.enums[key]

    def graphql_type(self, kind: str, param: actions.Param) -> Any:
        """The strawberry type of a parameter's value."""
        if param.type == "string":
            return self.enum(kind, param) if param.allowed else str
        if param.type == "integer":
            return int
        if param.type == "boolean":
            return bool
        if param.type == "array":
            assert param.items is not None, f"{param.name}: an array without items"
            return list[self.graphql_type(kind, param.items)]  # type: ignore[misc]
        if param.type == "object":
            return self.object(kind, param)
        raise AssertionError(f"{param.name}: no GraphQL type for {param.type!r}")

    def object(self, kind: str, param: actions.Param) -> type:
        key = (kind, tuple(f"{f.name}:{f.type}:{f.allowed}" for f in param.fields))
        if key not in self.objects:
            name = self.claim(f"{pascal(kind)}{''.join(pascal(f.name) for f in param.fields)}Input")
            what = ", ".join(f"`{f.name}`" for f in param.fields)
            self.objects[key] = self.input_type(
                name,
                kind,
                param.fields,
                f"A parameter of {kind_title(kind)} actions made of {what}.",
            )
        return self.objects[key]

    def input_type(
        self, name: str, kind: str, params: tuple[actions.Param, ...], description: str
    ) -> type:
        annotations: dict[str, Any] = {}
        namespace: dict[str, Any] = {"__annotations__": annotations, "__module__": MODULE}
        for param in params:
            assert param.name.isidentifier() and not keyword.iskeyword(param.name), param.name
            annotations[param.name] = self.graphql_type(kind, param)
            namespace[param.name] = strawberry.field(description=described(param))
        return strawberry.input(type(name, (), namespace), description=description)

    def action(self, kind: str, spec: actions.ActionSpec) -> tuple[Any, str]:
        """The type of an action's member, and its description."""
        said = f"{kind_title(kind)}: {spec.label} ({spec.rule}), the action `{spec.name}`."
        if not spec.params:
            return bool, f"{said} It has no parameters: send `true`."
        name = self.claim(f"{pascal(kind)}{pascal(spec.name)}Input")
        return self.input_type(name, kind, spec.params, f"The parameters of {said}"), said

    def action_input(self, catalogs: tuple[actions.Catalog, ...]) -> type:
        annotations: dict[str, Any] = {}
        namespace: dict[str, Any] = {"__annotations__": annotations, "__module__": MODULE}
        for catalog in catalogs:
            for spec in catalog.actions:
                field = f"{catalog.kind}_{spec.name}"
                member, description = self.action(catalog.kind, spec)
                annotations[field] = member | None
                namespace[field] = strawberry.field(
                    default=strawberry.UNSET, description=description
                )
                self.members.append(Member(field, to_camel_case(field), catalog.kind, spec))
        # for example: the first member with parameters of each of the first two games
        first: dict[str, str] = {}
        for member in self.members:
            if member.spec.params:
                first.setdefault(member.kind, member.graphql)
        named = ", ".join(f"`{name}`" for name in list(first.values())[:2])
        return strawberry.input(
            type("ActionInput", (), namespace),
            one_of=True,
            description="One action, typed: exactly one member, named after the game kind and "
            f"the action ({named}), with the action's parameters as "
            "fields. `act` plays it exactly as the same action sent as JSON in `action` "
            "(`actionCatalog` lists the same actions, with their JSON Schemas).",
        )


def view_enum(kind: str, allowed: tuple[actions.Scalar, ...]) -> type[Enum] | None:
    """The typed views' enum of exactly these values (``ImhotepSite`` for where a ship sails),
    if there is one: a card, a site or a province is one enum, whether a view shows it or an
    action sends it (``gameviews.derivation.ENUMS``, derived from ``domain/<game>/view_shape``)."""
    wanted = {str(v) for v in allowed}
    for name, (closed, derived) in ENUMS.items():
        if name.startswith(pascal(kind)) and set(closed.ids) == wanted:
            return derived
    return None


def value_description(param: actions.Param, value: actions.Scalar) -> str:
    shown = str(param.shown(value))
    return f'"{value}" ({shown}).' if shown != str(value) else f'"{value}".'


def described(param: actions.Param) -> str:
    """A parameter's description, with the limits its GraphQL type does not carry."""
    limits = []
    if param.minimum is not None:
        limits.append(f"at least {param.minimum}")
    if param.maximum is not None:
        limits.append(f"at most {param.maximum}")
    if param.allowed and param.type != "string":
        limits.append("one of " + ", ".join(str(v) for v in param.allowed))
    if not limits:
        return param.description
    return f"{param.description.rstrip('.')}: {', '.join(limits)}."


GENERATION = Generation()
ActionInput = GENERATION.action_input(actions.catalogs())
MEMBERS: dict[str, Member] = {m.field: m for m in GENERATION.members}
BY_ACTION: dict[tuple[str, str], Member] = {(m.kind, m.spec.name): m for m in MEMBERS.values()}


def chosen(typed: Any) -> Member:
    """The one member a typed action sets (graphql-core already refused any other number)."""
    found = [
        m for m in MEMBERS.values() if getattr(typed, m.field, None) not in (None, strawberry.UNSET)
    ]
    if len(found) != 1:
        raise BadInput("typedAction must set exactly one member (one action).")
    return found[0]


def action_of(typed: Any) -> tuple[str, dict[str, Any]]:
    """The game kind of a typed action and the action as JSON, exactly as ``act`` takes it."""
    member = chosen(typed)
    value = getattr(typed, member.field)
    if not member.spec.params:
        if value is not True:
            raise BadInput(f"typedAction.{member.graphql} has no parameters: send true.")
        return member.kind, {"type": member.spec.name}
    action: dict[str, Any] = {"type": member.spec.name}
    for param in member.spec.params:
        action[param.name] = plain(param, getattr(value, param.name))
    return member.kind, action


def plain(param: actions.Param, value: Any) -> Any:
    """A typed parameter value as JSON."""
    if value is None:
        return None
    if param.type == "object":
        return {f.name: plain(f, getattr(value, f.name)) for f in param.fields}
    if param.type == "array":
        item = param.items or actions.Param("", "string", "")
        return [plain(item, v) for v in value]
    if isinstance(value, Enum):
        return value.value
    return value


def typed_of(kind: str, action: dict[str, Any]) -> dict[str, Any]:
    """The ``typedAction`` variable value of a JSON action (enum values by their GraphQL names);
    ``KeyError`` for an action no catalog declares."""
    member = BY_ACTION[(kind, action["type"])]
    if not member.spec.params:
        return {member.graphql: True}
    return {
        member.graphql: {
            to_camel_case(p.name): variable(p, action[p.name]) for p in member.spec.params
        }
    }


def variable(param: actions.Param, value: Any) -> Any:
    if param.type == "object":
        return {to_camel_case(f.name): variable(f, value[f.name]) for f in param.fields}
    if param.type == "array":
        item = param.items or actions.Param("", "string", "")
        return [variable(item, v) for v in value]
    if param.type == "string" and param.allowed:
        return enum_name(str(value))
    return value
