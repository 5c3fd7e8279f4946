"""Typed mirror of the Imhotep view (``domain/imhotep/view.py``; its docstring gives the shape).

Every key of the JSON view is a field of the same name (camelCased by strawberry). Keys present
only for some viewers (``market.pair``, ``hidden``) or only on one side of a site (obelisks A/B)
are nullable and null when the key is absent. ``pending.options`` are action objects, the input
of the ``act`` mutation, so they stay ``JSON`` (as ``Game.legalActions`` does). ``market`` is
nullable although always there, so that it merges with ``AmunReState.market`` in one query.
"""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.scalars import JSON

from service.api.graphql.gameviews.common import from_view, opt


@strawberry.type(description="The side (A or B) of each of the five sites (§2).")
class ImhotepSides:
    market: str
    pyramids: str
    temple: str
    burial_chamber: str
    obelisks: str

    @classmethod
    def of(cls, d: dict[str, Any]) -> ImhotepSides:
        return from_view(cls, d)


@strawberry.type
class ImhotepOptions:
    sides: ImhotepSides
    wrath_of_the_pharaoh: bool

    @classmethod
    def of(cls, d: dict[str, Any]) -> ImhotepOptions:
        return from_view(cls, d, sides=ImhotepSides.of(d["sides"]))


@strawberry.type
class ImhotepPlayer:
    seat: int
    colour: str
    score: int
    sled: int
    quarry: int
    cards: list[str] = strawberry.field(description="Cards in front of the player (public).")

    @classmethod
    def of(cls, d: dict[str, Any]) -> ImhotepPlayer:
        return from_view(cls, d)


@strawberry.type
class ImhotepShip:
    id: int = strawberry.field(description="Ship number 1-4 within this game (not global).")
    capacity: int
    minimum: int
    slots: list[int | None] = strawberry.field(description="The seat owning each slot's stone.")
    load: int
    site: str | None = strawberry.field(description="The site it sailed to, null while at sea.")

    @classmethod
    def of(cls, d: dict[str, Any]) -> ImhotepShip:
        return from_view(cls, d)


@strawberry.type(description="The ship (id) docked at each site, null when free.")
class ImhotepDocks:
    market: int | None
    pyramids: int | None
    temple: int | None
    burial_chamber: int | None
    obelisks: int | None

    @classmethod
    def of(cls, d: dict[str, Any]) -> ImhotepDocks:
        return from_view(cls, d)


@strawberry.type
class ImhotepMarket:
    side: str
    face_up: list[str | None]
    pair_count: int
    pair: list[str] | None = strawberry.field(
        description="The face-down pair: only to the player deciding market_keep, or after the "
        "game (full view); null otherwise."
    )

    @classmethod
    def of(cls, d: dict[str, Any]) -> ImhotepMarket:
        return from_view(cls, d)


@strawberry.type
class ImhotepPyramid:
    name: str
    stones: list[int]
    spaces: int

    @classmethod
    def of(cls, d: dict[str, Any]) -> ImhotepPyramid:
        return from_view(cls, d)


@strawberry.type
class ImhotepPyramidsSite:
    side: str
    pyramids: list[ImhotepPyramid]
    overflow: list[int]

    @classmethod
    def of(cls, d: dict[str, Any]) -> ImhotepPyramidsSite:
        return from_view(cls, d, pyramids=[ImhotepPyramid.of(p) for p in d["pyramids"]])


@strawberry.type
class ImhotepTemple:
    side: str
    width: int
    stones: list[int]
    visible: list[int | None]

    @classmethod
    def of(cls, d: dict[str, Any]) -> ImhotepTemple:
        return from_view(cls, d)


@strawberry.type
class ImhotepBurialChamber:
    side: str
    stones: list[int]

    @classmethod
    def of(cls, d: dict[str, Any]) -> ImhotepBurialChamber:
        return from_view(cls, d)


@strawberry.type(
    description="Side A: heights (per seat). Side B: singles, towers, beside, tower_points. "
    "Fields of the other side are null."
)
class ImhotepObelisks:
    side: str
    heights: list[int] | None
    singles: list[int] | None
    towers: list[int] | None
    beside: list[int] | None
    tower_points: list[int] | None

    @classmethod
    def of(cls, d: dict[str, Any]) -> ImhotepObelisks:
        return from_view(cls, d)


@strawberry.type
class ImhotepSites:
    pyramids: ImhotepPyramidsSite
    temple: ImhotepTemple
    burial_chamber: ImhotepBurialChamber
    obelisks: ImhotepObelisks

    @classmethod
    def of(cls, d: dict[str, Any]) -> ImhotepSites:
        return from_view(
            cls,
            d,
            pyramids=ImhotepPyramidsSite.of(d["pyramids"]),
            temple=ImhotepTemple.of(d["temple"]),
            burial_chamber=ImhotepBurialChamber.of(d["burial_chamber"]),
            obelisks=ImhotepObelisks.of(d["obelisks"]),
        )


@strawberry.type
class ImhotepRoundCard:
    id: str
    ships: list[int]

    @classmethod
    def of(cls, d: dict[str, Any]) -> ImhotepRoundCard:
        return from_view(cls, d)


@strawberry.type
class ImhotepPending:
    kind: str = strawberry.field(description='Either "turn" or the kind of the pending decision.')
    owner: int
    options: list[JSON] | None = strawberry.field(
        description="The legal actions (as for `act`), for the owner only (or after the game)."
    )

    @classmethod
    def of(cls, d: dict[str, Any]) -> ImhotepPending:
        options = d.get("options")
        return from_view(cls, d, options=None if options is None else [JSON(a) for a in options])


@strawberry.type(description="Points per seat of each final scoring step done so far (§13).")
class ImhotepFinalScoring:
    burial_chamber: list[int] | None
    obelisks: list[int] | None
    decorations: list[int] | None
    statues: list[int] | None
    blue_cards: list[int] | None
    wrath: list[int] | None

    @classmethod
    def of(cls, d: dict[str, Any]) -> ImhotepFinalScoring:
        return from_view(cls, d)


@strawberry.type
class ImhotepOutcome:
    scores: list[int]
    ranks: list[int]
    winners: list[int]

    @classmethod
    def of(cls, d: dict[str, Any]) -> ImhotepOutcome:
        return from_view(cls, d)


@strawberry.type(description="Only in the full view (after the game).")
class ImhotepHidden:
    draw_pile: list[str]
    round_stack: list[str]
    removed_round_card: str | None

    @classmethod
    def of(cls, d: dict[str, Any]) -> ImhotepHidden:
        return from_view(cls, d)


@strawberry.type(description="An Imhotep game as the caller may see it (typed `Game.state`).")
class ImhotepState:
    game: str
    round: int
    rounds: int
    viewer: int | None
    current_player: int
    start_player: int
    options: ImhotepOptions
    players: list[ImhotepPlayer]
    ships: list[ImhotepShip]
    docks: ImhotepDocks
    market: ImhotepMarket | None = strawberry.field(
        description="Never null for Imhotep; nullable like AmunReState.market so that one query "
        "can select `market` in both members of GameView."
    )
    sites: ImhotepSites
    discard_pile: list[str]
    draw_pile_count: int
    round_stack_count: int
    round_cards: list[ImhotepRoundCard]
    passes: int
    pending: ImhotepPending | None
    final_scoring: ImhotepFinalScoring
    game_over: bool
    outcome: ImhotepOutcome | None
    hidden: ImhotepHidden | None

    @classmethod
    def of(cls, d: dict[str, Any]) -> ImhotepState:
        return from_view(
            cls,
            d,
            options=ImhotepOptions.of(d["options"]),
            players=[ImhotepPlayer.of(p) for p in d["players"]],
            ships=[ImhotepShip.of(s) for s in d["ships"]],
            docks=ImhotepDocks.of(d["docks"]),
            market=ImhotepMarket.of(d["market"]),
            sites=ImhotepSites.of(d["sites"]),
            round_cards=[ImhotepRoundCard.of(c) for c in d["round_cards"]],
            pending=opt(d, "pending", ImhotepPending.of),
            final_scoring=ImhotepFinalScoring.of(d["final_scoring"]),
            outcome=opt(d, "outcome", ImhotepOutcome.of),
            hidden=opt(d, "hidden", ImhotepHidden.of),
        )
