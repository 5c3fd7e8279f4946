"""Phase 4 — Harvest (§12): Harvest turns in turn order from the (new) start player (R12.1).

Actions of the player whose turn it is:
* ``play_exceptional_harvest {province}`` / ``play_fixed_income {province}`` — at most one green
  card per province per Harvest (R12.2, D-43);
* ``sell {card}``; ``end_harvest_turn {}``, after which he receives his income (R12.3).
Events: ``harvest_started``, ``green_card_played``, ``harvest_turn_ended`` (income per province).
Promo module: ``play_popularity {province}`` (the province yields nothing; 3 cards drawn at once,
before the card is discarded, C-5) and ``play_export {province}`` (10 gold in a camel year, else 0),
each at most once per player per Harvest. Statues: Osiris adds ⌊his farmers / 2⌋ (``osiris`` in
``harvest_turn_ended``).
"""

from __future__ import annotations

import random
from typing import Any

from domain.amun_re import actions, data
from domain.amun_re.board import discard_card, pay_out
from domain.amun_re.drawing import draw_event
from domain.amun_re.selling import check_card_in_hand, sell_actions
from domain.amun_re.state import NONE, State, has_statue, turn_order
from domain.contract import JSON, Event, IllegalAction

GREEN_CARDS = {
    "play_exceptional_harvest": data.EXCEPTIONAL_HARVEST,
    "play_fixed_income": data.FIXED_INCOME,
    "play_popularity": data.POPULARITY,
    "play_export": data.EXPORT,
}
#: green cards limited to one per player per Harvest (R12.2, [XP])
ONCE = (data.POPULARITY, data.EXPORT)


def played_once(state: State, seat: int, card: int) -> bool:
    """Whether a once-per-Harvest card was already played by him (on one of his provinces)."""
    return card in ONCE and any(state.green[p] == card for p in state.owned[seat])


def legal(state: State, seat: int) -> list[JSON]:
    out: list[JSON] = []
    hand = state.hands[seat]
    free = [p for p in sorted(state.owned[seat]) if state.green[p] == NONE]
    for name, card in GREEN_CARDS.items():
        if hand[card] and not played_once(state, seat, card):
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
    if played_once(state, seat, card):
        raise IllegalAction(f"at most one {data.CARD_NAMES[card]} per Harvest", rule="R12.2")
    played = Event("green_card_played",
                   {"card": data.CARDS[card], "province": data.PROVINCES[province]}, seat)
    if card == data.POPULARITY:  # C-5: drawn before the card reaches the discard pile
        return [draw_event(state, seat, data.POPULARITY_CARDS, "popularity", rng), played]
    return [played]


def province_income(state: State, province: int) -> int:
    """R12.3 for one province, with the green card played on it (R12.2)."""
    green = state.green[province]
    if green == data.FIXED_INCOME:
        return data.FIXED_INCOME_GOLD
    if green == data.POPULARITY:
        return 0
    if green == data.EXPORT:
        return data.EXPORT_CARAVAN_GOLD if data.CAMEL[state.tile] else 0
    farmers = state.farmers[province]
    gold = farmers * data.GOLD_PER_FARMER[state.tile] + data.MINE[province]
    if data.CAMEL[state.tile]:
        gold += data.CARAVAN[province]
    if green == data.EXCEPTIONAL_HARVEST:
        gold += farmers
    return gold


def income(state: State, seat: int) -> list[dict[str, Any]]:
    """R12.3: income per controlled province (Osiris is added in ``decide_end``)."""
    return [
        {"province": data.PROVINCES[p], "gold": province_income(state, p)}
        for p in sorted(state.owned[seat])
    ]


def decide_end(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    actions.read(action)
    if state.phase != "harvest":
        raise IllegalAction("this ends a Harvest turn", rule="R12.2")
    lines = income(state, seat)
    d: dict[str, Any] = {"income": sum(line["gold"] for line in lines), "provinces": lines}
    if has_statue(state, seat, data.OSIRIS):  # R12.3, D-26: all his farmers count
        d["osiris"] = sum(state.farmers[p] for p in state.owned[seat]) // data.OSIRIS_FARMERS
        d["income"] += d["osiris"]
    return [Event("harvest_turn_ended", d, seat)]


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
    if state.turn == NONE:
        state.pharaoh = NONE  # §8: the Pharaoh figure returns to the reserve at the round's end
