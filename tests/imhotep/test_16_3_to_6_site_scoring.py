"""§16.3–§16.6 worked examples W-13 … W-30: Pyramids A (§8.3), Temple A (§8.5), Burial chamber A
(§8.7) and Obelisks A (§8.9, shared places §8.11)."""

from __future__ import annotations

import pytest

from domain.imhotep import data, scoring
from domain.imhotep.sites import deliver
from tests.imhotep.table import BR, G, K, W, act, events_of, new_game, set_ships

LETTER = {"K": K, "W": W, "Br": BR, "G": G, "p1": 0, "p2": 1, "p3": 2, "p4": 3}


def seats(text: str) -> list[int]:
    return [LETTER[t] for t in text.replace("|", " ").split()]


def pyramid_points(stones: list[int], n: int = 4) -> list[int]:
    state = new_game(n)
    state.scores = [0] * n
    for seat in stones:
        deliver(state, seat, "pyramids")
    return state.scores


def test_16_3_w13_pyramids_a_first_four_spaces() -> None:
    assert pyramid_points(seats("K W Br G")) == [2, 1, 3, 2]


def test_16_3_w14_pyramids_a_past_14_stones_overflow_scores_one() -> None:
    assert pyramid_points(seats("K W Br G " * 4 + "K W")) == [13, 11, 9, 5]


def test_16_3_w15_pyramids_a_repeated_five_stones() -> None:
    assert pyramid_points(seats("K Br K W G")) == [5, 2, 1, 4]
    assert pyramid_points(seats("K Br K W G " * 3)) == [15, 9, 4, 7]


def test_16_3_w16_pyramids_a_p2_p3_p4() -> None:
    assert pyramid_points(seats("p3 p3 p3 p4 p2 p3 p3 p3" + " p4" * 7)) == [0, 4, 12, 19]


def test_16_3_w17_pyramids_a_blocks_of_four() -> None:
    assert pyramid_points([K] * 4, 2) == [8, 0]
    assert pyramid_points([K] * 4 + [W] * 4, 2) == [8, 10]
    assert pyramid_points([K] * 4 + [W] * 4 + [K] * 4, 2) == [17, 10]


def test_16_3_pyramids_a_fourteen_spaces_total_34_points() -> None:
    assert sum(p for p, _ in data.PYRAMIDS["A"][0][1]) == 34


def test_16_4_w18_temple_a_placement_and_end_of_round_scoring() -> None:
    state = new_game(4, start=K)
    state.temple = seats("G K G W")
    set_ships(
        state, [K, K, K, K], [K, K, K], [K, K], [BR, BR, W],
        sailed={1: "pyramids", 2: "obelisks", 3: "burial_chamber"},
    )  # fmt: skip
    steps = act(state, K, {"type": "sail", "ship": 4, "site": "temple"})
    (scored,) = events_of(steps, "temple_scored")
    assert scored.data["points"] == [0, 2, 2, 1]  # K 0, W 2, Br 2, G 1


def temple_points(text: str, n: int) -> list[int]:
    state = new_game(n)
    state.temple = seats(text)
    return scoring.temple_a(state)


def test_16_4_w19_temple_a_scoring_rulebook() -> None:
    assert temple_points("K G W G Br", 4) == [1, 1, 1, 2]


@pytest.mark.parametrize(
    ("n", "stones", "points"),
    [
        (2, "K W W W", [1, 3]),
        (3, "K Br Br W W W", [0, 3, 2]),
        (4, "K Br W G G", [1, 1, 1, 2]),
        (4, "p3 p3 p3 p4 p2 p3", [0, 1, 3, 1]),
    ],
)
def test_16_4_w20_temple_a_peer_cases(n: int, stones: str, points: list[int]) -> None:
    assert temple_points(stones, n) == points


@pytest.mark.parametrize(
    ("name", "layout", "points"),
    [
        ("w21_rulebook", "G G G | G G G | W W Br | K Br Br | Br", [1, 3, 7, 17]),
        ("w22_u_shape", "K K K | W W K | W W K | K K K | W W W", [21, 16, 0, 0]),
        ("w23_legal_layout", "K W K | W K W | W W W | W K W | W W K", [5, 24, 0, 0]),
        ("w24a", "K W G | K W G | K W Br | K", [10, 6, 1, 3]),
        ("w24b", "W Br W | W W W | G G W | G K K", [3, 17, 1, 6]),
        ("w24c", "W K K | K G W | K G W | K", [9, 4, 0, 3]),
        ("w24d", "W W W | W W W | K W", [1, 19, 0, 0]),
        (
            "w25a",
            "Br G W | G Br W | K K K | K K K | K K K | W W W | W W W | Br W Br",
            [23, 22, 4, 2],
        ),
        ("w25b", "Br G W | G Br K", [1, 1, 2, 2]),
        (
            "w25d",
            "K K K | W G Br | G Br K | Br K W | W Br K | G W Br | Br K G | K G W",
            [11, 5, 6, 5],
        ),
        ("w26", "p3 p3 p3 | p4 p2 p3 | p3 p3 p4 | p4 p4 p4 | p4", [0, 1, 13, 16]),
    ],
)
def test_16_5_burial_chamber_a_fields(name: str, layout: str, points: list[int]) -> None:
    assert scoring.burial_fields(seats(layout), 4) == points, name


def test_16_5_w25c_burial_chamber_a_single_colour_columns() -> None:
    for count, points in [(2, 3), (3, 6), (4, 10), (5, 15)]:
        assert scoring.burial_fields([K] * count, 4)[K] == points


def obelisk_points(heights: list[int]) -> list[int]:
    return scoring.shared_places(heights, data.OBELISK_PLACES[len(heights)])


def test_16_6_w27_obelisks_a_rulebook_tie_shares_places() -> None:
    assert obelisk_points([3, 4, 0, 3]) == [7, 15, 0, 7]


@pytest.mark.parametrize(
    ("heights", "points"),
    [
        ([2, 3], [1, 10]), ([2, 1], [10, 1]), ([1, 1], [5, 5]),
        ([0, 2, 1], [0, 12, 6]), ([1, 3, 2], [1, 12, 6]), ([1, 2, 2], [1, 9, 9]),
        ([1, 2, 1], [3, 12, 3]), ([2, 2, 2], [6, 6, 6]),
        ([3, 1, 2, 1], [15, 3, 10, 3]), ([3, 1, 2, 0], [15, 5, 10, 0]),
        ([4, 2, 3, 1], [15, 5, 10, 1]), ([2, 2, 2, 2], [7, 7, 7, 7]),
    ],
)  # fmt: skip
def test_16_6_w28_obelisks_a_peer_table(heights: list[int], points: list[int]) -> None:
    assert obelisk_points(heights) == points


@pytest.mark.parametrize(
    ("heights", "points"),
    [
        ([1, 1], [5, 5]), ([2, 2, 2], [6, 6, 6]), ([3, 2, 2], [12, 3, 3]),
        ([4, 3, 2], [12, 6, 1]), ([4, 4, 2], [9, 9, 1]), ([1, 1, 0], [9, 9, 0]),
        ([1, 1, 1, 1], [7, 7, 7, 7]), ([2, 1, 1, 1], [15, 5, 5, 5]),
        ([2, 2, 1, 1], [12, 12, 3, 3]), ([2, 2, 2, 1], [10, 10, 10, 1]),
        ([4, 3, 2, 2], [15, 10, 3, 3]), ([4, 3, 2, 1], [15, 10, 5, 1]),
        ([4, 3, 3, 1], [15, 7, 7, 1]), ([4, 4, 3, 1], [12, 12, 5, 1]),
        ([1, 1, 1, 0], [10, 10, 10, 0]), ([2, 2, 1, 0], [12, 12, 5, 0]),
        ([3, 2, 2, 0], [15, 7, 7, 0]), ([1, 1, 0, 0], [12, 12, 0, 0]),
    ],
)  # fmt: skip
def test_16_6_w29_obelisks_a_second_peer_table(heights: list[int], points: list[int]) -> None:
    assert obelisk_points(heights) == points


def test_16_6_w30_obelisks_a_height_zero_takes_no_place() -> None:
    assert obelisk_points([0, 1, 1, 1]) == [0, 10, 10, 10]
    assert obelisk_points([3, 0]) == [10, 0]
    assert obelisk_points([1, 0, 0]) == [12, 0, 0]
