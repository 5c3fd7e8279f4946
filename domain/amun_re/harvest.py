"""Phase 4 — Harvest (§12): Harvest turns in turn order from the (new) start player (R12.1).

Actions of the player whose turn it is:
* ``play_exceptional_harvest {province}`` / ``play_fixed_income {province}`` — at most one green
  card per province per Harvest (R12.2, D-43);
* ``sell {card}``; ``end_harvest_turn {}``, after which he receives his income (R12.3).
Events: ``harvest_started``, ``green_card_played``, ``harvest_turn_ended`` (income per province).
Module hooks: Popularity and Export join ``GREEN_CARDS``/``province_income``; Osiris adds to
``income``.
"""

from __future__ import annotations

import random
from typing import Any

from domain.amun_re import actions, data
from domain.amun_re.board import discard_card, pay_out
from domain.amun_re.selling import check_card_in_hand, sell_actions
from domain.amun_re.state import NONE, State, turn_order
from domain.contract import JSON, Event, IllegalAction

GREEN_CARDS = {
    "play_exceptional_harvest": data.EXCEPTIONAL_HARVEST,
    "play_fixed_income": data.FIXED_INCOME,
}


def legal(state: State, seat: int) -> list[JSON]:
    out: list[JSON] = []
    hand = state.hands[seat]
    free = [p for p in sorted(state.owned[seat]) if state.green[p] == NONE]
    for name, card in GREEN_CARDS.items():
        if hand[card]:
            out += [{"type": name, "province": data.PROVINCES[p]} for p in free]
    return [*out, *sell_actions(state, seat), {"type": "end_harvest_turn"}]


def decide_green(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    card = GREEN_CARDS[action["type"]]
    province = actions.province_of(actions.read(action, province=str)["province"])
    if state.phase != "harvest":
        raise IllegalAction("green cards are played in your Harvest turn", rule="R7.5")
    if state.owner[province] != seat:
        raise IllegalAction(f"you do not control {data.PROVINCE_NAMES[province]}", rule="R12.2")
    check_card_in_hand(state, seat, card, "R12.2")
    if state.green[province] != NONE:
        raise IllegalAction("only one green card per province per Harvest", rule="R12.2")
    return [
        Event(
            "green_card_played",
            {"card": data.CARDS[card], "province": data.PROVINCES[province]},
            seat,
        )
    ]


def province_income(state: State, province: int) -> int:
    """R12.3 for one province, with the green card played on it (R12.2)."""
    green = state.green[province]
    if green == data.FIXED_INCOME:
        return data.FIXED_INCOME_GOLD
    farmers = state.farmers[province]
    gold = farmers * data.GOLD_PER_FARMER[state.tile] + data.MINE[province]
    if data.CAMEL[state.tile]:
        gold += data.CARAVAN[province]
    if green == data.EXCEPTIONAL_HARVEST:
        gold += farmers
    return gold


def income(state: State, seat: int) -> list[dict[str, Any]]:
    """R12.3: income per controlled province (hook: Osiris adds a line here)."""
    return [
        {"province": data.PROVINCES[p], "gold": province_income(state, p)}
        for p in sorted(state.owned[seat])
    ]


def decide_end(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    actions.read(action)
    if state.phase != "harvest":
        raise IllegalAction("this ends a Harvest turn", rule="R12.2")
    lines = income(state, seat)
    return [
        Event(
            "harvest_turn_ended",
            {"income": sum(line["gold"] for line in lines), "provinces": lines},
            seat,
        )
    ]


def apply_started(state: State, d: dict[str, Any], seat: int | None) -> None:
    state.phase = "harvest"
    state.cursor = 0
    state.turn = state.start
    state.green = [NONE] * len(data.PROVINCES)


def apply_green(state: State, d: dict[str, Any], seat: int) -> None:
    card = data.CARD_INDEX[d["card"]]
    state.green[data.PROVINCE_INDEX[d["province"]]] = card
    discard_card(state, seat, card)


def apply_turn_ended(state: State, d: dict[str, Any], seat: int) -> None:
    pay_out(state, seat, d["income"], "harvest")
    state.cursor += 1
    state.turn = turn_order(state)[state.cursor] if state.cursor < state.seats else NONE
