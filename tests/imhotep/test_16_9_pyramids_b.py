"""§16.9 worked examples W-43 … W-47: Pyramids B (§8.4, designed layout D-1; R-09, R-19, R-20,
E-10, E-18)."""

from __future__ import annotations

from domain.imhotep import scoring
from domain.imhotep.sites import place_in_pyramid
from domain.imhotep.state import State
from tests.imhotep.table import BR, G, K, W, _, act, decision, legal, new_game, set_ships

PYRAMIDS_B = {"pyramids": "B"}
THREE = [
    {"type": "choose_pyramid", "pyramid": "left"},
    {"type": "choose_pyramid", "pyramid": "middle"},
    {"type": "choose_pyramid", "pyramid": "right"},
]


def test_16_9_w43_rulebook_choices_and_designed_points() -> None:
    state = new_game(4, sides=PYRAMIDS_B, start=G)
    set_ships(state, [BR, K, BR, W], [_, _, _], [_, _], [_])
    act(state, G, {"type": "sail", "ship": 1, "site": "pyramids"})
    for seat, pyramid in [(BR, "middle"), (K, "middle"), (BR, "middle"), (W, "left")]:
        assert decision(state) == ("pyramid_choice", seat) and legal(state, seat) == THREE
        act(state, seat, {"type": "choose_pyramid", "pyramid": pyramid})
    assert state.scores == [2, 2, 6, 0]
    assert state.pyramids == [[W], [BR, K, BR], []]


def test_16_9_w44_card_bonus_draws_an_entrance_which_chains_a_choice() -> None:
    state = new_game(4, sides=PYRAMIDS_B, start=K)
    state.pyramids = [[K], [], []]
    state.draw.insert(0, "entrance")
    set_ships(state, [_, _, _, _], [_, _, _], [_, _], [G])
    state.sleds[G] = 2
    quarry = state.quarries[G]
    act(state, K, {"type": "sail", "ship": 4, "site": "pyramids"})
    act(state, G, {"type": "choose_pyramid", "pyramid": "left"})
    assert decision(state) == ("pyramid_choice", G) and legal(state, G) == THREE
    act(state, G, {"type": "choose_pyramid", "pyramid": "middle"})
    assert state.scores[G] == 4 and state.quarries[G] == quarry - 1
    assert state.pyramids == [[K, G], [G], []]
    assert state.discard[-1] == "entrance" and state.cards[G] == []


def _stones_bonus(sled: int, quarry: int) -> tuple[int, int, int]:
    state = new_game(4, sides=PYRAMIDS_B)
    state.pyramids = [[W, W, W], [], []]
    state.sleds[K], state.quarries[K], state.scores[K] = sled, quarry, 0
    place_in_pyramid(state, K, 0)
    return state.scores[K], state.sleds[K], state.quarries[K]


def test_16_9_w45_stones_bonus_limited_by_sled_and_quarry() -> None:
    assert _stones_bonus(3, 10) == (1, 5, 8)
    assert _stones_bonus(0, 2) == (1, 2, 0)
    assert _stones_bonus(5, 10) == (1, 5, 10)


def _ship_bonus(sled: int) -> State:
    state = new_game(4, sides=PYRAMIDS_B, start=K)
    set_ships(state, [W], [BR, _, _], [_, K], [K], sailed={4: "temple"})
    state.sleds[W] = sled
    act(state, K, {"type": "sail", "ship": 1, "site": "pyramids"})
    act(state, W, {"type": "choose_pyramid", "pyramid": "right"})
    return state


def test_16_9_w46_ship_bonus_offers_open_slots_of_unsailed_ships() -> None:
    state = _ship_bonus(2)
    assert state.scores[W] == 1 and decision(state) == ("ship_bonus", W)
    assert legal(state, W) == [
        {"type": "bonus_place", "ship": 2, "slot": 2},
        {"type": "bonus_place", "ship": 2, "slot": 3},
        {"type": "bonus_place", "ship": 3, "slot": 1},
        {"type": "bonus_decline"},
    ]
    act(state, W, {"type": "bonus_place", "ship": 3, "slot": 1})
    assert state.sleds[W] == 1 and state.ships[2].slots == [W, K]


def test_16_9_w46_ship_bonus_with_empty_sled_is_only_the_point() -> None:
    state = _ship_bonus(0)
    assert state.scores[W] == 1 and decision(state) == ("turn", W)


def test_16_9_w47_forced_choice_completion_and_overflow() -> None:
    state = new_game(4, sides=PYRAMIDS_B, start=K)
    state.pyramids = [[G] * 5, [G] * 5, [W, K]]
    state.draw.insert(0, "statue")
    set_ships(state, [BR, G, K, W], [_, _, _], [_, _], [_])
    state.scores = [0, 0, 0, 0]
    steps = act(state, K, {"type": "sail", "ship": 1, "site": "pyramids"})
    chosen = [s for s in steps if s.event.type == "pyramid_chosen"]
    assert len(chosen) == 3 and all(s.automatic for s in chosen)
    assert state.scores == [4, 1, 1, 1] and state.cards[BR] == ["statue"]
    assert state.overflow == [W]
    state.cards[K] = ["pyramid_decoration"]
    assert scoring.decorations(state)[K] == 5
    state.overflow += [W, W]
    assert scoring.decorations(state)[K] == 6


def test_16_9_w46_c1_ship_bonus_without_sled_stone_is_an_automatic_decline() -> None:
    state = new_game(4, sides=PYRAMIDS_B, start=K)
    set_ships(state, [W], [BR, _, _], [_, K], [K], sailed={4: "temple"})
    state.sleds[W] = 0
    act(state, K, {"type": "sail", "ship": 1, "site": "pyramids"})
    steps = act(state, W, {"type": "choose_pyramid", "pyramid": "right"})
    assert [(s.event.type, s.automatic) for s in steps] == [
        ("pyramid_chosen", False), ("bonus_declined", True),
    ]  # fmt: skip


def test_15_1_e27_entrance_drawn_at_round_end_gives_only_the_point_c2() -> None:
    state = new_game(4, sides={"pyramids": "B", "temple": "B"}, start=K)
    state.pyramids = [[G] * 5, [G] * 5, []]
    state.temple = [K, K, K, K]
    state.sleds[K], state.scores = 5, [0, 0, 0, 0]
    state.draw.insert(0, "entrance")
    set_ships(
        state, [_, _, _, _], [_, _, _], [_, _], [W],
        sailed={1: "market", 2: "temple", 3: "burial_chamber"},
    )  # fmt: skip
    steps = act(state, K, {"type": "sail", "ship": 4, "site": "obelisks"})
    kinds = [s.event.type for s in steps]
    at = kinds.index("card_drawn")
    assert kinds[at : at + 5] == [
        "card_drawn", "red_card_played", "pyramid_chosen", "bonus_declined", "card_discarded",
    ]  # fmt: skip
    assert all(s.automatic for s in steps[at:])
    assert state.pyramids[2] == [K] and state.scores[K] == 1 + 2 + 1 + 1
