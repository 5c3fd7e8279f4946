"""The action vocabulary of each game kind (docs/playing.md "Actions"), read from the domain's
declaration (``domain.actions``): the same as GraphQL ``actionCatalog``, its bodies derived
from the shared shapes (``service.api.shapes.catalog``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from domain import actions
from service.api.rest.models import Shown
from service.api.rest.problems import errors
from service.api.rest.readmodels import KindOfPath
from service.api.rest.routing import JsonRoute
from service.api.rest.shaped import rest_model, shown
from service.api.shapes import catalog

router = APIRouter(route_class=JsonRoute)


@rest_model(catalog.ActionParameter)
class ActionParameter(Shown):
    pass


@rest_model(catalog.ActionSpec)
class ActionSpec(Shown):
    pass


def present_spec(spec: actions.ActionSpec) -> dict[str, Any]:
    """The ``ActionSpec`` body of one action the domain declares."""
    return shown(catalog.ActionSpec, catalog.action_spec(spec))


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
