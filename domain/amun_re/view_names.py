"""The names the Amun-Re view uses for its closed sets (kinds of purchase, offers, decisions):
read by ``view`` and by the declared shapes (``view_closed``), which ``view`` builds."""

from __future__ import annotations

#: what a purchase bought (``last_purchase``, a placement's ``kind``)
KIND_NAMES = {1: "tomb_tiles", 2: "favour_cards", 3: "farmers", 4: "stones"}
#: what an offer is (R11.2): ``last_offering[].offer`` and ``you.offer.offer``
GOLD_OFFER, THEFT_OFFER = OFFERS = ("gold", "theft")
#: the decision each phase awaits
DECISIONS = {
    "auction": "bid",
    "resolution": "sell_for_payment",
    "market": "market_turn",
    "offering": "commit",
    "gifts": "gift_collection",
    "harvest": "harvest_turn",
    "final_sale": "final_sale",
}
#: the decisions inside a phase (a sub-decision of a Market turn or a gift collection)
PLACE_FARMER, PLACE_STONE, THOTH_DISCARD, TOMB_DISCARD, PLACE_TOMB_TILE = (
    "place_farmer",
    "place_stone",
    "thoth_discard",
    "tomb_discard",
    "place_tomb_tile",
)
#: every value of the view's ``decision``
DECISION_KINDS = (
    *dict.fromkeys(DECISIONS.values()),
    PLACE_FARMER,
    PLACE_STONE,
    THOTH_DISCARD,
    TOMB_DISCARD,
    PLACE_TOMB_TILE,
)
