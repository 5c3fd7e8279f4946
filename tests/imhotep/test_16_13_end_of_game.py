"""§16.13 worked examples W-57, W-58: final scoring F1–F7 (§13), Wrath of the Pharaoh (R-22),
tie-break and competition ranks (R-23, C-3)."""

from __future__ import annotations

import random

from domain.contract import Event
from domain.imhotep import scoring
from domain.imhotep.evolve import FINAL_STEPS
from domain.imhotep.flow import advance
from domain.imhotep.rules import RULES
from domain.imhotep.state import State
from tests.imhotep.table import BR, K, W, new_game


def _final_scoring(state: State) -> list[Event]:
    """Run §13 F1–F7 as the end of round 6 does (after its temple scoring)."""
    state.round = 6
    state.stack = [("rank",)] + [
        ("final", step) for step in reversed(FINAL_STEPS) if step != "wrath" or state.wrath
    ]
    out: list[Event] = []
    advance(state, random.Random(0), out, None)
    return out


def _w57(white_sled: int) -> tuple[State, list[Event]]:
    state = new_game(3, wrath=True, start=K)
    state.ships, state.market = [], [None] * 4
    state.scores = [45, 54, 44]
    state.burial = [K, K, W, W, W, BR, K, K, BR, BR]
    state.heights = [4, 4, 1]
    state.temple = [K, W] * 7
    state.pyramids[0] = [K, W, BR]
    state.cards = [
        ["statue"] * 3 + ["temple_decoration", "hammer"],
        ["burial_chamber_decoration", "statue"],
        ["chisel", "sail"],
    ]
    state.sleds = [3, white_sled, 3]
    return state, _final_scoring(state)


def test_16_13_w57_final_scoring_wrath_and_tie_break() -> None:
    state, events = _w57(1)
    by_step = {e.type: e.data["points"] for e in events if "points" in e.data}
    assert by_step == {
        "burial_chamber_scored": [6, 4, 4],
        "obelisks_scored": [9, 9, 1],
        "decorations_scored": [4, 3, 0],
        "statues_scored": [6, 1, 0],
        "blue_cards_scored": [1, 0, 2],
        "wrath_applied": [0, 0, -5],
    }
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.scores == [71, 71, 46] and outcome.ranks == [1, 2, 3] and outcome.winners == [K]
    assert RULES.active_seats(state) == [] and RULES.view(state, None)["game_over"]


def test_16_13_w57_equal_sleds_make_joint_winners() -> None:
    state, _ = _w57(3)
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.ranks == [1, 1, 3] and outcome.winners == [K, W]


def test_16_13_c3_competition_ranks() -> None:
    assert scoring.ranks([10, 10, 5, 5], [0, 0, 1, 1]) == [1, 1, 3, 3]
    assert scoring.ranks([10, 10, 5, 4], [1, 0, 1, 1]) == [1, 2, 3, 4]


def test_16_13_w58_wrath_of_the_pharaoh_once_per_player() -> None:
    state = new_game(4, wrath=True)
    state.pyramids[0] = [K, W, BR]
    state.temple = [K, W, BR]
    state.burial = [W, BR]  # BR's stone came from a Sarcophagus: it counts (E-24)
    state.heights = [0, 1, 1, 0]
    state.overflow = [3]  # gray's only pyramid stone is an overflow stone
    assert scoring.wrath(state) == [-5, 0, 0, -5]
    state.temple.append(3)
    state.burial.append(3)
    state.heights[3] = 1
    assert scoring.wrath(state) == [-5, 0, 0, 0]
