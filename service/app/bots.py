"""Server-side bots: a bot seat plays whenever it must act, in the command that made it due.

The ``random`` strategy picks uniformly among the legal actions, with a chooser seeded from
the game's seed and version, so a bot's move is a function of the log (replays never re-roll).
"""

from __future__ import annotations

import copy
import random

from domain import table as tables
from domain.engine import play
from domain.randomness import rng_for
from domain.registry import rules_for
from service.app.errors import BadInput
from service.app.tables import finish_if_over, record_steps
from service.store import GameTable

STRATEGIES = ("random",)


def check_strategy(strategy: str | None) -> str:
    """The strategy a new bot plays (``random`` by default), or ``BAD_INPUT``."""
    strategy = strategy or "random"
    if strategy not in STRATEGIES:
        raise BadInput(
            f"Unknown bot strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}."
        )
    return strategy


def run_bots(game: GameTable) -> None:
    """Let the bots play while one of their seats must act (recorded in the same save)."""
    table = game.table
    if table.status != tables.ACTIVE or not table.bot_seats():
        return
    rules = rules_for(table.kind)
    bots = set(table.bot_seats())
    while table.status == tables.ACTIVE:
        due = [s for s in rules.active_seats(table.game) if s in bots]
        if not due:
            return
        seat = due[0]
        chooser = random.Random(f"bot:{table.seed}:{game.version}")
        action = chooser.choice(rules.legal_actions(table.game, seat))
        steps, _ = play(
            rules, copy.deepcopy(table.game), seat, action, rng_for(table.seed, game.version)
        )
        record_steps(game, steps, seat, action, None, f"bot:{seat}:{game.version}")
        finish_if_over(game, rules)
        table = game.table
