"""§18.3 Offering (W14-W19), §11 commitment, reveal, ranking and gifts."""

from __future__ import annotations

import random

import pytest

from domain.amun_re.rules import RULES
from domain.contract import IllegalAction
from tests.amun_re.scenario import (
    P,
    act,
    clear_provinces,
    enter,
    give_province,
    new_game,
    set_gold,
    set_hand,
)

SPARE = ["sais", "memphis", "heliopolis", "tanis", "abydos"]


def offering_table(seats: int, start: int):
    state = new_game(seats, start=start)
    clear_provinces(state)
    for s in range(seats):
        give_province(state, s, SPARE[s])
    enter(state, "offering_started")
    return state


def commit(state, seat, offer):
    action = (
        {"type": "commit_theft", "greed": False}
        if offer == "theft"
        else {"type": "commit_gold", "gold": offer}
    )
    return act(state, seat, action)


def revealed(steps):
    return next(s.event.data for s in steps if s.event.type == "offering_revealed")


def test_w14_basic_offering():
    red, blue, black, white = range(4)
    state = offering_table(4, start=black)
    commit(state, red, 9)
    commit(state, blue, 4)
    commit(state, black, "theft")
    steps, state = commit(state, white, "theft")
    d = revealed(steps)
    assert (d["total"], d["tile"]) == (7, 2)
    assert d["gifts"] == [3, 2, 0, 0] and d["collection_order"] == [red, blue]
    assert state.gold == [11, 16, 23, 23]
    assert state.phase == "gifts" and RULES.active_seats(state) == [red]
    for _ in range(3):
        act(state, red, {"type": "forfeit"})
    act(state, red, {"type": "end_gift_turn"})
    act(state, blue, {"type": "take_stone", "province": SPARE[blue]})
    act(state, blue, {"type": "take_farmer", "province": SPARE[blue]})
    steps, state = act(state, blue, {"type": "end_gift_turn"})
    assert state.start == red and state.phase == "harvest"
    assert RULES.active_seats(state) == [red]  # D-10: from this Harvest on
    assert state.stones[P[SPARE[blue]]] == 1 and state.farmers[P[SPARE[blue]]] == 1


def test_w15_ties_go_to_the_player_closer_to_the_start_player():
    a, b, c, d, e = range(5)
    state = offering_table(5, start=a)
    for seat, offer in ((a, 4), (b, 6), (c, "theft"), (d, 6)):
        commit(state, seat, offer)
    steps, state = commit(state, e, 4)
    data = revealed(steps)
    assert (data["total"], data["tile"]) == (17, 3)
    assert data["ranking"] == [b, d, a, e]
    assert data["gifts"] == [1, 3, 0, 2, 1]
    assert data["collection_order"] == [b, d, a, e]
    assert data["start_player"] == b and state.gold[c] == 23


def test_w16_the_adjustment_changes_the_total_not_the_personal_offer():
    a, b, c, d = range(4)
    for c_adjusts, total, tile in ((False, 14, 3), (True, 11, 2)):
        state = offering_table(4, start=d)
        set_hand(state, a, "offering_adjustment")
        set_hand(state, c, "offering_adjustment")
        act(state, a, {"type": "set_adjustment", "sign": 3})
        commit(state, a, 5)
        commit(state, b, "theft")
        if c_adjusts:
            act(state, c, {"type": "set_adjustment", "sign": -3})
        commit(state, c, 6)
        steps, state = commit(state, d, 3)
        data = revealed(steps)
        assert (data["total"], data["tile"]) == (total, tile)
        assert data["gifts"] == [2, 0, 3, 1] and data["start_player"] == c
        assert state.hands[a] == [0] * len(state.hands[a]) and state.discard[-1] == (
            "offering_adjustment"
        )


def test_w17_four_thieves():
    a, b, c, d, e = range(5)
    state = offering_table(5, start=c)
    for seat in (a, b, c, e):
        commit(state, seat, "theft")
    steps, state = commit(state, d, 5)
    data = revealed(steps)
    assert (data["total"], data["tile"]) == (-7, 1)
    assert data["gifts"] == [0, 0, 0, 3, 0] and data["collection_order"] == [d]
    assert [state.gold[s] for s in (a, b, c, e)] == [23] * 4
    assert data["start_player"] == d


def test_w18_everybody_steals():
    state = offering_table(3, start=1)
    for s in range(3):
        steps, state = commit(state, s, "theft")
    data = revealed(steps)
    assert (data["total"], data["tile"], data["gifts"]) == (-9, 1, [0, 0, 0])
    assert state.gold == [23, 23, 23] and state.start == 1 and state.phase == "harvest"


def test_w19_selling_inside_the_commitment():
    state = offering_table(3, start=0)
    set_gold(state, 0, 2)
    set_hand(state, 0, "bribe", "architect", "fixed_income")
    for card in ("bribe", "architect", "fixed_income"):
        act(state, 0, {"type": "mark_for_sale", "card": card})
    golds = [a["gold"] for a in RULES.legal_actions(state, 0) if a["type"] == "commit_gold"]
    assert golds == [1, 2, 3, 4, 5]
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, 0, {"type": "commit_gold", "gold": 6}, random.Random(0))
    assert refused.value.rule == "R11.2"
    commit(state, 0, 5)
    commit(state, 1, "theft")
    commit(state, 2, "theft")
    assert state.gold[0] == 0 and sum(state.hands[0]) == 0


def test_w19_nothing_to_offer_means_theft_only():
    state = offering_table(3, start=0)
    set_gold(state, 0, 0)
    set_hand(state, 0)
    assert RULES.legal_actions(state, 0) == [{"type": "commit_theft", "greed": False}]


def test_r11_2_cards_under_the_adjustment_cannot_also_be_sold():
    state = offering_table(3, start=0)
    set_hand(state, 0, "offering_adjustment")
    act(state, 0, {"type": "set_adjustment", "sign": -3})
    assert not [a for a in RULES.legal_actions(state, 0) if a["type"] == "mark_for_sale"]
    with pytest.raises(IllegalAction):
        RULES.decide(
            state, 0, {"type": "mark_for_sale", "card": "offering_adjustment"}, random.Random(0)
        )


def test_r11_1_a_commitment_is_final_and_sell_is_not_an_offering_action():
    state = offering_table(3, start=0)
    commit(state, 0, 3)
    assert RULES.active_seats(state) == [1, 2] and RULES.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, 1, {"type": "sell", "card": "architect"}, random.Random(0))
    assert refused.value.rule == "R11.2"


def test_r11_8_gift_needs_an_empty_field_and_all_gifts_before_ending():
    state = offering_table(3, start=0)
    give_province(state, 0, "berenike")  # 0 fields
    commit(state, 0, 5)
    commit(state, 1, "theft")
    commit(state, 2, "theft")
    legal = RULES.legal_actions(state, 0)
    assert {"type": "take_farmer", "province": "berenike"} not in legal
    assert {"type": "end_gift_turn"} not in legal
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, 0, {"type": "end_gift_turn"}, random.Random(0))
    assert refused.value.rule == "R11.8"
    act(state, 0, {"type": "take_favour_card"})
    assert sum(state.hands[0]) == 2
