"""§16.10–§16.12 worked examples W-48 … W-56: Temple B (§8.6, D-2, R-16, R-17, E-21), Burial
chamber B (§8.8, D-3) and Obelisks B (§8.10, D-4, E-20)."""

from __future__ import annotations

import pytest

from domain.engine import Step
from domain.imhotep import scoring
from domain.imhotep.rules import RULES
from domain.imhotep.sites import deliver
from domain.imhotep.state import State
from tests.imhotep.table import BR, G, K, W, _, act, decision, events_of, new_game, set_ships

LAST_SHIP = {1: "pyramids", 2: "market", 3: "burial_chamber"}


def _end_round_by(state: State, sailer: int) -> list[Step]:
    """Sail the round's 4th ship (one K stone to the obelisks) so that the round ends."""
    set_ships(state, [_, _, _, _], [_, _, _], [_, _], [K], sailed=LAST_SHIP)
    state.current = sailer
    return act(state, sailer, {"type": "sail", "ship": 4, "site": "obelisks"})


def test_16_10_w48_temple_b_rulebook_column_by_column() -> None:
    state = new_game(4, sides={"temple": "B"}, start=K)
    state.temple = [G, BR, W, W, K]
    state.draw.insert(0, "statue")
    state.scores = [0, 0, 0, 0]
    state.sleds, state.quarries = [0, 4, 3, 2], [15, 10, 20, 20]
    _end_round_by(state, G)
    assert decision(state) == ("temple_choice", G)
    act(state, G, {"type": "take_point"})
    assert decision(state) == ("temple_choice", W)  # column 2 (Br, 2 points) needed no choice
    act(state, W, {"type": "take_stones"})
    assert decision(state) == ("temple_choice", K)  # column 4 drew W a Statue
    steps = act(state, K, {"type": "take_stones"})
    assert state.scores == [0, 0, 2, 1] and state.cards[W] == ["statue"]
    assert (state.sleds[W], state.quarries[W]) == (5, 9)
    assert (state.sleds[K], state.quarries[K]) == (2, 13)
    assert events_of(steps, "round_started")[0].data["start_player"] == K
    state.sides["temple"] = "A"
    assert scoring.temple_a(state) == [1, 2, 1, 1]


def test_16_10_w49_temple_b_two_players_width_four() -> None:
    state = new_game(2, sides={"temple": "B"}, start=K)
    state.temple = [K, W, W, K, W, K]
    state.scores = [0, 0]
    state.sleds, state.quarries = [3, 4], [10, 10]
    _end_round_by(state, K)
    assert decision(state) == ("temple_choice", W)
    steps = act(state, W, {"type": "take_stones"})
    bonuses = [e.data for e in events_of(steps, "temple_bonus")]
    assert [(b["column"], b["player"], b["points"], b["stones"]) for b in bonuses] == [
        (1, W, 0, 1), (2, K, 2, 0), (3, W, 1, 0), (4, K, 0, 0),
    ]  # fmt: skip
    assert events_of(steps, "card_drawn")[0].data["player"] == K
    assert state.scores == [2, 1] and len(state.cards[K]) == 1
    state.sides["temple"] = "A"
    assert scoring.temple_a(state) == [2, 2]


def _replay_until(start: State, steps: list[Step], kind: str) -> State:
    """The state just before the first event of ``kind`` among ``steps``."""
    state = start
    for step in steps:
        if step.event.type == kind:
            return state
        state = RULES.evolve(state, step.event)
    raise AssertionError(kind)


def test_16_10_w50_card_bonus_reshuffles_and_red_card_with_empty_quarry() -> None:
    seen = set()
    for seed in range(30):
        state = new_game(4, sides={"temple": "B"}, start=K)
        state.temple = [K, K, K, K]
        state.quarries[K] = 0
        state.draw, state.discard = [], ["sarcophagus", "statue"]
        set_ships(state, [_, _, _, _], [_, _, _], [_, _], [W], sailed=LAST_SHIP)
        state.market = ["chisel", "statue", None, None]
        before = state.copy()
        steps = act(state, K, {"type": "sail", "ship": 4, "site": "obelisks"}, seed=seed)
        (drawn,) = events_of(steps, "card_drawn")
        at_clear = _replay_until(before, steps, "market_cleared")
        if drawn.data["card"] == "statue":
            assert at_clear.cards[K] == ["statue"]
            assert (at_clear.draw, at_clear.discard) == (["sarcophagus"], [])
        else:
            assert events_of(steps, "red_card_played")[0].data["stone"] is False
            assert at_clear.cards[K] == []
            assert (at_clear.draw, at_clear.discard) == (["statue"], ["sarcophagus"])
        assert events_of(steps, "market_cleared")[0].data["cards"] == ["chisel", "statue"]
        seen.add(drawn.data["card"])
    assert seen == {"statue", "sarcophagus"}


def test_16_10_w50_card_bonus_with_both_piles_empty_gives_nothing() -> None:
    state = new_game(4, sides={"temple": "B"}, start=K)
    state.temple = [K, K, K, K]
    state.quarries[K] = 0
    state.draw, state.discard = [], []
    steps = _end_round_by(state, K)
    assert events_of(steps, "card_drawn")[0].data["card"] is None


def seats(text: str) -> list[int]:
    letter = {"K": K, "W": W, "Br": BR, "G": G}
    return [letter[t] for t in text.replace("|", " ").split()]


@pytest.mark.parametrize(
    ("name", "layout", "n", "rows", "fields"),
    [
        ("w51", "W K G | W K G | W K G | Br W G | G", 4, [8, 12, 3, 11], [6, 7, 1, 11]),
        (
            "w52",
            "K K W | K K W | K K W | K W Br | W W Br | W W Br | W Br G | Br Br G | Br G G"
            " | G G K",
            4, [15, 14, 7, 6], None,
        ),
        ("w53", "K W W | K K W | W", 2, [14, 18], [6, 7]),
    ],
)  # fmt: skip
def test_16_11_burial_chamber_b_rows(
    name: str, layout: str, n: int, rows: list[int], fields: list[int] | None
) -> None:
    assert scoring.burial_rows(seats(layout), n) == rows, name
    if fields is not None:
        assert scoring.burial_fields(seats(layout), n) == fields, name


def test_16_12_w54_obelisks_b_third_stone_forms_a_tower_at_once() -> None:
    state = new_game(4, sides={"obelisks": "B"}, start=BR)
    state.towers = [K]
    state.singles = [0, 2, 0, 1]
    state.scores = [0, 0, 0, 0]
    set_ships(state, [_, _, _, _], [K, W, G], [_, _], [_])
    act(state, BR, {"type": "sail", "ship": 2, "site": "obelisks"})
    assert state.singles == [1, 0, 0, 2] and state.towers == [K, W]
    assert state.scores == [0, 9, 0, 0]


def test_16_12_w55_tower_sequence_and_the_board_running_out() -> None:
    state = new_game(4, sides={"obelisks": "B"})
    state.scores = [0, 0, 0, 0]
    for seat in seats("K K K W W W Br Br Br K K K G G G W W Br"):
        deliver(state, seat, "obelisks")
    assert state.scores == [15, 9, 6, 3] and state.beside == [G]
    assert scoring.obelisks(state) == [0, 2, 1, 0]
    state.cards[K] = ["obelisk_decoration"]
    assert scoring.decorations(state)[K] == 6
    heights = [6, 5, 4, 3]
    assert scoring.shared_places(heights, (15, 10, 5, 1)) == [15, 10, 5, 1]


def test_16_12_w56_paved_path_completes_a_tower() -> None:
    state = new_game(4, sides={"obelisks": "B"}, start=K)
    state.towers = [K, W]
    state.singles[BR] = 2
    state.market = ["paved_path", None, None, None]
    state.scores = [0, 0, 0, 0]
    set_ships(state, [_, _, _, _], [_, _, _], [_, _], [BR])
    act(state, K, {"type": "sail", "ship": 4, "site": "market"})
    assert state.towers == [K, W, BR] and state.singles[BR] == 0 and state.scores[BR] == 6


def test_16_10_w49_c1_full_sled_makes_take_point_an_automatic_choice() -> None:
    state = new_game(2, sides={"temple": "B"}, start=K)
    state.temple = [K, W, W, K, W, K]
    state.sleds, state.quarries = [3, 4], [10, 10]
    _end_round_by(state, K)
    assert RULES.legal_actions(state, W) == [{"type": "take_point"}, {"type": "take_stones"}]
    steps = act(state, W, {"type": "take_stones"})
    (third,) = [s for s in steps if s.event.data.get("column") == 3]
    assert third.automatic and third.event.data["choice"] == "point"
