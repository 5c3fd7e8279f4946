"""Phase 2 — Market (§10): one complete Market turn per player in turn order (R10.1).

Actions of the player whose turn it is:
* ``buy_favour_cards {count}`` (R10.4 card limit, R7.4 availability), then the cards are drawn;
* ``buy_farmers {count}`` then ``count`` × ``place_farmer {province}`` (R7.6, atomic steps);
* ``buy_stones {count}`` then ``count`` × ``place_stone {province}`` (R7.7 automatic building);
* ``play_architect {province}``, ``play_extra_farmer {province}`` (R10.6), ``sell {card}``;
* ``end_market_turn {}``.
Purchases cost n(n+1)/2 (R10.3) and follow the order cards → farmers → stones, each kind at
most once per turn (R10.2). Between the placement steps only ``sell`` is allowed (C-2).
Modules: ``buy_tomb_tiles {count}`` before cards (Afterlife, R16.1.2); Ptah (R10.5): a second
purchase of ``last_kind`` once per Market phase; Thoth (R10.5a): one extra card drawn after each
card purchase, then a forced ``thoth_discard {card}`` with nothing else legal (C-4); free actions
``use_horus {province}`` (R10.7), ``play_afterlife_draw {}`` / ``play_afterlife_place {tile, row,
col}`` (R16.1.3) and ``play_glory {vp}`` (R16.4.1; no purchase after it). Tomb rewards of farmers
and stones are ``place_farmer`` / ``place_stone`` sub-decisions. Bastet is paid by ``flow``.
"""

from __future__ import annotations

import random
from typing import Any

from domain.amun_re import actions, data, tomb
from domain.amun_re.board import add_stones, build_with_two, discard_card, pay_out
from domain.amun_re.drawing import card_piles, draw_event, tile_draw_event
from domain.amun_re.selling import check_card_in_hand, sell_actions
from domain.amun_re.state import (
    CARDS_KIND,
    FARMERS_KIND,
    NONE,
    STONES_KIND,
    TOMB_KIND,
    State,
    available_cards,
    available_tiles,
    card_limit,
    empty_fields,
    has_statue,
    module_on,
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


def can_buy(state: State, seat: int, kind: int) -> bool:
    """R10.2 order (each kind once, none after Glory) and R10.5 Ptah's second purchase."""
    if state.glory_played:
        return False
    if state.last_kind < kind:
        return True
    return (state.last_kind == kind and not state.ptah_used
            and has_statue(state, seat, data.PTAH))


def horus_provinces(state: State, seat: int) -> list[int]:
    """R10.7: his provinces that are the Horus province or adjacent to it, with 2 stones."""
    if not has_statue(state, seat, data.HORUS):
        return []
    home = state.statue_at.index(data.HORUS)
    return [p for p in sorted(state.owned[seat])
            if (p == home or p in data.ADJACENT[home])
            and state.stones[p] == data.HORUS_STONES]


def legal(state: State, seat: int) -> list[JSON]:
    out: list[JSON] = []
    owned = sorted(state.owned[seat])
    hand = state.hands[seat]
    if state.thoth_pending:  # C-4: the forced discard, nothing else
        return [{"type": "thoth_discard", "card": data.CARDS[c]}
                for c, n in enumerate(hand) if n]
    if state.pending:
        if state.pending_kind == FARMERS_KIND:
            out = [{"type": "place_farmer", "province": data.PROVINCES[p]}
                   for p in owned if empty_fields(state, p)]
        else:
            out = [{"type": "place_stone", "province": data.PROVINCES[p]} for p in owned]
        return out + sell_actions(state, seat)
    gold = state.gold[seat]
    kinds = [
        (CARDS_KIND, "buy_favour_cards", max_cards(state, seat)),
        (FARMERS_KIND, "buy_farmers", total_empty_fields(state, seat)),
        (STONES_KIND, "buy_stones", gold),
    ]
    if module_on(state, "afterlife"):
        kinds.insert(0, (TOMB_KIND, "buy_tomb_tiles", available_tiles(state)))
    for kind, name, most in kinds:
        if can_buy(state, seat, kind):
            n = 1
            while n <= most and data.cost(n) <= gold:
                out.append({"type": name, "count": n})
                n += 1
    if hand[data.ARCHITECT]:
        out += [{"type": "play_architect", "province": data.PROVINCES[p]}
                for p in owned if state.stones[p] == data.ARCHITECT_STONES]
    if hand[data.EXTRA_FARMER]:
        out += [{"type": "play_extra_farmer", "province": data.PROVINCES[p]} for p in owned]
    if gold >= data.HORUS_GOLD:
        out += [{"type": "use_horus", "province": data.PROVINCES[p]}
                for p in horus_provinces(state, seat)]
    if hand[data.AFTERLIFE] and not state.afterlife_played:
        if available_tiles(state):
            out.append({"type": "play_afterlife_draw"})
        out += [{**a, "type": "play_afterlife_place"} for a in tomb.place_actions(state, seat)]
    if hand[data.GLORY] and not state.glory_played:
        out += [{"type": "play_glory", "vp": k} for k in range(1, data.GLORY_MAX_VP + 1)
                if data.cost(k) <= gold]
    return [*out, *sell_actions(state, seat), {"type": "end_market_turn"}]


def check_turn(state: State, placing: bool = False) -> None:
    if state.phase != "market" and not (placing and state.phase == "gifts"):
        raise IllegalAction("this is a Market action", rule="R10.1")
    if state.thoth_pending:
        raise IllegalAction("first discard 1 Favour card for Thoth", rule="C-4")
    if state.pending and not placing:
        what = "farmers" if state.pending_kind == FARMERS_KIND else "stones"
        raise IllegalAction(f"first place your {state.pending} {what}", rule="C-2")
    if placing and not state.pending:
        raise IllegalAction("you have nothing left to place", rule="R10.4")


def check_purchase(state: State, seat: int, kind: int, count: int) -> int:
    """R10.2 order, R10.3 price; returns the cost."""
    check_turn(state)
    if state.glory_played:
        raise IllegalAction("no purchase may follow Glory in this turn", rule="R16.4.1")
    if not can_buy(state, seat, kind):
        raise IllegalAction(
            f"{KIND_NAMES[kind]} cannot be bought after {KIND_NAMES[state.last_kind]} "
            "(order: tomb tiles, cards, farmers, stones; each kind once, Ptah twice)",
            rule="R10.2")
    if count < 1:
        raise IllegalAction("buy at least 1 item (buying nothing is simply not buying)",
                            rule="R10.2")
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
    piles = card_piles(state)
    events = [Event("favour_cards_bought", {"count": count, "cost": price}, seat),
              draw_event(state, seat, count, "purchase", rng, piles)]
    if has_statue(state, seat, data.THOTH) and piles.available():  # R10.5a
        events.append(draw_event(state, seat, data.THOTH_EXTRA_CARDS, "thoth", rng, piles))
    return events


def decide_buy_tiles(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    count = actions.read(action, count=int)["count"]
    if not module_on(state, "afterlife"):
        raise IllegalAction("Tomb tiles belong to the afterlife module, which is off",
                            rule="R16.1.2")
    price = check_purchase(state, seat, TOMB_KIND, count)
    if count > available_tiles(state):
        raise IllegalAction(f"only {available_tiles(state)} Tomb tiles are left to draw",
                            rule="R10.4")
    return [Event("tomb_tiles_bought", {"count": count, "cost": price}, seat),
            tile_draw_event(state, seat, count, "purchase", rng)]


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


def decide_thoth(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    card = actions.card_of(actions.read(action, card=str)["card"])
    if state.phase != "market" or not state.thoth_pending:
        raise IllegalAction("a Thoth discard follows only a Thoth extra draw", rule="R10.5a")
    check_card_in_hand(state, seat, card, "R10.5a")
    return [Event("thoth_discarded", {"card": data.CARDS[card]}, seat)]


def decide_horus(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    province = own_province(state, seat, action, "R10.7")
    if not has_statue(state, seat, data.HORUS):
        raise IllegalAction("you do not hold the Horus statue", rule="R10.7")
    if province not in horus_provinces(state, seat):
        raise IllegalAction("Horus works in the Horus province or one adjacent to it, with "
                            "exactly 2 loose stones", rule="R10.7")
    if state.gold[seat] < data.HORUS_GOLD:
        raise IllegalAction(f"Horus costs {data.HORUS_GOLD} gold", rule="R10.7")
    return [Event("horus_used", {"province": data.PROVINCES[province],
                                 "cost": data.HORUS_GOLD}, seat)]


def check_afterlife(state: State, seat: int) -> None:
    check_turn(state)
    check_card_in_hand(state, seat, data.AFTERLIFE, "R16.1.3")
    if state.afterlife_played:
        raise IllegalAction("at most one Afterlife card per Market phase", rule="R16.1.3")


def decide_afterlife_draw(state: State, seat: int, action: JSON,
                          rng: random.Random) -> list[Event]:
    actions.read(action)
    check_afterlife(state, seat)
    if not available_tiles(state):
        raise IllegalAction("no Tomb tile is left to draw", rule="R16.1.1")
    return [tile_draw_event(state, seat, 1, "afterlife", rng),
            Event("afterlife_played", {"mode": "draw"}, seat)]


def decide_afterlife_place(state: State, seat: int, action: JSON,
                           rng: random.Random) -> list[Event]:
    tile, position = tomb.read_placement(state, seat, action)
    check_afterlife(state, seat)
    # C-5: the card is discarded after its effect (a card reward cannot reshuffle it back)
    return [*tomb.placement_events(state, seat, tile, position, "afterlife", rng),
            Event("afterlife_played", {"mode": "place"}, seat)]


def decide_glory(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    vp = actions.read(action, vp=int)["vp"]
    check_turn(state)
    check_card_in_hand(state, seat, data.GLORY, "R16.4.1")
    if state.glory_played:
        raise IllegalAction("at most one Glory card per Market phase", rule="R16.4.1")
    if not 1 <= vp <= data.GLORY_MAX_VP:
        raise IllegalAction(f"Glory buys 1 to {data.GLORY_MAX_VP} VP", rule="R16.4.1")
    if data.cost(vp) > state.gold[seat]:
        raise IllegalAction(f"{vp} VP cost {data.cost(vp)} gold; sell cards first",
                            rule="R16.4.1")
    return [Event("glory_played", {"vp": vp, "cost": data.cost(vp)}, seat)]


def decide_end(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    actions.read(action)
    check_turn(state)
    return [Event("market_turn_ended", {}, seat)]


def reset_turn(state: State) -> None:
    state.last_kind = state.cards_bought = state.pending_kind = state.pending = 0
    state.ptah_used = state.glory_played = state.afterlife_played = state.thoth_pending = False


def apply_started(state: State, d: dict[str, Any], seat: int | None) -> None:
    """R10.1: Market turns in turn order (Bastet's gold is its own event, before them)."""
    state.phase = "market"
    state.cursor = 0
    state.turn = state.start
    reset_turn(state)


def bought(state: State, seat: int, kind: int, cost: int) -> None:
    """A purchase paid (R10.3); a second purchase of the same kind is Ptah's (R10.5)."""
    pay_out(state, seat, -cost, "purchase")
    if state.last_kind == kind:
        state.ptah_used = True
    state.last_kind = kind


def apply_tiles_bought(state: State, d: dict[str, Any], seat: int) -> None:
    bought(state, seat, TOMB_KIND, d["cost"])


def apply_cards_bought(state: State, d: dict[str, Any], seat: int) -> None:
    bought(state, seat, CARDS_KIND, d["cost"])
    state.cards_bought += d["count"]


def apply_farmers_bought(state: State, d: dict[str, Any], seat: int) -> None:
    bought(state, seat, FARMERS_KIND, d["cost"])
    state.pending_kind = FARMERS_KIND
    state.pending = d["count"]


def apply_stones_bought(state: State, d: dict[str, Any], seat: int) -> None:
    bought(state, seat, STONES_KIND, d["cost"])
    state.pending_kind = STONES_KIND
    state.pending = d["count"]


def apply_farmer_placed(state: State, d: dict[str, Any], seat: int) -> None:
    state.farmers[data.PROVINCE_INDEX[d["province"]]] += 1
    if state.phase in ("market", "gifts"):
        state.pending -= 1


def apply_stone_placed(state: State, d: dict[str, Any], seat: int) -> None:
    add_stones(state, data.PROVINCE_INDEX[d["province"]], 1)
    if state.phase in ("market", "gifts"):
        state.pending -= 1


def apply_thoth(state: State, d: dict[str, Any], seat: int) -> None:
    discard_card(state, seat, data.CARD_INDEX[d["card"]])
    state.thoth_pending = False


def apply_horus(state: State, d: dict[str, Any], seat: int) -> None:
    build_with_two(state, data.PROVINCE_INDEX[d["province"]])
    pay_out(state, seat, -d["cost"], "statue")


def apply_afterlife(state: State, d: dict[str, Any], seat: int) -> None:
    discard_card(state, seat, data.AFTERLIFE)
    state.afterlife_played = True


def apply_glory(state: State, d: dict[str, Any], seat: int) -> None:
    discard_card(state, seat, data.GLORY)
    pay_out(state, seat, -d["cost"], "glory")
    state.vp[seat] += d["vp"]
    state.glory_played = True


def apply_bastet(state: State, d: dict[str, Any], seat: int) -> None:
    """R10.1: the Bastet holder's gold at the start of the Market phase."""
    pay_out(state, seat, d["gold"], "statue")


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
