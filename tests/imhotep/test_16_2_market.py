"""§16.2 worked examples W-06 … W-12: market A (§8.1, R-06, R-07), market B and its pair (§8.2,
§14, C-7), dealing and reshuffling (§9.1, §9.2, E-12)."""

from __future__ import annotations

import random

from domain.contract import Event
from domain.imhotep.flow import advance
from domain.imhotep.rules import RULES
from domain.imhotep.sites import deliver
from domain.imhotep.state import State
from tests.imhotep.table import BR, G, K, W, _, act, decision, legal, new_game, set_ships


def _market_a(state: State, *cards: str | None) -> None:
    state.market = list(cards) + [None] * (4 - len(cards))


def test_16_2_w06_market_a_each_stone_takes_one_card() -> None:
    state = new_game(4, start=K)
    _market_a(state, "sail", "statue", "lever", "sarcophagus")
    set_ships(state, [W, BR, G, _], [_, _, _], [_, _], [_, _])
    quarries = state.quarries[:]
    act(state, K, {"type": "sail", "ship": 1, "site": "market"})
    assert decision(state) == ("market_take", W) and len(legal(state, W)) == 4
    act(state, W, {"type": "take_card", "card": "sail"})
    assert decision(state) == ("market_take", BR) and len(legal(state, BR)) == 3
    act(state, BR, {"type": "take_card", "card": "statue"})
    assert decision(state) == ("market_take", G) and len(legal(state, G)) == 2
    act(state, G, {"type": "take_card", "card": "lever"})
    assert state.cards[W] == ["sail"] and state.cards[BR] == ["statue"]
    assert state.cards[G] == ["lever"]
    assert [q - p for q, p in zip(state.quarries, quarries, strict=True)] == [0, 1, 1, 1]
    assert state.market == [None, None, None, "sarcophagus"]
    assert state.current == W  # K's turn is over; W may play the Sail from now on
    assert any(a["type"] == "play_sail" for a in legal(state, W))


def test_16_2_w07_market_runs_out_and_single_option_is_automatic() -> None:
    state = new_game(4, start=BR)
    _market_a(state, "statue")
    set_ships(state, [K, W], [_, _, _, _], [_, _], [_, _])
    quarries = state.quarries[:]
    steps = act(state, BR, {"type": "sail", "ship": 1, "site": "market"})
    taken = [s for s in steps if s.event.type == "card_taken"]
    assert len(taken) == 1 and taken[0].automatic and taken[0].event.seat == K
    assert state.cards[K] == ["statue"] and state.cards[W] == []
    assert state.quarries[K] == quarries[K] + 1 and state.quarries[W] == quarries[W] + 1


def test_16_2_w08_red_card_uses_the_returning_stone() -> None:
    state = new_game(4, start=BR)
    _market_a(state, "paved_path", "statue")
    set_ships(state, [K, W], [_, _, _, _], [_, _], [_, _])
    state.quarries[K] = 0
    act(state, BR, {"type": "sail", "ship": 1, "site": "market"})
    act(state, K, {"type": "take_card", "card": "paved_path"})
    assert state.heights[K] == 1 and state.quarries[K] == 0
    assert "paved_path" in state.discard and state.cards[K] == []
    assert state.cards[W] == ["statue"]  # automatic, one option left


def _market_b_pair() -> State:
    state = new_game(4, sides={"market": "B"}, start=BR)
    state.market = ["statue", "chisel", "obelisk_decoration"]
    state.pair = ["entrance", "hammer"]
    set_ships(state, [W, K], [_, _, _, _], [_, _], [_, _])
    act(state, BR, {"type": "sail", "ship": 1, "site": "market"})
    return state


def test_16_2_w09_market_b_pair_taker_alone_sees_it_then_keeps_one() -> None:
    state = _market_b_pair()
    assert legal(state, W) == [
        {"type": "take_card", "card": "statue"},
        {"type": "take_card", "card": "chisel"},
        {"type": "take_card", "card": "obelisk_decoration"},
        {"type": "take_pair"},
    ]
    steps = act(state, W, {"type": "take_pair"})
    (taken,) = [s.event for s in steps]
    assert RULES.view_event(taken, W).data["cards"] == ["entrance", "hammer"]
    assert "cards" not in RULES.view_event(taken, K).data
    assert legal(state, W) == [
        {"type": "keep", "card": "entrance"},
        {"type": "keep", "card": "hammer"},
    ]
    assert RULES.view(state, W)["market"]["pair"] == ["entrance", "hammer"]
    assert "pair" not in RULES.view(state, K)["market"]
    quarry = state.quarries[W]
    act(state, W, {"type": "keep", "card": "hammer"})
    assert state.cards[W] == ["hammer"] and state.discard[-1] == "entrance"
    assert state.quarries[W] == quarry + 1
    assert decision(state) == ("market_take", K) and len(legal(state, K)) == 3


def test_16_2_w09_keeping_the_entrance_places_a_stone_in_the_pyramids() -> None:
    state = _market_b_pair()
    act(state, W, {"type": "take_pair"})
    act(state, W, {"type": "keep", "card": "entrance"})
    assert state.discard[-2:] == ["hammer", "entrance"]
    assert state.pyramids[0] == [W] and state.scores[W] == 2


def _deal(state: State, seed: int = 0) -> list[Event]:
    state.stack.append(("next_round",))
    out: list[Event] = []
    advance(state, random.Random(seed), out, None)
    return out


def test_16_2_w10_market_b_short_deal_and_pair_of_one_card() -> None:
    state = new_game(4, sides={"market": "B"}, start=BR)
    state.round, state.round_stack = 4, state.round_stack[:2]
    state.market, state.pair = [None] * 3, []
    state.draw, state.discard = ["statue", "lever", "chisel", "hammer"], []
    _deal(state)
    assert state.round == 5 and state.market == ["statue", "lever", "chisel"]
    assert state.pair == ["hammer"] and state.draw == []
    set_ships(state, [W, K], [_, _, _, _], [_, _], [_, _])
    act(state, BR, {"type": "sail", "ship": 1, "site": "market"})
    steps = act(state, W, {"type": "take_pair"})
    assert state.cards[W] == ["hammer"] and decision(state) == ("market_take", K)
    assert [(s.event.type, s.automatic) for s in steps[:2]] == [
        ("pair_taken", False),
        ("card_kept", True),
    ]  # fmt: skip  C-1: a pair of one card is an automatic keep
    assert steps[1].event.data == {"card": "hammer", "discarded": None}


def test_16_2_w11_reshuffle_while_dealing_market_a() -> None:
    state = new_game(4, start=BR)
    state.market = [None] * 4
    state.draw = ["lever", "sail"]
    state.discard = ["statue"] * 10 + ["chisel", "hammer"]
    (started,) = _deal(state)
    assert state.market[:2] == ["lever", "sail"]
    assert len(state.draw) == 10 and state.discard == []
    assert started.data["reshuffled_after"] == 2 and len(started.data["reshuffle"]) == 12
    assert state.market[2:] == started.data["reshuffle"][:2]
    shown = RULES.view_event(started, None)
    assert "reshuffle" not in shown.data and shown.data["reshuffled_count"] == 12


def test_16_2_w12_both_piles_empty_while_dealing_and_empty_market_delivery() -> None:
    state = new_game(4, start=BR)
    state.draw, state.discard = ["statue"], []
    _deal(state)
    assert state.market == ["statue", None, None, None] and state.draw == []
    state.market = [None] * 4
    quarry = state.quarries[K]
    deliver(state, K, "market")
    assert state.quarries[K] == quarry + 1 and state.stack == []  # E-4
