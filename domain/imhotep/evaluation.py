"""The bots' judgement of an Imhotep position (``GameModule.evaluate``): every seat's projected
points, read from the seat's view or a determinization of it (``docs/rules/imhotep.md``).

The score track (§4), plus what would be scored
now if the round and the game ended: the temple's visible stones on side A (§8.5, §12 step 2),
the burial chamber (§13 F1, §8.7/§8.8), the obelisks (§13 F2, §8.9/§8.10), green and purple
cards (§13 F3-F4, §9.5), unused blue cards (§13 F5), the Wrath of the Pharaoh (§13 F6, R-22,
when on); plus material: ``SHIP`` per own stone on a ship that has not sailed yet (a stone on
its way to a site, §6.2), ``SLED`` per stone on the sled (§6.1) and ``QUARRY`` per stone still
in the quarry. A stone gains value as it moves on (quarry < sled < ship < site), so the
evaluation favours getting stones, loading them and sailing them where they score.
"""

from __future__ import annotations

from typing import Any

from domain.imhotep import scoring as imhotep_scoring

#: material terms (points per stone)
SHIP = 1.0
SLED = 0.5
QUARRY = 0.05


def projected(state: Any) -> list[float]:
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
