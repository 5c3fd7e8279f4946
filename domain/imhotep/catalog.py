"""The static catalog of Imhotep: everything a renderer needs to draw the board that the view
(``view.py``) does not carry, as a pure function over the data file (``data.py``).

``catalog(rules_version)`` returns (JSON; keys in camelCase as the API shows them)::

    {"game": "imhotep", "rulesVersion", "dataVersion", "spec": "imhotep.md",
     "colours": [player colours], "players": {"min", "max"}, "rounds", "shipsPerRound",
     "sledCapacity", "startingSled": [by turn position], "stonesPerColour", "getStones",
     "sites": {site: {"A": side, "B": side}}  (market, pyramids, temple, burial_chamber, obelisks),
     "marketCards": [{"id", "name", "colour", "count", "effect": {...}, "text"}],
     "roundCards": {"2" | "3" | "4": [{"id", "ships": [capacities], "provenance", ...}]},
     "ships": [{"capacity", "count", "minimum"}],
     "endScoring": {"order", "steps": [{"id" (a key of the view's final_scoring), "label"}],
                    "statuePoints", "statuePointsIncrementBeyond5", "unusedBlueCardPoints",
                    "decorationStonesPerPoint", "tieBreak"},
     "variants": {"wrath_of_the_pharaoh": {"penalty", "requiredSites", "rule"}},
     "designedValues": [{"path", "status", "spec", "note"?}]  (§17.2 D-1 … D-6)}

Each site side has ``"designed": bool`` (some of its values are §17.2 designed) and ``"spec"``
(the §17.2 reference, or null); an entry whose value is designed (a B pyramid space, a temple B
column, the 4th place of the burial chamber B, an obelisk B tower space) has ``"designed": true``
and ``"spec"`` itself. Site sides:

* market: ``{"faceUpSlots", "faceDownPairSize", "cardsDealtPerRound"}``;
* pyramids: ``{"pyramids": [{"name", "spaces": [{"index" (1-based, fill order), "level",
  "column", "row", "points", "bonus": kind | None}]}], "overflowPoints", "bonusKinds":
  {kind: text}}`` (the view's ``sites.pyramids.pyramids[i].name`` is the ``name``; its
  ``stones[k]`` lies on space ``k + 1``);
* temple: ``{"widthByPlayerCount": {"2": w, ...}, "pointsPerVisibleStone"}`` (A) or
  ``{"widthByPlayerCount", "columns": [{"column" (1-based), "bonus", "text"}], "bonusKinds"}``
  (B; the view's ``visible[c]`` is column ``c + 1``);
* burial_chamber: ``{"rows", "groupPoints", "groupPointsIncrementBeyond5"}`` (A) or
  ``{"rows", "rowPlaces": [{"place", "points"}]}`` (B);
* obelisks: ``{"placePointsByPlayerCount"}`` (A) or ``{"singleSpacesPerColour", "stonesPerTower",
  "towerSpaces": [{"space", "points"}], "offBoardTowerPoints", "singleStonePointsAtGameEnd"}`` (B).
"""

from __future__ import annotations

from typing import Any

from domain.contract import JSON
from domain.imhotep import data, scoring

SPEC = "imhotep.md"

#: the text of each market card effect kind (§9.4-§9.6)
EFFECT_TEXT = {
    "place_from_quarry": "Played at once: take 1 stone from your quarry and deliver it to {site} "
    "(no effect if your quarry is empty).",
    "decoration": "At the end of the game: 1 point per {stones_per_point} stones of all colours "
    "on {site}.",
    "statue_set": "At the end of the game, s statues score 1, 3, 6, 10, 15 for s = 1-5 and "
    "15 + 2(s - 5) beyond.",
    "sail_choose_order": "Your turn: sail a ship to a site, then fix the whole unloading order.",
    "take_stones_then_place_one": "Your turn: move up to {stones} stones from your quarry to your "
    "sled, then 1 stone from your sled to an empty slot of a ship that has not sailed.",
    "place_one_then_sail_same_ship": "Your turn: move 1 stone from your sled to a ship, then sail "
    "that ship to a free site.",
    "place_two": "Your turn: move 1 stone from your sled to each of two empty slots (one ship or "
    "two).",
}

#: the label of each end-scoring step, by its key in the view's ``final_scoring`` (§13)
STEP_LABELS = {
    "burial_chamber": "Burial chamber",
    "obelisks": "Obelisks",
    "decorations": "Decorations (green cards)",
    "statues": "Statues (purple cards)",
    "blue_cards": "Unused blue cards",
    "wrath": "Wrath of the Pharaoh",
}


def _designed_paths() -> list[JSON]:
    return [dict(entry) for entry in data._DATA["designed_or_inferred_values"]]


def _spec_of(path: str) -> str | None:
    """The §17.2 reference of a data path, if the data file lists it (or a parent of it)."""
    for entry in data._DATA["designed_or_inferred_values"]:
        if path == entry["path"] or path.startswith(entry["path"] + "."):
            return f"{SPEC} §17.2 {entry['spec']}"
    return None


def _side(path: str, body: JSON, designed: bool) -> JSON:
    spec = _spec_of(path)
    if spec is None:
        spec = next(
            (
                f"{SPEC} §17.2 {e['spec']}"
                for e in data._DATA["designed_or_inferred_values"]
                if e["path"].startswith(path + ".") or e["path"].startswith(path + "[")
            ),
            None,
        )
    return {**body, "designed": designed, "spec": spec}


def _market(sites: Any) -> JSON:
    out = {}
    for side in data.SIDES:
        m = sites["market"][side]
        body = {
            "faceUpSlots": m["face_up_slots"],
            "faceDownPairSize": m["face_down_pair_size"],
            "cardsDealtPerRound": m["cards_dealt_per_round"],
            "provenance": m["provenance"],
        }
        out[side] = _side(f"sites.market.{side}", body, False)  # D-5 is inferred, not designed
    return out


def _pyramids(sites: Any) -> JSON:
    a = sites["pyramids"]["A"]
    b = sites["pyramids"]["B"]
    d1 = _spec_of("sites.pyramids.B.pyramids")

    def spaces(raw: list[Any], designed: bool) -> list[JSON]:
        return [
            {
                "index": sp["index"],
                "level": sp["level"],
                "column": sp["column"],
                "row": sp["row"],
                "points": sp["points"],
                "bonus": sp.get("bonus"),
                "designed": designed,
                "spec": d1 if designed else None,
            }
            for sp in raw
        ]

    side_a = {
        "pyramids": [{"name": "pyramid", "spaces": spaces(a["spaces"], False)}],
        "overflowPoints": a["overflow_points"],
        "bonusKinds": {},
        "provenance": a["provenance"],
    }
    side_b = {
        "pyramids": [{"name": p["id"], "spaces": spaces(p["spaces"], True)} for p in b["pyramids"]],
        "overflowPoints": b["overflow_points"],
        "overflowOnlyWhenAllComplete": b["overflow_only_when_all_complete"],
        "bonusKinds": dict(b["bonus_kinds"]),
        "provenance": b["provenance"],
    }
    return {
        "A": _side("sites.pyramids.A", side_a, False),
        "B": _side("sites.pyramids.B", side_b, True),
    }


def _temple(sites: Any) -> JSON:
    a = sites["temple"]["A"]
    b = sites["temple"]["B"]
    d2 = _spec_of("sites.temple.B.column_bonus")
    kinds = b["bonus_kinds"]
    side_a = {
        "widthByPlayerCount": dict(a["width_by_player_count"]),
        "pointsPerVisibleStone": a["points_per_visible_stone"],
        "provenance": a["provenance"],
    }
    side_b = {
        "widthByPlayerCount": dict(b["width_by_player_count"]),
        "columns": [
            {
                "column": i + 1,
                "bonus": bonus,
                "text": kinds[bonus],
                "designed": True,
                "spec": d2,
            }
            for i, bonus in enumerate(b["column_bonus"])
        ],
        "columnsNote": b["column_bonus_note"],
        "resolutionOrder": b["resolution_order"],
        "bonusKinds": dict(kinds),
        "provenance": b["provenance"],
    }
    return {
        "A": _side("sites.temple.A", side_a, False),
        "B": _side("sites.temple.B", side_b, True),
    }


def _burial(sites: Any) -> JSON:
    a = sites["burial_chamber"]["A"]
    b = sites["burial_chamber"]["B"]
    side_a = {
        "rows": a["rows"],
        "groupPoints": list(a["group_points"]),
        "groupPointsIncrementBeyond5": a["group_points_increment_beyond_5"],
        "provenance": a["provenance"],
    }
    places = []
    for i, (points, source) in enumerate(
        zip(b["row_place_points"], b["row_place_points_provenance"], strict=True)
    ):
        designed = source == "designed"
        places.append(
            {
                "place": i + 1,
                "points": points,
                "provenance": source,
                "designed": designed,
                "spec": _spec_of(f"sites.burial_chamber.B.row_place_points[{i}]")
                if designed
                else None,
            }
        )
    side_b = {"rows": b["rows"], "rowPlaces": places, "provenance": b["provenance"]}
    return {
        "A": _side("sites.burial_chamber.A", side_a, False),
        "B": _side("sites.burial_chamber.B", side_b, True),
    }


def _obelisks(sites: Any) -> JSON:
    a = sites["obelisks"]["A"]
    b = sites["obelisks"]["B"]
    d4 = _spec_of("sites.obelisks.B.tower_space_points")
    side_a = {
        "placePointsByPlayerCount": {
            n: list(v) for n, v in a["place_points_by_player_count"].items()
        },
        "provenance": a["provenance"],
    }
    side_b = {
        "singleSpacesPerColour": b["single_spaces_per_colour"],
        "stonesPerTower": b["stones_per_tower"],
        "towerSpaces": [
            {"space": i + 1, "points": p, "designed": True, "spec": d4}
            for i, p in enumerate(b["tower_space_points"])
        ],
        "offBoardTowerPoints": b["off_board_tower_points"],
        "singleStonePointsAtGameEnd": b["single_stone_points_at_game_end"],
        "sameForAllPlayerCounts": b["same_for_all_player_counts"],
        "provenance": b["provenance"],
    }
    return {
        "A": _side("sites.obelisks.A", side_a, False),
        "B": _side("sites.obelisks.B", side_b, True),
    }


def _card(card: Any) -> JSON:
    effect = dict(card["effect"])
    site = str(effect.get("site", "")).replace("_", " ")
    text = EFFECT_TEXT[effect["kind"]].format(
        site=f"the {site}" if site else "",
        stones_per_point=effect.get("stones_per_point"),
        stones=effect.get("stones"),
    )
    return {
        "id": card["id"],
        "name": card["name"],
        "colour": card["colour"],
        "count": card["count"],
        "effect": effect,
        "text": text,
    }


def catalog(rules_version: str) -> JSON:
    """The static catalog (see the module docstring) for rules version ``rules_version``."""
    raw = data._DATA
    sites = raw["sites"]
    general = raw["general"]
    provenance = raw["round_cards"]["provenance"]
    round_cards = {
        n: [
            {
                "id": c["id"],
                "ships": list(c["ships"]),
                "provenance": provenance[n],
                "spec": _spec_of(f"round_cards.by_player_count.{n}"),
            }
            for c in cards
        ]
        for n, cards in raw["round_cards"]["by_player_count"].items()
    }
    end = raw["end_scoring"]
    wrath = raw["variants"]["wrath_of_the_pharaoh"]
    return {
        "game": "imhotep",
        "rulesVersion": rules_version,
        "dataVersion": raw["schema_version"],
        "spec": SPEC,
        "colours": list(data.COLOURS),
        "players": {"min": data.MIN_PLAYERS, "max": data.MAX_PLAYERS},
        "rounds": data.ROUNDS,
        "shipsPerRound": data.SHIPS_PER_ROUND,
        "sledCapacity": data.SLED_CAPACITY,
        "startingSled": list(data.STARTING_SLED),
        "stonesPerColour": data.STONES_PER_COLOUR,
        "getStones": general["get_stones_amount"],
        "sides": list(data.SIDES),
        "sites": {
            "market": _market(sites),
            "pyramids": _pyramids(sites),
            "temple": _temple(sites),
            "burial_chamber": _burial(sites),
            "obelisks": _obelisks(sites),
        },
        "marketCards": [_card(c) for c in raw["market_cards"]],
        "roundCards": round_cards,
        "ships": [
            {
                "capacity": t["capacity"],
                "count": t["count"],
                "minimum": data.MIN_LOAD[t["capacity"]],
            }
            for t in raw["ship_tokens"]
        ],
        "endScoring": {
            "order": list(end["order"]),
            "steps": [{"id": step, "label": STEP_LABELS[step]} for step in scoring.FINAL_SCORING],
            "statuePoints": list(end["statue_points"]),
            "statuePointsIncrementBeyond5": end["statue_points_increment_beyond_5"],
            "unusedBlueCardPoints": end["unused_blue_card_points"],
            "decorationStonesPerPoint": end["decoration_stones_per_point"],
            "tieBreak": list(end["tie_break"]),
        },
        "variants": {
            "wrath_of_the_pharaoh": {
                "penalty": wrath["penalty"],
                "requiredSites": list(wrath["required_sites"]),
                "rule": wrath["rule"],
            }
        },
        "designedValues": [
            {**e, "spec": f"{SPEC} §17.2 {e['spec']}", "designed": e["status"] == "designed"}
            for e in _designed_paths()
        ],
    }
