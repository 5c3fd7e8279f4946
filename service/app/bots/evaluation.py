"""Per-game evaluations of a position for one seat: the ``greedy`` level's whole judgement, the
``mcts`` level's value of a cut-off rollout.

``value(rules, state, seat)`` is the seat's *projected points* minus the best other seat's: what
the seat would score if the game were scored now, plus small material terms for what is worth
points later. Everything it reads is in the seat's view or in a determinization of it (the
bots never hand it a true state with hidden parts: ``service.app.bots.levels.determinize``).

**Imhotep** (``../shared/rules/imhotep.md``): the score track (§4), plus what would be scored
now if the round and the game ended: the temple's visible stones on side A (§8.5, §12 step 2),
the burial chamber (§13 F1, §8.7/§8.8), the obelisks (§13 F2, §8.9/§8.10), green and purple
cards (§13 F3-F4, §9.5), unused blue cards (§13 F5), the Wrath of the Pharaoh (§13 F6, R-22,
when on); plus material: ``SHIP`` per own stone on a ship that has not sailed yet (a stone on
its way to a site, §6.2), ``SLED`` per stone on the sled (§6.1) and ``QUARRY`` per stone still
in the quarry. A stone gains value as it moves on (quarry < sled < ship < site), so the
evaluation favours getting stones, loading them and sailing them where they score.

**Amun-Re** (``../shared/rules/amun-re.md``): the victory points (§4), plus ``KINGDOM`` times the
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
from domain.contract import Rules
from domain.imhotep import scoring as imhotep_scoring

#: Imhotep material terms (points per stone)
SHIP = 1.0
SLED = 0.5
QUARRY = 0.05
#: Amun-Re material terms
KINGDOM = 1.0
STONE = 0.4
GOLD = 0.2
CARD = 0.5
PROVINCE = 3.0


def projected_imhotep(state: Any) -> list[float]:
    """Imhotep: the score track plus what a scoring now would add, plus material (module doc)."""
    points = [float(p) for p in state.scores]
    if state.over:
        return points
    parts = [
        imhotep_scoring.burial_chamber(state),
        imhotep_scoring.obelisks(state),
        imhotep_scoring.decorations(state),
        imhotep_scoring.statues(state),
        imhotep_scoring.blue_cards(state),
    ]
    if state.sides.get("temple") == "A":
        parts.append(imhotep_scoring.temple_a(state))
    if state.wrath:
        parts.append(imhotep_scoring.wrath(state))
    for part in parts:
        for seat, p in enumerate(part):
            points[seat] += p
    for seat in range(state.n):
        points[seat] += SLED * state.sleds[seat] + QUARRY * state.quarries[seat]
    for ship in state.ships:
        if ship.site is None:
            for owner in ship.slots:
                if owner >= 0:
                    points[owner] += SHIP
    return points


def projected_amun_re(state: Any) -> list[float]:
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


PROJECTIONS = {"imhotep": projected_imhotep, "amun_re": projected_amun_re}


def projected(rules: Rules[Any], state: Any) -> list[float]:
    """Every seat's projected points on ``state`` (module docstring)."""
    return PROJECTIONS[rules.kind](state)


def lead(points: list[float], seat: int) -> float:
    """The seat's points minus the best other seat's."""
    others = [p for s, p in enumerate(points) if s != seat]
    return points[seat] - max(others, default=0.0)


def value(rules: Rules[Any], state: Any, seat: int) -> float:
    """The seat's projected lead on ``state`` (module docstring)."""
    return lead(projected(rules, state), seat)
