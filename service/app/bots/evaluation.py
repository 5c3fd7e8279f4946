"""Per-game evaluations of a position for one seat: the ``greedy`` level's whole judgement, the
``mcts`` level's value of a cut-off rollout.

``value(rules, state, seat)`` is the seat's *projected points* minus the best other seat's: what
the seat would score if the game were scored now, plus small material terms for what is worth
points later. Everything it reads is in the seat's view or in a determinization of it (the
bots never hand it a true state with hidden parts: ``service.app.bots.levels.determinize``).

Each game's own evaluation is its ``GameModule.evaluate`` (``domain.registry``), declared in the
game's package (the shipped games': ``domain/<game>/evaluation.py``).
"""

from __future__ import annotations

from typing import Any

from domain.contract import Rules
from domain.registry import game


def projected(rules: Rules[Any], state: Any) -> list[float]:
    """Every seat's projected points on ``state`` (the game's ``evaluate``)."""
    return game(rules.kind).evaluate(state)


def lead(points: list[float], seat: int) -> float:
    """The seat's points minus the best other seat's."""
    others = [p for s, p in enumerate(points) if s != seat]
    return points[seat] - max(others, default=0.0)


def value(rules: Rules[Any], state: Any, seat: int) -> float:
    """The seat's projected lead on ``state`` (module docstring)."""
    return lead(projected(rules, state), seat)
