"""The static board catalog over GraphQL: ``catalog(kind)``, everything a renderer needs to draw
the board that the view does not carry (sites and their spaces on both sides, cards and their
texts, provinces, tiles, statues, scoring tables), per rules version, with the *(designed)*
values marked. Each game declares its own (``GameModule.board``, documented in the game's
``catalog.py``); ``GET /api/v1/catalog/{kind}`` answers the same JSON."""

from __future__ import annotations

from strawberry.scalars import JSON

from domain import registry
from service.api.graphql.types import GameKind

DESCRIPTION = (
    "The static catalog a renderer needs to draw a game kind's board, for the current rules "
    "version (`rulesVersion`), as the game declares it: its sites, cards, provinces, tiles, "
    "ships or scoring tables, with their texts. Values the rules spec marks as designed carry "
    '`"designed": true` and `"spec"` (the section). Every id the game\'s `state` refers to is '
    "found here."
)


def board_catalog(kind: GameKind) -> JSON:
    """The catalog of ``kind`` at the rules version its games are created with now."""
    game = registry.game(kind.value)
    return JSON(game.board(game.rules.version))
