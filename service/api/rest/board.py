"""The static board catalog: ``GET /api/v1/catalog/{kind}``, the REST twin of GraphQL's
``catalog(kind)``: everything a renderer needs to draw the board that the view does not carry,
per rules version, with the *(designed)* values marked (each game's ``GameModule.board``, its
shape documented in the game's ``catalog`` module)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from domain import registry
from service.api.rest.problems import errors
from service.api.rest.readmodels import KindOfPath
from service.api.rest.routing import JsonRoute

router = APIRouter(route_class=JsonRoute)

class BoardCatalog(BaseModel):
    """The static catalog of one game kind; every other key is documented in the domain's
    ``catalog`` modules (sites, cards, provinces, tiles, statues, scoring tables)."""

    model_config = ConfigDict(extra="allow")

    game: str = Field(description="The game's kind, in lower case.")
    rulesVersion: str = Field(description="The rules version it describes (`rulesVersion`).")
    dataVersion: int = Field(description="The version of the game's data file.")
    spec: str = Field(description="The rules spec its section references point into.")


@router.get(
    "/catalog/{kind}",
    tags=["games"],
    operation_id="catalog",
    summary="The static catalog a renderer needs to draw the board (same as GraphQL `catalog`)",
    description=(
        "Everything a renderer needs that the game's view does not carry, as the game declares "
        "it (its sites, cards, provinces, tiles, ships or scoring tables, with their texts). "
        'Values the rules spec marks as designed carry `"designed": true` and `"spec"`.'
    ),
    response_model=BoardCatalog,
    responses=errors(404, 422),
)
async def catalog(kind: KindOfPath) -> Any:
    # at the rules version that the kind's games are created with now
    game = registry.game(kind)
    return game.board(game.rules.version)
