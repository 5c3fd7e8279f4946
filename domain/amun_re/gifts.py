"""Phase 3 — Offering, gift collection (R11.8) and the new start player (R11.9).

Collectors (offerers in rank order, then thieves in turn order; players without a gift are
skipped, D-48) resolve their gifts one at a time:
* ``take_favour_card {}`` (R7.4; only while a card can be drawn; no card limit);
* ``take_farmer {province}`` (an empty field of one of his provinces, R7.6);
* ``take_stone {province}`` (R7.7, a third stone builds at once);
* ``forfeit {}`` (always legal);
and may ``sell {card}``; ``end_gift_turn {}`` once every gift is resolved.
Events: ``gift_taken`` (+ ``favour_cards_drawn``), ``gift_turn_ended``, ``offering_ended``.
Afterlife hook: ``PlaceTombTile`` and extra placements (R16.1.5) join ``legal`` here, and every
player then gets a collection turn (D-35).
"""

from __future__ import annotations

import random
from typing import Any

from domain.amun_re import actions, data
from domain.amun_re.board import add_stones
from domain.amun_re.drawing import draw_event
from domain.amun_re.selling import sell_actions
from domain.amun_re.state import NONE, State, available_cards, empty_fields
from domain.contract import JSON, Event, IllegalAction


def legal(state: State, seat: int) -> list[JSON]:
    out: list[JSON] = []
    owned = sorted(state.owned[seat])
    if state.gifts_left:
        if available_cards(state):
            out.append({"type": "take_favour_card"})
        out += [
            {"type": "take_farmer", "province": data.PROVINCES[p]}
            for p in owned
            if empty_fields(state, p)
        ]
        out += [{"type": "take_stone", "province": data.PROVINCES[p]} for p in owned]
        out.append({"type": "forfeit"})
    out += sell_actions(state, seat)
    if not state.gifts_left:
        out.append({"type": "end_gift_turn"})
    return out


def check_gift(state: State) -> None:
    if state.phase != "gifts":
        raise IllegalAction("gifts are collected only after the Offering reveal", rule="R11.8")
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


def decide_end(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    actions.read(action)
    if state.phase != "gifts":
        raise IllegalAction("this ends a gift-collection turn", rule="R11.8")
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
