"""What the projections get for each entry: the public facts of its game right before and
after it, folded with the rules (never a secret)."""

from __future__ import annotations

import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from domain import table as tables
from domain import visibility
from domain.log import Entry
from domain.registry import rules_for
from service.store.database import Store
from service.store.entries import entry_of, imported_by


@dataclass(frozen=True, slots=True)
class Step:
    """One entry with the public facts of its game before and after it."""

    game_id: str
    entry: Entry
    position: int
    kind: str
    status: str
    scores_before: list[int]
    scores_after: list[int]
    active_seats: list[int]
    players: list[dict[str, Any]]
    forked_from: dict[str, Any] | None
    imported: bool = False
    """A copy of a game played elsewhere (``importGame``): it does not count again."""
    unranked_reason: str | None = None
    """Why the game counts in no profile, rating or statistic (``domain.table.why_unranked``:
    an imported copy, a fork, a seed the creator chose); ``None`` if it counts."""
    visible: bool = True
    """The entry is part of a spectator's log while the game runs (``domain.visibility``:
    not a seat's private step)."""
    timed_out: list[int] | None = None
    """A timed table's seats whose time ran out (``domain.clock``): they lost."""
    thinking: list[dict[str, int]] | None = None
    """A timed table's thinking time per seat: ``ms`` over ``turns`` timed turns."""
    created_by: str | None = None
    """The player who created the table."""
    public: int = 0
    """The public position of the entry: how many game entries everybody sees up to it
    (``service.readmodels.models``); counted by the read models, not by the folder."""


class Folder:
    """Public facts of each game at each entry, folded with the rules (an LRU of tables)."""

    def __init__(self, store: Store, size: int = 256) -> None:
        self.store = store
        self.size = size
        self._tables: OrderedDict[str, tables.Table] = OrderedDict()
        self._imported: dict[str, bool] = {}

    def step(self, game_id: str, entry: Entry, position: int, imported: bool = False) -> Step:
        """``imported``: for the first entry, whether its game was imported."""
        table = self._tables.pop(game_id, None)
        if entry.version == 1:
            table = tables.start(entry)
            self._imported[game_id] = imported
        else:
            if table is None or table.version != entry.version - 1:
                table = self._load(game_id, entry.version - 1)
        rules = rules_for(table.kind)
        before = scores_of(table, rules)
        undone = {e.version: e for e in table.history if entry.type == tables.ACTIONS_UNDONE}
        visible = visibility.sees(rules, entry, [None], False, undone.get)
        if entry.version != 1:
            table = tables.evolve(table, entry, rules)
        active = list(rules.active_seats(table.game)) if table.status == tables.ACTIVE else []
        self._tables[game_id] = table
        while len(self._tables) > self.size:
            self._tables.popitem(last=False)
        is_copy = self._is_imported(game_id)
        players = [
            {
                "seat": seat,
                "player_id": holder.player_id if holder else None,
                "name": holder.name if holder else None,
                "bot": holder.bot if holder else None,
            }
            for seat, holder in enumerate(table.holders)
        ]
        return Step(
            game_id,
            entry,
            position,
            table.kind,
            table.status,
            before,
            scores_of(table, rules),
            active,
            players,
            table.forked_from,
            is_copy,
            table.unranked_reason(imported=is_copy),
            visible,
            list(table.clock.timed_out) if table.clock is not None else None,
            [
                {"ms": ms, "turns": n}
                for ms, n in zip(table.clock.used, table.clock.turns, strict=True)
            ]
            if table.clock is not None
            else None,
            table.created_by,
        )

    def _is_imported(self, game_id: str) -> bool:
        if game_id not in self._imported:
            first = next(iter(self.store.events.get(uuid.UUID(game_id), lte=1)))
            self._imported[game_id] = imported_by(first) is not None
        while len(self._imported) > 4 * self.size:
            self._imported.pop(next(iter(self._imported)))
        return self._imported[game_id]

    def _load(self, game_id: str, version: int) -> tables.Table:
        stored = [entry_of(e) for e in self.store.events.get(uuid.UUID(game_id), lte=version)]
        table = tables.start(stored[0])
        rules = rules_for(table.kind)
        for entry in stored[1:]:
            table = tables.evolve(table, entry, rules)
        return table


def scores_of(table: tables.Table, rules: Any) -> list[int]:
    return list(rules.scores(table.game)) if table.game is not None else [0] * table.seats
