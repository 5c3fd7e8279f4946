"""The static catalog of Amun-Re: everything a renderer needs to draw the board that the view
(``view.py``) does not carry, as a pure function over the data file (``data.py``).

``catalog(rules_version)`` returns (JSON; keys in camelCase as the API shows them)::

    {"game": "amun_re", "rulesVersion", "dataVersion", "spec": "amun-re.md",
     "players": {"min", "max"}, "kingdoms": [{"name", "rounds"}], "phases": [...],
     "startOfGame": {"gold", "theftCards", "architectCards", "scribes"},
     "bidTrack": [0, 1, 3, ...], "purchaseCost": {"table": {"n": gold}, "order": [kinds]},
     "pyramid": {"stonesPerPyramid", "architectStones", "horusStones", "horusGold"},
     "offering": {"theftValue", "theftGold", "adjustment", "minGoldOffer", "gifts": {...}},
     "offeringTiles": [{"tile", "minTotal", "maxTotal", "goldPerFarmer", "camel", "templeVp"}],
     "provinces": [{"id", "name", "bank", "bankOrder", "region", "river" ("nile" | "border"),
                    "fields" (farmer capacity), "cardLimit", "temples", "mine", "caravan",
                    "bonus": {"stones", "gold", "favour_cards"}, "adjacent": [ids],
                    "facing": [ids]}],
     "favourCards": [{"id", "name", "colour", "phase", "count", "module", "effect" (its text),
                      "playLimit", + Schemes: "schemeCondition", "schemeVp", "schemeVpWithSobek"}],
     "favourColours": {colour: phase}, "favourSellValue",
     "statues": {"count", "perRoundOldKingdom": {"3": n, ...},
                 "list": [{"id", "name", "power", "applies"}]},
     "tomb": {"tiles": [{"id" (the reward), "reward", "amount", "count"}], "rows": [5, 4, 3, 2, 1],
              "rowCompleteVp"},
     "pharaoh": {"tokens", "figures"},
     "scoring": {"perPyramid", "perPyramidInWeakestProvince", "perFarmer", "perTemple",
                 "bankMajority", "scheme", "schemeWithSobek", "finalGold": [6, 4, 2], ...},
     "options": {name: {"default", "kind"}}}

Every entry the data file gives a source for (provinces, Offering tiles, Favour cards, statues)
carries ``"source"`` (as in the file), ``"designed": bool`` (some of its values are marked
*(designed)* in the spec) and ``"designedFields"`` (which ones), with ``"spec"`` (the section).
"""

from __future__ import annotations

import re
from typing import Any

from domain.amun_re import data
from domain.contract import JSON

SPEC = "amun-re.md"


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def designed_fields(source: Any) -> list[str]:
    """The fields a source marks as designed: ``{"bank": "designed", ...}`` or
    ``"effect: BASE; count: designed"``; ``"*"`` when the whole entry is (partly) designed."""
    if isinstance(source, dict):
        return sorted(_camel(k) for k, v in source.items() if "designed" in str(v).lower())
    text = str(source or "")
    if "designed" not in text.lower():
        return []
    fields = []
    for part in re.split(r"[;,]", text):
        if ":" in part:
            key, value = part.split(":", 1)
            if "designed" in value.lower():
                fields.append(_camel(key.strip().replace(" ", "_")))
    return fields or ["*"]


def _marked(entry: JSON, source: Any, spec: str) -> JSON:
    fields = designed_fields(source)
    return {
        **entry,
        "source": source,
        "designed": bool(fields),
        "designedFields": fields,
        "spec": f"{SPEC} {spec}",
    }


def _province(p: Any) -> JSON:
    entry = {
        "id": p["id"],
        "name": p["name"],
        "bank": p["bank"],
        "bankOrder": p["bank_order"],
        "region": p["region"],
        "river": p["river"],
        "fields": p["farmer_fields"],
        "cardLimit": p["card_limit"],
        "temples": p["temples"],
        "mine": p["mine_gold"],
        "caravan": p["caravan_gold"],
        "bonus": dict(p["immediate_bonus"]),
        "adjacent": list(p["adjacent"]),
        "facing": list(p["facing"]),
    }
    source = {
        {
            "farmer_fields": "fields",
            "mine_gold": "mine",
            "caravan_gold": "caravan",
            "immediate_bonus": "bonus",
        }.get(k, k): v
        for k, v in p["source"].items()
    }
    return _marked(entry, source, "§5.1")


def _card(c: Any) -> JSON:
    entry = {
        "id": c["id"],
        "name": c["name"],
        "colour": c["colour"],
        "phase": c["phase"],
        "count": c["count"],
        "module": c["module"],
        "effect": c["effect"],
        "playLimit": c.get("play_limit"),
    }
    for key in ("scheme_condition", "scheme_vp", "scheme_vp_with_sobek"):
        if key in c:
            entry[_camel(key)] = c[key]
    return _marked(entry, c.get("source"), "§5.5")


def _tile(t: Any) -> JSON:
    entry = {
        "tile": t["tile"],
        "minTotal": t["min_total"],
        "maxTotal": t["max_total"],
        "goldPerFarmer": t["gold_per_farmer"],
        "camel": t["camel"],
        "templeVp": t["temple_vp"],
    }
    source = {_camel(k): v for k, v in t["source"].items()}
    return _marked(entry, source, "§5.4")


def _statue(s: Any) -> JSON:
    entry = {"id": s["id"], "name": s["name"], "power": s["power"], "applies": s["applies"]}
    return _marked(entry, s.get("source"), "§5.6")


def catalog(rules_version: str) -> JSON:
    """The static catalog (see the module docstring) for rules version ``rules_version``."""
    raw = data._DATA
    start = raw["start_of_game"]
    pyramid = raw["pyramid"]
    offering = raw["offering"]
    statues = raw["statues"]
    tomb = raw["tomb"]
    deck = raw["favour_deck"]
    return {
        "game": "amun_re",
        "rulesVersion": rules_version,
        "dataVersion": raw["data_version"],
        "spec": SPEC,
        "provenanceLegend": dict(raw["provenance_legend"]),
        "players": {"min": data.MIN_PLAYERS, "max": data.MAX_PLAYERS},
        "kingdoms": [
            {"name": k["name"], "rounds": list(k["rounds"])} for k in raw["structure"]["kingdoms"]
        ],
        "phases": list(raw["structure"]["phases"]),
        "startOfGame": {
            "gold": start["gold"],
            "theftCards": start["theft_cards"],
            "architectCards": start["architect_cards"],
            "scribes": start["scribes"],
        },
        "provinceCardsPerPlayer": raw["province_deck"]["cards_per_player"],
        "bidTrack": list(data.BID_TRACK),
        "purchaseCost": {
            "table": dict(raw["purchase_cost"]["table"]),
            "formula": raw["purchase_cost"]["formula"],
            "order": list(raw["purchase_cost"]["order"]),
        },
        "pyramid": {_camel(k): v for k, v in pyramid.items()},
        "offering": {
            "theftValue": offering["theft_value"],
            "theftGold": offering["theft_gold"],
            "adjustment": offering["adjustment"],
            "minGoldOffer": offering["min_gold_offer"],
            "gifts": {_camel(k): v for k, v in offering["gifts"].items()},
            "giftChoices": list(offering["gift_choices"]),
        },
        "offeringTiles": [_tile(t) for t in raw["offering_tiles"]],
        "provinces": [_province(p) for p in raw["provinces"]],
        "adjacency": [dict(e) for e in raw["adjacency_edges"]],
        "favourCards": [_card(c) for c in deck["cards"]],
        "favourColours": dict(deck["colours"]),
        "favourSellValue": deck["sell_value"],
        "statues": {
            "count": statues["count"],
            "perRoundOldKingdom": dict(statues["per_round_old_kingdom"]),
            "list": [_statue(s) for s in statues["list"]],
        },
        "tomb": {
            "tiles": [
                {
                    "id": t["reward"],
                    "reward": t["reward"],
                    "amount": t["amount"],
                    "count": t["count"],
                }
                for t in tomb["tiles"]
            ],
            "rows": list(tomb["rows"]),
            "rowCompleteVp": tomb["row_complete_vp"],
        },
        "pharaoh": {"tokens": raw["pharaoh"]["tokens"], "figures": raw["pharaoh"]["figures"]},
        "scoring": {_camel(k): v for k, v in raw["scoring"].items()},
        "options": {k: dict(v) for k, v in raw["options"].items()},
    }
