"""§18.2 Auction (W7-W13), §9 bidding and resolution."""

from __future__ import annotations

import random

import pytest

from domain.amun_re import data
from domain.amun_re.auction import resolve_next
from domain.amun_re.rules import RULES
from domain.amun_re.state import NONE
from domain.contract import BadAction, IllegalAction, NotYourTurn
from tests.amun_re.scenario import (
    C,
    P,
    act,
    bid,
    clear_provinces,
    new_game,
    reveal,
    set_gold,
    set_hand,
    types,
)

RED, BLACK, BLUE, WHITE = 0, 1, 2, 3


def w7_table():
    state = new_game(4, start=RED)
    reveal(state, "abydos", "sawu", "memphis", "tanis")
    return state


def bids_on(state, seat, province, **flags):
    return [
        a["value"]
        for a in RULES.legal_actions(state, seat)
        if a["type"] == "bid"
        and a["province"] == province
        and all(a[k] == v for k, v in flags.items())
    ]


def test_w7_a_complete_four_player_auction():
    state = w7_table()
    act(state, RED, bid("abydos", 3))
    act(state, BLACK, bid("sawu", 1))
    act(state, BLUE, bid("abydos", 6))
    steps, _ = act(state, WHITE, bid("abydos", 10))
    assert steps[0].event.data["outbid"] == BLUE
    assert RULES.active_seats(state) == [RED]
    act(state, RED, bid("memphis", 0))
    assert RULES.active_seats(state) == [BLUE]  # Black is standing: skipped (R9.5)
    act(state, BLUE, bid("sawu", 3))
    assert RULES.active_seats(state) == [BLACK]  # White and Red standing
    steps, state = act(state, BLACK, bid("tanis", 0))
    assert types(steps)[:2] == ["bid_placed", "bidding_ended"]
    won = [s.event for s in steps if s.event.type == "province_won"]
    assert [(e.seat, e.data["province"], e.data["price"]) for e in won] == [
        (RED, "memphis", 0),
        (BLACK, "tanis", 0),
        (BLUE, "sawu", 3),
        (WHITE, "abydos", 10),
    ]
    assert state.gold == [20, 21, 17, 11]
    assert state.stones[P["memphis"]] == 2 and state.stones[P["sawu"]] == 1
    assert state.stones[P["abydos"]] == 1
    assert sum(state.hands[BLACK]) == 2
    assert state.phase == "market" and RULES.active_seats(state) == [RED]


def test_w8_bribe_lets_an_outbid_player_bid_on_the_same_card():
    state = w7_table()
    act(state, RED, bid("abydos", 3))
    act(state, BLACK, bid("sawu", 1))
    act(state, BLUE, bid("abydos", 6))
    act(state, WHITE, bid("abydos", 10))
    set_hand(state, RED, "bribe", "architect")
    assert 15 in bids_on(state, RED, "abydos", bribe=True, protection=False)
    assert bids_on(state, RED, "abydos", bribe=False) == []
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, RED, bid("abydos", 15), random.Random(0))
    assert refused.value.rule == "R9.6"
    act(state, RED, bid("abydos", 15, bribe=True))
    assert state.bid_value[RED] == 15 and state.standing[0] == RED
    assert state.hands[RED][C["bribe"]] == 0 and state.discard[-1] == "bribe"
    assert RULES.active_seats(state) == [BLUE]


def test_w9_protection_blocks_the_next_space():
    state = w7_table()
    set_hand(state, RED, "protection")
    act(state, RED, bid("abydos", 6, protection=True))
    assert bids_on(state, BLACK, "abydos", bribe=False, protection=False) == [15, 21]
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, BLACK, bid("abydos", 10), random.Random(0))
    assert refused.value.rule == "R9.4"


def test_w9_protected_zero_blocks_one_and_protected_28_blocks_36():
    state = w7_table()
    set_hand(state, RED, "protection")
    act(state, RED, bid("abydos", 0, protection=True))
    assert bids_on(state, BLACK, "abydos")[:2] == [3, 6]
    state = w7_table()
    set_hand(state, RED, "protection", "protection")
    set_gold(state, RED, 40)
    assert 36 not in bids_on(state, RED, "abydos", protection=True)
    with pytest.raises(IllegalAction):
        RULES.decide(state, RED, bid("abydos", 36, protection=True), random.Random(0))
    act(state, RED, bid("abydos", 28, protection=True))
    set_gold(state, BLACK, 40)
    assert bids_on(state, BLACK, "abydos") == []


def test_w10_affordability_counts_gold_and_cards_left():
    state = new_game(3, start=0)
    reveal(state, "abydos", "sawu", "tanis")
    act(state, 0, bid("abydos", 3))
    act(state, 1, bid("abydos", 6))
    act(state, 2, bid("sawu", 1))
    set_gold(state, 0, 5)
    set_hand(state, 0, "bribe", "protection", "architect")
    assert bids_on(state, 0, "abydos") == []
    assert bids_on(state, 0, "sawu", protection=False) == [3, 6]
    assert bids_on(state, 0, "sawu", protection=True) == [3, 6]
    assert bids_on(state, 0, "tanis", protection=False) == [0, 1, 3, 6]
    assert bids_on(state, 0, "tanis", protection=True) == [0, 1, 3, 6]
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, 0, bid("tanis", 10), random.Random(0))
    assert refused.value.rule == "R9.6"


def test_w11_paying_at_resolution_sells_exactly_the_shortfall():
    state = new_game(3, start=0)
    reveal(state, "sawu", "abu", "edfu")
    act(state, 0, bid("sawu", 6))
    act(state, 1, bid("abu", 0))
    set_gold(state, 0, 5)
    set_hand(state, 0, "architect", "bribe")
    _, state = act(state, 2, bid("edfu", 0))
    assert state.phase == "resolution" and RULES.active_seats(state) == [0]
    assert {a["type"] for a in RULES.legal_actions(state, 0)} == {"sell_for_payment"}
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, 0, {"type": "sell", "card": "bribe"}, random.Random(0))
    assert refused.value.rule == "C-3"
    _steps, state = act(state, 0, {"type": "sell_for_payment", "card": "bribe"})
    assert state.gold[0] == 0 and sum(state.hands[0]) == 1
    assert state.owner[P["sawu"]] == 0 and state.stones[P["sawu"]] == 1


def test_w12_an_outbid_player_always_has_an_empty_card():
    state = new_game(5, start=0)
    reveal(state, "abu", "edfu", "kharga", "abydos", "memphis")
    a, b, c, d, e = range(5)
    act(state, a, bid("abu", 3))
    act(state, b, bid("abu", 6))
    act(state, c, bid("edfu", 1))
    act(state, d, bid("kharga", 0))
    act(state, e, bid("abydos", 10))
    assert RULES.active_seats(state) == [a]
    assert bids_on(state, a, "memphis")[0] == 0
    assert bids_on(state, a, "abu") == []
    assert bids_on(state, a, "edfu", protection=False) == [3, 6, 10, 15, 21]
    assert bids_on(state, a, "kharga", protection=False) == [1, 3, 6, 10, 15, 21]
    assert bids_on(state, a, "abydos", protection=False) == [15, 21]


def test_w13_new_kingdom_bonus_stones_build_on_old_ones():
    state = new_game(3, start=0)
    clear_provinces(state)
    state.stones[P["memphis"]], state.pyramids[P["memphis"]] = 2, 1
    reveal(state, "memphis", "abu", "edfu", round_number=4)
    act(state, 0, bid("memphis", 0))
    act(state, 1, bid("abu", 0))
    act(state, 2, bid("edfu", 0))
    assert state.owner[P["memphis"]] == 0
    assert (state.pyramids[P["memphis"]], state.stones[P["memphis"]]) == (2, 1)


def test_r9_8_resolution_waits_for_a_payer_who_must_sell():
    state = new_game(3, start=0)
    reveal(state, "sawu", "abu", "edfu")
    state.phase, state.cursor = "resolution", 0
    state.bid_on, state.bid_value, state.standing = [0, 1, 2], [6, 0, 0], [0, 1, 2]
    set_gold(state, 0, 5)
    assert resolve_next(state, random.Random(0)) == []


def test_r9_5_not_your_turn_and_malformed_bids():
    state = w7_table()
    with pytest.raises(NotYourTurn):
        RULES.decide(state, BLACK, bid("abydos", 3), random.Random(0))
    with pytest.raises(BadAction):
        RULES.decide(
            state, RED, {"type": "bid", "province": "abydos", "value": 3}, random.Random(0)
        )
    with pytest.raises(BadAction):
        RULES.decide(state, RED, bid("atlantis", 3), random.Random(0))
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, RED, bid("abu", 3), random.Random(0))
    assert refused.value.rule == "R9.1"
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, RED, bid("abydos", 4), random.Random(0))
    assert refused.value.rule == "§5.2"


def test_r9_3_statuses_in_the_view():
    state = w7_table()
    act(state, RED, bid("abydos", 3))
    act(state, BLACK, bid("abydos", 6))
    auction = RULES.view(state, None)["auction"]
    assert auction["status"] == ["outbid", "standing", "new", "new"]
    assert auction["cards"][0]["scribes"] == [
        {"seat": RED, "value": 3, "standing": False},
        {"seat": BLACK, "value": 6, "standing": True},
    ]
    assert state.bid_on[BLUE] == NONE and data.BID_TRACK[0] == 0
