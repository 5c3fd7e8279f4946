"""Server-side bots: a bot seat plays whenever it must act.

The levels (``random``, ``greedy``, ``mcts``) and how each picks its action live in
``levels.py`` and the modules it names; they import the domain only. This module finds the bot
that must act (``due_bot``) and records a bot's move on a game table (``record_bot_move``).
Every level plays off the request path, in its own command, by the bot
driver (``driver.py``): a human's command records only what the human caused. A bot's move is a
function of the log: it is decided from the table's seed and the version it is decided at
(``levels.bot_rng``), and recorded with the command ``bot:<seat>:<version>``.
"""

from __future__ import annotations

import copy

from domain import table as tables
from domain.contract import JSON
from domain.engine import play
from domain.randomness import rng_for
from domain.registry import rules_for
from service.app.bots.levels import DEFAULT_LEVEL, LEVELS, UnknownLevel, check_level
from service.app.errors import BadInput
from service.app.tables import finish_if_over, record_steps
from service.store import GameTable


def check_strategy(strategy: str | None) -> str:
    """The level a new bot plays (``random`` by default), or ``BAD_INPUT``."""
    try:
        return check_level(strategy)
    except UnknownLevel as unknown:
        raise BadInput(str(unknown)) from None


def bot_level(table: tables.Table, seat: int) -> str | None:
    """The level of the bot that plays ``seat`` now (``None``: a human plays it): its holder's,
    or the table's take-over level while the seat is taken over (``Table.bot_level``)."""
    level = table.bot_level(seat) if seat < len(table.holders) else None
    if level is None:
        return None
    return level if level in LEVELS else DEFAULT_LEVEL


def due_bot(table: tables.Table) -> tuple[int, str] | None:
    """The first seat a bot plays that must act now, and its level (``None``: no bot is due)."""
    if table.status != tables.ACTIVE or table.game is None:
        return None
    rules = rules_for(table.kind)
    for seat in rules.active_seats(table.game):
        level = bot_level(table, seat)
        if level is not None:
            return seat, level
    return None


def bots_alone(table: tables.Table) -> bool:
    """A running game where no person holds any seat: nothing to wait for, it ends at once
    (``BotDriver``: ``tables.abandoned_for_bots``)."""
    return table.status == tables.ACTIVE and not table.person_seats()


def unattended(table: tables.Table) -> bool:
    """A running game whose persons' seats are all taken over by bots after their time ran
    out: no bot plays it (nobody would be playing against them); it waits for a person to
    reclaim their seat, and ends at ``Table.unattended_until`` (the clock scheduler)."""
    return table.status == tables.ACTIVE and bool(table.person_seats()) and not table.human_seats()


def record_bot_move(game: GameTable, seat: int, action: JSON) -> None:
    """Record the bot's ``action`` for ``seat`` as the command ``bot:<seat>:<version>``, with
    the table's randomness at this version, then the end of the game if it came."""
    table = game.table
    rules = rules_for(table.kind)
    steps, _ = play(
        rules, copy.deepcopy(table.game), seat, action, rng_for(table.seed, game.version)
    )
    record_steps(game, steps, seat, action, None, f"bot:{seat}:{game.version}")
    finish_if_over(game, rules)
