"""The shape of the Amun-Re view (§17, R7.9): every key ``view.view`` may return, declared once.

This module is the declaration of the JSON view: ``domain/amun_re/view.py`` builds an instance
of ``AmunReState`` (``view.view_of``, an allow-list) and the JSON is derived from that instance
(``domain.shapes.to_json``), so it has exactly the keys declared here, in this order. The typed
GraphQL view is derived from the same declarations (``service/api/graphql/gameviews``). The
shapes of the phases' parts (auction, market, offering, gifts, harvest) are in
``view_shape_phases``. The shapes are plain dataclasses, not frozen: an instance lives only
until its JSON is derived, and a frozen dataclass takes twice as long to build (a view is built
for every read); only ``AmunReProvince`` and its bonus, whose instances views share, are frozen.

How a declaration reads:

* each field is a key of the JSON object, of the annotated type (``int``, ``str``, ``bool``,
  ``list[...]``, a nested shape); ``X | None`` may be null;
* a field with a default (``= ABSENT``, ``domain/shapes.py``) is a key that is present only for
  some viewers or with an Expanded Pack module on: the view leaves it ``ABSENT`` where the key is
  left out; a field without one is always present (a value ``None`` is ``null``, never a missing
  key);
* ``dict[str, V]`` with ``metadata["entries"]`` is a map keyed by a card, tile or statue id,
  shown in the typed view as a list of that entry shape (first field the key, second the value),
  in the order of the JSON object;
* ``Annotated[str, Closed(...)]`` (the sets are in ``view_closed``) is a string from a closed
  set of domain ids: an enum in the typed view, the id itself in the JSON view;
* ``metadata["description"]`` and a class docstring describe the typed field or type (every
  field and every shape has one: the schema's descriptions are these);
  ``metadata["typed_name"]`` names the typed field when it differs from the key (GraphQL
  refuses a query that selects one response key with two types in the two members of
  ``GameView``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# the phases' shapes before the closed sets: ``view_closed`` imports ``view``, which imports
# both shape modules (``view.py``, at its end)
from domain.amun_re.view_shape_phases import (
    SEAT,
    AmunReAuction,
    AmunReCommitments,
    AmunReGifts,
    AmunReHarvest,
    AmunReMarket,
    AmunReOffer,
    AmunReRevealedOffer,
)

# isort: split
from domain.amun_re.view_closed import (
    Bank,
    Card,
    Decision,
    Phase,
    Province,
    Region,
    River,
    Statue,
    TombTile,
)
from domain.shapes import ABSENT


def module(name: str) -> str:
    return f"The {name} option is on (§2)."


@dataclass(kw_only=True)
class AmunReOptions:
    """The table options the game was created with (§2)."""

    classic_bank_majority: bool = field(
        metadata={"description": "Bank majority is scored per province (R13.6b), not per player."}
    )
    no_farmer_points: bool = field(
        metadata={"description": "Farmers score no VP at kingdom scoring (R13.4 skipped)."}
    )
    afterlife: bool = field(metadata={"description": module("Afterlife module (§16.1)")})
    statues: bool = field(metadata={"description": module("Statues module (§16.2)")})
    pharaoh: bool = field(metadata={"description": module("Pharaoh module (§16.3)")})
    promo_favours: bool = field(
        metadata={"description": module("promo Favour cards module (§16.4)")}
    )


@dataclass(kw_only=True)
class AmunReOfferingTile:
    """The current Offering tile (§5.4, R11.5): it fixes Harvest income and temple VP."""

    tile: int = field(metadata={"description": "The tile, 1-4."})
    gold_per_farmer: int = field(metadata={"description": "Gold per farmer at the Harvest."})
    camel: bool = field(metadata={"description": "It shows a camel: caravans pay at the Harvest."})
    temple_vp: int = field(metadata={"description": "VP per temple at a kingdom scoring (R13.5)."})


@dataclass(frozen=True, kw_only=True)  # frozen: views share it (``view.province_view``)
class AmunReProvinceBonus:
    """The immediate bonus of a province, taken by the player who wins it (R9.8)."""

    stones: int = field(metadata={"description": "Stones placed into the province."})
    gold: int = field(metadata={"description": "Gold from the bank."})
    favour_cards: int = field(metadata={"description": "Favour cards drawn (R7.4)."})


@dataclass(frozen=True, kw_only=True)  # frozen: views share it (``view.province_view``)
class AmunReProvince:
    """A province revealed at least once: printed facts (§5.1) and board state."""

    id: Province = field(metadata={"description": "Which province (the same in every game)."})
    name: str = field(metadata={"description": 'Display name, e.g. "Abu".'})
    bank: Bank = field(metadata={"description": "West or East of the Nile."})
    region: Region = field(metadata={"description": "Upper (south) or Lower (north) Egypt."})
    river: River = field(metadata={"description": "On the Nile or at the border."})
    fields: int = field(metadata={"description": "Farmer fields (0-6)."})
    card_limit: int = field(
        metadata={"description": "Favour cards its controller may buy per Market turn (R10.4)."}
    )
    temples: int = field(metadata={"description": "Temples (VP at kingdom scoring, R13.5)."})
    mine: int = field(metadata={"description": "Gold its mine pays at every Harvest (0: none)."})
    caravan: int = field(
        metadata={"description": "Gold its caravan pays at a Harvest under a camel tile (0: none)."}
    )
    bonus: AmunReProvinceBonus = field(metadata={"description": "The immediate bonus (R9.8)."})
    owner: int | None = field(
        metadata={"description": "The controlling seat (R3.7); null when nobody controls it."}
    )
    farmers: int = field(metadata={"description": "Farmers on its fields."})
    stones: int = field(metadata={"description": "Loose stones (3 build a pyramid, R7.7)."})
    pyramids: int = field(metadata={"description": "Pyramids built in it."})
    up_for_auction: bool = field(
        metadata={"description": "Its card is up for auction in this round's Auction."}
    )


@dataclass(kw_only=True)
class AmunReCardCount:
    """A number of copies of one Favour card."""

    card: Card = field(metadata={"description": "The card."})
    count: int = field(metadata={"description": "How many copies."})


@dataclass(kw_only=True)
class AmunReTileCount:
    """A number of Tomb tiles of one reward type."""

    tile: TombTile = field(metadata={"description": "The tile's reward type."})
    count: int = field(metadata={"description": "How many tiles."})


@dataclass(kw_only=True)
class AmunRePlayer:
    """One seat: public facts for everyone, secrets (gold, hand faces) only where R7.9 allows."""

    seat: int = field(metadata={"description": SEAT})
    vp: int = field(metadata={"description": "Victory points so far (public)."})
    hand_count: int = field(
        metadata={"description": "Number of Favour cards in hand (public; the Theft card is none)."}
    )
    provinces: list[Province] = field(
        metadata={"description": "The provinces the seat controls, in board order."}
    )
    scribes_free: int = field(
        metadata={"description": "Scribes neither on a province nor bidding (of 3)."}
    )
    theft_card: bool = field(
        metadata={"description": "The seat holds its Theft card (always true: it is never lost)."}
    )
    gold: int | None = field(
        default=ABSENT,
        metadata={
            "description": "Gold: only for the viewer himself, at the end (R15.5) or in the "
            "full view; null otherwise."
        },
    )
    hand: list[Card] | None = field(
        default=ABSENT,
        metadata={
            "description": "The Favour cards in hand, sorted, a card held twice listed twice: "
            "only for the viewer himself or in the full view; null otherwise (R7.9)."
        },
    )
    statue_cards: list[Statue] | None = field(
        default=ABSENT,
        metadata={"description": "Statue cards held (§16.2). Statues module only."},
    )
    pharaoh_tokens: int | None = field(
        default=ABSENT,
        metadata={"description": "Pharaoh tokens held (R16.3.2). Pharaoh module only."},
    )
    collection_count: int | None = field(
        default=ABSENT,
        metadata={
            "description": "Tomb tiles in the seat's collection (R16.1.2, faces secret). "
            "Afterlife module only."
        },
    )
    tomb: list[list[TombTile | None]] | None = field(
        default=ABSENT,
        metadata={
            "description": "The tomb (R16.1.4): rows base first (5 positions, then 4 … 1), a "
            "tile or null per position. Afterlife module only."
        },
    )
    collection: dict[TombTile, int] | None = field(
        default=ABSENT,
        metadata={
            "entries": AmunReTileCount,
            "description": "The collection's tiles by reward type. Afterlife, full view only.",
        },
    )


@dataclass(kw_only=True)
class AmunReYou:
    """The viewer's own secrets (null for a spectator); the hand is in `players[viewer].hand`."""

    seat: int = field(metadata={"description": "The viewer's seat."})
    gold: int = field(metadata={"description": "The viewer's gold."})
    marked_for_sale: dict[Card, int] = field(
        metadata={
            "entries": AmunReCardCount,
            "description": "Cards of the pending secret commitment marked to be sold at the "
            "reveal (R11.2, R15.1).",
        }
    )
    adjustment: int = field(
        metadata={"description": "The Offering Adjustment committed: 0 (none), 3 or -3 (R11.2)."}
    )
    offer: AmunReOffer | None = field(
        metadata={"description": "The viewer's committed offer; null when not committed."}
    )
    collection: dict[TombTile, int] | None = field(
        default=ABSENT,
        metadata={
            "entries": AmunReTileCount,
            "description": "The viewer's Tomb tile collection by reward type (R16.1.2). "
            "Afterlife module only.",
        },
    )


@dataclass(kw_only=True)
class AmunReScoringLine:
    """One player's kingdom scoring breakdown (R13.8, public)."""

    seat: int = field(metadata={"description": SEAT})
    pyramids: int = field(metadata={"description": "VP for pyramids (R13.2)."})
    weakest: int = field(metadata={"description": "VP for the weakest province (R13.3)."})
    farmers: int = field(metadata={"description": "VP for farmers (R13.4)."})
    temples: int = field(metadata={"description": "VP for temples (R13.5)."})
    west: int = field(metadata={"description": "VP for the West bank majority (R13.6)."})
    east: int = field(metadata={"description": "VP for the East bank majority (R13.6)."})
    schemes: int = field(metadata={"description": "VP for Schemes (R13.7)."})
    total: int = field(metadata={"description": "VP of this scoring in all."})
    schemes_scored: list[Card] = field(
        metadata={"description": "The Scheme cards that scored (then discarded, R13.7)."}
    )


@dataclass(kw_only=True)
class AmunReFinal:
    """The end of the game (§15): null before it."""

    gold: list[int] = field(metadata={"description": "Gold per seat (public now, R15.5)."})
    gold_bonus: list[int] = field(metadata={"description": "Gold bonus VP per seat (R15.2)."})
    tomb: list[int] | None = field(
        default=ABSENT,
        metadata={"description": "Tomb VP per seat (R15.3). Afterlife module only."},
    )


@dataclass(kw_only=True)
class AmunReHidden:
    """Full view only (after the game): the piles' orders, hidden during play (§17)."""

    draw_pile: list[Card] = field(metadata={"description": "The Favour draw pile, top first."})
    province_deck: list[Province] = field(metadata={"description": "The province deck, top first."})
    statue_deck: list[Statue] | None = field(
        default=ABSENT,
        metadata={"description": "The statue deck, top first. Statues module only."},
    )
    tomb_stack: list[TombTile] | None = field(
        default=ABSENT,
        metadata={"description": "The tomb stack, top first. Afterlife module only."},
    )


@dataclass(kw_only=True)
class AmunReStatuePlacement:
    """A statue standing in a province (R16.2.2)."""

    statue: Statue = field(metadata={"description": "The statue."})
    province: Province = field(metadata={"description": "Where it stands (it never moves)."})


@dataclass(kw_only=True)
class AmunReStatueHolder:
    """Who holds a statue's card (R16.2.3)."""

    statue: Statue = field(metadata={"description": "The statue."})
    seat: int | None = field(metadata={"description": "The holding seat; null when nobody."})


@dataclass(kw_only=True)
class AmunReStatues:
    """Statues module (§16.2)."""

    on_board: list[AmunReStatuePlacement] = field(
        metadata={"description": "The statues placed so far."}
    )
    holders: dict[Statue, int | None] = field(
        metadata={"entries": AmunReStatueHolder, "description": "The holder of every statue."}
    )
    deck_count: int = field(metadata={"description": "Statue cards left in the statue deck."})


@dataclass(kw_only=True)
class AmunRePharaoh:
    """Pharaoh module (§16.3)."""

    province: Province | None = field(
        metadata={"description": "Where the Pharaoh figure stands; null in the reserve."}
    )


@dataclass(kw_only=True)
class AmunReState:
    """An Amun-Re game as the caller may see it (typed `Game.state`, §17)."""

    game: str = field(metadata={"description": 'Always "amun_re".'})
    viewer: int | None = field(
        metadata={"description": "The seat this view is for; null for a spectator."}
    )
    round: int = field(metadata={"description": "The round, 1-6 (0 before the first)."})
    kingdom: int = field(
        metadata={"description": "1 (Old Kingdom, rounds 1-3), 2 (New Kingdom); 0 before."}
    )
    phase: Phase = field(metadata={"description": "The current phase."})
    start_player: int = field(metadata={"description": "The seat holding the Amun-Re token."})
    to_act: list[int] = field(metadata={"description": "The seats that must decide now."})
    decision: Decision | None = field(
        metadata={"description": "What the game waits for (public); null when nothing."}
    )
    options: AmunReOptions = field(metadata={"description": "The table options (§2)."})
    bid_track: list[int] = field(
        metadata={"description": "The bid values of the 9 spaces (§5.2), lowest first."}
    )
    offering_tile: AmunReOfferingTile | None = field(
        metadata={"description": "The current Offering tile; null before the first Offering."}
    )
    provinces: list[AmunReProvince] = field(
        metadata={
            "description": "The provinces revealed at least once (the unrevealed set stays "
            "secret), in board order."
        }
    )
    auction: AmunReAuction | None = field(
        metadata={"description": "The Auction; null outside the auction and resolution phases."}
    )
    market: AmunReMarket | None = field(
        metadata={"description": "The Market phase; null outside it."}
    )
    offering: AmunReCommitments | None = field(
        metadata={"description": "Who has committed in the Offering (R11.1); null outside it."}
    )
    last_offering: list[AmunReRevealedOffer] | None = field(
        metadata={
            "description": "The offers of the last Offering, per seat, after the reveal "
            "(R11.3); null before the first reveal and while committing."
        }
    )
    gifts: AmunReGifts | None = field(
        metadata={"description": "Gift collection (R11.8); null outside it."}
    )
    harvest: AmunReHarvest | None = field(
        metadata={"description": "The Harvest (§12); null outside it."}
    )
    final_sale: AmunReCommitments | None = field(
        metadata={"description": "Who has committed in the final sale (R15.1); null outside it."}
    )
    players: list[AmunRePlayer] = field(metadata={"description": "Every seat, in seat order."})
    you: AmunReYou | None = field(
        metadata={"description": "The viewer's own secrets; null for a spectator."}
    )
    discard_pile: list[Card] = field(
        metadata={"description": "The Favour discard pile, oldest first (face up, R7.9)."}
    )
    draw_pile_count: int = field(
        metadata={"description": "Cards in the face-down Favour draw pile (R7.4)."}
    )
    province_deck_count: int = field(
        metadata={"description": "Province cards left in the province deck."}
    )
    last_scoring: list[AmunReScoringLine] | None = field(
        metadata={
            "description": "The breakdown of the last kingdom scoring (R13.8); null before "
            "the first."
        }
    )
    final: AmunReFinal | None = field(
        metadata={"description": "The end-of-game scoring (§15); null until the game is over."}
    )
    winners: list[int] = field(
        metadata={"description": "The winning seats (R15.4); empty until the game is over."}
    )
    ranks: list[int] = field(
        metadata={
            "description": "Rank per seat, 1 = first (ties share a rank); empty until the "
            "game is over."
        }
    )
    hidden: AmunReHidden | None = field(
        default=ABSENT,
        metadata={"description": "The hidden piles: only in the full view (after the game)."},
    )
    statues: AmunReStatues | None = field(
        default=ABSENT, metadata={"description": "Statues module only (§16.2)."}
    )
    pharaoh: AmunRePharaoh | None = field(
        default=ABSENT, metadata={"description": "Pharaoh module only (§16.3)."}
    )
    tomb_stack_count: int | None = field(
        default=ABSENT,
        metadata={"description": "Tomb tiles left in the tomb stack. Afterlife module only."},
    )
    tomb_discard: list[TombTile] | None = field(
        default=ABSENT,
        metadata={
            "description": "The tomb discard pile, oldest first (face up). Afterlife module only."
        },
    )


#: the declaration of the whole view, ``view.view``'s return value
VIEW = AmunReState
