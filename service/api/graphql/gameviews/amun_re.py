"""Typed mirror of the Amun-Re view (``domain/amun_re/view.py``: ``view`` and ``module_views``).

Every key of the JSON view is a field of the same name (camelCased by strawberry). Keys that the
view shows only to some viewers (a player's ``gold`` and ``hand``, ``you``, ``secret``) or only
with an Expanded Pack module on (``statues``, ``pharaoh``, ``tomb_stack``, ``tomb_discard``, the
players' ``statue_cards``, ``pharaoh_tokens``, ``tomb_tiles``, ``tomb``, ``collection``, the
market's Ptah/Glory/Afterlife/Thoth flags, the gifts' ``tomb_discards_made`` and ``to_place``,
``final.tomb``) are nullable and null when absent. Maps keyed by a card, tile or statue id become
lists of entries (``[AmunReCardCount {card, count}]``, ...), in the order of the JSON object.

One key is renamed: a player's ``cards`` (a count here, a list of card ids in Imhotep) is
``card_count``, because GraphQL refuses a query that selects one response key with two different
types in the two members of the ``GameView`` union.
"""

from __future__ import annotations

from typing import Any

import strawberry

from service.api.graphql.gameviews.common import from_view, opt


@strawberry.type
class AmunReOptions:
    classic_bank_majority: bool
    no_farmer_points: bool
    afterlife: bool
    statues: bool
    pharaoh: bool
    promo_favours: bool

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReOptions:
        return from_view(cls, d)


@strawberry.type
class AmunReOfferingTile:
    tile: int
    gold_per_farmer: int
    camel: bool
    temple_vp: int

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReOfferingTile:
        return from_view(cls, d)


@strawberry.type
class AmunReProvinceBonus:
    stones: int
    gold: int
    favour_cards: int

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReProvinceBonus:
        return from_view(cls, d)


@strawberry.type(description="A province revealed at least once: printed facts and board state.")
class AmunReProvince:
    id: str = strawberry.field(description='Province id, e.g. "abu" (the same in every game).')
    name: str
    bank: str
    region: str
    river: str
    fields: int
    card_limit: int
    temples: int
    mine: int
    caravan: int
    bonus: AmunReProvinceBonus
    owner: int | None
    farmers: int
    stones: int
    pyramids: int
    up_for_auction: bool

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReProvince:
        return from_view(cls, d, bonus=AmunReProvinceBonus.of(d["bonus"]))


@strawberry.type
class AmunReScribe:
    seat: int
    value: int
    standing: bool

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReScribe:
        return from_view(cls, d)


@strawberry.type
class AmunReAuctionCard:
    province: str
    standing: int | None
    protected: bool
    blocked: int | None
    scribes: list[AmunReScribe]

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReAuctionCard:
        return from_view(cls, d, scribes=[AmunReScribe.of(s) for s in d["scribes"]])


@strawberry.type
class AmunReAuction:
    cards: list[AmunReAuctionCard]
    status: list[str] = strawberry.field(description='Per seat: "new", "standing" or "outbid".')
    turn: int | None

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReAuction:
        return from_view(cls, d, cards=[AmunReAuctionCard.of(c) for c in d["cards"]])


@strawberry.type(description="Pieces bought or won that must be placed now.")
class AmunRePlacement:
    kind: str
    count: int

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunRePlacement:
        return from_view(cls, d)


@strawberry.type
class AmunReMarket:
    turn: int | None
    last_purchase: str | None
    cards_bought: int
    to_place: AmunRePlacement | None
    ptah_used: bool | None = strawberry.field(description="Afterlife/statues/promo modules only.")
    glory_played: bool | None
    afterlife_played: bool | None
    thoth_discard_due: bool | None

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReMarket:
        return from_view(cls, d, to_place=opt(d, "to_place", AmunRePlacement.of))


@strawberry.type(description="Who has committed (Offering or final sale), not what.")
class AmunReCommitments:
    committed: list[bool]

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReCommitments:
        return from_view(cls, d)


@strawberry.type
class AmunReRevealedOffer:
    seat: int
    offer: str = strawberry.field(description='Either "gold" or "theft".')
    gold: int

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReRevealedOffer:
        return from_view(cls, d)


@strawberry.type
class AmunReOffer:
    offer: str = strawberry.field(description='Either "gold" or "theft".')
    gold: int

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReOffer:
        return from_view(cls, d)


@strawberry.type
class AmunReGifts:
    order: list[int]
    turn: int | None
    gifts_left: int
    gifts: list[int]
    tomb_discards_made: int | None = strawberry.field(description="Afterlife module only.")
    to_place: AmunRePlacement | None

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReGifts:
        return from_view(cls, d, to_place=opt(d, "to_place", AmunRePlacement.of))


@strawberry.type
class AmunReGreenCard:
    province: str
    card: str

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReGreenCard:
        return from_view(cls, d)


@strawberry.type
class AmunReHarvest:
    turn: int | None
    green: list[AmunReGreenCard]

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReHarvest:
        return from_view(cls, d, green=[AmunReGreenCard.of(g) for g in d["green"]])


@strawberry.type
class AmunReCardCount:
    card: str
    count: int


@strawberry.type
class AmunReTileCount:
    tile: str
    count: int


def card_counts(d: dict[str, Any]) -> list[AmunReCardCount]:
    return [AmunReCardCount(card=k, count=v) for k, v in d.items()]


def tile_counts(d: dict[str, Any]) -> list[AmunReTileCount]:
    return [AmunReTileCount(tile=k, count=v) for k, v in d.items()]


def tomb_rows(rows: list[list[str | None]]) -> list[list[str | None]]:
    return [list(row) for row in rows]


@strawberry.type
class AmunRePlayer:
    seat: int
    vp: int
    card_count: int = strawberry.field(
        description="Number of Favour cards in hand (JSON key `cards`; renamed so that one query "
        "can select `players { cards }` of ImhotepState and this next to each other)."
    )
    provinces: list[str]
    scribes_free: int
    theft_card: bool
    gold: int | None = strawberry.field(
        description="Only for the viewer himself, at the end, or in the full view."
    )
    hand: list[AmunReCardCount] | None = strawberry.field(description="Full view only.")
    statue_cards: list[str] | None = strawberry.field(description="Statues module only.")
    pharaoh_tokens: int | None = strawberry.field(description="Pharaoh module only.")
    tomb_tiles: int | None = strawberry.field(description="Afterlife: collection size.")
    tomb: list[list[str | None]] | None = strawberry.field(
        description="Afterlife: rows base first, a tile type or null per position."
    )
    collection: list[AmunReTileCount] | None = strawberry.field(
        description="Afterlife, full view only."
    )

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunRePlayer:
        return from_view(
            cls,
            d,
            card_count=d["cards"],
            hand=opt(d, "hand", card_counts),
            tomb=opt(d, "tomb", tomb_rows),
            collection=opt(d, "collection", tile_counts),
        )


@strawberry.type(description="The viewer's own secrets (null for a spectator).")
class AmunReYou:
    seat: int
    gold: int
    hand: list[AmunReCardCount]
    marked_for_sale: list[AmunReCardCount]
    adjustment: int
    offer: AmunReOffer | None
    collection: list[AmunReTileCount] | None = strawberry.field(description="Afterlife only.")

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReYou:
        return from_view(
            cls,
            d,
            hand=card_counts(d["hand"]),
            marked_for_sale=card_counts(d["marked_for_sale"]),
            offer=opt(d, "offer", AmunReOffer.of),
            collection=opt(d, "collection", tile_counts),
        )


@strawberry.type(description="One player's kingdom scoring breakdown (R13.8).")
class AmunReScoringLine:
    seat: int
    pyramids: int
    weakest: int
    farmers: int
    temples: int
    west: int
    east: int
    schemes: int
    total: int
    schemes_scored: list[str]

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReScoringLine:
        return from_view(cls, d)


@strawberry.type
class AmunReFinal:
    gold: list[int]
    gold_bonus: list[int]
    tomb: list[int] | None = strawberry.field(description="Afterlife only: tomb VP per seat.")

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReFinal:
        return from_view(cls, d)


@strawberry.type(description="Full view only (after the game).")
class AmunReSecret:
    draw_pile: list[str]
    province_deck: list[str]
    statue_deck: list[str] | None
    tomb_stack: list[str] | None

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReSecret:
        return from_view(cls, d)


@strawberry.type
class AmunReStatuePlacement:
    statue: str
    province: str

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReStatuePlacement:
        return from_view(cls, d)


@strawberry.type
class AmunReStatueHolder:
    statue: str
    seat: int | None


@strawberry.type(description="Statues module.")
class AmunReStatues:
    on_board: list[AmunReStatuePlacement]
    holders: list[AmunReStatueHolder]
    deck: int

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReStatues:
        return from_view(
            cls,
            d,
            on_board=[AmunReStatuePlacement.of(p) for p in d["on_board"]],
            holders=[AmunReStatueHolder(statue=k, seat=v) for k, v in d["holders"].items()],
        )


@strawberry.type(description="Pharaoh module.")
class AmunRePharaoh:
    province: str | None

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunRePharaoh:
        return from_view(cls, d)


@strawberry.type(description="An Amun-Re game as the caller may see it (typed `Game.state`).")
class AmunReState:
    game: str
    viewer: int | None
    round: int
    kingdom: int
    phase: str
    start_player: int
    to_act: list[int]
    decision: str | None
    options: AmunReOptions
    bid_track: list[int]
    offering_tile: AmunReOfferingTile | None
    provinces: list[AmunReProvince]
    auction: AmunReAuction | None
    market: AmunReMarket | None
    offering: AmunReCommitments | None
    last_offering: list[AmunReRevealedOffer] | None
    gifts: AmunReGifts | None
    harvest: AmunReHarvest | None
    final_sale: AmunReCommitments | None
    players: list[AmunRePlayer]
    you: AmunReYou | None
    discard_pile: list[str]
    draw_pile: int
    province_deck: int
    last_scoring: list[AmunReScoringLine] | None
    final: AmunReFinal | None
    winners: list[int]
    ranks: list[int]
    secret: AmunReSecret | None
    statues: AmunReStatues | None
    pharaoh: AmunRePharaoh | None
    tomb_stack: int | None = strawberry.field(description="Afterlife only: tiles left.")
    tomb_discard: list[str] | None = strawberry.field(description="Afterlife only, oldest first.")

    @classmethod
    def of(cls, d: dict[str, Any]) -> AmunReState:
        return from_view(
            cls,
            d,
            options=AmunReOptions.of(d["options"]),
            offering_tile=opt(d, "offering_tile", AmunReOfferingTile.of),
            provinces=[AmunReProvince.of(p) for p in d["provinces"]],
            auction=opt(d, "auction", AmunReAuction.of),
            market=opt(d, "market", AmunReMarket.of),
            offering=opt(d, "offering", AmunReCommitments.of),
            last_offering=opt(
                d, "last_offering", lambda xs: [AmunReRevealedOffer.of(x) for x in xs]
            ),
            gifts=opt(d, "gifts", AmunReGifts.of),
            harvest=opt(d, "harvest", AmunReHarvest.of),
            final_sale=opt(d, "final_sale", AmunReCommitments.of),
            players=[AmunRePlayer.of(p) for p in d["players"]],
            you=opt(d, "you", AmunReYou.of),
            last_scoring=opt(d, "last_scoring", lambda xs: [AmunReScoringLine.of(x) for x in xs]),
            final=opt(d, "final", AmunReFinal.of),
            secret=opt(d, "secret", AmunReSecret.of),
            statues=opt(d, "statues", AmunReStatues.of),
            pharaoh=opt(d, "pharaoh", AmunRePharaoh.of),
        )
