"""§16.1 worked examples W-01 … W-05: setup (§3), ships (§1.2), get stones (§6.1), next start
player (§12 step 4), unloading with gaps (§7.2)."""

from __future__ import annotations

import random

from domain.engine import apply_events
from domain.imhotep.rules import RULES
from tests.imhotep.table import BR, G, K, W, _, act, events_of, new_game, set_ships


def test_16_1_w01_setup_four_players_start_player_brown() -> None:
    state = new_game(4, start=BR)
    assert state.sleds == [4, 5, 2, 3]  # K 4, W 5, Br 2, G 3
    assert state.quarries == [25, 24, 27, 26]
    assert state.scores == [0, 0, 0, 0]
    assert len(state.round_stack) == 5 and len(state.revealed) == 1 and state.removed
    assert sum(c is not None for c in state.market) == 4 and len(state.draw) == 30
    assert state.current == BR and RULES.active_seats(state) == [BR]
    assert state.quarries[BR] + state.sleds[BR] + 0 + 0 + 1 == 30  # §1.1 invariant


def test_16_1_w01_setup_with_market_b_deals_three_face_up_and_a_pair() -> None:
    state = new_game(4, sides={"market": "B"}, start=BR)
    assert sum(c is not None for c in state.market) == 3 and len(state.pair) == 2
    assert len(state.draw) == 29


def test_16_1_w01_setup_view_hides_round_stack_and_removed_card() -> None:
    view = RULES.view(new_game(4, start=BR), None)
    assert view["round_stack_count"] == 5 and "hidden" not in view
    assert len(view["round_cards"]) == 1


def test_16_1_w02_ships_of_round_card_4_3_2_2() -> None:
    options = RULES.normalize_options(2, {})
    for seed in range(200):
        events = RULES.setup(2, options, random.Random(seed))
        state = apply_events(RULES, RULES.initial(2, options), events)
        if state.revealed[0] == "2p-2":
            break
    else:
        raise AssertionError("no seed reveals 2p-2 first")
    assert [(s.capacity, s.minimum) for s in state.ships] == [(4, 3), (3, 2), (2, 1), (2, 1)]
    assert sum(s.capacity for s in state.ships) == 11


def test_16_1_w03_get_stones_moves_up_to_three() -> None:
    state = new_game(2, start=K)
    state.sleds[K], state.quarries[K] = 3, 20
    act(state, K, {"type": "get_stones"})
    assert (state.sleds[K], state.quarries[K]) == (5, 18)
    state.current = K
    state.sleds[K], state.quarries[K] = 1, 2
    act(state, K, {"type": "get_stones"})
    assert (state.sleds[K], state.quarries[K]) == (3, 0)
    state.current = K
    assert {"type": "get_stones"} not in RULES.legal_actions(state, K)
    state.sleds[K] = 5
    state.quarries[K] = 10
    assert {"type": "get_stones"} not in RULES.legal_actions(state, K)


def _fourth_ship_sailed_by(sailer: int) -> int:
    state = new_game(3, start=K)
    set_ships(
        state, [K, W, BR, _], [K, W, _], [K, _], [W],
        sailed={1: "pyramids", 2: "temple", 3: "obelisks"},
    )  # fmt: skip
    state.current = sailer
    steps = act(state, sailer, {"type": "sail", "ship": 4, "site": "burial_chamber"})
    (started,) = events_of(steps, "round_started")
    assert started.data["round"] == 2
    return int(started.data["start_player"])


def test_16_1_w04_next_start_player_is_left_of_who_sailed_the_fourth_ship() -> None:
    assert _fourth_ship_sailed_by(W) == BR
    assert _fourth_ship_sailed_by(BR) == K


def test_16_1_w05_unloading_skips_gaps_and_sailer_needs_no_stone() -> None:
    state = new_game(4, start=BR)
    set_ships(state, [_, W, K, W], [_, _, _], [_, _], [_, _])
    act(state, BR, {"type": "sail", "ship": 1, "site": "pyramids"})
    assert state.scores == [1, 5, 0, 0]
    assert state.pyramids[0] == [W, K, W]
    assert state.docks == {"pyramids": 1}
    assert {"type": "sail", "ship": 2, "site": "pyramids"} not in RULES.legal_actions(
        state, state.current
    )
    assert state.current == G
