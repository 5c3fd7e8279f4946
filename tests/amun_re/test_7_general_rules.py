"""§7 general rules: selling (R7.3), drawing and reshuffling (R7.4), automatic building in any
phase (R7.7)."""

from __future__ import annotations

import random

import pytest

from domain.amun_re.drawing import apply_draw, draw_event
from domain.amun_re.rules import RULES
from domain.contract import IllegalAction
from tests.amun_re.scenario import (
    C,
    P,
    act,
    clear_provinces,
    enter,
    give_province,
    new_game,
    set_hand,
)


def test_r7_4_an_empty_draw_pile_reshuffles_the_discard_pile():
    state = new_game(3)
    state.draw = ["bribe"]
    state.discard = ["architect", "protection", "fixed_income"]
    event = draw_event(state, 1, 2, "purchase", random.Random(3))
    order = event.data["reshuffle"]
    assert sorted(order) == ["architect", "fixed_income", "protection"]
    assert event.data["cards"] == ["bribe", order[0]]
    before = sum(state.hands[1])
    apply_draw(state, event.data, 1)
    assert state.draw == order[1:] and state.discard == []
    assert sum(state.hands[1]) == before + 2 and state.hands[1][C["bribe"]] == 1


def test_r7_4_a_draw_from_two_empty_piles_is_lost():
    state = new_game(3)
    state.draw, state.discard = [], []
    event = draw_event(state, 0, 1, "bonus", random.Random(0))
    assert event.data == {"cards": [], "requested": 1, "reason": "bonus", "reshuffle": None}


def test_r7_4_purchases_are_limited_to_the_cards_left():
    state = new_game(3, start=0)
    clear_provinces(state)
    give_province(state, 0, "abydos")  # card limit 4
    give_province(state, 1, "abu")
    give_province(state, 2, "edfu")
    state.draw, state.discard = ["bribe"], ["architect"]
    enter(state, "market_started")
    counts = [a["count"] for a in RULES.legal_actions(state, 0) if a["type"] == "buy_favour_cards"]
    assert counts == [1, 2]


def test_r7_3_selling_pays_one_gold_and_shows_the_card():
    state = new_game(3, start=0)
    set_hand(state, 0, "bribe", "architect")
    _, state = act(state, 0, {"type": "sell", "card": "bribe"})
    assert state.gold[0] == 21 and state.discard == ["bribe"] and sum(state.hands[0]) == 1
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, 0, {"type": "sell", "card": "bribe"}, random.Random(0))
    assert refused.value.rule == "R7.3"


def test_r7_7_a_third_stone_from_a_gift_builds_at_once():
    state = new_game(3, start=0)
    clear_provinces(state)
    give_province(state, 0, "memphis", stones=2)
    give_province(state, 1, "abu")
    give_province(state, 2, "edfu")
    enter(state, "offering_started")
    act(state, 0, {"type": "commit_gold", "gold": 5})
    act(state, 1, {"type": "commit_theft", "greed": False})
    act(state, 2, {"type": "commit_theft", "greed": False})
    act(state, 0, {"type": "take_stone", "province": "memphis"})
    assert (state.stones[P["memphis"]], state.pyramids[P["memphis"]]) == (0, 1)
