"""The action vocabulary over GraphQL: ``actionCatalog(kind)`` and ``Move`` (a legal action with
its label), both read from the domain's declaration (``domain.actions``)."""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.scalars import JSON

from domain import actions
from service.api.graphql.types import GameKind


@strawberry.type(description="One parameter of an action.")
class ActionParameter:
    name: str = strawberry.field(description="Its key in the action object.")
    type: str = strawberry.field(
        description='Its JSON type: "string", "integer", "boolean", "array" or "object".'
    )
    description: str = strawberry.field(description="What it means.")
    allowed: list[JSON] | None = strawberry.field(
        description="The closed set of values it takes; null when the set is open."
    )
    minimum: int | None = strawberry.field(description="The least integer it takes, if any.")
    maximum: int | None = strawberry.field(description="The greatest integer it takes, if any.")
    schema: JSON = strawberry.field(description="Its JSON Schema.")


@strawberry.type(description="One action of a game kind, as `act` accepts it.")
class ActionSpec:
    name: str = strawberry.field(description='The action\'s `type`, e.g. "place_stone".')
    label: str = strawberry.field(description="A short human label.")
    rule: str = strawberry.field(description='The rule it implements, e.g. "§6.2".')
    parameters: list[ActionParameter] = strawberry.field(
        description="Its parameters, every one required; no other key is accepted."
    )
    schema: JSON = strawberry.field(description="The JSON Schema (draft 2020-12) of the action.")


@strawberry.type(description="A legal action with a label for a user interface.")
class Move:
    action: JSON = strawberry.field(description="The action, exactly as `act` accepts it.")
    label: str = strawberry.field(
        description='A human label, e.g. "Place a stone on ship 2, slot 3".'
    )
    type: str = strawberry.field(description="The action's `type` (its `actionCatalog` name).")


def parameter_of(param: actions.Param) -> ActionParameter:
    return ActionParameter(
        name=param.name,
        type=param.type,
        description=param.description,
        allowed=[JSON(v) for v in param.allowed] if param.allowed else None,
        minimum=param.minimum,
        maximum=param.maximum,
        schema=JSON(param.schema()),
    )


def action_catalog(kind: GameKind) -> list[ActionSpec]:
    """The actions of ``kind`` (the resolver of ``Query.actionCatalog``)."""
    return [
        ActionSpec(
            name=spec.name,
            label=spec.label,
            rule=spec.rule,
            parameters=[parameter_of(p) for p in spec.params],
            schema=JSON(actions.json_schema(spec)),
        )
        for spec in actions.catalog_for(kind.value).actions
    ]


def moves_of(kind: str, legal: list[Any]) -> list[Move]:
    catalog = actions.catalog_for(kind)
    return [
        Move(action=JSON(a), label=actions.label(catalog, a), type=str(a.get("type", "")))
        for a in legal
    ]
