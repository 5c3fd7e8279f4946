"""Undo, audit, replays, export/import and forks, straight from the event log (issue #6).

The policy and the checks are pure (``domain.undo``, ``domain.audit``); this module loads,
decides with them, records new entries (an undo never deletes anything) and saves.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from domain import audit, undo
from domain import table as tables
from domain.contract import FORK_DEALT, Event
from domain.engine import deal_fork
from domain.log import Entry
from domain.registry import KINDS, rules_for
from service.app.errors import BadInput, Forbidden, GameNotActive, NotFound, PapyrusError
from service.app.games import Caller, Games, require_player
from service.store import GameTable, open_table

EXPORT_FORMAT = "papyrus-game"
EXPORT_VERSION = 1
ENTRY_FIELDS = (
    "version",
    "at",
    "type",
    "data",
    "seat",
    "automatic",
    "by_seat",
    "command",
    "action",
    "actor",
    "rules_version",
    "hash",
)


class IllegalUndo(PapyrusError):
    code = "ILLEGAL_ACTION"


class Timeline:
    def __init__(self, games: Games) -> None:
        self.games = games
        self.store = games.store

    # -- undo -----------------------------------------------------------------------------------

    def request_undo(self, caller: Caller, game_id: str, to_version: int | None) -> GameTable:
        require_player(caller)
        assert caller.player_id is not None

        def decide(game: GameTable) -> None:
            table = game.table
            seats = table.seats_of(caller.player_id or "")
            if not seats:
                raise Forbidden("Only a seated player may ask to take actions back.")
            seat, target = self._target(table, seats, to_version)
            verdict = undo.judge(table, seat, target)
            if not verdict.allowed:
                if not table.undo_allowed:
                    raise Forbidden(verdict.reason)
                raise IllegalUndo(verdict.reason, rule="undo policy")
            if verdict.immediate:
                self._undo(game, seat, target, None, caller.player_id)
                return
            game.record(
                Event(
                    tables.UNDO_REQUESTED,
                    {"to_version": target, "seat": seat, "waiting": list(verdict.waiting)},
                    seat,
                ),
                by_seat=seat,
                actor=caller.player_id,
            )

        game, _ = self.games.command(game_id, decide)
        return game

    def _target(
        self, table: tables.Table, seats: list[int], to_version: int | None
    ) -> tuple[int, int]:
        """The requesting seat and the version to go back to (default: its last own action)."""
        if to_version is not None:
            if to_version < 0:
                raise BadInput("toVersion must not be negative.")
            last = table.history[-1] if table.history else None
            owner = last.by_seat if last is not None and last.by_seat in seats else seats[0]
            return owner, to_version
        for seat in seats:
            target = undo.last_own_start(table, seat)
            if target is not None:
                return seat, target
        raise IllegalUndo(
            "Your seat has no action of its own to take back at the moment.", rule="undo policy"
        )

    def answer_undo(self, caller: Caller, game_id: str, accept: bool) -> GameTable:
        require_player(caller)
        assert caller.player_id is not None

        def decide(game: GameTable) -> None:
            table = game.table
            request = table.undo_request
            if request is None:
                raise IllegalUndo("There is no undo request to answer.", rule="undo policy")
            asked = [s for s in table.seats_of(caller.player_id or "") if s in request.waiting]
            if not asked:
                raise Forbidden("Your answer is not needed for this undo request.")
            for seat in asked:
                game.record(
                    Event(
                        tables.UNDO_ANSWERED,
                        {"request": request.version, "seat": seat, "accept": accept},
                        seat,
                    ),
                    by_seat=seat,
                    actor=caller.player_id,
                )
            pending = game.table.undo_request
            if accept and pending is not None and not pending.waiting:
                self._undo(game, request.seat, request.to_version, request.version, None)

        game, _ = self.games.command(game_id, decide)
        return game

    def _undo(
        self,
        game: GameTable,
        seat: int,
        to_version: int,
        request: int | None,
        actor: str | None,
    ) -> None:
        table = game.table
        undone = [e.version for e in table.history if e.version > to_version]
        game.record(
            Event(
                tables.ACTIONS_UNDONE,
                {"to_version": to_version, "seat": seat, "request": request, "undone": undone},
                seat,
            ),
            by_seat=seat,
            actor=actor,
        )
        self.games.run_bots(game)

    # -- audit ----------------------------------------------------------------------------------

    def entries(self, game_id: str) -> list[Entry]:
        return self.games.events(game_id)

    def verify(self, game_id: str) -> audit.Finding:
        trusted = self.games.get(game_id).imported_by is None  # this server wrote the log
        return self.check(self.entries(game_id), trusted=trusted)

    def check(self, entries: list[Entry], *, trusted: bool) -> audit.Finding:
        """``domain.audit.verify``, and for a fork, that its start is what its source gives:
        the source's events up to the fork's version (a finished source), or the position the
        rules deal from the source at that version with the fork's seed (so the fork's
        randomness is provably fair too).

        A log this server did not write (``trusted=False``: an imported document) is checked
        only against a source that is on this server and finished. Comparing it with a
        running source would answer guesses about that game's secrets (a forged fork that keeps
        every seat would be checked against every hand), and without its source a fork's start
        could be anything."""
        finding = audit.verify(entries, rules_for)
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
            origin = self.games.get(str(source["game_id"]))
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
            past = self.fork_point(origin, source["version"])
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
        entries = self.games.events(game_id, after=0, limit=after + limit)
        table = tables.start(entries[0])
        rules = rules_for(table.kind)
        if after == 0:
            yield table, entries[0]
        for entry in entries[1:]:
            table = tables.evolve(table, entry, rules)
            if entry.version > after:
                yield table, entry

    # -- export, import, fork -------------------------------------------------------------------

    def export(self, game_id: str) -> dict[str, Any]:
        game = self.games.get(game_id)
        table = game.table
        if table.status != tables.FINISHED:
            raise GameNotActive("Only a finished game can be exported (its secrets are revealed).")
        assert table.outcome is not None
        return {
            "format": EXPORT_FORMAT,
            "formatVersion": EXPORT_VERSION,
            "kind": table.kind,
            "seats": table.seats,
            "options": table.options,
            "rulesVersion": table.rules_version,
            "seed": table.seed,
            "seedCommitment": table.seed_commitment,
            "players": [
                {"seat": s, "name": h.name if h else None, "bot": h.bot if h else None}
                for s, h in enumerate(table.holders)
            ],
            "result": {
                "scores": table.outcome.scores,
                "winners": table.outcome.winners,
                "ranks": table.outcome.ranks,
            },
            "events": [
                {name: getattr(e, name) for name in ENTRY_FIELDS} for e in self.entries(game_id)
            ],
        }

    def import_game(self, caller: Caller, document: Any) -> GameTable:
        require_player(caller)
        entries = parse_document(document)
        finding = self.check(entries, trusted=False)
        if not finding.ok:
            raise BadInput(f"Event {finding.version} does not hold: {finding.reason}.")
        table = tables.start(entries[0])
        rules = rules_for(table.kind)
        for entry in entries[1:]:
            table = tables.evolve(table, entry, rules)
        if table.status != tables.FINISHED or table.outcome is None:
            raise BadInput("Only a finished game can be imported; this log does not end.")
        claimed = document.get("result")
        actual = {
            "scores": table.outcome.scores,
            "winners": table.outcome.winners,
            "ranks": table.outcome.ranks,
        }
        if claimed != actual:
            raise BadInput(f"The document's result {claimed} is not the log's result {actual}.")
        for key, value in (
            ("kind", table.kind),
            ("seats", table.seats),
            ("options", table.options),
            ("seed", table.seed),
            ("seedCommitment", table.seed_commitment),
            ("rulesVersion", table.rules_version),
        ):
            if document.get(key) != value:
                raise BadInput(f"The document's {key} does not match its first event.")
        first = entries[0]
        game = open_table(
            first.event,
            rules_version=first.rules_version,
            actor=first.actor,
            seed=table.seed,
            command=first.command,
            at=datetime.fromisoformat(first.at),
            imported_by=caller.player_id,
        )
        for entry in entries[1:]:
            game.record(
                entry.event,
                automatic=entry.automatic,
                by_seat=entry.by_seat,
                command=entry.command,
                action=entry.action,
                actor=entry.actor,
                at=datetime.fromisoformat(entry.at),
            )
        if game.table.last_hash != entries[-1].hash:  # the chain must come out identical
            raise BadInput("The events do not reproduce their hashes.")
        self.games.save_new(game)
        return game

    def fork_point(self, source: GameTable, at_version: int) -> tables.Table:
        """The source's table at ``at_version``, or ``BAD_INPUT`` if no fork may start there:
        the game was not running, the version is inside an action, or inside a fork's start."""
        past = self.games.at_version(str(source.id), at_version).table
        if past.status != tables.ACTIVE:
            raise BadInput(f"At version {at_version} the game was not running.")
        this, *following = self.games.events(str(source.id), after=at_version - 1, limit=2)
        if following and this.command == audit.FORK and following[0].command == audit.FORK:
            raise BadInput(
                f"Version {at_version} is part of this fork's start, which came from game "
                f"{source.table.forked_from['game_id']}: fork that game, or this one after "  # type: ignore[index]
                "its start."
            )
        if following and this.command is not None and following[0].command == this.command:
            raise BadInput(
                f"Version {at_version} is in the middle of an action (version "
                f"{following[0].version} belongs to it too); fork at a version that ends one."
            )
        return past

    def fork(self, caller: Caller, game_id: str, at_version: int) -> GameTable:
        """A sandbox starting from the game at ``at_version``: unranked, marked as a fork.

        A finished game is public: its fork replays the source's events up to that version and
        anybody may fork it. A game that is not finished may be forked only by one of its
        players, on what their seats may see (``Rules.fork``): everything hidden from them is
        re-dealt from the fork's own seed when the fork starts, and they are seated at those
        seats at once, so no one else ever plays their hidden hand.
        """
        require_player(caller)
        assert caller.player_id is not None and caller.name is not None
        source = self.games.get(game_id)
        finished = source.table.status == tables.FINISHED
        seats = [] if finished else source.table.seats_of(caller.player_id)
        if not finished and not seats:
            raise Forbidden(
                "Only a player of this game may fork it while it is not finished (the fork "
                "shows what that player's seats may see); anybody may fork it once it is over."
            )
        past = self.fork_point(source, at_version)
        forked_from: dict[str, Any] = {"game_id": str(source.id), "version": at_version}
        if not finished:
            forked_from["seats"] = seats
        game = self.games.new_table(
            caller, past.kind, past.seats, past.options, forked_from=forked_from
        )
        for seat in seats:  # the forking player keeps the seats whose secrets the fork shows
            self.games.seat(game, seat, caller.player_id, caller.name, None)
        self.games.save_new(game)
        return game


def parse_document(document: Any) -> list[Entry]:
    """The entries of an exported game, or ``BAD_INPUT`` saying exactly what is wrong."""
    if not isinstance(document, dict):
        raise BadInput("An exported game is a JSON object.")
    if document.get("format") != EXPORT_FORMAT or document.get("formatVersion") != EXPORT_VERSION:
        raise BadInput(f'This is not a "{EXPORT_FORMAT}" document of version {EXPORT_VERSION}.')
    if document.get("kind") not in KINDS:
        raise BadInput(f"Unknown game kind {document.get('kind')!r}.")
    events = document.get("events")
    if not isinstance(events, list) or not events:
        raise BadInput('"events" must be a non-empty list.')
    entries = []
    for number, raw in enumerate(events, start=1):
        if not isinstance(raw, dict) or set(raw) != set(ENTRY_FIELDS):
            raise BadInput(
                f"Event {number} must have exactly the fields {', '.join(ENTRY_FIELDS)}."
            )
        try:
            datetime.fromisoformat(raw["at"])
            entry = Entry(**raw)
        except (TypeError, ValueError):
            raise BadInput(f"Event {number} has a field of the wrong type.") from None
        if not isinstance(entry.data, dict) or not isinstance(entry.type, str):
            raise BadInput(f"Event {number} has a field of the wrong type.")
        entries.append(entry)
    return entries
