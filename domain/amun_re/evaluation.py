"""The bots' judgement of an Amun-Re position (``GameModule.evaluate``): every seat's projected
points, read from the seat's view or a determinization of it (``docs/rules/amun-re.md``).

The victory points (§4), plus ``KINGDOM`` times the
kingdom scoring the seat would get now (§13, R13.2-R13.7: pyramids, weakest province, farmers,
temples, bank majorities, Schemes), plus material: ``STONE`` per loose stone in its provinces
(three make a pyramid, R7.7), ``GOLD`` per gold (gold buys stones and farmers, §10.2, and scores
the end-of-game bonus, R15.2), ``CARD`` per Favour card in hand (§5.5) and, during the auction,
``PROVINCE`` for a standing bid less ``GOLD`` per gold it will cost (§9.6: the standing bid wins
the province and is paid).
"""

from __future__ import annotations

from typing import Any

from domain.amun_re import scoring as amun_scoring
from domain.amun_re.state import hand_size

#: material terms
KINGDOM = 1.0
STONE = 0.4
GOLD = 0.2
CARD = 0.5
PROVINCE = 3.0


def projected(state: Any) -> list[float]:
    """Amun-Re: VP plus a share of the kingdom scoring now, plus gold and cards (module doc)."""
    points = [float(v) for v in state.vp]
    if state.phase == "over":
        return points
    if state.owned and state.pyramids:
        for line in amun_scoring.score_kingdom(state):
            points[line["seat"]] += KINGDOM * line["total"]
    for seat in range(state.seats):
        points[seat] += GOLD * state.gold[seat] + CARD * hand_size(state, seat)
        points[seat] += STONE * sum(state.stones[p] for p in state.owned[seat])
    if state.phase == "auction":
        for seat, card in enumerate(state.bid_on):
            if card >= 0 and state.standing[card] == seat:
                points[seat] += PROVINCE - GOLD * state.bid_value[seat]
    return points
