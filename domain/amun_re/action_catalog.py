"""Amun-Re's actions, declared once (``domain.actions``): the action table of ``rules.py``
(§0 Atomic decisions, R7-R16) as data. The deciders read their parameters with
``actions.read``; ``tests/test_action_catalog.py`` checks the two agree."""

from __future__ import annotations

from domain.actions import ActionSpec, Catalog, Param
from domain.amun_re import data

PROVINCE = Param(
    "province",
    "string",
    "A province (§5.1).",
    allowed=data.PROVINCES,
    names=tuple(zip(data.PROVINCES, data.PROVINCE_NAMES, strict=True)),
)
CARD = Param(
    "card",
    "string",
    "A Favour card in your hand (§5.5).",
    allowed=data.CARDS,
    names=tuple(zip(data.CARDS, data.CARD_NAMES, strict=True)),
)
TILE = Param("tile", "string", "A Tomb tile (§5.7).", allowed=data.TOMB_TILES)
ROW = Param(
    "row",
    "integer",
    "A row of the tomb, 1 is the base (R16.1.4).",
    minimum=1,
    maximum=len(data.TOMB_ROWS),
)
COL = Param(
    "col",
    "integer",
    "A position in that row, from 1 (R16.1.4).",
    minimum=1,
    maximum=max(data.TOMB_ROWS),
)


def count(what: str) -> tuple[Param, ...]:
    return (Param("count", "integer", f"How many {what} to buy (§5.3: n(n+1)/2 gold).", minimum=1),)


ACTIONS = (
    # Auction (R9)
    ActionSpec(
        "bid",
        "Bid on a province",
        "R9.6",
        (
            PROVINCE,
            Param("value", "integer", "A space of the bid track (§5.2).", allowed=data.BID_TRACK),
            Param(
                "bribe",
                "boolean",
                "Play a Bribe card with the bid (R9.5).",
                names=((True, ", with a Bribe card"), (False, "")),
            ),
            Param(
                "protection",
                "boolean",
                "Play a Protection card with the bid (R9.4).",
                names=((True, ", with a Protection card"), (False, "")),
            ),
        ),
        "Bid {value} on {province}{bribe}{protection}",
    ),
    ActionSpec("sell", "Sell a Favour card for 1 gold", "R7.3", (CARD,), "Sell {card} for 1 gold"),
    ActionSpec(
        "sell_for_payment",
        "Sell a Favour card to pay your bid",
        "R9.8, C-3",
        (CARD,),
        "Sell {card} to pay the bid",
    ),
    # Market (R10)
    ActionSpec(
        "buy_favour_cards",
        "Buy Favour cards",
        "R10.4",
        count("Favour cards"),
        "Buy {count} Favour card(s)",
    ),
    ActionSpec("buy_farmers", "Buy farmers", "R7.6", count("farmers"), "Buy {count} farmer(s)"),
    ActionSpec("buy_stones", "Buy pyramid stones", "R7.7", count("stones"), "Buy {count} stone(s)"),
    ActionSpec(
        "place_farmer", "Place a bought farmer", "R7.6", (PROVINCE,), "Place a farmer in {province}"
    ),
    ActionSpec(
        "place_stone", "Place a bought stone", "R7.7", (PROVINCE,), "Place a stone in {province}"
    ),
    ActionSpec(
        "play_architect",
        "Play the Architect: a free stone",
        "R7.5",
        (PROVINCE,),
        "Architect: a stone in {province}",
    ),
    ActionSpec(
        "play_extra_farmer",
        "Play the Extra Farmer: a free farmer",
        "R7.5",
        (PROVINCE,),
        "Extra Farmer: a farmer in {province}",
    ),
    ActionSpec("end_market_turn", "End your Market turn", "R10.5"),
    # Offering (R11)
    ActionSpec(
        "mark_for_sale",
        "Mark a Favour card for sale (private)",
        "R11.2",
        (CARD,),
        "Mark {card} for sale",
    ),
    ActionSpec(
        "set_adjustment",
        "Set the Offering adjustment (private)",
        "R11.2",
        (
            Param(
                "sign",
                "integer",
                "+3 or -3 on the Offering total.",
                allowed=(3, -3),
                names=((3, "+3"), (-3, "-3")),
            ),
        ),
        "Adjust the Offering by {sign}",
    ),
    ActionSpec(
        "commit_gold",
        "Commit gold to the Offering (secret)",
        "R11.2",
        (Param("gold", "integer", "The gold offered.", minimum=data.MIN_GOLD_OFFER),),
        "Offer {gold} gold",
    ),
    ActionSpec(
        "commit_theft",
        "Steal from the Offering",
        "C-8, R16.4.2",
        (
            Param(
                "greed",
                "boolean",
                "Play a Greed card with the theft (R16.4.2).",
                names=((True, " with a Greed card"), (False, "")),
            ),
        ),
        "Steal{greed}",
    ),
    # Gift collection (R11.8)
    ActionSpec("take_favour_card", "Take a Favour card as a gift", "R11.8"),
    ActionSpec(
        "take_farmer",
        "Take a farmer as a gift",
        "R11.8",
        (PROVINCE,),
        "Take a farmer in {province}",
    ),
    ActionSpec(
        "take_stone", "Take a stone as a gift", "R11.8", (PROVINCE,), "Take a stone in {province}"
    ),
    ActionSpec("forfeit", "Forfeit your remaining gifts", "R11.8"),
    ActionSpec("end_gift_turn", "End your gift turn", "R11.8"),
    # Harvest (R12)
    ActionSpec(
        "play_exceptional_harvest",
        "Play Exceptional Harvest",
        "R12.2",
        (PROVINCE,),
        "Exceptional Harvest in {province}",
    ),
    ActionSpec(
        "play_fixed_income", "Play Fixed Income", "R12.2", (PROVINCE,), "Fixed Income in {province}"
    ),
    ActionSpec("end_harvest_turn", "End your Harvest turn", "R12.5"),
    # Final sale (R15.1)
    ActionSpec("final_sale", "Sell the marked cards (secret until reveal)", "R15.1"),
    # Expanded Pack modules (§16)
    ActionSpec(
        "buy_tomb_tiles",
        "Buy Tomb tiles",
        "R16.1.2",
        count("Tomb tiles"),
        "Buy {count} Tomb tile(s)",
    ),
    ActionSpec(
        "thoth_discard",
        "Discard a Favour card (Thoth)",
        "R10.5a, C-4",
        (CARD,),
        "Thoth: discard {card}",
    ),
    ActionSpec("use_horus", "Use Horus on a province", "R10.7", (PROVINCE,), "Horus: {province}"),
    ActionSpec("play_afterlife_draw", "Play Afterlife: draw Tomb tiles", "R16.1"),
    ActionSpec(
        "play_afterlife_place",
        "Play Afterlife: place a Tomb tile",
        "R16.1",
        (TILE, ROW, COL),
        "Afterlife: place a {tile} tile at row {row}, position {col}",
    ),
    ActionSpec(
        "play_glory",
        "Play Glory: buy victory points",
        "R16.4.1",
        (
            Param(
                "vp", "integer", "The VP bought (§5.3 price).", minimum=1, maximum=data.GLORY_MAX_VP
            ),
        ),
        "Glory: buy {vp} VP",
    ),
    ActionSpec(
        "place_tomb_tile",
        "Place a Tomb tile",
        "R16.1.4",
        (TILE, ROW, COL),
        "Place a {tile} tile at row {row}, position {col}",
    ),
    ActionSpec(
        "discard_card_for_tomb",
        "Discard a Favour card towards a Tomb tile",
        "R16.1.5",
        (CARD,),
        "Discard {card} for a Tomb tile",
    ),
    ActionSpec(
        "discard_tile_for_tomb",
        "Discard a Tomb tile towards another",
        "R16.1.5",
        (TILE,),
        "Discard a {tile} tile",
    ),
    ActionSpec(
        "play_popularity", "Play Popularity", "R16.4.3", (PROVINCE,), "Popularity in {province}"
    ),
    ActionSpec("play_export", "Play Export", "R16.4.4", (PROVINCE,), "Export from {province}"),
)

CATALOG = Catalog("amun_re", ACTIONS)
