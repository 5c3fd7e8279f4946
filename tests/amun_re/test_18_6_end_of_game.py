"""§18.6 End of game (W33-W35), §15 final sale, gold bonus, winner."""

from __future__ import annotations

import pytest

from domain.amun_re.rules import RULES
from domain.amun_re.scoring import gold_bonus, ranks
from domain.amun_re.state import new_state
from tests.amun_re.scenario import (
    act,
    clear_provinces,
    enter,
    give_province,
    new_game,
    set_gold,
    set_hand,
    types,
)


@pytest.mark.parametrize(
    ("golds", "expected"),
    [
        ([30, 30, 20, 10], [6, 6, 2, 0]),
        ([30, 20, 20, 10], [6, 4, 4, 0]),
        ([30, 30, 20, 20, 10], [6, 6, 2, 2, 0]),
        ([0, 0, 0], [6, 6, 6]),
    ],
)
def test_w33_gold_bonus(golds, expected):
    assert gold_bonus(golds) == expected


def test_w34_winner_tie_break_pyramids_then_stones():
    state = new_state(3, {})
    give_province(state, 0, "abu", pyramids=6, stones=2)
    give_province(state, 1, "edfu", pyramids=6, stones=1)
    assert ranks(state, [52, 52, 10]) == [1, 2, 3]
    state.stones[state.owned[1][0]] = 2
    assert ranks(state, [52, 52, 10]) == [1, 1, 3]


def round_six_harvest():
    state = new_game(3, start=0)
    clear_provinces(state)
    for seat, names in enumerate(
        (("abu", "sais", "tanis"), ("edfu", "buto", "mendes"), ("kharga", "damanhur", "avaris"))
    ):
        for name in names:
            give_province(state, seat, name)
    for seat in range(3):
        set_hand(state, seat)
        set_gold(state, seat, 10)
    state.round, state.tile = 6, 1
    enter(state, "harvest_started")
    return state


def test_w35_final_sale_comes_after_the_schemes_and_before_the_gold_bonus():
    state = round_six_harvest()
    set_hand(state, 0, "scribe_master", "architect", "bribe", "protection", "fixed_income")
    steps, state = act(state, 0, {"type": "end_harvest_turn"})
    # incomes on tile 1: Abu's mine 4 (seat 0); Kharga 5 + Avaris 8 caravans (seat 2)
    assert "kingdom_scored" in types(steps) and state.phase == "final_sale"
    scored = next(s.event for s in steps if s.event.type == "kingdom_scored")
    assert scored.data["players"][0]["schemes_scored"] == ["scribe_master"]
    assert RULES.active_seats(state) == [0]  # the others have nothing to sell (C-1)
    for card in ("architect", "bribe", "protection"):
        act(state, 0, {"type": "mark_for_sale", "card": card})
    assert state.gold[0] == 14 and RULES.view(state, 1)["players"][0].get("gold") is None
    steps, state = act(state, 0, {"type": "mark_for_sale", "card": "fixed_income"})
    assert types(steps)[-3:] == ["final_sale_committed", "final_sale_revealed", "game_scored"]
    assert steps[-3].automatic  # nothing left to decide: final_sale is applied (C-1)
    final = steps[-1].event.data
    assert final["gold"] == [18, 10, 23] and final["gold_bonus"] == [4, 2, 6]
    assert state.phase == "over" and RULES.outcome(state) is not None
    view = RULES.view(state, 1)
    assert [p["gold"] for p in view["players"]] == [18, 10, 23]  # R15.5
