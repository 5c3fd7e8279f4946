"""Which entries of a game's log a viewer sees at all: the viewer's log.

An entry that a viewer may not see at all (``Rules.view_event`` gives ``None`` for every seat the
viewer holds: Amun-Re's private Offering steps of another seat, R11.1 / §17) is not part of that
viewer's log: it is left out, not shown as a placeholder, and the viewer's log is numbered
without it (``service.app.views.Timeline``). Otherwise the number of such entries would show in
every read path (a placeholder per entry, the version, the time of the last change), and others
could count how many cards a player marks for sale before the reveal.

A table entry is seen by everybody, with one exception: an undo taken at once
(``actions_undone`` without a request) that takes back only entries the viewer does not see
(a seat taking back its own private steps) is private too, for the same reason.

Once the game is over everything is revealed (``full``): every entry is part of every log.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain import table as tables
from domain.contract import Event, Rules
from domain.log import Entry

#: who is looking: the seats a viewer holds (``[None]``: a spectator)
Seats = Sequence[int | None]


def sees_event(rules: Rules[Any], event: Event, seats: Seats, full: bool = False) -> bool:
    """Some seat of the viewer may see at least a part of the game event."""
    if full:
        return True
    return any(rules.view_event(event, seat, False) is not None for seat in (seats or [None]))


def sees(
    rules: Rules[Any],
    entry: Entry,
    seats: Seats,
    full: bool = False,
    earlier: Callable[[int], Entry | None] = lambda version: None,
) -> bool:
    """The entry is part of the viewer's log. ``earlier(version)`` gives an earlier entry of the
    same log (what an undo took back); an entry it does not know counts as seen."""
    if full:
        return True
    if entry.type not in tables.TABLE_EVENTS:
        return sees_event(rules, entry.event, seats)
    if entry.type == tables.ACTIONS_UNDONE and entry.data.get("request") is None:
        undone = [earlier(v) for v in entry.data.get("undone") or []]
        return not undone or any(e is None or sees(rules, e, seats, full, earlier) for e in undone)
    return True
