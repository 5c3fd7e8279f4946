"""Phase 3 — Offering, gift collection (R11.8) and the new start player (R11.9).

Collectors (offerers in rank order, then thieves in turn order; players without a gift are
skipped, D-48) resolve their gifts one at a time:
* ``take_favour_card {}`` (R7.4; only while a card can be drawn; no card limit);
* ``take_farmer {province}`` (an empty field of one of his provinces, R7.6);
* ``take_stone {province}`` (R7.7, a third stone builds at once);
* ``forfeit {}`` (always legal);
and may ``sell {card}``; ``end_gift_turn {}`` once every gift is resolved.
Events: ``gift_taken`` (+ ``favour_cards_drawn``), ``gift_turn_ended``, ``offering_ended``.
Afterlife (R16.1.5): a gift may place a tile (``place_tomb_tile {tile, row, col}``: events
``gift_taken`` gift ``tomb_tile`` + ``tomb_tile_placed``); an extra placement is the small steps
``discard_card_for_tomb {card}`` / ``discard_tile_for_tomb {tile}`` twice (C-6: discards first),
then ``place_tomb_tile``; rewarded farmers and stones are ``place_farmer`` / ``place_stone``
steps. With Afterlife, players with no gift but a possible extra placement also get a turn (D-35).
"""

from __future__ import annotations

import random
from typing import Any

from domain.amun_re import actions, data, tomb
from domain.amun_re.board import add_stones, discard_card
from domain.amun_re.drawing import draw_event
from domain.amun_re.market import legal as market_legal
from domain.amun_re.selling import check_card_in_hand, sell_actions
from domain.amun_re.state import (
    NONE,
    State,
    available_cards,
    can_extra_place,
    collection_size,
    empty_fields,
    hand_size,
    module_on,
)
from domain.contract import JSON, BadAction, Event, IllegalAction


def legal(state: State, seat: int) -> list[JSON]:
    if state.pending:  # tomb reward placements (C-2: only Sell between the steps)
        return market_legal(state, seat)
    if state.tomb_paid == 1:
        sells = [a for a in sell_actions(state, seat)
                 if tomb.payment_possible(state, seat, hand_size(state, seat) - 1,
                                          collection_size(state, seat))]
        return tomb.discard_actions(state, seat) + sells
    if state.tomb_paid == 2:
        return tomb.place_actions(state, seat) + sell_actions(state, seat)
    out: list[JSON] = []
    owned = sorted(state.owned[seat])
    if state.gifts_left:
        if available_cards(state):
            out.append({"type": "take_favour_card"})
        out += [{"type": "take_farmer", "province": data.PROVINCES[p]}
                for p in owned if empty_fields(state, p)]
        out += [{"type": "take_stone", "province": data.PROVINCES[p]} for p in owned]
        if module_on(state, "afterlife"):
            out += tomb.place_actions(state, seat)
        out.append({"type": "forfeit"})
    if can_extra_place(state, seat):
        out += tomb.discard_actions(state, seat)
    out += sell_actions(state, seat)
    if not state.gifts_left:
        out.append({"type": "end_gift_turn"})
    return out


def check_step(state: State) -> None:
    """R11.8 / C-2 / C-6: no other step while rewards are placed or a payment is half made."""
    if state.phase != "gifts":
        raise IllegalAction("gifts are collected only after the Offering reveal", rule="R11.8")
    if state.pending:
        raise IllegalAction(f"first place your {state.pending} rewarded items", rule="C-2")
    if state.tomb_paid:
        raise IllegalAction("finish your extra tomb placement first", rule="C-6")


def check_gift(state: State) -> None:
    check_step(state)
    if not state.gifts_left:
        raise IllegalAction("you have no gift left to resolve", rule="R11.8")


def gift_province(state: State, seat: int, action: JSON) -> int:
    province = actions.province_of(actions.read(action, province=str)["province"])
    check_gift(state)
    if state.owner[province] != seat:
        raise IllegalAction(f"you do not control {data.PROVINCE_NAMES[province]}", rule="R11.8")
    return province


def decide_card(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    actions.read(action)
    check_gift(state)
    if not available_cards(state):
        raise IllegalAction("no Favour card is left to draw", rule="R7.4")
    return [
        Event("gift_taken", {"gift": "favour_card", "province": None}, seat),
        draw_event(state, seat, 1, "gift", rng),
    ]


def decide_farmer(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    province = gift_province(state, seat, action)
    if not empty_fields(state, province):
        raise IllegalAction(f"{data.PROVINCE_NAMES[province]} has no empty field", rule="R7.6")
    return [Event("gift_taken", {"gift": "farmer", "province": data.PROVINCES[province]}, seat)]


def decide_stone(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    province = gift_province(state, seat, action)
    return [Event("gift_taken", {"gift": "stone", "province": data.PROVINCES[province]}, seat)]


def decide_forfeit(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    actions.read(action)
    check_gift(state)
    return [Event("gift_taken", {"gift": "forfeit", "province": None}, seat)]


def decide_place_tile(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    """R11.8 PlaceTombTile (a gift) or the placement that ends an extra placement (R16.1.5)."""
    tile, position = tomb.read_placement(state, seat, action)
    if state.phase == "market":
        raise IllegalAction("in the Market a tile is placed with the Afterlife card "
                            "(play_afterlife_place)", rule="R16.1.3")
    if state.phase != "gifts":
        raise IllegalAction("tiles are placed in gift collection", rule="R16.1.5")
    if state.pending:
        raise IllegalAction(f"first place your {state.pending} rewarded items", rule="C-2")
    if state.tomb_paid == 2:
        return tomb.placement_events(state, seat, tile, position, "extra", rng)
    if state.tomb_paid:
        raise IllegalAction("discard one more item first", rule="C-6")
    check_gift(state)
    return [Event("gift_taken", {"gift": "tomb_tile", "province": None}, seat),
            *tomb.placement_events(state, seat, tile, position, "gift", rng)]


def check_discard(state: State, seat: int) -> None:
    if not module_on(state, "afterlife"):
        raise IllegalAction("extra tomb placements belong to the afterlife module, which is off",
                            rule="R16.1.5")
    if state.phase != "gifts" or state.pending or state.tomb_paid >= 2:
        raise IllegalAction("discards for an extra tomb placement are made in your "
                            "gift-collection turn, two per tile", rule="R16.1.5")
    if state.tomb_paid == 0 and not can_extra_place(state, seat):
        raise IllegalAction("an extra placement needs a tile to place, two other items to "
                            "discard and room in your tomb", rule="R16.1.5")


def decide_discard_card(state: State, seat: int, action: JSON,
                        rng: random.Random) -> list[Event]:
    card = actions.card_of(actions.read(action, card=str)["card"])
    check_discard(state, seat)
    check_card_in_hand(state, seat, card, "R16.1.5")
    return [Event("card_discarded", {"card": data.CARDS[card], "reason": "tomb"}, seat)]


def decide_discard_tile(state: State, seat: int, action: JSON,
                        rng: random.Random) -> list[Event]:
    name = actions.read(action, tile=str)["tile"]
    tile = data.TOMB_INDEX.get(name)
    if tile is None:
        raise BadAction(f"unknown Tomb tile {name!r}; tiles are {', '.join(data.TOMB_TILES)}")
    check_discard(state, seat)
    if not state.collection[seat][tile]:
        raise IllegalAction(f"you have no {name} tile in your collection", rule="R16.1.5")
    if collection_size(state, seat) < 2:
        raise IllegalAction("keep a tile to place (not the tile being placed)", rule="R16.1.5")
    return [Event("tomb_tile_discarded", {"tile": name}, seat)]


def apply_card_discarded(state: State, d: dict[str, Any], seat: int) -> None:
    discard_card(state, seat, data.CARD_INDEX[d["card"]])
    if d["reason"] == "tomb":
        state.tomb_paid += 1


def decide_end(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    actions.read(action)
    if state.phase != "gifts":
        raise IllegalAction("this ends a gift-collection turn", rule="R11.8")
    if state.pending or state.tomb_paid:
        raise IllegalAction("finish placing first", rule="C-2")
    if state.gifts_left:
        raise IllegalAction(
            f"resolve your {state.gifts_left} gift(s) first (or forfeit)", rule="R11.8"
        )
    return [Event("gift_turn_ended", {}, seat)]


def apply_taken(state: State, d: dict[str, Any], seat: int) -> None:
    state.gifts_left -= 1
    if d["gift"] == "farmer":
        state.farmers[data.PROVINCE_INDEX[d["province"]]] += 1
    elif d["gift"] == "stone":
        add_stones(state, data.PROVINCE_INDEX[d["province"]], 1)


def apply_turn_ended(state: State, d: dict[str, Any], seat: int) -> None:
    state.cursor += 1
    if state.cursor < len(state.gift_order):
        state.turn = state.gift_order[state.cursor]
        state.gifts_left = state.gifts[state.turn]
    else:
        state.turn = NONE
        state.gifts_left = 0


def apply_ended(state: State, d: dict[str, Any], seat: int | None) -> None:
    """R11.9: the offerer ranked 1st becomes start player (unchanged if all stole)."""
    state.start = d["start_player"]
