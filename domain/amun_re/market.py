"""Phase 2 — Market (§10): one complete Market turn per player in turn order (R10.1).

Actions of the player whose turn it is:
* ``buy_favour_cards {count}`` (R10.4 card limit, R7.4 availability), then the cards are drawn;
* ``buy_farmers {count}`` then ``count`` × ``place_farmer {province}`` (R7.6, atomic steps);
* ``buy_stones {count}`` then ``count`` × ``place_stone {province}`` (R7.7 automatic building);
* ``play_architect {province}``, ``play_extra_farmer {province}`` (R10.6), ``sell {card}``;
* ``end_market_turn {}``.
Purchases cost n(n+1)/2 (R10.3) and follow the order cards → farmers → stones, each kind at
most once per turn (R10.2). Between the placement steps only ``sell`` is allowed (C-2).
Module hooks: Bastet at ``apply_started`` (R10.1), Tomb tiles before cards, Ptah (a second
purchase of ``last_kind``), Thoth after the card draw, Horus/Afterlife/Glory as free actions.
"""

from __future__ import annotations

import random
from typing import Any

from domain.amun_re import actions, data
from domain.amun_re.board import add_stones, build_with_two, discard_card, pay_out
from domain.amun_re.drawing import draw_event
from domain.amun_re.selling import check_card_in_hand, sell_actions
from domain.amun_re.state import (
    CARDS_KIND,
    FARMERS_KIND,
    NONE,
    STONES_KIND,
    TOMB_KIND,
    State,
    available_cards,
    card_limit,
    empty_fields,
    turn_order,
)
from domain.contract import JSON, Event, IllegalAction

KIND_NAMES = {TOMB_KIND: "Tomb tiles", CARDS_KIND: "Favour cards", FARMERS_KIND: "farmers",
              STONES_KIND: "stones"}


def max_cards(state: State, seat: int) -> int:
    """R10.4: card limit minus cards bought this turn, and no more than can be drawn (R7.4)."""
    return min(card_limit(state, seat) - state.cards_bought, available_cards(state))


def total_empty_fields(state: State, seat: int) -> int:
    return sum(empty_fields(state, p) for p in state.owned[seat])


def legal(state: State, seat: int) -> list[JSON]:
    out: list[JSON] = []
    owned = sorted(state.owned[seat])
    if state.pending:
        if state.pending_kind == FARMERS_KIND:
            out = [
                {"type": "place_farmer", "province": data.PROVINCES[p]}
                for p in owned
                if empty_fields(state, p)
            ]
        else:
            out = [{"type": "place_stone", "province": data.PROVINCES[p]} for p in owned]
        return out + sell_actions(state, seat)
    gold = state.gold[seat]
    for kind, name, most in (
        (CARDS_KIND, "buy_favour_cards", max_cards(state, seat)),
        (FARMERS_KIND, "buy_farmers", total_empty_fields(state, seat)),
        (STONES_KIND, "buy_stones", gold),
    ):
        if state.last_kind < kind:
            n = 1
            while n <= most and data.cost(n) <= gold:
                out.append({"type": name, "count": n})
                n += 1
    hand = state.hands[seat]
    if hand[data.ARCHITECT]:
        out += [
            {"type": "play_architect", "province": data.PROVINCES[p]}
            for p in owned
            if state.stones[p] == data.ARCHITECT_STONES
        ]
    if hand[data.EXTRA_FARMER]:
        out += [{"type": "play_extra_farmer", "province": data.PROVINCES[p]} for p in owned]
    return [*out, *sell_actions(state, seat), {"type": "end_market_turn"}]


def check_turn(state: State, placing: bool = False) -> None:
    if state.phase != "market":
        raise IllegalAction("this is a Market action", rule="R10.1")
    if state.pending and not placing:
        what = "farmers" if state.pending_kind == FARMERS_KIND else "stones"
        raise IllegalAction(f"first place your {state.pending} bought {what}", rule="C-2")
    if placing and not state.pending:
        raise IllegalAction("you have nothing bought left to place", rule="R10.4")


def check_purchase(state: State, seat: int, kind: int, count: int) -> int:
    """R10.2 order, R10.3 price; returns the cost."""
    check_turn(state)
    if state.last_kind >= kind:
        raise IllegalAction(
            f"{KIND_NAMES[kind]} cannot be bought after {KIND_NAMES[state.last_kind]} "
            "(order: cards, farmers, stones; each kind once)",
            rule="R10.2",
        )
    if count < 1:
        raise IllegalAction(
            "buy at least 1 item (buying nothing is simply not buying)", rule="R10.2"
        )
    price = data.cost(count)
    if price > state.gold[seat]:
        raise IllegalAction(f"{count} items cost {price} gold; sell cards first", rule="R10.3")
    return price


def own_province(state: State, seat: int, action: JSON, rule: str, placing: bool = False) -> int:
    """The province parameter, once the step is possible now (R10.1, C-2) and he controls it."""
    province = actions.province_of(actions.read(action, province=str)["province"])
    check_turn(state, placing)
    if state.owner[province] != seat:
        raise IllegalAction(f"you do not control {data.PROVINCE_NAMES[province]}", rule=rule)
    return province


def decide_buy_cards(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    count = actions.read(action, count=int)["count"]
    price = check_purchase(state, seat, CARDS_KIND, count)
    if count > max_cards(state, seat):
        raise IllegalAction(
            f"you may buy at most {max(0, max_cards(state, seat))} Favour cards now "
            "(highest card limit of your provinces, and cards left to draw)",
            rule="R10.4",
        )
    return [
        Event("favour_cards_bought", {"count": count, "cost": price}, seat),
        draw_event(state, seat, count, "purchase", rng),
    ]


def decide_buy_farmers(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    count = actions.read(action, count=int)["count"]
    price = check_purchase(state, seat, FARMERS_KIND, count)
    if count > total_empty_fields(state, seat):
        raise IllegalAction("you cannot buy more farmers than your empty fields", rule="R7.6")
    return [Event("farmers_bought", {"count": count, "cost": price}, seat)]


def decide_buy_stones(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    count = actions.read(action, count=int)["count"]
    price = check_purchase(state, seat, STONES_KIND, count)
    return [Event("stones_bought", {"count": count, "cost": price}, seat)]


def decide_place_farmer(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    province = own_province(state, seat, action, "R7.6", placing=True)
    if state.pending_kind != FARMERS_KIND:
        raise IllegalAction("place your bought stones first", rule="C-2")
    if not empty_fields(state, province):
        raise IllegalAction(f"{data.PROVINCE_NAMES[province]} has no empty field", rule="R7.6")
    return [Event("farmer_placed", {"province": data.PROVINCES[province]}, seat)]


def decide_place_stone(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    province = own_province(state, seat, action, "R7.7", placing=True)
    if state.pending_kind != STONES_KIND:
        raise IllegalAction("place your bought farmers first", rule="C-2")
    built = (state.stones[province] + 1) // data.STONES_PER_PYRAMID
    return [
        Event("stone_placed", {"province": data.PROVINCES[province], "pyramids_built": built}, seat)
    ]


def decide_architect(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    province = own_province(state, seat, action, "R10.6")
    check_card_in_hand(state, seat, data.ARCHITECT, "R10.6")
    if state.stones[province] != data.ARCHITECT_STONES:
        raise IllegalAction("the Architect needs exactly 2 loose stones there", rule="R10.6")
    return [Event("architect_played", {"province": data.PROVINCES[province]}, seat)]


def decide_extra_farmer(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    province = own_province(state, seat, action, "R10.6")
    check_card_in_hand(state, seat, data.EXTRA_FARMER, "R10.6")
    return [Event("extra_farmer_played", {"province": data.PROVINCES[province]}, seat)]


def decide_end(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    actions.read(action)
    check_turn(state)
    return [Event("market_turn_ended", {}, seat)]


def reset_turn(state: State) -> None:
    state.last_kind = state.cards_bought = state.pending_kind = state.pending = 0


def apply_started(state: State, d: dict[str, Any], seat: int | None) -> None:
    """R10.1: Market turns in turn order (hook: Bastet pays before the first turn)."""
    state.phase = "market"
    state.cursor = 0
    state.turn = state.start
    reset_turn(state)


def apply_cards_bought(state: State, d: dict[str, Any], seat: int) -> None:
    pay_out(state, seat, -d["cost"], "purchase")
    state.last_kind = CARDS_KIND
    state.cards_bought += d["count"]


def apply_farmers_bought(state: State, d: dict[str, Any], seat: int) -> None:
    pay_out(state, seat, -d["cost"], "purchase")
    state.last_kind = state.pending_kind = FARMERS_KIND
    state.pending = d["count"]


def apply_stones_bought(state: State, d: dict[str, Any], seat: int) -> None:
    pay_out(state, seat, -d["cost"], "purchase")
    state.last_kind = state.pending_kind = STONES_KIND
    state.pending = d["count"]


def apply_farmer_placed(state: State, d: dict[str, Any], seat: int) -> None:
    state.farmers[data.PROVINCE_INDEX[d["province"]]] += 1
    if state.phase == "market":
        state.pending -= 1


def apply_stone_placed(state: State, d: dict[str, Any], seat: int) -> None:
    add_stones(state, data.PROVINCE_INDEX[d["province"]], 1)
    if state.phase == "market":
        state.pending -= 1


def apply_architect(state: State, d: dict[str, Any], seat: int) -> None:
    build_with_two(state, data.PROVINCE_INDEX[d["province"]])
    discard_card(state, seat, data.ARCHITECT)


def apply_extra_farmer(state: State, d: dict[str, Any], seat: int) -> None:
    state.farmers[data.PROVINCE_INDEX[d["province"]]] += 1
    discard_card(state, seat, data.EXTRA_FARMER)


def apply_turn_ended(state: State, d: dict[str, Any], seat: int) -> None:
    state.cursor += 1
    state.turn = turn_order(state)[state.cursor] if state.cursor < state.seats else NONE
    reset_turn(state)
