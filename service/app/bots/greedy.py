"""The ``greedy`` level: the best immediate gain under the game's evaluation.

On one determinization of the position (``levels.determinize``: the seat's view, the hidden
items re-dealt), every legal action is played with ``domain.engine.play`` (so the automatic
steps it triggers count: a ship's delivery, a forced scoring) and the position after it is
valued by ``evaluation.value`` (the seat's projected points minus the best other seat's). Ties
go to a seeded draw among the best. Randomness an action draws (a card from the pile) comes
from the bot's generator, never from the table's seed.
"""

from __future__ import annotations

import copy
from typing import Any

from domain.contract import JSON, Rules
from domain.engine import play
from service.app.bots import evaluation
from service.app.bots.levels import Budget, bot_rng, determinize

#: two values closer than this are a tie
EPSILON = 1e-9


def ranked(
    rules: Rules[Any], position: Any, seat: int, actions: list[JSON], rng: Any
) -> list[tuple[float, int]]:
    """(value after the action, index) for every one of ``actions``, the legal actions of
    ``seat`` on ``position``."""
    out = []
    for index, action in enumerate(actions):
        _, after = play(rules, copy.deepcopy(position), seat, action, rng)
        out.append((evaluation.value(rules, after, seat), index))
    return out


def choose(
    rules: Rules[Any], state: Any, seat: int, seed: str, version: int, budget: Budget
) -> JSON:
    rng = bot_rng("greedy", seed, version, seat)
    position = determinize(rules, state, seat, rng)
    actions = rules.legal_actions(position, seat)
    scored = ranked(rules, position, seat, actions, rng)
    best = max(v for v, _ in scored)
    top = [i for v, i in scored if v >= best - EPSILON]
    return actions[rng.choice(top)]
