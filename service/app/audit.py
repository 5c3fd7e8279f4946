"""Audits and replays straight from the log: ``verifyLog`` and the replay of a game.

The chain of hashes, the seed against its commitment and every entry through the rules are
checked by the pure ``domain.audit.verify``; this module adds what needs the store: a fork's
start is checked against its source game.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any

from domain import audit
from domain import table as tables
from domain.contract import FORK_DEALT
from domain.engine import deal_fork
from domain.log import Entry
from domain.registry import rules_for
from service.app.errors import NotFound, PapyrusError
from service.app.forks import fork_point
from service.app.tables import Tables


class Audit:
    """``verifyLog``, the audit log and replays."""

    def __init__(self, tables_: Tables) -> None:
        self.tables = tables_

    def entries(self, game_id: str) -> list[Entry]:
        """The log exactly as recorded (names of deleted players included: the hashes cover
        the names of entries older than ``domain.redaction``'s unsealed ones)."""
        return self.tables.stored_events(game_id)

    def verify(self, game_id: str) -> audit.Finding:
        game = self.tables.get(game_id)
        trusted = game.imported_by is None  # this server wrote the log
        redacted = getattr(game, "redacted", None) or []  # an imported copy's erased names
        return self.check(self.entries(game_id), trusted=trusted, redacted=redacted)

    def check(
        self, entries: list[Entry], *, trusted: bool, redacted: Collection[int] = ()
    ) -> audit.Finding:
        """``domain.audit.verify``, and for a fork, that its start is what its source gives:
        the source's events up to the fork's version (a finished source), or the position the
        rules deal from the source at that version with the fork's seed (so the fork's
        randomness is provably fair too).

        A log this server did not write (``trusted=False``: an imported document) is checked
        only against a source that is on this server and finished. Comparing it with a
        running source would answer guesses about that game's secrets (a forged fork that keeps
        every seat would be checked against every hand), and without its source a fork's start
        could be anything. ``redacted``: entries whose sealed names were erased before the log
        came here (``domain.redaction``)."""
        finding = audit.verify(entries, rules_for, frozenset(redacted))
        source = entries[0].data.get("forked_from")
        if not finding.ok or source is None:
            return finding
        problem = self._fork_start_problem(entries, source, trusted)
        if problem is None:
            return finding
        return audit.Finding(False, len(entries), *problem)

    def _fork_start_problem(
        self, entries: list[Entry], source: Any, trusted: bool
    ) -> tuple[int, str] | None:
        start = [e for e in entries if e.command == audit.FORK]
        first = start[0].version if start else 1
        try:
            origin = self.tables.get(str(source["game_id"]))
        except NotFound:
            if trusted:
                return None  # its source was deleted or lives in another store
            return 1, "its source game is not on this server, so the fork's start cannot be checked"
        except Exception:
            return 1, "its fork source is malformed"
        if not trusted and origin.table.status == tables.ABANDONED:
            return 1, "its source game was abandoned, so a fork of it can never be checked"
        if not trusted and origin.table.status != tables.FINISHED:
            return 1, "its source game is not over yet; a fork of it can be checked only then"
        creator = entries[0].data.get("created_by")
        if "seats" in source and source["seats"] != origin.table.seats_of(str(creator)):
            return 1, "its fork source names seats its creator did not hold"
        try:
            past = fork_point(self.tables, origin, source["version"])
            opened = entries[0].data
            if (past.kind, past.seats, past.options) != (
                opened["kind"],
                opened["seats"],
                opened["options"],
            ):
                return 1, "its table is not its source's (kind, seats or options differ)"
            if not start:
                return None  # not started yet: its seats are still being taken
            if "seats" not in source:
                copied = [(e.type, e.data, e.seat, e.automatic) for e in start[1:]]
                kept = [(e.type, e.data, e.seat, e.automatic) for e in past.history]
                if copied == kept:
                    return None
                reason = "the fork's start is not its source game up to the fork's version"
                for entry, want in zip(start[1:], kept, strict=False):
                    if (entry.type, entry.data, entry.seat, entry.automatic) != want:
                        return entry.version, reason
                return (start[-1].version if start else 1), reason  # one of them is longer
            dealt = next((e for e in start if e.type == FORK_DEALT), None)
            if dealt is None:
                return first, "a fork of an unfinished game must start from its dealt position"
            seed = entries[0].data["seed"]
            deal = deal_fork(rules_for(past.kind), past.game, source["seats"], seed, first)
            if deal.data == dealt.data:
                return None
            return (
                dealt.version,
                "the fork's position is not the one dealt from its source by the fork's seed",
            )
        except PapyrusError as refused:
            return 1, f"its fork source names a version that cannot be forked ({refused})"
        except Exception:
            return 1, "its fork source is malformed"

    def replay(self, game_id: str, after: int, limit: int) -> Iterator[tuple[tables.Table, Entry]]:
        """Each entry after ``after`` with the table right after it (one pass over the log)."""
        entries = self.tables.events(game_id, after=0, limit=after + limit)
        table = tables.start(entries[0])
        rules = rules_for(table.kind)
        if after == 0:
            yield table, entries[0]
        for entry in entries[1:]:
            table = tables.evolve(table, entry, rules)
            if entry.version > after:
                yield table, entry
