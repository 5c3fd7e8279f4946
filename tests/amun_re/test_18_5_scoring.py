"""§18.5 Kingdom scoring (W25-W27, W29-W32), §13."""

from __future__ import annotations

import pytest

from domain.amun_re import data
from domain.amun_re.scoring import apply_kingdom_scored, score_kingdom
from domain.amun_re.state import new_state
from tests.amun_re.scenario import C, give_province, set_hand

W25 = {
    0: [("memphis", 2, 1, 3), ("sais", 1, 0, 5), ("edfu", 1, 2, 2)],
    1: [("damanhur", 3, 0, 2), ("heliopolis", 0, 1, 3), ("avaris", 1, 0, 2)],
    2: [("abu", 0, 0, 0), ("berenike", 2, 1, 0), ("mendes", 1, 0, 6)],
}
W25_SCHEMES = {0: ["bank_scheme", "farmer_master"], 1: ["river_scheme"], 2: ["region_scheme"]}


def table(seats: int, provinces: dict, tile: int, **options):
    opts = {"classic_bank_majority": False, "no_farmer_points": False, **options}
    state = new_state(seats, opts)
    for seat, lines in provinces.items():
        for name, pyramids, stones, farmers in lines:
            give_province(state, seat, name, farmers=farmers, stones=stones, pyramids=pyramids)
    state.tile = tile
    return state


def w25(**options):
    state = table(3, W25, 3, **options)
    for seat, cards in W25_SCHEMES.items():
        set_hand(state, seat, *cards)
    return state


def test_w25_full_scoring_default_options():
    state = w25()
    lines = score_kingdom(state)
    x, y, z = lines
    assert [
        x["pyramids"],
        x["weakest"],
        x["farmers"],
        x["temples"],
        x["west"],
        x["east"],
        x["schemes"],
    ] == [4, 3, 10, 3, 5, 0, 6]
    assert [
        y["pyramids"],
        y["weakest"],
        y["farmers"],
        y["temples"],
        y["west"],
        y["east"],
        y["schemes"],
    ] == [4, 0, 7, 6, 0, 0, 0]
    assert [
        z["pyramids"],
        z["weakest"],
        z["farmers"],
        z["temples"],
        z["west"],
        z["east"],
        z["schemes"],
    ] == [3, 0, 6, 0, 0, 5, 0]
    assert [line["total"] for line in lines] == [31, 17, 14]
    apply_kingdom_scored(state, {"players": lines}, None)
    assert state.vp == [31, 17, 14]
    assert sum(state.hands[0]) == 0 and sorted(state.discard) == ["bank_scheme", "farmer_master"]
    assert state.hands[1][C["river_scheme"]] == 1 and state.hands[2][C["region_scheme"]] == 1


def test_w26_same_with_classic_bank_majority():
    assert [line["total"] for line in score_kingdom(w25(classic_bank_majority=True))] == [
        26,
        22,
        14,
    ]


def test_w27_same_with_no_farmer_points():
    assert [line["total"] for line in score_kingdom(w25(no_farmer_points=True))] == [21, 10, 8]


@pytest.mark.parametrize("classic", [False, True])
def test_w29_bank_ties(classic):
    provinces = {
        0: [("memphis", 2, 0, 0), ("sais", 1, 1, 0), ("tanis", 2, 1, 0)],
        1: [("damanhur", 3, 2, 0), ("mendes", 2, 1, 0), ("berenike", 0, 0, 0)],
    }
    lines = score_kingdom(table(2, provinces, 1, classic_bank_majority=classic))
    assert [(line["west"], line["east"]) for line in lines] == [(0, 5), (5, 5)]
    assert [line["total"] for line in lines] == [13, 17]


@pytest.mark.parametrize(("pyramids", "expected"), [((2, 2, 3), 13), ((0, 4, 4), 8)])
def test_w30_weakest_province(pyramids, expected):
    names = ("abu", "kharga", "abydos")  # no temples
    state = table(3, {0: [(n, p, 0, 0) for n, p in zip(names, pyramids, strict=True)]}, 1)
    line = score_kingdom(state)[0]
    assert line["pyramids"] + line["weakest"] == expected


@pytest.mark.parametrize(("tile", "expected"), [(3, 6), (1, 2)])
def test_w31_temples(tile, expected):
    state = table(3, {0: [("damanhur", 0, 0, 0)]}, tile)
    assert score_kingdom(state)[0]["temples"] == expected


def test_w32_schemes_duplicates_and_scribe_master():
    provinces = {0: [("sais", 0, 0, 5), ("tanis", 0, 0, 4), ("abu", 0, 0, 0)]}
    state = table(3, provinces, 1)
    set_hand(
        state,
        0,
        "scribe_master",
        "scribe_master",
        "farmer_master",
        "protection",
        "architect",
        "fixed_income",
    )
    line = score_kingdom(state)[0]
    assert line["schemes"] == 6 and line["schemes_scored"] == ["scribe_master", "farmer_master"]
    apply_kingdom_scored(state, {"players": score_kingdom(state)}, None)
    hand = {data.CARDS[c]: n for c, n in enumerate(state.hands[0]) if n}
    assert hand == {"scribe_master": 1, "protection": 1, "architect": 1, "fixed_income": 1}
    set_hand(state, 0, "scribe_master", "protection", "architect", "fixed_income")
    assert score_kingdom(state)[0]["schemes_scored"] == []
