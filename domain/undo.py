"""Undo policy, computed from the log.

* An undo goes back to the game as it was right after ``to_version``; it is recorded as new
  entries, never by deleting: the undone entries stay in the log, marked as undone.
* It never crosses an irreversible entry (a random draw or a reveal, ``Table.barrier``) and
  always lands between two commands.
* A seat takes back its own last command(s) at once when every command since ``to_version``
  is its own; anything that crosses another seat's command needs every other human seat to
  accept (bots accept). A table created with ``undo: false`` (ranked play) allows none.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.log import Entry
from domain.table import ACTIVE, Table


@dataclass(frozen=True, slots=True)
class Verdict:
    """``allowed``: the undo may happen; ``immediate``: without asking anybody;
    ``waiting``: the seats that must accept first; ``reason``: why not, or what happens."""

    allowed: bool
    immediate: bool = False
    waiting: tuple[int, ...] = ()
    reason: str = ""


def refuse(reason: str) -> Verdict:
    return Verdict(False, reason=reason)


def commands_after(table: Table, to_version: int) -> list[list[Entry]]:
    """The game entries after ``to_version``, grouped by the command that recorded them."""
    groups: list[list[Entry]] = []
    for entry in table.history:
        if entry.version <= to_version:
            continue
        if groups and entry.command is not None and groups[-1][0].command == entry.command:
            groups[-1].append(entry)
        else:
            groups.append([entry])
    return groups


def is_command_start(table: Table, to_version: int) -> bool:
    """True when ``to_version`` lies between two commands (or is the current version)."""
    before = None
    for entry in table.history:
        if entry.version > to_version:
            return before is None or entry.command is None or entry.command != before.command
        before = entry
    return True


def judge(table: Table, seat: int, to_version: int) -> Verdict:
    """May ``seat`` take the game back to right after ``to_version``, and how?"""
    if not table.undo_allowed:
        return refuse("Undo is switched off at this table (ranked play).")
    if table.status != ACTIVE:
        return refuse("Only a running game can be taken back.")
    if table.undo_request is not None:
        return refuse("Another undo request is waiting for answers.")
    last = table.history[-1].version if table.history else table.barrier
    if to_version >= last:
        return refuse(f"There is nothing to take back after version {to_version}.")
    if to_version < table.barrier:
        return refuse(
            f"An undo never crosses a random draw or a reveal of hidden information; "
            f"the earliest version to go back to is {table.barrier}."
        )
    if not is_command_start(table, to_version):
        return refuse(f"Version {to_version} is in the middle of an action; pick its start.")
    groups = commands_after(table, to_version)
    others = {g[0].by_seat for g in groups if g[0].by_seat != seat}
    if None in others:
        return refuse("The game itself moved on since then; that cannot be taken back.")
    if not others:
        return Verdict(True, immediate=True, reason="your own last action(s)")
    holder = table.holders[seat]
    mine = set(table.seats_of(holder.player_id)) if holder and holder.player_id else {seat}
    humans = set(table.human_seats())
    waiting = tuple(sorted(s for s in humans if s != seat and s not in mine))
    if not waiting:
        return Verdict(True, immediate=True, reason="only bots acted since; bots accept")
    return Verdict(True, waiting=waiting, reason="other seats acted since: they must accept")


def last_own_start(table: Table, seat: int) -> int | None:
    """The version to go back to for taking back the seat's last action: the start of its last
    command, provided only bots (who accept) acted after it; ``None`` otherwise."""
    bots = set(table.bot_seats())
    for group in reversed(commands_after(table, 0)):
        actor = group[0].by_seat
        if actor == seat:
            return group[0].version - 1
        if actor not in bots:
            return None
    return None


def can_undo(table: Table, seat: int | None) -> Verdict:
    """Whether ``seat`` may take back its last action right now, with the reason."""
    if seat is None:
        return refuse("Spectators cannot undo.")
    to_version = last_own_start(table, seat)
    if to_version is None:
        if not table.undo_allowed:
            return refuse("Undo is switched off at this table (ranked play).")
        return refuse("Your seat has no action of its own to take back at the moment.")
    return judge(table, seat, to_version)
