"""Typed GraphQL views of the games: ``GameView`` = ``ImhotepState | AmunReState``.

``typed_view(kind, view)`` turns the JSON view of ``rules_for(kind).view(state, seat, full)``
(what ``Game.state`` serves) into the typed object. It copies the view and adds nothing: secrecy
is decided by the JSON view alone; a key the view leaves out is a null field.
"""

from __future__ import annotations

from typing import Annotated, Any

import strawberry

from service.api.graphql.gameviews.amun_re import (
    AmunReAuction,
    AmunReAuctionCard,
    AmunReCardCount,
    AmunReCommitments,
    AmunReFinal,
    AmunReGifts,
    AmunReGreenCard,
    AmunReHarvest,
    AmunReMarket,
    AmunReOffer,
    AmunReOfferingTile,
    AmunReOptions,
    AmunRePharaoh,
    AmunRePlacement,
    AmunRePlayer,
    AmunReProvince,
    AmunReProvinceBonus,
    AmunReRevealedOffer,
    AmunReScoringLine,
    AmunReScribe,
    AmunReSecret,
    AmunReState,
    AmunReStatueHolder,
    AmunReStatuePlacement,
    AmunReStatues,
    AmunReTileCount,
    AmunReYou,
)
from service.api.graphql.gameviews.imhotep import (
    ImhotepBurialChamber,
    ImhotepDocks,
    ImhotepFinalScoring,
    ImhotepHidden,
    ImhotepMarket,
    ImhotepObelisks,
    ImhotepOptions,
    ImhotepOutcome,
    ImhotepPending,
    ImhotepPlayer,
    ImhotepPyramid,
    ImhotepPyramidsSite,
    ImhotepRoundCard,
    ImhotepShip,
    ImhotepSides,
    ImhotepSites,
    ImhotepState,
    ImhotepTemple,
)

GameView = Annotated[ImhotepState | AmunReState, strawberry.union("GameView")]


def typed_view(kind: str, view: dict[str, Any]) -> ImhotepState | AmunReState:
    """The typed mirror of a game's JSON view; ``kind`` is "imhotep" or "amun_re"."""
    if kind == "imhotep":
        return ImhotepState.of(view)
    if kind == "amun_re":
        return AmunReState.of(view)
    raise ValueError(f"no typed view for game kind {kind!r}")


__all__ = [
    "AmunReAuction",
    "AmunReAuctionCard",
    "AmunReCardCount",
    "AmunReCommitments",
    "AmunReFinal",
    "AmunReGifts",
    "AmunReGreenCard",
    "AmunReHarvest",
    "AmunReMarket",
    "AmunReOffer",
    "AmunReOfferingTile",
    "AmunReOptions",
    "AmunRePharaoh",
    "AmunRePlacement",
    "AmunRePlayer",
    "AmunReProvince",
    "AmunReProvinceBonus",
    "AmunReRevealedOffer",
    "AmunReScoringLine",
    "AmunReScribe",
    "AmunReSecret",
    "AmunReState",
    "AmunReStatueHolder",
    "AmunReStatuePlacement",
    "AmunReStatues",
    "AmunReTileCount",
    "AmunReYou",
    "GameView",
    "ImhotepBurialChamber",
    "ImhotepDocks",
    "ImhotepFinalScoring",
    "ImhotepHidden",
    "ImhotepMarket",
    "ImhotepObelisks",
    "ImhotepOptions",
    "ImhotepOutcome",
    "ImhotepPending",
    "ImhotepPlayer",
    "ImhotepPyramid",
    "ImhotepPyramidsSite",
    "ImhotepRoundCard",
    "ImhotepShip",
    "ImhotepSides",
    "ImhotepSites",
    "ImhotepState",
    "ImhotepTemple",
    "typed_view",
]
