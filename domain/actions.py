"""A game's action vocabulary as data (``ActionSpec``), declared once per game in
``domain/<game>/action_catalog.py``: each action's name, parameters (JSON type, allowed values,
integer range), a short label and the rule it implements.

From the declaration: ``json_schema`` (JSON Schema draft 2020-12 of one action) and ``label``
(a human label for one concrete action, e.g. "Place a stone on ship 2, slot 3"). Pure standard
library: the transports publish these; the tests check every legal action against them.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field
from typing import Any

from domain.contract import JSON

DIALECT = "https://json-schema.org/draft/2020-12/schema"
Scalar = str | int | bool


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of an action. ``type`` is a JSON Schema type: "string", "integer",
    "boolean", "array" (of ``items``) or "object" (with ``fields``, all required)."""

    name: str
    type: str
    description: str
    allowed: tuple[Scalar, ...] = ()  #: the closed set of values (empty: open)
    minimum: int | None = None
    maximum: int | None = None
    items: Param | None = None
    fields: tuple[Param, ...] = ()
    #: how a value reads in a label (default: the value, underscores as spaces)
    names: tuple[tuple[Scalar, str], ...] = ()

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "description": self.description}
        if self.allowed:
            out["enum"] = list(self.allowed)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.items is not None:
            out["items"] = self.items.schema()
        if self.type == "object":
            out["properties"] = {f.name: f.schema() for f in self.fields}
            out["required"] = [f.name for f in self.fields]
            out["additionalProperties"] = False
        return out

    def shown(self, value: Any) -> Any:
        """``value`` as a label shows it."""
        if self.type == "object" and isinstance(value, dict):
            return {f.name: f.shown(value.get(f.name)) for f in self.fields}
        if self.type == "array" and isinstance(value, list):
            item = self.items or Param("", "string", "")
            return ", ".join(str(item.shown(v)) for v in value)
        for known, name in self.names:
            if type(known) is type(value) and known == value:
                return name
        if isinstance(value, str):
            return value.replace("_", " ")
        return value


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One action: ``{"type": name, **params}``, every parameter required, no other key.

    ``label`` names the action in general ("Place a stone"); ``phrase`` is a ``str.format``
    template over the parameters as shown (``Param.shown``) for one concrete action."""

    name: str
    label: str
    rule: str
    params: tuple[Param, ...] = ()
    phrase: str = ""
    description: str = ""
    fields: dict[str, Param] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "fields", {p.name: p for p in self.params})
        used = {f[1].split("[")[0] for f in string.Formatter().parse(self.phrase) if f[1]}
        assert used <= set(self.fields), f"{self.name}: phrase names unknown parameters"


@dataclass(frozen=True, slots=True)
class Catalog:
    """Every action of one game kind, in a stable order."""

    kind: str
    actions: tuple[ActionSpec, ...]

    def __post_init__(self) -> None:
        names = [a.name for a in self.actions]
        assert len(names) == len(set(names)), f"{self.kind}: an action is declared twice"

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.actions)

    def get(self, name: str) -> ActionSpec | None:
        return next((a for a in self.actions if a.name == name), None)


def json_schema(spec: ActionSpec) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``spec``'s actions."""
    properties: dict[str, Any] = {"type": {"const": spec.name}}
    properties.update((p.name, p.schema()) for p in spec.params)
    return {
        "$schema": DIALECT,
        "title": spec.name,
        "description": f"{spec.label} ({spec.rule})",
        "type": "object",
        "properties": properties,
        "required": ["type", *(p.name for p in spec.params)],
        "additionalProperties": False,
    }


def label(catalog: Catalog, action: JSON) -> str:
    """A short human label of one concrete action (its spec's label if it has no phrase)."""
    spec = catalog.get(action.get("type", "")) if isinstance(action, dict) else None
    if spec is None:
        return str(action.get("type", "?")) if isinstance(action, dict) else "?"
    if not spec.phrase:
        return spec.label
    shown = {p.name: p.shown(action.get(p.name)) for p in spec.params}
    try:
        return spec.phrase.format(**shown)
    except (KeyError, IndexError, TypeError):
        return spec.label


def catalog_for(kind: str) -> Catalog:
    """The action catalog of ``kind`` (``domain.registry``); ``KeyError`` for an unknown kind."""
    from domain.registry import catalog_for as registered

    return registered(kind)


def catalogs() -> tuple[Catalog, ...]:
    """The catalog of every registered game, in ``domain.registry.games()`` order."""
    from domain.registry import games

    return tuple(game.actions for game in games())


def any_action_schemas() -> list[dict[str, Any]]:
    """One schema per action of every kind (each titled ``kind.name``, without ``$schema``):
    the ``oneOf`` of an action of any game."""
    out = []
    for catalog in catalogs():
        for spec in catalog.actions:
            schema = json_schema(spec)
            del schema["$schema"]
            out.append({**schema, "title": f"{catalog.kind}.{spec.name}"})
    return out
