"""Undo policy, computed from the log.

* An undo goes back to the game as it was right after ``to_version``; it is recorded as new
  entries, never by deleting: the undone entries stay in the log, marked as undone.
* It never crosses an irreversible entry (a random draw or a reveal, ``Table.barrier``) and
  always lands between two commands.
* A seat takes back its own last command(s) at once when every command since ``to_version``
  is its own; anything that crosses another seat's command needs every other human seat to
  accept (bots accept). A table created with ``undo: false`` (ranked play) allows none.
* Entries the asking seat cannot see at all (other seats' private steps in a simultaneous step,
  Amun-Re's Offering, ``domain.visibility``) do not count and are not taken back: they stay in
  the game (``undone_by``), as if they had come after the undo. Otherwise whether a seat may take
  back its own steps, at once or only with consent, would tell it that others took private steps
  meanwhile (and the undo would take back steps of theirs). Such steps never depend on what the
  asking seat did: they are independent decisions of a simultaneous step, before its reveal.
  For that to hold, an undo asked for stays inside the simultaneous step it starts in
  (``leaves_simultaneous_step``: it never takes back the start of one, whoever acted in it
  since; checked when an undo is asked for, not by the audit of logs written before).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from domain import visibility
from domain.log import Entry
from domain.registry import rules_for
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


def hidden_from(table: Table, seat: int) -> frozenset[int]:
    """The versions of the kept game entries that ``seat``'s player cannot see at all."""
    holder = table.holders[seat] if 0 <= seat < len(table.holders) else None
    mine = table.seats_of(holder.player_id) if holder and holder.player_id else [seat]
    rules = rules_for(table.kind)
    return frozenset(
        e.version for e in table.history if not visibility.sees_event(rules, e.event, mine)
    )


def commands_after(
    table: Table, to_version: int, hidden: frozenset[int] = frozenset()
) -> list[list[Entry]]:
    """The game entries after ``to_version`` (except the ``hidden`` ones), grouped by the
    command that recorded them."""
    groups: list[list[Entry]] = []
    for entry in table.history:
        if entry.version <= to_version or entry.version in hidden:
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


def judge(table: Table, seat: int, to_version: int, number: Callable[[int], int] = int) -> Verdict:
    """May ``seat`` take the game back to right after ``to_version``, and how? ``number``
    writes a version in the reasons as the asking player reads it (the number of its log)."""
    if not table.undo_allowed:
        return refuse("Undo is switched off at this table (ranked play).")
    if table.status != ACTIVE:
        return refuse("Only a running game can be taken back.")
    if table.undo_request is not None:
        return refuse("Another undo request is waiting for answers.")
    hidden = hidden_from(table, seat)
    seen = [e for e in table.history if e.version not in hidden]
    last = seen[-1].version if seen else table.barrier
    if to_version >= last:
        return refuse(f"There is nothing to take back after version {number(to_version)}.")
    if to_version < table.barrier:
        return refuse(
            f"An undo never crosses a random draw or a reveal of hidden information; "
            f"the earliest version to go back to is {number(table.barrier)}."
        )
    if not is_command_start(table, to_version):
        return refuse(
            f"Version {number(to_version)} is in the middle of an action; pick its start."
        )
    groups = commands_after(table, to_version, hidden)
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
    for group in reversed(commands_after(table, 0, hidden_from(table, seat))):
        actor = group[0].by_seat
        if actor == seat:
            return group[0].version - 1
        if actor not in bots:
            return None
    return None


def leaves_simultaneous_step(table: Table, seat: int, to_version: int) -> bool:
    """The undo would take back the start of a step in which several seats act at once
    (Amun-Re's Offering, final sale) and that ``seat`` was not already in at ``to_version``:
    other seats may have decided in secret since. Public: it depends on who had to act when,
    never on the private steps themselves."""
    rules = rules_for(table.kind)
    state = rules.initial(table.seats, table.options)
    later = []
    for entry in table.history:
        if entry.version <= to_version:
            state = rules.evolve(state, entry.event)
        else:
            later.append(entry)
    active = rules.active_seats(state)
    if seat in active and len(active) > 1:
        return False  # inside the simultaneous step that is on at ``to_version``
    for entry in later:
        state = rules.evolve(state, entry.event)
        if len(rules.active_seats(state)) > 1:
            return True
    return False


#: why an undo is refused across the start of a simultaneous step
SIMULTANEOUS = (
    "An undo never goes back across the start of a step the seats take at the same time (the "
    "others may have decided in secret since): take back only steps inside it."
)


def undone_by(table: Table, seat: int, to_version: int) -> list[int]:
    """The entries an undo by ``seat`` back to ``to_version`` takes back: every kept game entry
    after it except those ``seat`` cannot see (module docstring)."""
    hidden = hidden_from(table, seat)
    return [e.version for e in table.history if e.version > to_version and e.version not in hidden]


def can_undo(table: Table, seat: int | None, number: Callable[[int], int] = int) -> Verdict:
    """Whether ``seat`` may take back its last action right now, with the reason."""
    if seat is None:
        return refuse("Spectators cannot undo.")
    to_version = last_own_start(table, seat)
    if to_version is None:
        if not table.undo_allowed:
            return refuse("Undo is switched off at this table (ranked play).")
        return refuse("Your seat has no action of its own to take back at the moment.")
    verdict = judge(table, seat, to_version, number)
    if verdict.allowed and leaves_simultaneous_step(table, seat, to_version):
        return refuse(SIMULTANEOUS)
    return verdict
