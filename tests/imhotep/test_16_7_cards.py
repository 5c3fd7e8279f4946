"""§16.7 worked examples W-31 … W-34: decorations (§9.5, R-21), statues (§9.5), unused blue cards
(§13 F5)."""

from __future__ import annotations

import pytest

from domain.imhotep import data, scoring
from domain.imhotep.state import State
from tests.imhotep.table import K, W, new_game


def _with_stones(state: State, site: str, count: int, seat: int = K) -> None:
    if site == "pyramids":
        state.pyramids[0] = [seat] * min(count, 14)
        state.overflow = [seat] * max(0, count - 14)
    elif site == "temple":
        state.temple = [seat] * count
    elif site == "burial_chamber":
        state.burial = [seat] * count
    else:
        state.heights[seat] = count


def test_16_7_w31_decorations_count_all_stones_at_their_site() -> None:
    state = new_game(2)
    _with_stones(state, "burial_chamber", 13)
    state.cards[K] = ["burial_chamber_decoration"]
    assert scoring.decorations(state)[K] == 4
    state = new_game(2)
    for site, count in [("pyramids", 13), ("temple", 0), ("burial_chamber", 4), ("obelisks", 21)]:
        _with_stones(state, site, count)
    for card, points in [
        ("pyramid_decoration", 4), ("temple_decoration", 0),
        ("burial_chamber_decoration", 1), ("obelisk_decoration", 7),
    ]:  # fmt: skip
        state.cards[W] = [card]
        assert scoring.decorations(state)[W] == points, card


def test_16_7_w32_statues_set_scoring() -> None:
    points = [data.set_points(s, data.STATUE_POINTS, data.STATUE_INCREMENT) for s in range(1, 9)]
    assert points == [1, 3, 6, 10, 15, 17, 19, 21]
    assert data.set_points(21, data.STATUE_POINTS, data.STATUE_INCREMENT) == 47
    state = new_game(2)
    state.cards[K] = ["statue"] * 3
    assert scoring.statues(state)[K] == 6


@pytest.mark.parametrize(
    ("site", "count", "expected"),
    [
        ("pyramids", 2, [1, 0]), ("pyramids", 3, [1, 1]), ("pyramids", 7, [1, 2]),
        ("temple", 2, [1, 0]), ("temple", 3, [1, 1]), ("temple", 7, [1, 2]),
        ("obelisks", 2, [1, 0]), ("obelisks", 3, [2, 0]), ("obelisks", 7, [3, 0]),
        ("burial_chamber", 2, [1, 0]), ("burial_chamber", 3, [2, 0]),
        ("burial_chamber", 7, [3, 0]),
    ],
)  # fmt: skip
def test_16_7_w33_card_scoring_two_players(site: str, count: int, expected: list[int]) -> None:
    state = new_game(2)
    state.cards = [
        ["burial_chamber_decoration", "obelisk_decoration", "chisel"],
        ["temple_decoration", "pyramid_decoration"],
    ]
    _with_stones(state, site, count)
    totals = [
        d + b for d, b in zip(scoring.decorations(state), scoring.blue_cards(state), strict=True)
    ]
    assert totals == expected


def test_16_7_w33_statues_plus_unused_chisel() -> None:
    state = new_game(2)
    results = []
    for n in range(1, 7):
        state.cards[K] = ["burial_chamber_decoration", "obelisk_decoration", "chisel"]
        state.cards[K] += ["statue"] * n
        results.append(
            scoring.statues(state)[K] + scoring.blue_cards(state)[K] + scoring.decorations(state)[K]
        )
    assert results == [2, 4, 7, 11, 16, 18]


def test_16_7_w34_unused_blue_cards_score_one_each() -> None:
    state = new_game(2)
    state.cards[K] = ["lever", "sail"]
    assert scoring.blue_cards(state) == [2, 0]
