"""§18.1 Setup and costs (W1-W6), §2 options and §6 setup."""

from __future__ import annotations

import random

import pytest

from domain.amun_re import data
from domain.amun_re.rules import RULES
from domain.contract import BadOptions, IllegalAction
from tests.amun_re.scenario import (
    C,
    P,
    act,
    clear_provinces,
    enter,
    give_province,
    new_game,
    set_gold,
    set_hand,
)


def test_w1_setup_sizes_three_players():
    state = new_game(3)
    assert state.gold == [20, 20, 20]
    assert [h[C["architect"]] for h in state.hands] == [1, 1, 1]
    assert [sum(h) for h in state.hands] == [1, 1, 1]
    assert len(state.draw) == 36 and state.draw.count("architect") == 4
    assert len(state.deck) + len(state.revealed) == 9
    assert state.vp == [0, 0, 0]
    assert len(set(state.province_set)) == 9


def test_w1_setup_sizes_five_players_base():
    state = new_game(5)
    assert len(state.draw) == 34 and state.draw.count("architect") == 2
    assert len(state.deck) + len(state.revealed) == 15


@pytest.mark.parametrize("module", ["afterlife", "statues", "pharaoh", "promo_favours"])
def test_s2_modules_are_table_options(module):
    assert RULES.normalize_options(4, {module: True})[module] is True
    assert RULES.normalize_options(4, {module: False})[module] is False
    assert RULES.normalize_options(4, {})[module] is False
    with pytest.raises(BadOptions):
        RULES.normalize_options(4, {module: 1})


def test_s2_officials_variant_is_refused_for_lack_of_rules():
    with pytest.raises(BadOptions, match="no rules text"):
        RULES.normalize_options(4, {"officials": True})


@pytest.mark.parametrize(
    "options",
    [{"nope": True}, {"no_farmer_points": 1}, {"start_player": 3}, {"start_player": "first"}],
)
def test_s2_bad_options_name_the_valid_ones(options):
    with pytest.raises(BadOptions) as refused:
        RULES.normalize_options(3, options)
    assert refused.value.message


@pytest.mark.parametrize("seats", [2, 6])
def test_r6_1_three_to_five_players(seats):
    with pytest.raises(BadOptions):
        RULES.normalize_options(seats, {})


def test_s2_defaults_are_complete():
    assert RULES.normalize_options(3, {}) == {
        "classic_bank_majority": False,
        "no_farmer_points": False,
        "afterlife": False,
        "statues": False,
        "pharaoh": False,
        "promo_favours": False,
        "start_player": "random",
    }


def test_r6_5_random_start_player_comes_from_the_rng():
    starts = set()
    for seed in range(20):
        options = RULES.normalize_options(4, {})
        events = RULES.setup(4, options, random.Random(seed))
        starts.add(events[0].data["start_player"])
    assert starts == {0, 1, 2, 3}


def test_w2_cost_table_matches_the_data_file():
    assert [data.cost(n) for n in range(1, 13)] == [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78]
    assert all(data.cost(n) == c for n, c in data.COST_TABLE.items())


def market_for(seat: int, *provinces: tuple[str, int, int, int], gold: int = 40):
    state = new_game(3, start=seat)
    clear_provinces(state)
    for name, farmers, stones, pyramids in provinces:
        give_province(state, seat, name, farmers, stones, pyramids)
    spare = [p for p in ("abu", "edfu", "heliopolis") if p not in {x[0] for x in provinces}]
    for s in range(3):
        if s != seat:
            give_province(state, s, spare.pop())
    set_gold(state, seat, gold)
    enter(state, "market_started")
    return state


def test_w3_a_full_market_turn_costs_19():
    state = market_for(0, ("abydos", 0, 0, 0), ("sais", 0, 0, 0), gold=40)
    set_hand(state, 0)
    act(state, 0, {"type": "buy_favour_cards", "count": 2})
    act(state, 0, {"type": "buy_farmers", "count": 4})
    for province in ("sais", "sais", "sais", "abydos"):
        act(state, 0, {"type": "place_farmer", "province": province})
    _, state = act(state, 0, {"type": "buy_stones", "count": 3})
    assert state.gold[0] == 40 - 19


def test_w3_farmers_after_stones_are_illegal():
    state = market_for(0, ("abydos", 0, 0, 0), gold=40)
    act(state, 0, {"type": "buy_stones", "count": 1})
    act(state, 0, {"type": "place_stone", "province": "abydos"})
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, 0, {"type": "buy_farmers", "count": 1}, random.Random(0))
    assert refused.value.rule == "R10.2"


def test_w4_card_limit_is_the_highest_single_province():
    state = market_for(0, ("memphis", 0, 0, 0), ("amarna", 0, 0, 0), ("avaris", 0, 0, 0))
    counts = [a["count"] for a in RULES.legal_actions(state, 0) if a["type"] == "buy_favour_cards"]
    assert counts == [1, 2, 3]
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, 0, {"type": "buy_favour_cards", "count": 4}, random.Random(0))
    assert refused.value.rule == "R10.4"


def test_w4_limit_zero_provinces_cannot_buy_cards():
    state = market_for(1, ("buto", 0, 0, 0), ("mendes", 0, 0, 0))
    assert not [a for a in RULES.legal_actions(state, 1) if a["type"] == "buy_favour_cards"]


def test_w5_farmer_limit_is_the_empty_fields_and_extra_farmer_ignores_it():
    state = market_for(0, ("sais", 3, 0, 0), ("kharga", 3, 0, 0))
    set_hand(state, 0, "extra_farmer")
    counts = [a["count"] for a in RULES.legal_actions(state, 0) if a["type"] == "buy_farmers"]
    assert counts == [1, 2]
    act(state, 0, {"type": "buy_farmers", "count": 2})
    assert {
        a["province"] for a in RULES.legal_actions(state, 0) if a["type"] == "place_farmer"
    } == {"sais"}
    act(state, 0, {"type": "place_farmer", "province": "sais"})
    _, state = act(state, 0, {"type": "place_farmer", "province": "sais"})
    assert state.gold[0] == 40 - 3 and state.farmers[P["sais"]] == 5
    act(state, 0, {"type": "play_extra_farmer", "province": "kharga"})
    assert state.farmers[P["kharga"]] == 4


def test_w6a_one_stone_then_architect_builds_a_pyramid():
    state = market_for(0, ("memphis", 0, 1, 0))
    set_hand(state, 0, "architect", "bribe")
    act(state, 0, {"type": "buy_stones", "count": 1})
    act(state, 0, {"type": "place_stone", "province": "memphis"})
    assert (state.stones[P["memphis"]], state.pyramids[P["memphis"]]) == (2, 0)
    act(state, 0, {"type": "play_architect", "province": "memphis"})
    assert (state.stones[P["memphis"]], state.pyramids[P["memphis"]]) == (0, 1)
    assert state.gold[0] == 39


@pytest.mark.parametrize(("bought", "cost", "pyramids"), [(2, 3, 1), (5, 15, 2)])
def test_w6bc_three_loose_stones_build_automatically(bought, cost, pyramids):
    state = market_for(0, ("memphis", 0, 1, 0))
    set_hand(state, 0, "bribe")
    act(state, 0, {"type": "buy_stones", "count": bought})
    for _ in range(bought):
        act(state, 0, {"type": "place_stone", "province": "memphis"})
    assert (state.stones[P["memphis"]], state.pyramids[P["memphis"]]) == (0, pyramids)
    assert state.gold[0] == 40 - cost


def test_c2_only_sell_between_placement_steps():
    state = market_for(0, ("memphis", 0, 0, 0))
    set_hand(state, 0, "architect", "bribe")
    act(state, 0, {"type": "buy_stones", "count": 2})
    assert {a["type"] for a in RULES.legal_actions(state, 0)} == {"place_stone", "sell"}
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, 0, {"type": "end_market_turn"}, random.Random(0))
    assert refused.value.rule == "C-2"
