"""§18.4 Harvest (W21-W22), §12 income and green cards."""

from __future__ import annotations

import random

import pytest

from domain.amun_re.harvest import income
from domain.amun_re.rules import RULES
from domain.contract import IllegalAction
from tests.amun_re.scenario import act, clear_provinces, enter, give_province, new_game, set_hand


def harvest_table(tile: int, *provinces: tuple[str, int]):
    state = new_game(3, start=0)
    clear_provinces(state)
    for name, farmers in provinces:
        give_province(state, 0, name, farmers)
    give_province(state, 1, "buto")
    give_province(state, 2, "mendes")
    state.tile = tile
    enter(state, "harvest_started")
    return state


def total(state):
    return sum(line["gold"] for line in income(state, 0))


@pytest.mark.parametrize(("tile", "expected"), [(2, 23), (3, 22), (4, 28)])
def test_w21_income(tile, expected):
    state = harvest_table(tile, ("memphis", 3), ("abu", 2), ("sawu", 1))
    assert total(state) == expected
    set_hand(state, 0)
    before = state.gold[0]
    steps, state = act(state, 0, {"type": "end_harvest_turn"})
    assert steps[0].event.data["income"] == expected and state.gold[0] == before + expected


def test_w22_green_cards():
    state = harvest_table(3, ("kharga", 1), ("sais", 5), ("berenike", 0))
    assert total(state) == 26
    set_hand(state, 0, "fixed_income", "exceptional_harvest", "fixed_income")
    act(state, 0, {"type": "play_fixed_income", "province": "kharga"})
    act(state, 0, {"type": "play_exceptional_harvest", "province": "sais"})
    assert total(state) == 36
    assert {"type": "play_fixed_income", "province": "kharga"} not in RULES.legal_actions(state, 0)
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, 0, {"type": "play_fixed_income", "province": "sais"}, random.Random(0))
    assert refused.value.rule == "R12.2"
    steps, state = act(state, 0, {"type": "end_harvest_turn"})
    assert steps[0].event.data["income"] == 36


def test_c1_a_harvest_turn_with_nothing_to_decide_is_automatic():
    state = harvest_table(1, ("kharga", 1))
    for s in range(3):
        set_hand(state, s)
    assert RULES.legal_actions(state, 0) == [{"type": "end_harvest_turn"}]
