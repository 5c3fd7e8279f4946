"""What a subscriber of a game is pushed: the ``Step`` of each entry (the entry as the caller
may see it, and what the subscription selected of the table right after it), computed once
per entry, caller and selection and shared (issue #22: the push path).

``fold`` walks a subscriber's new entries. The table right after the game's last entry is the
cached game's own (read, never changed), so a live subscriber folds nothing; the entries before
it are folded into a copy, only when a step must be computed. The steps go into the hub's memo
(``Hub.shared``) by game, entry, version now, player and selection: every socket of one player
and every spectator are handed the same ``Step``, and the subscription resolver the same GraphQL
object made of it (``Step.made``), which ``streaming`` then executes once.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from domain import table as tables
from domain.contract import JSON
from domain.registry import rules_for
from service.api.graphql.gameviews import typed_view
from service.app import numbering, views
from service.app.cache import Memo
from service.app.caller import Caller
from service.app.clocks import clock_view_at
from service.app.tables import GameTable, Recorded

#: what a subscription may select of the table right after each entry (``Step``)
STATE, VIEW, LEGAL_ACTIONS, CLOCK = "state", "view", "legalActions", "clock"


@dataclass(frozen=True, slots=True)
class Step:
    """One entry of the caller's log, and the table right after it as the caller may see it
    (``None``: not selected)."""

    event: JSON
    status: str
    active_seats: list[int]
    state: JSON | None = None
    view: Any = None
    legal_actions: list[JSON] | None = None
    clock: JSON | None = None
    #: what a subscription makes of this step (its GraphQL object), made once where the step
    #: is shared (``fold``): the hub's executions then find the same object
    made: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


class Unknown(Exception):
    """A step not computed yet (``fold(known_only=True)``)."""


def fold(
    table: tables.Table | None,
    records: list[Recorded],
    current: GameTable,
    caller: Caller,
    log: numbering.Timeline,
    floor: int,
    revealed: bool,
    needs: frozenset[str],
    shared: Memo | None = None,
    known_only: bool = False,
) -> tuple[tables.Table | None, list[Step]]:
    """The ``Step`` of each of ``records`` in the caller's log after its number ``floor``, and
    the table right after the last of them; ``current``: the game now (an entry is shown as the
    caller may see it now).

    ``table`` (the table right after the entry before ``records``) is never changed: it may be
    the game's own, shared by every reader. The table right after the game's last entry is
    ``current``'s, so a live subscriber folds nothing; only entries before it are folded, into
    a copy, and only when a step must be computed. ``shared`` (the hub's) holds the steps
    computed here, by game, entry, version now, player and selection: another subscriber of
    the same caller, or any spectator, is handed the same ``Step``.
    """
    now = current.table
    rules = rules_for(now.kind)
    steps: list[Step] = []
    behind: list[Recorded] = []  # entries after ``table`` not folded into it yet
    private = False  # ``table`` is this call's own copy

    def folded() -> tables.Table:
        nonlocal table, private
        if known_only and behind:
            raise Unknown  # entries to fold: work for a worker
        for entry in behind:
            if table is None:
                table, private = tables.start(entry), True
                continue
            if not private:
                table, private = copy.deepcopy(table), True
            table = tables.evolve(table, entry, rules)
        behind.clear()
        assert table is not None
        return table

    for record in records:
        if record.version == current.version:
            table, private = now, False
            behind.clear()
        else:
            behind.append(record)
        if not (log.sees(record.version) and log.number(record.version) > floor):
            continue
        key = (current.id, record.version, current.version, caller.player_id, revealed, needs)
        known = shared.get(key) if shared is not None else None
        if known is not None and known[0] == record and known[1] == log:
            steps.append(known[2])
            continue
        if known_only:
            raise Unknown
        shown = views.event(now, record, caller, log)
        made = step(folded(), shown, caller, revealed, needs)
        if shared is not None:
            shared.put(key, (record, log, made))
        steps.append(made)
    if behind:
        folded()
    return table, steps


def step(
    table: tables.Table,
    event: JSON,
    caller: Caller,
    revealed: bool,
    needs: frozenset[str],
) -> Step:
    """The ``Step`` of an entry shown as ``event``, ``table`` being the table right after it."""
    shown = views.state(table, caller, revealed=revealed) if needs & {STATE, VIEW} else None
    return Step(
        event=event,
        status=table.status,
        active_seats=views.active_seats(table),
        state=shown if STATE in needs else None,
        view=typed_view(table.kind, shown) if VIEW in needs and shown else None,
        legal_actions=views.legal_actions(table, caller) if LEGAL_ACTIONS in needs else None,
        clock=clock_view_at(table) if CLOCK in needs else None,
    )
