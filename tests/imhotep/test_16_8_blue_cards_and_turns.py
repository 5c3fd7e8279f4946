"""§16.8 worked examples W-35 … W-42: Hammer, Chisel, Sail, Lever (§9.6, R-10, R-11, C-5, C-6),
forced pass and stalled round (§6.5, R-13), the 4th ship during a card (E-13), turn catalogue
(§11.1)."""

from __future__ import annotations

import random

import pytest

from domain.contract import IllegalAction
from domain.engine import run_automatic
from domain.imhotep.rules import RULES
from domain.imhotep.state import State
from tests.imhotep.table import BR, G, K, W, _, act, events_of, legal, new_game, set_ships, types

SAILED = {2: "temple", 3: "obelisks", 4: "burial_chamber"}


def _hammer_table(sled: int, quarry: int) -> State:
    state = new_game(4, start=K)
    set_ships(state, [K, _, _], [W, W, W], [W, W], [W], sailed=SAILED)
    state.cards[K] = ["hammer"]
    state.sleds[K], state.quarries[K] = sled, quarry
    return state


def _entries(state: State, seat: int, kind: str) -> list[dict[str, object]]:
    return [a for a in legal(state, seat) if a["type"] == kind]


def test_16_8_w35_hammer_not_playable_with_full_sled_or_no_open_slot() -> None:
    assert _entries(_hammer_table(5, 10), K, "play_hammer") == []
    state = _hammer_table(2, 10)
    state.ships[0].slots = [K, K, K]
    assert _entries(state, K, "play_hammer") == []


def test_16_8_w35_hammer_takes_stones_then_places_one() -> None:
    state = _hammer_table(3, 10)
    assert _entries(state, K, "play_hammer") == [
        {"type": "play_hammer", "ship": 1, "slot": 2},
        {"type": "play_hammer", "ship": 1, "slot": 3},
    ]
    act(state, K, {"type": "play_hammer", "ship": 1, "slot": 2})
    assert (state.sleds[K], state.quarries[K]) == (4, 8)
    assert state.ships[0].slots == [K, K, -1] and state.discard[-1] == "hammer"


def test_16_8_w35_hammer_with_empty_sled_and_one_quarry_stone() -> None:
    state = _hammer_table(0, 1)
    act(state, K, {"type": "play_hammer", "ship": 1, "slot": 3})
    assert (state.sleds[K], state.quarries[K]) == (0, 0)


def _chisel_table(sled: int) -> State:
    state = new_game(4, start=K)
    set_ships(state, [W, _, W, _], [W, W, W], [W, _], [W], sailed={2: "temple", 4: "obelisks"})
    state.cards[K] = ["chisel"]
    state.sleds[K] = sled
    return state


def test_16_8_w36_chisel_needs_two_sled_stones_and_two_open_slots() -> None:
    assert _entries(_chisel_table(1), K, "play_chisel") == []
    state = _chisel_table(3)
    state.ships[0].slots = [W, W, W, W]
    assert _entries(state, K, "play_chisel") == []


def test_16_8_w36_chisel_pairs_written_first_before_second() -> None:
    state = _chisel_table(3)
    place = [{"ship": 1, "slot": 2}, {"ship": 1, "slot": 4}, {"ship": 3, "slot": 2}]
    assert _entries(state, K, "play_chisel") == [
        {"type": "play_chisel", "first": place[0], "second": place[1]},
        {"type": "play_chisel", "first": place[0], "second": place[2]},
        {"type": "play_chisel", "first": place[1], "second": place[2]},
    ]
    with pytest.raises(IllegalAction) as refused:  # C-5: the reversed pair is rejected
        RULES.decide(
            state, K, {"type": "play_chisel", "first": place[1], "second": place[0]},
            random.Random(0),
        )  # fmt: skip
    assert refused.value.rule == "C-5"
    act(state, K, {"type": "play_chisel", "first": place[0], "second": place[1]})
    assert state.ships[0].slots == [W, K, W, K] and state.sleds[K] == 1


def test_16_8_w37_sail_card_needs_the_ship_to_reach_its_minimum() -> None:
    state = new_game(4, start=K)
    set_ships(state, [W, _, _, _], [_, _, _], [_, _], [_])
    state.cards[K] = ["sail"]
    assert not [a for a in _entries(state, K, "play_sail") if a["ship"] == 1]


@pytest.mark.parametrize(("slot", "points"), [(1, (4, 2)), (4, (3, 3))])
def test_16_8_w37_sail_card_chosen_slot_matters(slot: int, points: tuple[int, int]) -> None:
    state = new_game(4, start=K)
    set_ships(state, [_, W, K, _], [_, _, _], [_, _], [_])
    state.pyramids[0] = [G] * 5
    state.cards[K] = ["sail"]
    act(state, K, {"type": "play_sail", "ship": 1, "slot": slot, "site": "pyramids"})
    assert (state.scores[K], state.scores[W]) == points
    assert state.discard[-1] == "sail"


def test_16_8_w38_lever_chooses_the_unloading_order() -> None:
    state = new_game(4, start=K)
    state.market = ["statue", "statue", "hammer", "entrance"]
    set_ships(state, [_, _, _, _], [W, W, K], [_, _], [_])
    state.cards[K] = ["lever"]
    act(state, K, {"type": "play_lever", "ship": 2, "site": "market"})
    assert legal(state, K) == [
        {"type": "unload_order", "order": [0, 1, 1]},
        {"type": "unload_order", "order": [1, 0, 1]},
        {"type": "unload_order", "order": [1, 1, 0]},
    ]
    act(state, K, {"type": "unload_order", "order": [K, W, W]})
    act(state, K, {"type": "take_card", "card": "hammer"})
    steps = act(state, W, {"type": "take_card", "card": "entrance"})
    assert state.pyramids[0] == [W] and state.cards[W] == ["statue"]
    assert [s.automatic for s in steps if s.event.type == "card_taken"] == [False, True]
    assert types(steps)[-1] == "card_discarded" and state.discard[-1] == "lever"
    assert state.cards[K] == ["hammer"] and state.current == W


def test_16_8_w38_lever_with_one_colour_is_ordered_automatically() -> None:
    state = new_game(4, start=K)
    set_ships(state, [_, _, _, _], [W, W, _], [_, _], [_])
    state.cards[K] = ["lever"]
    steps = act(state, K, {"type": "play_lever", "ship": 2, "site": "temple"})
    (ordered,) = [s for s in steps if s.event.type == "unload_ordered"]
    assert ordered.automatic and state.temple == [W, W]


def test_16_8_w39_forced_pass_is_automatic_and_counted() -> None:
    state = new_game(3, start=BR)
    set_ships(state, [W, W, _, _], [W, W, W], [_, _], [W], sailed={2: "temple", 4: "obelisks"})
    state.sleds[K] = state.quarries[K] = 0
    state.sleds[BR], state.quarries[BR] = 0, 10
    steps = act(state, BR, {"type": "get_stones"})
    assert types(steps) == ["stones_taken", "turn_passed"] and steps[1].automatic
    assert steps[1].event.seat == K and state.passes == 1 and state.current == W
    act(state, W, {"type": "place_stone", "ship": 3, "slot": 1})
    assert state.passes == 0


def test_16_8_w40_stalled_round_returns_stones_and_next_round_starts_after_last_passer() -> None:
    state = new_game(2, start=W)
    set_ships(state, [K, W, _, _], [K, K, K], [W, W, W], [_], sailed={2: "temple", 3: "pyramids"})
    state.sleds = [0, 0]
    state.quarries = [0, 0]
    state.current = K
    steps, state = run_automatic(RULES, state, random.Random(0))
    assert types(steps)[:6] == [
        "turn_passed", "turn_passed", "round_ended", "temple_scored", "market_cleared",
        "round_started",
    ]  # fmt: skip
    assert [s.event.seat for s in steps[:2]] == [K, W] and all(s.automatic for s in steps)
    ended = steps[2].event.data
    assert ended["stalled"] and ended["returned"] == [[1, 1, K], [1, 2, W]]
    assert steps[5].event.data["start_player"] == K and state.round == 2


def test_16_8_w41_fourth_ship_sails_during_a_sail_card() -> None:
    state = new_game(4, start=BR)
    set_ships(
        state, [K, K, K, K], [K, K, K], [K, K, K], [G, _],
        sailed={1: "pyramids", 2: "temple", 3: "obelisks"},
    )  # fmt: skip
    state.market = ["statue", "lever", None, None]
    state.cards[BR] = ["sail"]
    steps = act(state, BR, {"type": "play_sail", "ship": 4, "slot": 2, "site": "burial_chamber"})
    assert types(steps)[:8] == [
        "sail_played", "stone_delivered", "stone_delivered", "card_discarded", "round_ended",
        "temple_scored", "market_cleared", "round_started",
    ]  # fmt: skip
    assert state.burial == [G, BR]
    assert events_of(steps, "market_cleared")[0].data["cards"] == ["statue", "lever"]
    assert events_of(steps, "round_started")[0].data["start_player"] == G


def test_16_8_w42_enumerating_a_turn_gives_31_entries() -> None:
    state = new_game(2, start=K)
    set_ships(state, [W, _, K, _], [W, W, _], [W, _], [_], sailed={2: "temple"})
    state.sleds[K], state.quarries[K] = 2, 20
    state.cards[K] = ["sail", "chisel"]
    entries = legal(state, K)
    counts: dict[str, int] = {}
    for a in entries:
        counts[str(a["type"])] = counts.get(str(a["type"]), 0) + 1
    assert counts == {
        "get_stones": 1, "place_stone": 4, "sail": 4, "play_sail": 16, "play_chisel": 6,
    }  # fmt: skip
    assert len(entries) == 31
    assert {a["ship"] for a in entries if a["type"] == "sail"} == {3}


def test_16_8_w40_stalled_sixth_round_goes_to_final_scoring() -> None:
    state = new_game(2, start=W)
    set_ships(state, [K, W, _, _], [_, _, _], [_, _, _], [_], sailed={2: "temple", 3: "pyramids"})
    state.sleds, state.quarries = [0, 0], [0, 0]
    state.round, state.round_stack = 6, []
    state.current = K
    steps, state = run_automatic(RULES, state, random.Random(0))
    assert types(steps)[:3] == ["turn_passed", "turn_passed", "round_ended"]
    assert types(steps)[-1] == "players_ranked"
    assert state.quarries == [1, 1] and RULES.outcome(state) is not None
