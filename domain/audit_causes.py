"""Verifying what each entry records about its cause (audits, ``domain.audit``; issue #25).

The replay re-decides every step (its events, seats and automatic flags) and re-derives the
clock (``domain.audit_clock``). An entry also records under which rules it was written, which
seat's command caused it and who submitted that command (``domain.log.Entry``); these are in
the hash chain too, and are what the server wrote, so a re-chained edit of them is named:

* every entry is recorded under the table's rules version (the first entry's);
* every entry of a decided step was caused by the step's seat and submitter, and only its
  first entry holds the action;
* a step of a seat held by a bot is the bot's (no submitter); a step of a seat held by a person
  is that person's, or (``domain.audit_clock``) the table's bot's while the seat is taken over;
* table entries hold no action and are not automatic; a clock entry is its seat's (none for a
  turn start), caused by no seat's command, and submitted by nobody but a reclaim, which is the
  seat's player's; the result is nobody's.
"""

from __future__ import annotations

from domain import clock as clocks
from domain import table as tables
from domain.log import Entry
from domain.redaction import UNSEALED

Fault = tuple[int, str]


def rules_version_problem(table: tables.Table, entry: Entry) -> str | None:
    if entry.rules_version != table.rules_version:
        return (
            f"it is recorded under rules {entry.rules_version!r}, not the table's "
            f"{table.rules_version!r}"
        )
    return None


def step_problem(table: tables.Table, group: list[Entry]) -> Fault | None:
    """A decided step's entries (``group``) and who caused them."""
    first = group[0]
    for entry in group[1:]:
        if (entry.by_seat, entry.actor, entry.action) != (first.by_seat, first.actor, None):
            return entry.version, (
                f"it is part of the step of version {first.version} but not recorded as caused "
                "by that step's seat and submitter"
            )
    seat = first.by_seat
    if type(seat) is not int or not 0 <= seat < table.seats:
        return None  # the replay names it
    holder = table.holders[seat]
    if holder is None:
        return None
    if holder.bot is not None and first.actor is not None:
        return first.version, f"seat {seat} is held by a bot, but this move is a player's"
    if holder.bot is None and first.actor is not None and first.actor != holder.player_id:
        return first.version, (
            f"seat {seat} is held by another player than the one this move is recorded for"
        )
    return None


def table_entry_problem(table: tables.Table, entry: Entry) -> str | None:
    """A table entry recorded by the server: its cause fields."""
    if entry.action is not None or entry.automatic:
        return "a table entry recorded as a decided or automatic step"
    data = entry.data if isinstance(entry.data, dict) else {}
    if entry.type in clocks.EVENTS:
        seat = None if entry.type == clocks.CLOCK_STARTED else data.get("seat")
        if entry.seat != seat or entry.by_seat is not None:
            return "a clock entry recorded for another seat than its clock's"
        actor = None
        if entry.type == clocks.SEAT_RECLAIMED and type(seat) is int and 0 <= seat < table.seats:
            holder = table.holders[seat]
            actor = holder.player_id if holder is not None else None
        if entry.actor != actor:
            return "a clock entry recorded as submitted by somebody else than the clock's"
        if entry.command != CLOCK_COMMANDS.get(entry.type, entry.command):
            return "a clock entry recorded as part of a command that does not record it"
        if entry.type in CLOCK_COMMANDS or str(entry.command).startswith("clock:"):
            return None
        return "an expiry recorded as part of another command than the clock's"
    elif entry.type == tables.GAME_FINISHED:
        if (entry.seat, entry.by_seat, entry.actor, entry.command) != (None, None, None, None):
            return "the result recorded as caused by a seat or a player"
        if set(data) != {"scores", "winners", "ranks"}:
            return "the result records more or less than its scores, winners and ranks"
    elif entry.type == tables.TABLE_CREATED:
        if entry.seat is not None or entry.by_seat is not None:
            return "the table's creation recorded for a seat"
        if entry.actor != data.get("created_by") or not set(data) <= CREATION_KEYS:
            return "the table's creation records more than its creator and its settings"
    elif entry.type == tables.SEAT_TAKEN:
        player = data.get("player_id")
        if entry.seat != data.get("seat") or entry.by_seat is not None:
            return "a seat taken recorded for another seat"
        if (player is not None and entry.actor != player) or not set(data) <= SEAT_KEYS:
            return "a seat taken recorded as taken by somebody else than its player"
    elif entry.type == tables.GAME_STARTED:
        if (entry.seat, entry.by_seat, entry.actor) != (None, None, None):
            return "the game's start recorded as caused by a seat or a player"
        if data != {"seats": table.seats}:
            return "the game's start records something else than its seats"
    return None


def start_problem(group: list[Entry]) -> Fault | None:
    """The game's start and its setup are nobody's steps."""
    for entry in group:
        if entry.by_seat is not None or entry.actor is not None:
            return entry.version, "the game's setup recorded as caused by a seat or a player"
    return None


#: the clock entries recorded after a command's own entries, by no command
#: (``service.app.recording.settle_clock``, ``Clocks.reclaim``); an expiry and its policy's
#: entries are the clock's command's (``clock:<version>``)
CLOCK_COMMANDS: dict[str, str | None] = {
    clocks.CLOCK_STARTED: None,
    clocks.CLOCK_CHARGED: None,
    clocks.SEAT_RECLAIMED: None,
}
#: what the first entry of a table may hold (``domain.table.created``): what everybody sees
#: of it, and the secrets revealed at the end
CREATION_KEYS = frozenset(tables.PUBLIC_CREATION_FIELDS) | {"seed", "seed_salt"}
#: what a seat taken may hold (``service.app.seating``; ``unsealed``: ``domain.redaction``)
SEAT_KEYS = frozenset({"seat", "player_id", "name", "bot", UNSEALED})
