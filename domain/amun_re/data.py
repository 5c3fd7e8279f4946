"""Amun-Re's numbers, loaded from ``data.json`` (a copy of the spec's ``amun-re-data.json``).

Every number of §5 (provinces, bid track, purchase cost, Offering tiles, Favour deck), §6 (setup),
§11 (offering values), §13 and §15 (scoring) comes from the data file, so that an owner of the
printed game can correct a (designed) value there without touching the rules. This module only
reshapes the file into constants that are fast to use: provinces and Favour cards are addressed by
their index in the file's order (ids in events and views).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_DATA: dict[str, Any] = json.loads(Path(__file__).with_name("data.json").read_text("utf-8"))

MIN_PLAYERS: int = _DATA["players"]["min"]
MAX_PLAYERS: int = _DATA["players"]["max"]
ROUNDS_PER_KINGDOM: int = len(_DATA["structure"]["kingdoms"][0]["rounds"])
KINGDOMS: int = len(_DATA["structure"]["kingdoms"])
LAST_ROUND: int = ROUNDS_PER_KINGDOM * KINGDOMS

# §6 (R6.2-R6.4)
START_GOLD: int = _DATA["start_of_game"]["gold"]
START_ARCHITECTS: int = _DATA["start_of_game"]["architect_cards"]
SCRIBES: int = _DATA["start_of_game"]["scribes"]
CARDS_PER_PLAYER: int = _DATA["province_deck"]["cards_per_player"]

# §5.1 provinces, by index in the file's order
_PROVINCES: list[dict[str, Any]] = _DATA["provinces"]
PROVINCES: tuple[str, ...] = tuple(p["id"] for p in _PROVINCES)
PROVINCE_INDEX: dict[str, int] = {pid: i for i, pid in enumerate(PROVINCES)}
PROVINCE_NAMES: tuple[str, ...] = tuple(p["name"] for p in _PROVINCES)
BANK: tuple[str, ...] = tuple(p["bank"] for p in _PROVINCES)
RIVER: tuple[str, ...] = tuple(p["river"] for p in _PROVINCES)
REGION: tuple[str, ...] = tuple(p["region"] for p in _PROVINCES)
FIELDS: tuple[int, ...] = tuple(p["farmer_fields"] for p in _PROVINCES)
CARD_LIMIT: tuple[int, ...] = tuple(p["card_limit"] for p in _PROVINCES)
TEMPLES: tuple[int, ...] = tuple(p["temples"] for p in _PROVINCES)
MINE: tuple[int, ...] = tuple(p["mine_gold"] for p in _PROVINCES)
CARAVAN: tuple[int, ...] = tuple(p["caravan_gold"] for p in _PROVINCES)
BONUS_STONES: tuple[int, ...] = tuple(p["immediate_bonus"]["stones"] for p in _PROVINCES)
BONUS_GOLD: tuple[int, ...] = tuple(p["immediate_bonus"]["gold"] for p in _PROVINCES)
BONUS_CARDS: tuple[int, ...] = tuple(p["immediate_bonus"]["favour_cards"] for p in _PROVINCES)
BANKS: tuple[str, ...] = ("west", "east")

# §5.2 bid track, §5.3 purchase cost
BID_TRACK: tuple[int, ...] = tuple(_DATA["bid_track"])
COST_TABLE: dict[int, int] = {int(n): c for n, c in _DATA["purchase_cost"]["table"].items()}
STONES_PER_PYRAMID: int = _DATA["pyramid"]["stones_per_pyramid"]
ARCHITECT_STONES: int = _DATA["pyramid"]["architect_stones"]


def cost(n: int) -> int:
    """§5.3: n items of one kind cost the triangular number n(n+1)/2."""
    return n * (n + 1) // 2


def next_space(value: int) -> int | None:
    """§5.2: the next higher bid space above ``value`` (None above the top)."""
    for v in BID_TRACK:
        if v > value:
            return v
    return None


# §5.4 Offering tiles, §11 offering values
TILES: tuple[dict[str, Any], ...] = tuple(_DATA["offering_tiles"])
_OFFERING = _DATA["offering"]
THEFT_VALUE: int = _OFFERING["theft_value"]
THEFT_GOLD: int = _OFFERING["theft_gold"]
ADJUSTMENT: int = _OFFERING["adjustment"]
MIN_GOLD_OFFER: int = _OFFERING["min_gold_offer"]
GIFTS_RANK_1: int = _OFFERING["gifts"]["rank_1"]
GIFTS_RANK_2: int = _OFFERING["gifts"]["rank_2"]
GIFTS_OTHER: int = _OFFERING["gifts"]["other_offerers"]
GIFTS_THIEF: int = _OFFERING["gifts"]["thieves"]


def tile_for(total: int) -> int:
    """R11.5: the Offering tile (1-4) for a collective total."""
    for t in TILES:
        low, high = t["min_total"], t["max_total"]
        if (low is None or total >= low) and (high is None or total <= high):
            return int(t["tile"])
    raise ValueError(total)  # the data file covers every integer


GOLD_PER_FARMER: dict[int, int] = {t["tile"]: t["gold_per_farmer"] for t in TILES}
CAMEL: dict[int, bool] = {t["tile"]: t["camel"] for t in TILES}
TEMPLE_VP: dict[int, int] = {t["tile"]: t["temple_vp"] for t in TILES}

# §13, §15 scoring
_SCORING = _DATA["scoring"]
VP_PER_PYRAMID: int = _SCORING["per_pyramid"]
VP_WEAKEST: int = _SCORING["per_pyramid_in_weakest_province"]
VP_PER_FARMER: int = _SCORING["per_farmer"]
VP_BANK_MAJORITY: int = _SCORING["bank_majority"]
VP_SCHEME: int = _SCORING["scheme"]
FINAL_GOLD_VP: tuple[int, ...] = tuple(_SCORING["final_gold"])

# §2 options
OPTION_DEFAULTS: dict[str, bool] = {k: v["default"] for k, v in _DATA["options"].items()}
MODULES: tuple[str, ...] = tuple(k for k, v in _DATA["options"].items() if v["kind"] == "module")

# §5.5 Favour deck, by index in the file's order (module cards included, so that a hand is a
# fixed-length list of counts whatever modules are on)
_CARDS: list[dict[str, Any]] = _DATA["favour_deck"]["cards"]
CARDS: tuple[str, ...] = tuple(c["id"] for c in _CARDS)
CARD_INDEX: dict[str, int] = {cid: i for i, cid in enumerate(CARDS)}
CARD_NAMES: tuple[str, ...] = tuple(c["name"] for c in _CARDS)
CARD_COLOUR: tuple[str, ...] = tuple(c["colour"] for c in _CARDS)
CARD_COPIES: tuple[int, ...] = tuple(c["count"] for c in _CARDS)
CARD_MODULE: tuple[str, ...] = tuple(c["module"] for c in _CARDS)
SCHEME_CHECKS: tuple[tuple[int, dict[str, Any]], ...] = tuple(
    (i, c["scheme_check"]) for i, c in enumerate(_CARDS) if "scheme_check" in c
)

PROTECTION = CARD_INDEX["protection"]
BRIBE = CARD_INDEX["bribe"]
ARCHITECT = CARD_INDEX["architect"]
EXTRA_FARMER = CARD_INDEX["extra_farmer"]
OFFERING_ADJUSTMENT = CARD_INDEX["offering_adjustment"]
EXCEPTIONAL_HARVEST = CARD_INDEX["exceptional_harvest"]
FIXED_INCOME = CARD_INDEX["fixed_income"]
FIXED_INCOME_GOLD = 8  # R12.2 / §5.5 Fixed Income: "you take 8 gold" (not in the data file)

# ---- Expanded Pack modules (§5.6, §5.7, §16) ----
POPULARITY = CARD_INDEX["popularity"]
EXPORT = CARD_INDEX["export"]
GREED = CARD_INDEX["greed"]
GLORY = CARD_INDEX["glory"]
AFTERLIFE = CARD_INDEX["afterlife"]
VP_SCHEME_SOBEK: int = _SCORING["scheme_with_sobek"]

# §5.1 adjacency (used by Horus, R10.7): symmetric, from the data file's edge list
_ADJ: list[set[int]] = [set() for _ in PROVINCES]
for _edge in _DATA["adjacency_edges"]:
    _a, _b = PROVINCE_INDEX[_edge["a"]], PROVINCE_INDEX[_edge["b"]]
    _ADJ[_a].add(_b)
    _ADJ[_b].add(_a)
ADJACENT: tuple[frozenset[int], ...] = tuple(frozenset(a) for a in _ADJ)

# §5.6 statues, by index in the file's order
STATUES: tuple[str, ...] = tuple(s["id"] for s in _DATA["statues"]["list"])
STATUE_INDEX: dict[str, int] = {sid: i for i, sid in enumerate(STATUES)}
STATUE_NAMES: tuple[str, ...] = tuple(s["name"] for s in _DATA["statues"]["list"])
STATUES_PER_ROUND: dict[int, int] = {
    int(k): v for k, v in _DATA["statues"]["per_round_old_kingdom"].items()}
HORUS, BASTET, OSIRIS, SET, ISIS, SOBEK, THOTH, PTAH = (
    STATUE_INDEX[s] for s in ("horus", "bastet", "osiris", "set", "isis", "sobek", "thoth", "ptah"))
HORUS_STONES: int = _DATA["pyramid"]["horus_stones"]
HORUS_GOLD: int = _DATA["pyramid"]["horus_gold"]

# §5.7 Tomb tiles, by index in the file's order
_TOMB = _DATA["tomb"]
TOMB_TILES: tuple[str, ...] = tuple(t["reward"] for t in _TOMB["tiles"])
TOMB_INDEX: dict[str, int] = {tid: i for i, tid in enumerate(TOMB_TILES)}
TOMB_AMOUNT: tuple[int, ...] = tuple(t["amount"] for t in _TOMB["tiles"])
TOMB_COPIES: tuple[int, ...] = tuple(t["count"] for t in _TOMB["tiles"])
TOMB_ROWS: tuple[int, ...] = tuple(_TOMB["rows"])
TOMB_ROW_VP: int = _TOMB["row_complete_vp"]
T_VP, T_FARMER, T_STONE, T_CARD, T_GOLD = (
    TOMB_INDEX[t] for t in ("vp", "farmer", "stone", "favour_card", "gold"))
#: tomb positions (row, col), 1-based, row by row from the base: index = position in a tomb list
TOMB_POSITIONS: tuple[tuple[int, int], ...] = tuple(
    (r + 1, i + 1) for r, n in enumerate(TOMB_ROWS) for i in range(n))
TOMB_POS_INDEX: dict[tuple[int, int], int] = {rc: k for k, rc in enumerate(TOMB_POSITIONS)}
#: the two supporting positions of each position (empty for the base row), R16.1.4
TOMB_SUPPORTS: tuple[tuple[int, ...], ...] = tuple(
    () if r == 1 else (TOMB_POS_INDEX[(r - 1, i)], TOMB_POS_INDEX[(r - 1, i + 1)])
    for r, i in TOMB_POSITIONS)

PHARAOH_TOKENS: int = _DATA["pharaoh"]["tokens"]

# Module numbers printed only in the rules text (§5.5, §5.6, R11.7), not in the data file:
BASTET_GOLD = 3  # §5.6 Bastet: "He gains 3 gold"
OSIRIS_FARMERS = 2  # §5.6 Osiris: +1 gold "for every 2 farmers"
SET_GIFTS = 1  # R11.7: Set controller +1 gift
PHARAOH_GIFTS_PER_TOKEN = 1  # R11.7: +1 gift per Pharaoh token (not as a thief)
GREED_GIFTS = 1  # R16.4.2
THOTH_EXTRA_CARDS = 1  # R10.5a
POPULARITY_CARDS = 3  # R16.4.3
EXPORT_CARAVAN_GOLD = 10  # R16.4.4
GLORY_MAX_VP = 3  # R16.4.1: 1, 2 or 3 VP priced on the purchase scale (§5.3)
