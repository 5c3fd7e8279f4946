"""What commands record on a game besides the decision itself, and a table rebuilt from its
entries (``service.app.tables`` holds the load-decide-save loop that calls these).

``record_steps`` records one decided action as the entries the engine gave (the action itself
kept on the first, for audits); ``finish_if_over`` records the end of a game once its rules give
an outcome; ``settle_clock`` records the entries that keep a timed table's clock in step with
who must act (``Tables.command`` calls it after every command that changed the game), at the
command's one time (``begin_command``).
``replay_table`` rebuilds a table from its stored entries alone, with no store and no cache:
audits and checks use it to compare against the table the log gave.

These are plain functions of a ``GameTable`` (``service.store``) and the pure domain: they never
load or save, so every command stays one load and one save.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain import clock as clocks
from domain import table as tables
from domain.contract import JSON, Rules
from domain.engine import Step
from domain.log import Entry
from domain.registry import rules_for
from service.app.errors import Conflict
from service.store import GameTable
from service.store.entries import milliseconds


def record_steps(
    game: GameTable,
    steps: Sequence[Step],
    seat: int,
    action: JSON,
    actor: str | None,
    command: str,
) -> None:
    """Record one decided action: the action itself is kept on its first entry (for audits)."""
    for number, step in enumerate(steps):
        game.record(
            step.event,
            automatic=step.automatic,
            by_seat=seat,
            command=command,
            action=action if number == 0 else None,
            actor=actor,
        )


def finish_if_over(game: GameTable, rules: Rules[Any]) -> None:
    """Record the end of the game once the rules give its outcome."""
    table = game.table
    if table.status == tables.ACTIVE and table.game is not None:
        outcome = rules.outcome(table.game)
        if outcome is not None:
            game.record(tables.finished(outcome))


def replay_table(entries: Sequence[Entry]) -> tables.Table:
    """The table rebuilt from its stored entries alone (for checks and audits)."""
    table = tables.start(entries[0])
    rules = rules_for(table.kind)
    for entry in entries[1:]:
        table = tables.evolve(table, entry, rules)
    return table


def begin_command(game: GameTable, now: int) -> GameTable:
    """``game``, about to be decided on at the application's time ``now``: the command's one
    time, which its entries are stamped with and its clock entries read (``settle_clock``,
    ``service.app.clocks``), never before the game's last entry (times never go back in a
    log, whatever another process's clock says). ``domain.audit_clock`` holds every clock
    entry's time to its entry's."""
    game.now_ms = max(now, milliseconds(game.modified_on))
    return game


def command_time(game: GameTable, now: int) -> int:
    """The time of the command deciding on ``game`` (``begin_command``), the one its entries
    are stamped with; ``now`` outside a command."""
    return getattr(game, "now_ms", None) or now


def settle_clock(game: GameTable, now: int) -> None:
    """Record the clock entries that make a timed table's clock agree with who must act now
    (``domain.clock.settle``): the turns that ended are charged, the ones that began start.
    ``now``: the application's time, read as the command's (``command_time``) if it has one."""
    now = command_time(game, now)
    table = game.table
    if table.clock is None or table.status == tables.OPEN:
        return
    due = table.clock_due(rules_for(table.kind))
    ended_late = [s for s in clocks.expired(table.clock, now) if s not in due]
    if ended_late and table.status == tables.ACTIVE:
        # a turn this command ends is past its deadline, whose expiry the scheduler has not
        # recorded yet: a turn never ends after its deadline without its expiry
        # (``domain.audit_clock``), so the command waits for it
        raise Conflict(
            f"Seat {ended_late[0]}'s time ran out a moment ago and the table's policy is being "
            "applied: try again in a moment."
        )
    for event in clocks.settle(table.clock, due, now):
        game.record(event)
