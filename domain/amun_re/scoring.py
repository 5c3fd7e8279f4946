"""Kingdom scoring (§13, R13.1-R13.8) and the end-of-game computations (R15.2 gold bonus,
R15.4 winner and tie-break).

All items are computed on the state at the start of the scoring, for every player, before any
Scheme card is discarded (R13.1, R13.7, D-27). Options: ``no_farmer_points`` skips R13.4;
``classic_bank_majority`` scores R13.6(b) instead of R13.6(a). Statues: the Isis statue is one
more temple in its province (R13.5), the Sobek holder's Schemes score 4 (R13.7); Tribute and
Pharaoh's Blessing are Scheme conditions (``scheme_holds``).
"""

from __future__ import annotations

from typing import Any

from domain.amun_re import data
from domain.amun_re.board import discard_card
from domain.amun_re.state import State, hand_size, has_statue


def scheme_holds(state: State, seat: int, check: dict[str, Any]) -> bool:
    """R13.7 Scheme conditions (table of R13.7, data ``scheme_check``)."""
    kind = check["kind"]
    owned = state.owned[seat]
    if kind == "min_other_favour_cards_in_hand":
        return hand_size(state, seat) - 1 >= check["min"]
    if kind == "min_farmers_in_own_provinces":
        return sum(state.farmers[p] for p in owned) >= check["min"]
    if kind == "all_provinces_in_one_class":
        table = {"bank": data.BANK, "river": data.RIVER, "region": data.REGION}[check["attribute"]]
        return bool(owned) and any(all(table[p] == c for p in owned) for c in check["classes"])
    if kind == "min_statue_cards":  # R16.2.5 Tribute
        return sum(1 for h in state.statue_holder if h == seat) >= check["min"]
    if kind == "min_pharaoh_tokens":  # R16.3.3 Pharaoh's Blessing
        return bool(state.tokens) and state.tokens[seat] >= check["min"]
    return False


def temples(state: State, province: int) -> int:
    """R13.5: printed temples, +1 where the Isis statue stands (D-3)."""
    isis = 1 if state.statue_at and state.statue_at[province] == data.ISIS else 0
    return data.TEMPLES[province] + isis


def bank_winners(state: State, bank: str) -> set[int]:
    """R13.6: the players scoring the majority of one bank (a) per player, (b) classic."""
    seats = range(state.seats)
    if state.options.get("classic_bank_majority"):
        kept = [
            p
            for s in seats
            for p in state.owned[s]
            if data.BANK[p] == bank and state.pyramids[p] >= 1
        ]
        if not kept:
            return set()
        best = max((state.pyramids[p], state.stones[p]) for p in kept)
        return {state.owner[p] for p in kept if (state.pyramids[p], state.stones[p]) == best}
    totals = {}
    for s in seats:
        mine = [p for p in state.owned[s] if data.BANK[p] == bank]
        pyramids = sum(state.pyramids[p] for p in mine)
        if pyramids >= 1:
            totals[s] = (pyramids, sum(state.stones[p] for p in mine))
    if not totals:
        return set()
    best = max(totals.values())
    return {s for s, key in totals.items() if key == best}


def score_kingdom(state: State) -> list[dict[str, Any]]:
    """R13.2-R13.7 for every player: the public breakdown (R13.8)."""
    banks = {b: bank_winners(state, b) for b in data.BANKS}
    out = []
    for s in range(state.seats):
        owned = state.owned[s]
        pyramids = [state.pyramids[p] for p in owned]
        farmers = sum(state.farmers[p] for p in owned)
        line: dict[str, Any] = {
            "seat": s,
            "pyramids": data.VP_PER_PYRAMID * sum(pyramids),
            "weakest": data.VP_WEAKEST * min(pyramids, default=0),
            "farmers": 0 if state.options.get("no_farmer_points") else data.VP_PER_FARMER * farmers,
            "temples": data.TEMPLE_VP.get(state.tile, 0) * sum(temples(state, p) for p in owned),
        }
        for b in data.BANKS:
            line[b] = data.VP_BANK_MAJORITY if s in banks[b] else 0
        schemes = [
            data.CARDS[c]
            for c, check in data.SCHEME_CHECKS
            if state.hands[s][c] and scheme_holds(state, s, check)
        ]
        value = data.VP_SCHEME_SOBEK if has_statue(state, s, data.SOBEK) else data.VP_SCHEME
        line["schemes"] = value * len(schemes)
        line["total"] = sum(v for k, v in line.items() if k != "seat")
        line["schemes_scored"] = schemes
        out.append(line)
    return out


def apply_kingdom_scored(state: State, d: dict[str, Any], seat: int | None) -> None:
    """R13.7: VP added; every Scheme card that scored is discarded face up."""
    for line in d["players"]:
        s = line["seat"]
        state.vp[s] += line["total"]
        for card in line["schemes_scored"]:
            discard_card(state, s, data.CARD_INDEX[card])
    state.last_scoring = d["players"]
    state.phase = "scored"


def gold_bonus(golds: list[int]) -> list[int]:
    """R15.2: place = 1 + players with strictly more gold; places 1-3 score 6/4/2."""
    out = []
    for g in golds:
        place = 1 + sum(1 for h in golds if h > g)
        out.append(data.FINAL_GOLD_VP[place - 1] if place <= len(data.FINAL_GOLD_VP) else 0)
    return out


def tie_key(state: State, seat: int, vp: int) -> tuple[int, int, int]:
    """R15.4 (C-9): VP, then pyramids, then loose stones in the provinces he controls."""
    owned = state.owned[seat]
    return (vp, sum(state.pyramids[p] for p in owned), sum(state.stones[p] for p in owned))


def ranks(state: State, vps: list[int]) -> list[int]:
    """R15.4: rank 1 = winner(s); equal keys share a rank."""
    keys = [tie_key(state, s, vps[s]) for s in range(state.seats)]
    return [1 + sum(1 for other in keys if other > key) for key in keys]
