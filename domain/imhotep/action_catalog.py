"""Imhotep's actions, declared once (``domain.actions``): turn actions (§6, §9.6, catalogue
§11.1) and decision options (§10.2, §11.2). ``turns.py`` and ``decisions.py`` check them."""

from __future__ import annotations

from domain.actions import ActionSpec, Catalog, Param
from domain.imhotep import data

SHIP = Param(
    "ship",
    "integer",
    "A ship of this round, 1 to 4 (§1.2).",
    minimum=1,
    maximum=data.SHIPS_PER_ROUND,
)
SLOT = Param(
    "slot", "integer", "A slot of that ship, from 1 (§1.2).", minimum=1, maximum=max(data.MIN_LOAD)
)
SITE = Param("site", "string", "A site with a free dock (§1.5).", allowed=data.SITES)
PLACE = (SHIP, SLOT)
CARD = Param("card", "string", "A market card (§1.4).", allowed=data.CARD_IDS)
PYRAMID_NAMES = tuple(dict.fromkeys(n for side in data.PYRAMIDS.values() for n, _ in side))
SEAT = Param("seat", "integer", "A seat.", minimum=0, maximum=data.MAX_PLAYERS - 1)


def slot_of(name: str, description: str) -> Param:
    return Param(name, "object", description, fields=PLACE)


ACTIONS = (
    # turn actions of the current player (§6, §11.1)
    ActionSpec("get_stones", "Take stones from the quarry", "§6.1"),
    ActionSpec(
        "place_stone",
        "Place a stone on a ship",
        "§6.2",
        PLACE,
        "Place a stone on ship {ship}, slot {slot}",
    ),
    ActionSpec(
        "sail", "Sail a ship to a site", "§6.3", (SHIP, SITE), "Sail ship {ship} to the {site}"
    ),
    ActionSpec(
        "play_lever",
        "Play the Lever: sail a ship and choose the unloading order",
        "§9.6",
        (SHIP, SITE),
        "Lever: sail ship {ship} to the {site}",
    ),
    ActionSpec(
        "play_hammer",
        "Play the Hammer: take stones and place one",
        "§9.6",
        PLACE,
        "Hammer: take stones, place one on ship {ship}, slot {slot}",
    ),
    ActionSpec(
        "play_sail",
        "Play the Sail: place a stone and sail that ship",
        "§9.6",
        (*PLACE, SITE),
        "Sail card: place on ship {ship}, slot {slot}, sail to the {site}",
    ),
    ActionSpec(
        "play_chisel",
        "Play the Chisel: place two stones",
        "§9.6, C-5",
        (
            slot_of("first", "The first slot, before the second in (ship, slot) order."),
            slot_of("second", "The second slot."),
        ),
        "Chisel: place on ship {first[ship]}, slot {first[slot]} and ship "
        "{second[ship]}, slot {second[slot]}",
    ),
    ActionSpec("pass", "Pass (no other action is possible)", "§6.5"),
    # decision options (§10.2, §11.2)
    ActionSpec("take_card", "Take a face-up market card", "§8.1", (CARD,), "Take the {card} card"),
    ActionSpec("take_pair", "Take the face-down pair", "§8.2"),
    ActionSpec("keep", "Keep one card of the pair", "§8.2", (CARD,), "Keep the {card} card"),
    ActionSpec(
        "choose_pyramid",
        "Choose the pyramid for the stones",
        "§8.4",
        (Param("pyramid", "string", "A pyramid of side B (§8.4).", allowed=PYRAMID_NAMES),),
        "Build on the {pyramid} pyramid",
    ),
    ActionSpec(
        "bonus_place",
        "Place the bonus stone on a ship",
        "§8.4",
        PLACE,
        "Place the bonus stone on ship {ship}, slot {slot}",
    ),
    ActionSpec("bonus_decline", "Decline the bonus stone", "§8.4"),
    ActionSpec(
        "unload_order",
        "Choose the unloading order (Lever)",
        "§9.6, C-6",
        (
            Param(
                "order",
                "array",
                "The seat of every stone on board, in unloading order.",
                items=SEAT,
            ),
        ),
        "Unload the stones of seats {order}",
    ),
    ActionSpec("take_point", "Take 1 point", "§8.6"),
    ActionSpec("take_stones", "Take 2 stones from the quarry to the sled", "§8.6"),
)

CATALOG = Catalog("imhotep", ACTIONS)
