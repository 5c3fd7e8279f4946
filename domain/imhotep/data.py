"""Imhotep's numbers, loaded from ``data.json`` (a copy of the spec's ``imhotep-data.json``).

Every number of §1 (components), §8 (site values, including the (designed) B-side values of
§17.2 D-1 … D-6), §9 (cards) and §13 (end scoring) comes from the data file, so that an owner of the
physical boards can correct a designed value there without touching the rules. This module only
reshapes the file into constants that are fast to use.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_DATA: dict[str, Any] = json.loads(Path(__file__).with_name("data.json").read_text("utf-8"))

_GENERAL = _DATA["general"]
COLOURS: tuple[str, ...] = tuple(_GENERAL["colours"])
STONES_PER_COLOUR: int = _GENERAL["stones_per_colour"]
SCORE_MARKERS: int = _GENERAL["score_marker_stones_per_player"]
SLED_CAPACITY: int = _GENERAL["sled_capacity"]
STARTING_SLED: tuple[int, ...] = tuple(_GENERAL["starting_sled_by_turn_position"])
GET_STONES: int = _GENERAL["get_stones_amount"]
ROUNDS: int = _GENERAL["rounds"]
SHIPS_PER_ROUND: int = _GENERAL["ships_per_round"]
SITES: tuple[str, ...] = tuple(_GENERAL["sites"])
BUILDING_SITES: tuple[str, ...] = tuple(s for s in SITES if s != "market")
MIN_PLAYERS: int = _DATA["table_options"]["players"]["min"]
MAX_PLAYERS: int = _DATA["table_options"]["players"]["max"]
SIDES: tuple[str, ...] = tuple(_DATA["table_options"]["sides"]["allowed"])

#: §1.2 minimum load by capacity
MIN_LOAD: dict[int, int] = {int(k): v for k, v in _DATA["ship_min_load"].items()}

#: §1.3 round cards: players -> ordered list of (card id, ship capacities)
ROUND_CARDS: dict[int, list[tuple[str, tuple[int, ...]]]] = {
    int(n): [(c["id"], tuple(c["ships"])) for c in cards]
    for n, cards in _DATA["round_cards"]["by_player_count"].items()
}
ROUND_CARD_SHIPS: dict[str, tuple[int, ...]] = {
    cid: ships for cards in ROUND_CARDS.values() for cid, ships in cards
}

# §1.4 market cards
_CARDS = _DATA["market_cards"]
CARD_IDS: tuple[str, ...] = tuple(c["id"] for c in _CARDS)
CARD_COLOUR: dict[str, str] = {c["id"]: c["colour"] for c in _CARDS}
#: the 34 cards in their documented starting order (the order a setup shuffle starts from)
DECK: tuple[str, ...] = tuple(c["id"] for c in _CARDS for _ in range(c["count"]))
RED_SITE: dict[str, str] = {
    c["id"]: c["effect"]["site"] for c in _CARDS if c["effect"]["kind"] == "place_from_quarry"
}
DECORATION_SITE: dict[str, str] = {
    c["id"]: c["effect"]["site"] for c in _CARDS if c["effect"]["kind"] == "decoration"
}
STATUE: str = next(c["id"] for c in _CARDS if c["effect"]["kind"] == "statue_set")
BLUE: frozenset[str] = frozenset(c["id"] for c in _CARDS if c["colour"] == "blue")
LEVER, HAMMER, SAIL, CHISEL = "lever", "hammer", "sail", "chisel"
assert {LEVER, HAMMER, SAIL, CHISEL} == BLUE
assert len(DECK) == _DATA["market_cards_total"]

_SITES = _DATA["sites"]
# §8.1 / §8.2 market layout
MARKET_FACE_UP: dict[str, int] = {s: _SITES["market"][s]["face_up_slots"] for s in SIDES}
MARKET_PAIR: dict[str, int] = {s: _SITES["market"][s]["face_down_pair_size"] for s in SIDES}

# §8.3 Pyramids A; §8.4 Pyramids B (designed): one list of (points, bonus) spaces per pyramid
PYRAMIDS: dict[str, list[tuple[str, list[tuple[int, str | None]]]]] = {
    "A": [("pyramid", [(sp["points"], None) for sp in _SITES["pyramids"]["A"]["spaces"]])],
    "B": [
        (p["id"], [(sp["points"], sp["bonus"]) for sp in p["spaces"]])
        for p in _SITES["pyramids"]["B"]["pyramids"]
    ],
}
PYRAMID_OVERFLOW: dict[str, int] = {s: _SITES["pyramids"][s]["overflow_points"] for s in SIDES}

# §8.5 / §8.6 temple
TEMPLE_WIDTH: dict[int, int] = {
    int(n): w for n, w in _SITES["temple"]["A"]["width_by_player_count"].items()
}
TEMPLE_A_POINTS: int = _SITES["temple"]["A"]["points_per_visible_stone"]
TEMPLE_B_BONUS: tuple[str, ...] = tuple(_SITES["temple"]["B"]["column_bonus"])

# §8.7 / §8.8 burial chamber
BURIAL_ROWS: int = _SITES["burial_chamber"]["A"]["rows"]
FIELD_POINTS: tuple[int, ...] = tuple(_SITES["burial_chamber"]["A"]["group_points"])
FIELD_INCREMENT: int = _SITES["burial_chamber"]["A"]["group_points_increment_beyond_5"]
ROW_PLACES: tuple[int, ...] = tuple(_SITES["burial_chamber"]["B"]["row_place_points"])

# §8.9 / §8.10 obelisks
OBELISK_PLACES: dict[int, tuple[int, ...]] = {
    int(n): tuple(v) for n, v in _SITES["obelisks"]["A"]["place_points_by_player_count"].items()
}
_OB = _SITES["obelisks"]["B"]
OBELISK_SINGLES: int = _OB["single_spaces_per_colour"]
TOWER_SIZE: int = _OB["stones_per_tower"]
TOWER_POINTS: tuple[int, ...] = tuple(_OB["tower_space_points"])
OFF_BOARD_TOWER: int = _OB["off_board_tower_points"]
SINGLE_POINTS: int = _OB["single_stone_points_at_game_end"]

# §13 end scoring
_END = _DATA["end_scoring"]
STATUE_POINTS: tuple[int, ...] = tuple(_END["statue_points"])
STATUE_INCREMENT: int = _END["statue_points_increment_beyond_5"]
UNUSED_BLUE_POINTS: int = _END["unused_blue_card_points"]
DECORATION_STONES: int = _END["decoration_stones_per_point"]
WRATH_PENALTY: int = _DATA["variants"]["wrath_of_the_pharaoh"]["penalty"]
WRATH_SITES: tuple[str, ...] = tuple(_DATA["variants"]["wrath_of_the_pharaoh"]["required_sites"])


def set_points(count: int, table: tuple[int, ...], increment: int) -> int:
    """Points of a set of ``count`` (statues §9.5, burial fields §8.7): table, then +increment."""
    last = len(table) - 1
    if count <= last:
        return table[count]
    return table[last] + increment * (count - last)
