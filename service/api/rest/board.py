"""The static board catalog: ``GET /api/v1/catalog/{kind}``, the REST twin of GraphQL's
``catalog(kind)``: everything a renderer needs to draw the board that the view does not carry,
per rules version, with the *(designed)* values marked (shapes: ``domain/imhotep/catalog.py``,
``domain/amun_re/catalog.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict, Field

from domain import registry
from domain.amun_re import catalog as amun_re_catalog
from domain.imhotep import catalog as imhotep_catalog
from service.api.rest.params import KINDS, KindInPath
from service.api.rest.problems import errors
from service.api.rest.routing import JsonRoute
from service.app.errors import NotFound

router = APIRouter(route_class=JsonRoute)

CATALOGS: dict[str, Callable[[str], dict[str, Any]]] = {
    "imhotep": imhotep_catalog.catalog,
    "amun_re": amun_re_catalog.catalog,
}


class BoardCatalog(BaseModel):
    """The static catalog of one game kind; every other key is documented in the domain's
    ``catalog`` modules (sites, cards, provinces, tiles, statues, scoring tables)."""

    model_config = ConfigDict(extra="allow")

    game: str = Field(description='The game kind, "imhotep" or "amun_re".')
    rulesVersion: str = Field(description='The rules version it describes, e.g. "imhotep-1".')
    dataVersion: int = Field(description="The version of the game's data file.")
    spec: str = Field(description="The rules spec its section references point into.")


def board_catalog(kind: str) -> dict[str, Any]:
    """The catalog of ``kind`` (any case) at the rules version its games are created with now."""
    name = kind.lower()
    if name not in KINDS:
        raise NotFound(f'There is no game kind {name!r}: use "imhotep" or "amun_re".')
    return CATALOGS[name](registry.rules_for(name).version)


@router.get(
    "/catalog/{kind}",
    tags=["games"],
    operation_id="catalog",
    summary="The static catalog a renderer needs to draw the board (same as GraphQL `catalog`)",
    description=(
        "Imhotep: every site on sides A and B with its spaces, points and bonuses, the market "
        "cards with texts and colours, round cards and ships. Amun-Re: provinces, Favour cards "
        "with texts, Offering tiles, statues, tomb tiles and scoring tables. Values the rules "
        'spec marks as designed carry `"designed": true` and `"spec"`.'
    ),
    response_model=BoardCatalog,
    responses=errors(404, 422),
)
async def catalog(kind: Annotated[KindInPath, Path()]) -> Any:
    return board_catalog(kind)
