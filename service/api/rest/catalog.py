"""The action vocabulary of each game kind (README "Actions"), read from the domain's
declaration (``domain.actions``): the same as GraphQL ``actionCatalog``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import Field

from domain import actions
from service.api.rest.models import Shown
from service.api.rest.params import JsonObject
from service.api.rest.problems import errors
from service.api.rest.readmodels import KindOfPath
from service.api.rest.routing import JsonRoute

router = APIRouter(route_class=JsonRoute)


class ActionParameter(Shown):
    name: str = Field(description="Its key in the action object.")
    type: str = Field(
        description='Its JSON type: "string", "integer", "boolean", "array" or "object".'
    )
    description: str
    allowed: list[Any] | None = Field(
        description="The closed set of values it takes; null when the set is open."
    )
    minimum: int | None
    maximum: int | None
    json_schema: JsonObject = Field(alias="schema", description="Its JSON Schema.")


class ActionSpec(Shown):
    name: str = Field(description='The action\'s `type`, e.g. "place_stone".')
    label: str = Field(description="A short human label.")
    rule: str = Field(description='The rule it implements, e.g. "§6.2".')
    parameters: list[ActionParameter] = Field(
        description="Every one required; no other key is accepted."
    )
    json_schema: JsonObject = Field(
        alias="schema", description="The JSON Schema (draft 2020-12) of the action."
    )


def present_spec(spec: actions.ActionSpec) -> dict[str, Any]:
    return {
        "name": spec.name,
        "label": spec.label,
        "rule": spec.rule,
        "parameters": [
            {
                "name": p.name,
                "type": p.type,
                "description": p.description,
                "allowed": list(p.allowed) if p.allowed else None,
                "minimum": p.minimum,
                "maximum": p.maximum,
                "schema": p.schema(),
            }
            for p in spec.params
        ],
        "schema": actions.json_schema(spec),
    }


@router.get(
    "/catalog/{kind}/actions",
    tags=["games"],
    operation_id="actionCatalog",
    summary="Every action of a game kind: parameters, label, rule and JSON Schema",
    response_model=list[ActionSpec],
    responses=errors(404, 422),
)
async def action_catalog(kind: KindOfPath) -> Any:
    return [present_spec(spec) for spec in actions.catalog_for(kind).actions]
