"""The shapes of the phase parts of the Amun-Re view: ``auction``, ``market``, ``offering`` and
``final_sale``, ``last_offering``, ``gifts``, ``harvest`` (each null outside its phase).

Declared like the rest of the view, see ``view_shape``.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, kw_only=True)
class AmunReScribe:
    seat: int
    value: int
    standing: bool


@dataclass(frozen=True, kw_only=True)
class AmunReAuctionCard:
    province: str
    standing: int | None
    protected: bool
    blocked: int | None
    scribes: list[AmunReScribe]


@dataclass(frozen=True, kw_only=True)
class AmunReAuction:
    cards: list[AmunReAuctionCard]
    status: list[str] = field(metadata={"description": 'Per seat: "new", "standing" or "outbid".'})
    turn: int | None


@dataclass(frozen=True, kw_only=True)
class AmunRePlacement:
    """Pieces bought or won that must be placed now."""

    kind: str
    count: int


@dataclass(frozen=True, kw_only=True)
class AmunReMarket:
    turn: int | None
    last_purchase: str | None
    cards_bought: int
    to_place: AmunRePlacement | None
    ptah_used: bool | None = field(
        default=None, metadata={"description": "Afterlife/statues/promo modules only."}
    )
    glory_played: bool | None = None
    afterlife_played: bool | None = None
    thoth_discard_due: bool | None = None


@dataclass(frozen=True, kw_only=True)
class AmunReCommitments:
    """Who has committed (Offering or final sale), not what."""

    committed: list[bool]


@dataclass(frozen=True, kw_only=True)
class AmunReRevealedOffer:
    seat: int
    offer: str = field(metadata={"description": 'Either "gold" or "theft".'})
    gold: int


@dataclass(frozen=True, kw_only=True)
class AmunReOffer:
    offer: str = field(metadata={"description": 'Either "gold" or "theft".'})
    gold: int


@dataclass(frozen=True, kw_only=True)
class AmunReGifts:
    order: list[int]
    turn: int | None
    gifts_left: int
    gifts: list[int]
    tomb_discards_made: int | None = field(
        default=None, metadata={"description": "Afterlife module only."}
    )
    to_place: AmunRePlacement | None = None


@dataclass(frozen=True, kw_only=True)
class AmunReGreenCard:
    province: str
    card: str


@dataclass(frozen=True, kw_only=True)
class AmunReHarvest:
    turn: int | None
    green: list[AmunReGreenCard]
