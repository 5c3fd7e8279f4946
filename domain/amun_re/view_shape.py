"""The shape of the Amun-Re view (§17, R7.9): every key ``view.view`` may return, declared once.

``domain/amun_re/view.py`` builds the JSON view (``view`` and ``module_views``), an allow-list;
this module declares what that JSON is, key by key, as plain frozen dataclasses. The typed
GraphQL view is derived from these declarations (``service/api/graphql/gameviews``) and the JSON
views of random games are checked against them (``tests/test_view_shapes.py``), so a key cannot
be added on one side only. The shapes of the phases' parts (auction, market, offering, gifts,
harvest) are in ``view_shape_phases``.

How a declaration reads:

* each field is a key of the JSON object, of the annotated type (``int``, ``str``, ``bool``,
  ``list[...]``, a nested shape); ``X | None`` may be null;
* a field with a default (``= None``) is a key that is present only for some viewers or with an
  Expanded Pack module on; a field without one is always present;
* ``dict[str, V]`` with ``metadata["entries"]`` is a map keyed by a card, tile or statue id,
  shown in the typed view as a list of that entry shape (first field the key, second the value),
  in the order of the JSON object;
* ``metadata["description"]`` and a class docstring describe the typed field or type;
  ``metadata["typed_name"]`` names the typed field when it differs from the key: a player's
  ``cards`` (a count here, a list of card ids in Imhotep) is ``card_count``, because GraphQL
  refuses a query that selects one response key with two types in the two members of
  ``GameView``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.amun_re.view_shape_phases import (
    AmunReAuction,
    AmunReCommitments,
    AmunReGifts,
    AmunReHarvest,
    AmunReMarket,
    AmunReOffer,
    AmunReRevealedOffer,
)


@dataclass(frozen=True, kw_only=True)
class AmunReOptions:
    classic_bank_majority: bool
    no_farmer_points: bool
    afterlife: bool
    statues: bool
    pharaoh: bool
    promo_favours: bool


@dataclass(frozen=True, kw_only=True)
class AmunReOfferingTile:
    tile: int
    gold_per_farmer: int
    camel: bool
    temple_vp: int


@dataclass(frozen=True, kw_only=True)
class AmunReProvinceBonus:
    stones: int
    gold: int
    favour_cards: int


@dataclass(frozen=True, kw_only=True)
class AmunReProvince:
    """A province revealed at least once: printed facts and board state."""

    id: str = field(metadata={"description": 'Province id, e.g. "abu" (the same in every game).'})
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


@dataclass(frozen=True, kw_only=True)
class AmunReCardCount:
    card: str
    count: int


@dataclass(frozen=True, kw_only=True)
class AmunReTileCount:
    tile: str
    count: int


@dataclass(frozen=True, kw_only=True)
class AmunRePlayer:
    seat: int
    vp: int
    cards: int = field(
        metadata={
            "typed_name": "card_count",
            "description": "Number of Favour cards in hand (JSON key `cards`; renamed so that "
            "one query can select `players { cards }` of ImhotepState and this next to each "
            "other).",
        }
    )
    provinces: list[str]
    scribes_free: int
    theft_card: bool
    gold: int | None = field(
        default=None,
        metadata={"description": "Only for the viewer himself, at the end, or in the full view."},
    )
    hand: dict[str, int] | None = field(
        default=None, metadata={"entries": AmunReCardCount, "description": "Full view only."}
    )
    statue_cards: list[str] | None = field(
        default=None, metadata={"description": "Statues module only."}
    )
    pharaoh_tokens: int | None = field(
        default=None, metadata={"description": "Pharaoh module only."}
    )
    tomb_tiles: int | None = field(
        default=None, metadata={"description": "Afterlife: collection size."}
    )
    tomb: list[list[str | None]] | None = field(
        default=None,
        metadata={"description": "Afterlife: rows base first, a tile type or null per position."},
    )
    collection: dict[str, int] | None = field(
        default=None,
        metadata={"entries": AmunReTileCount, "description": "Afterlife, full view only."},
    )


@dataclass(frozen=True, kw_only=True)
class AmunReYou:
    """The viewer's own secrets (null for a spectator)."""

    seat: int
    gold: int
    hand: dict[str, int] = field(metadata={"entries": AmunReCardCount})
    marked_for_sale: dict[str, int] = field(metadata={"entries": AmunReCardCount})
    adjustment: int
    offer: AmunReOffer | None
    collection: dict[str, int] | None = field(
        default=None, metadata={"entries": AmunReTileCount, "description": "Afterlife only."}
    )


@dataclass(frozen=True, kw_only=True)
class AmunReScoringLine:
    """One player's kingdom scoring breakdown (R13.8)."""

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


@dataclass(frozen=True, kw_only=True)
class AmunReFinal:
    gold: list[int]
    gold_bonus: list[int]
    tomb: list[int] | None = field(
        default=None, metadata={"description": "Afterlife only: tomb VP per seat."}
    )


@dataclass(frozen=True, kw_only=True)
class AmunReSecret:
    """Full view only (after the game)."""

    draw_pile: list[str]
    province_deck: list[str]
    statue_deck: list[str] | None = None
    tomb_stack: list[str] | None = None


@dataclass(frozen=True, kw_only=True)
class AmunReStatuePlacement:
    statue: str
    province: str


@dataclass(frozen=True, kw_only=True)
class AmunReStatueHolder:
    statue: str
    seat: int | None


@dataclass(frozen=True, kw_only=True)
class AmunReStatues:
    """Statues module."""

    on_board: list[AmunReStatuePlacement]
    holders: dict[str, int | None] = field(metadata={"entries": AmunReStatueHolder})
    deck: int


@dataclass(frozen=True, kw_only=True)
class AmunRePharaoh:
    """Pharaoh module."""

    province: str | None


@dataclass(frozen=True, kw_only=True)
class AmunReState:
    """An Amun-Re game as the caller may see it (typed `Game.state`)."""

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
    secret: AmunReSecret | None = None
    statues: AmunReStatues | None = None
    pharaoh: AmunRePharaoh | None = None
    tomb_stack: int | None = field(
        default=None, metadata={"description": "Afterlife only: tiles left."}
    )
    tomb_discard: list[str] | None = field(
        default=None, metadata={"description": "Afterlife only, oldest first."}
    )


#: the declaration of the whole view, ``view.view``'s return value
VIEW = AmunReState
