"""The shapes of the action vocabulary of a game kind (GraphQL ``actionCatalog(kind)``, REST
``GET /catalog/{kind}/actions``), with the snake_case data they are built from, read from the
domain's declaration (``domain.actions``)."""

from __future__ import annotations

from typing import Any

from domain import actions
from service.api.shapes.declare import Json, Value, described, shape


@shape("One parameter of an action.")
class ActionParameter:
    name: str = described("Its key in the action object.")
    type: str = described('Its JSON type: "string", "integer", "boolean", "array" or "object".')
    description: str = described("What it means.")
    allowed: list[Value] | None = described(
        "The closed set of values it takes; null when the set is open."
    )
    minimum: int | None = described("The least integer it takes, if any.")
    maximum: int | None = described("The greatest integer it takes, if any.")
    schema: Json = described("Its JSON Schema.")


@shape("One action of a game kind, as `act` accepts it.")
class ActionSpec:
    name: str = described('The action\'s `type`, e.g. "place_stone".')
    label: str = described("A short human label.")
    rule: str = described('The rule it implements, e.g. "§6.2".')
    parameters: list[ActionParameter] = described(
        "Its parameters, every one required; no other key is accepted.",
        rest_description="Every one required; no other key is accepted.",
    )
    schema: Json = described("The JSON Schema (draft 2020-12) of the action.")


# -- the data of the shapes ----------------------------------------------------------------------


def action_parameter(param: actions.Param) -> dict[str, Any]:
    """An ``ActionParameter`` of one parameter the domain declares."""
    return {
        "name": param.name,
        "type": param.type,
        "description": param.description,
        "allowed": list(param.allowed) if param.allowed else None,
        "minimum": param.minimum,
        "maximum": param.maximum,
        "schema": param.schema(),
    }


def action_spec(spec: actions.ActionSpec) -> dict[str, Any]:
    """An ``ActionSpec`` of one action the domain declares."""
    return {
        "name": spec.name,
        "label": spec.label,
        "rule": spec.rule,
        "parameters": [action_parameter(p) for p in spec.params],
        "schema": actions.json_schema(spec),
    }
