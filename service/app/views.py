"""What a caller may see of a game: every read path (GraphQL, REST, subscriptions) goes here.

The secrets are decided by each game's own allow-list views (``Rules.view`` and
``Rules.view_event``) and by ``domain.table.view_table_event``; this module only works out who the
caller is at the table and whether the game is over (then everything is revealed).

**The caller's log** (``Timeline``): an entry the caller may not see at all (another seat's
private Offering step, ``domain.visibility``) is not part of it. The caller's log is numbered
1, 2, … without such entries, and every version a read path shows or takes (``Game.version``,
an event's version, cursors, ``stateAt``, ``replay``, ``afterVersion``, ``expectedVersion``,
undo versions) is a number of the caller's log; ``updatedAt`` is the time of its last entry.
So nothing the caller reads changes with another seat's private steps, not even their count.
While nothing is hidden from the caller (always, once the game is over) its log is the log and
its numbers are the versions.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from domain import table as tables
from domain.contract import JSON, Event
from domain.log import Entry
from domain.registry import rules_for
from service.app.caller import Caller

if TYPE_CHECKING:
    from service.app.numbering import Timeline

HIDDEN = "hidden"


def seats_of(table: tables.Table, caller: Caller) -> list[int]:
    return table.seats_of(caller.player_id) if caller.player_id else []


def my_seat(table: tables.Table, caller: Caller) -> int | None:
    """The seat whose secrets the caller sees: the one that must act now, else the first held."""
    seats = seats_of(table, caller)
    if not seats:
        return None
    if table.status == tables.ACTIVE:
        active = rules_for(table.kind).active_seats(table.game)
        for seat in seats:
            if seat in active:
                return seat
    return seats[0]


def is_revealed(table: tables.Table) -> bool:
    """Once the game is over, all hidden information is revealed (both specs allow it)."""
    return table.status == tables.FINISHED


def active_seats(table: tables.Table) -> list[int]:
    if table.status != tables.ACTIVE:
        return []
    return list(rules_for(table.kind).active_seats(table.game))


def state(table: tables.Table, caller: Caller, *, revealed: bool | None = None) -> JSON:
    if table.game is None:
        return {}
    full = is_revealed(table) if revealed is None else revealed
    return rules_for(table.kind).view(table.game, my_seat(table, caller), full)


def legal_actions(table: tables.Table, caller: Caller) -> list[JSON]:
    if table.status != tables.ACTIVE:
        return []
    seat = my_seat(table, caller)
    if seat is None:
        return []
    return rules_for(table.kind).legal_actions(table.game, seat)


def scores(table: tables.Table) -> list[int]:
    if table.game is None:
        return [0] * table.seats
    return list(rules_for(table.kind).scores(table.game))


def event(table: tables.Table, record: Entry, caller: Caller, log: Timeline | None = None) -> JSON:
    """One log entry as the caller may see it now; ``log`` (the caller's ``Timeline``) numbers
    it in the caller's log, and the versions an undo entry names too.

    A redacted entry does not say whether it was automatic (that alone can give a secret away,
    e.g. a forced commitment tells that the seat had nothing to offer). An entry the caller may
    not see at all is not part of its log (leave it out: ``Timeline.sees``); asked for anyway,
    it shows only its version, time and hash (salted with the secret seed, so it tells nothing).
    A caller holding several seats sees a seat's own entry as that seat.
    """
    full = is_revealed(table)
    shown: Event | None
    if record.type in tables.TABLE_EVENTS:
        shown = tables.view_table_event(record.event, full)
        if log is not None and (log.shown is not None or log.forked_at is not None):
            shown = Event(shown.type, log.renumber(shown.type, shown.data), shown.seat)
    else:
        held = seats_of(table, caller)
        seat = record.seat if record.seat in held else my_seat(table, caller)
        shown = rules_for(table.kind).view_event(record.event, seat, full)
    common = {
        "version": record.version if log is None else log.number(record.version),
        "at": datetime.fromisoformat(record.at),
        "hash": record.hash,
        "undone": record.version in table.undone,
    }
    if shown is None:
        return {
            **common,
            "seat": None,
            "type": HIDDEN,
            "data": {},
            "automatic": False,
            "by_seat": None,
        }
    intact = shown == record.event
    return {
        **common,
        "seat": shown.seat,
        "type": shown.type,
        "data": shown.data,
        "automatic": record.automatic if intact else False,
        "by_seat": record.by_seat,
    }


def result(table: tables.Table) -> JSON | None:
    outcome = table.outcome
    if outcome is None:
        return None
    return {"scores": outcome.scores, "winners": outcome.winners, "ranks": outcome.ranks}


def seat_list(table: tables.Table) -> list[dict[str, Any]]:
    return [
        {
            "seat": seat,
            "player_id": holder.player_id if holder else None,
            "name": holder.name if holder else None,
            "is_bot": bool(holder and holder.bot),
            "strategy": holder.bot if holder else None,
            "taken_over": table.clock is not None and seat in table.clock.taken_over,
        }
        for seat, holder in enumerate(table.holders)
    ]
