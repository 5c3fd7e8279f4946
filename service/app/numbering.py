"""Each caller's own numbering of a game's log: an entry the caller may not see at all is
not in the caller's log, which is numbered 1, 2, ... without it (``Timeline``), so another
seat's private steps change nothing the caller sees (``service.app.views`` shows the entries).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from domain import table as tables
from domain import visibility
from domain.contract import JSON
from domain.log import Entry
from domain.registry import rules_for
from service.app.caller import Caller
from service.app.errors import BadInput, NotFound

if TYPE_CHECKING:
    from service.app.tables import Tables
    from service.store import GameTable

from service.app.views import event, is_revealed, seats_of


def viewer(table: tables.Table, caller: Caller) -> list[int | None]:
    """The seats whose view the caller has (``[None]``: a spectator)."""
    return list(seats_of(table, caller)) or [None]


@dataclass(frozen=True, slots=True)
class Timeline:
    """The log as one caller may see it (module docstring): the entries it sees, numbered from 1.

    ``shown`` holds the versions of those entries, and ``entries`` the log as it was read
    (up to ``last``), when some entry is hidden from the caller; both are ``None`` while the
    caller sees every entry (its numbers are then the versions). ``updated``: the time of the
    last entry the caller sees. ``forked_at``: for the fork of a game that still hides entries
    from the caller, the fork's version in its source as a number of the caller's log of the
    source (``None``: the recorded version is that number).
    """

    last: int
    updated: datetime
    shown: tuple[int, ...] | None = None
    entries: tuple[Entry, ...] | None = None
    forked_at: int | None = None

    @property
    def version(self) -> int:
        """The number of the last entry of the caller's log."""
        return self.last if self.shown is None else len(self.shown)

    def sees(self, version: int) -> bool:
        """The entry at log ``version`` is part of the caller's log."""
        if self.shown is None:
            return True
        at = bisect_left(self.shown, version)
        return at < len(self.shown) and self.shown[at] == version

    def number(self, version: int) -> int:
        """The caller's number of the entry at log ``version`` or, for an entry it does not see,
        of its last entry before it (0 if none): "right after ``version``" in the caller's log."""
        return version if self.shown is None else bisect_right(self.shown, version)

    def version_of(self, number: int) -> int:
        """The log version of the caller's entry ``number`` (0 for 0; ``BAD_INPUT`` outside)."""
        if self.shown is None or number == 0:
            return number
        if not 0 < number <= len(self.shown):
            raise BadInput(f"Version must be between 1 and {len(self.shown)}, not {number}.")
        return self.shown[number - 1]

    def position(self, number: int) -> int:
        """The log version right after the caller's entry ``number`` and before its next one:
        where "back to right after ``number``" lands (other seats' private steps after it
        stay)."""
        if self.shown is None:
            return number
        if number >= len(self.shown):
            return self.last
        return self.shown[max(number, 0)] - 1

    def after(self, number: int) -> int:
        """The log version to read on from for the caller's entries after ``number``."""
        if self.shown is None:
            return number
        return self.last if number >= len(self.shown) else self.version_of(number)

    def numbered(self, after: int = 0) -> Iterator[tuple[int, Entry]]:
        """The caller's entries after its number ``after``, with their numbers (only when
        ``entries`` is known)."""
        assert self.shown is not None and self.entries is not None
        for number, version in enumerate(self.shown[after:], start=after + 1):
            yield number, self.entries[version - 1]

    def renumber(self, kind: str, data: JSON) -> JSON:
        """A table entry's data with the log versions it names as the caller's numbers."""
        if kind == tables.TABLE_CREATED and self.forked_at is not None and data.get("forked_from"):
            return {**data, "forked_from": self.fork_source(data["forked_from"])}
        if self.shown is None:
            return data
        if kind == tables.UNDO_REQUESTED:
            return {**data, "to_version": self.number(data["to_version"])}
        if kind == tables.UNDO_ANSWERED:
            return {**data, "request": self.number(data["request"])}
        if kind == tables.ACTIONS_UNDONE:
            request = data.get("request")
            return {
                **data,
                "to_version": self.number(data["to_version"]),
                "request": None if request is None else self.number(request),
                "undone": [self.number(v) for v in data.get("undone") or [] if self.sees(v)],
            }
        return data

    def fork_source(self, source: JSON) -> JSON:
        """A fork's ``forked_from`` with its version numbered in the caller's log of the source."""
        return source if self.forked_at is None else {**source, "version": self.forked_at}


def may_hide(table: tables.Table, seats: list[int | None]) -> bool:
    """Some entry of the log may be hidden from ``seats`` (checked without reading the log: an
    undo took entries out of the table's history, or a kept entry is hidden)."""
    if is_revealed(table):
        return False
    if table.undone:
        return True
    rules = rules_for(table.kind)
    return not all(visibility.sees_event(rules, e.event, seats) for e in table.history)


def hides(tables_: Tables, game: GameTable, seats: list[int | None]) -> bool:
    """``may_hide`` of the game now, remembered per game and seats (``Tables.hiding``) and
    extended with the entries recorded since: whether an entry hides from the seats depends on
    the entry alone, and with nothing undone the history only grows."""
    table = game.table
    if is_revealed(table):
        return False
    if table.undone:
        return True
    key = (game.id, tuple(seats))
    known: tuple[int, bool] | None = tables_.hiding.get(key)
    if known is None or known[0] > game.version:  # not known, or an earlier version (a replay)
        hidden = may_hide(table, seats)
    elif known[1] or known[0] == game.version:
        hidden = known[1]  # an entry once hidden stays in the history while nothing is undone
    else:
        rules = rules_for(table.kind)
        since = []
        for entry in reversed(table.history):
            if entry.version <= known[0]:
                break
            since.append(entry)
        hidden = not all(visibility.sees_event(rules, e.event, seats) for e in since)
    tables_.hiding.put(key, (game.version, hidden))
    return hidden


def timeline(tables_: Tables, game: GameTable, caller: Caller) -> Timeline:
    """The caller's log of ``game`` (reads the log only when some entry may be hidden), computed
    once per game version and seats (``Tables.memo``; the deleted players are part of the key,
    since the entries kept are shown redacted)."""
    table = game.table
    seats = viewer(table, caller)
    forked_at = fork_number(tables_, table, caller)
    deleted = tables_.redaction.deleted() if tables_.redaction is not None else frozenset()
    log = _unread(tables_, game, seats, deleted)
    if log is None:
        entries = tables_.events(str(game.id), 0, game.version)
        log = timeline_of(table, entries, seats)
        tables_.memo.put(_key(game, seats, deleted), log)
    return log if forked_at is None else replace(log, forked_at=forked_at)


def at_least(tables_: Tables, game: GameTable, caller: Caller, number: int | None) -> GameTable:
    """``game``, or the store's newer game when the caller's log of ``game`` ends before its
    entry ``number`` (``minVersion``: a version the caller saw, perhaps its own write through
    another process, which this one may not have heard of yet). A number past the store's
    last entry is answered with the game as it is. On a worker (it may read the store)."""
    if number is None:
        return game
    if number < 0:
        raise BadInput("minVersion must not be negative.")
    if timeline(tables_, game, caller).version >= number:
        return game
    return tables_.current(str(game.id))


def known_timeline(tables_: Tables, game: GameTable, caller: Caller) -> Timeline | None:
    """``timeline`` when it needs no read of the store (``None`` when it does): remembered, or
    a log that hides nothing from the caller, of a game that is no fork."""
    table = game.table
    if table.forked_from:
        return None
    deleted = tables_.redaction.known_deleted() if tables_.redaction is not None else frozenset()
    if deleted is None:
        return None
    return _unread(tables_, game, viewer(table, caller), deleted)


def _key(game: GameTable, seats: list[int | None], deleted: frozenset[str]) -> tuple[Any, ...]:
    return ("timeline", game.id, game.version, tuple(seats), deleted)


def _unread(
    tables_: Tables, game: GameTable, seats: list[int | None], deleted: frozenset[str]
) -> Timeline | None:
    """The log of ``seats`` when no read of the store is needed (remembered, or hiding nothing
    from them); ``None`` when the log must be read."""
    key = _key(game, seats, deleted)
    log: Timeline | None = tables_.memo.get(key)
    if log is None and not hides(tables_, game, seats):
        log = Timeline(game.version, game.modified_on)
        tables_.memo.put(key, log)
    return log


def game_log(tables_: Tables, game_id: str, caller: Caller) -> tuple[GameTable, Timeline]:
    """The game and the caller's log of it, read together (one trip to the workers)."""
    game = tables_.get(game_id)
    return game, timeline(tables_, game, caller)


def fork_number(tables_: Tables, table: tables.Table, caller: Caller) -> int | None:
    """The version a fork of a running game starts from, as a number of the caller's log of
    its source (``None`` when that is the recorded version): the recorded one counts the
    entries private to the forking player and others, which the fork must not tell."""
    source = table.forked_from
    if not source or "seats" not in source:
        return None
    try:
        origin = tables_.get(str(source["game_id"]))
    except NotFound:
        return None
    # the caller's log of the source, remembered like any other (``timeline``)
    number = timeline(tables_, origin, caller).number(int(source["version"]))
    return None if number == source["version"] else number


def timeline_of(table: tables.Table, entries: list[Entry], seats: list[int | None]) -> Timeline:
    """The log ``entries`` as ``seats`` see it while ``table`` is what it is now."""
    rules = rules_for(table.kind)
    full = is_revealed(table)
    by_version = {e.version: e for e in entries}
    shown = tuple(
        e.version for e in entries if visibility.sees(rules, e, seats, full, by_version.get)
    )
    last = entries[-1].version if entries else 0
    if len(shown) == len(entries):
        updated = datetime.fromisoformat(entries[-1].at)
        return Timeline(last, updated)
    updated = datetime.fromisoformat(by_version[shown[-1]].at)
    return Timeline(last, updated, shown, tuple(entries))


def page(
    tables_: Tables, game: GameTable, caller: Caller, log: Timeline, after: int, limit: int
) -> tuple[list[JSON], bool]:
    """The caller's entries after its number ``after`` (at most ``limit``), as it may see them,
    and whether more follow."""
    if log.shown is None:
        # the log as far as ``game`` goes: the store may already hold later entries
        if after >= game.version or limit <= 0:
            return [], after < game.version
        records = tables_.events(str(game.id), after, min(limit, game.version - after))
        more = after + len(records) < game.version
        return [event(game.table, r, caller, log) for r in records], more
    found = list(log.numbered(after))
    return [event(game.table, r, caller, log) for _, r in found[:limit]], len(found) > limit


def verification(tables_: Tables, game_id: str, finding: Any, caller: Caller) -> JSON:
    """``verifyLog``'s finding (``domain.audit.Finding``) in the caller's numbers: while entries
    are hidden from the caller, the log's length would count them."""
    log = timeline(tables_, tables_.get(game_id), caller)
    return {
        "ok": finding.ok,
        "checked_events": log.number(finding.checked),
        "bad_version": None if finding.version is None else log.number(finding.version),
        "reason": finding.reason,
    }


def replay_window(log: Timeline, after: int, limit: int) -> tuple[int, int] | None:
    """The log versions (after, count) holding the caller's entries ``after + 1`` to
    ``after + limit`` (``Audit.replay``'s arguments), or ``None`` when there are none; the
    entries in it the caller does not see are left out (``Timeline.sees``)."""
    if log.shown is None:  # as far as the log goes: the store may already hold later entries
        return (after, min(limit, log.last - after)) if after < log.last and limit > 0 else None
    if after >= log.version or limit <= 0:
        return None
    start = log.version_of(after)
    end = log.version_of(min(after + limit, log.version))
    return start, end - start
