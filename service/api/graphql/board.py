"""The static board catalog over GraphQL: ``catalog(kind)``, everything a renderer needs to draw
the board that the view does not carry (sites and their spaces on both sides, cards and their
texts, provinces, tiles, statues, scoring tables), per rules version, with the *(designed)*
values marked. The shape is documented in ``domain/imhotep/catalog.py`` and
``domain/amun_re/catalog.py``; ``GET /api/v1/catalog/{kind}`` answers the same JSON."""

from __future__ import annotations

from collections.abc import Callable

from strawberry.scalars import JSON

from domain import registry
from domain.amun_re import catalog as amun_re_catalog
from domain.imhotep import catalog as imhotep_catalog
from service.api.graphql.types import GameKind

CATALOGS: dict[str, Callable[[str], dict[str, object]]] = {
    "imhotep": imhotep_catalog.catalog,
    "amun_re": amun_re_catalog.catalog,
}

DESCRIPTION = (
    "The static catalog a renderer needs to draw a game kind's board, for the current rules "
    "version (`rulesVersion`): Imhotep's sites on sides A and B with their spaces, points and "
    "bonuses, the market cards with texts and colours, the round cards and ships; Amun-Re's "
    "provinces, Favour cards with texts, Offering tiles, statues, tomb tiles and scoring "
    'tables. Values the rules spec marks as designed carry `"designed": true` and `"spec"` '
    "(the section). Every id the game's `state` refers to is found here."
)


def board_catalog(kind: GameKind) -> JSON:
    """The catalog of ``kind`` at the rules version its games are created with now."""
    name = kind.value
    return JSON(CATALOGS[name](registry.rules_for(name).version))
