"""The bots' judgement of a Scarab position (``GameModule.evaluate``): every seat's projected
points, read from a determinization (``service.app.bots.levels.determinize``: the hands the bot
cannot see are re-dealt, so reading every hand here reads nothing secret).

The score (R3.1) plus ``HAND`` points per point of card value still in hand: a card in hand is
worth some of its value later (it scores only when it beats the top card, R3.1, and the game ends
with every hand empty, R6, so at the end the material term is zero and the projection is the
score). The weight is below one so that scoring a card now beats keeping it.
"""

from __future__ import annotations

from typing import Any

#: projected points per point of card value in hand
HAND = 0.4


def projected(state: Any) -> list[float]:
    """Scarab: the score plus ``HAND`` times the values in hand (module docstring)."""
    points = [float(score) for score in state.scores]
    if state.over:
        return points
    for seat, hand in enumerate(state.hands):
        points[seat] += HAND * sum(hand)
    return points
