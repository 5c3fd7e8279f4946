"""The shapes of the phase parts of the Amun-Re view: ``auction``, ``market``, ``offering`` and
``final_sale``, ``last_offering``, ``gifts``, ``harvest`` (each null outside its phase).

Declared like the rest of the view, see ``view_shape``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.amun_re.view_closed import BidStatus, Card, Offer, Province, Purchase
from domain.shapes import ABSENT

SEAT = "A seat number, 0-based in seating order (the index in `players`)."
TURN = "The seat whose turn it is in this phase; null when nobody's (between turns)."


@dataclass(kw_only=True)
class AmunReScribe:
    """A scribe on a province card in the Auction (R9.3)."""

    seat: int = field(metadata={"description": "The scribe's owner. " + SEAT})
    value: int = field(metadata={"description": "The bid: the value of its space (§5.2)."})
    standing: bool = field(
        metadata={"description": "It is the card's standing (highest) bid; otherwise outbid."}
    )


@dataclass(kw_only=True)
class AmunReAuctionCard:
    """A province card up for auction this round (R9.1, R9.3)."""

    province: Province = field(metadata={"description": "The province auctioned."})
    standing: int | None = field(
        metadata={"description": "The seat holding the standing bid; null with no scribe."}
    )
    protected: bool = field(
        metadata={"description": "The standing bid was placed with a Protection card (R9.4)."}
    )
    blocked: int | None = field(
        metadata={
            "description": "The bid value nobody may bid (the space above a protected standing "
            "bid, R9.4); null when none."
        }
    )
    scribes: list[AmunReScribe] = field(metadata={"description": "The scribes on the card."})


@dataclass(kw_only=True)
class AmunReAuction:
    """The Auction (§9): null outside the auction and resolution phases."""

    cards: list[AmunReAuctionCard] = field(
        metadata={"description": "The province cards revealed this round, in reveal order."}
    )
    status: list[BidStatus] = field(metadata={"description": "Per seat: its bid status (R9.3)."})
    turn: int | None = field(metadata={"description": TURN})


@dataclass(kw_only=True)
class AmunRePlacement:
    """Pieces bought or won that must be placed now."""

    kind: Purchase = field(metadata={"description": "What must be placed (farmers or stones)."})
    count: int = field(metadata={"description": "How many are left to place."})


@dataclass(kw_only=True)
class AmunReMarket:
    """The Market phase (§10): null outside it."""

    turn: int | None = field(metadata={"description": TURN})
    last_purchase: Purchase | None = field(
        metadata={
            "description": "The kind bought last in this turn (R10.2: kinds are bought in "
            "order); null before the turn's first purchase."
        }
    )
    cards_bought: int = field(
        metadata={"description": "Favour cards bought in this turn (the card limit, R10.4)."}
    )
    to_place: AmunRePlacement | None = field(
        metadata={"description": "Farmers or stones bought that must be placed now; null if none."}
    )
    ptah_used: bool | None = field(
        default=ABSENT,
        metadata={
            "description": "Ptah's second purchase was used this Market phase (R10.5). "
            "Afterlife/statues/promo modules only."
        },
    )
    glory_played: bool | None = field(
        default=ABSENT,
        metadata={
            "description": "Glory was played in this turn: no further purchase (R16.4.1). "
            "Afterlife/statues/promo modules only."
        },
    )
    afterlife_played: bool | None = field(
        default=ABSENT,
        metadata={
            "description": "The player has played an Afterlife card this Market phase "
            "(R16.1.3). Afterlife/statues/promo modules only."
        },
    )
    thoth_discard_due: bool | None = field(
        default=ABSENT,
        metadata={
            "description": "The Thoth controller must discard a card now (R10.5a). "
            "Afterlife/statues/promo modules only."
        },
    )


@dataclass(kw_only=True)
class AmunReCommitments:
    """Who has committed (Offering or final sale), not what (R11.1, R15.1)."""

    committed: list[bool] = field(
        metadata={"description": "Per seat: it has committed (the content stays secret)."}
    )


@dataclass(kw_only=True)
class AmunReRevealedOffer:
    """One seat's offer after the reveal (R11.3, public)."""

    seat: int = field(metadata={"description": SEAT})
    offer: Offer = field(metadata={"description": "Gold or Theft."})
    gold: int = field(metadata={"description": "The gold offered (0 for a Theft)."})


@dataclass(kw_only=True)
class AmunReOffer:
    """The viewer's own commitment, before the reveal (secret to others, R11.1)."""

    offer: Offer = field(metadata={"description": "Gold or Theft."})
    gold: int = field(metadata={"description": "The gold offered (0 for a Theft)."})


@dataclass(kw_only=True)
class AmunReGifts:
    """Gift collection after the Offering (R11.7, R11.8): null outside it."""

    order: list[int] = field(
        metadata={"description": "The seats in collection order (offerers by rank, then thieves)."}
    )
    turn: int | None = field(metadata={"description": TURN})
    gifts_left: int = field(metadata={"description": "Gifts the collecting seat has left."})
    gifts: list[int] = field(metadata={"description": "Gifts per seat (R11.7)."})
    tomb_discards_made: int | None = field(
        default=ABSENT,
        metadata={
            "description": "Items discarded so far for an extra Tomb placement (0-2, R16.1.5). "
            "Afterlife module only."
        },
    )
    to_place: AmunRePlacement | None = field(
        default=ABSENT,
        metadata={"description": "Farmers or stones won that must be placed now (R16.1.4)."},
    )


@dataclass(kw_only=True)
class AmunReGreenCard:
    """A green card played on a province in this Harvest (R12.2)."""

    province: Province = field(metadata={"description": "The province it was played on."})
    card: Card = field(metadata={"description": "The green card."})


@dataclass(kw_only=True)
class AmunReHarvest:
    """The Harvest (§12): null outside it."""

    turn: int | None = field(metadata={"description": TURN})
    green: list[AmunReGreenCard] = field(
        metadata={"description": "The green cards played so far in this Harvest."}
    )
