"""Export and import: a finished game as one JSON document, checked by re-running the rules.

An imported game is a copy: it is stored as the source wrote it (the hash chain must come out
identical) and marked with its importer, so it counts in no profile, rating or statistic.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from domain import redaction
from domain import table as tables
from domain.log import Entry
from domain.registry import kinds
from service.app.audit import Audit
from service.app.caller import Caller, require_player
from service.app.errors import BadInput, GameNotActive
from service.app.recording import replay_table
from service.app.signing import Signing
from service.app.tables import Tables
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


class Archive:
    """``exportGame`` and ``importGame``."""

    def __init__(self, tables_: Tables, audit: Audit, signing: Signing | None = None) -> None:
        self.tables = tables_
        self.audit = audit
        self.signing = signing or Signing(tables_)

    def export(self, game_id: str) -> dict[str, Any]:
        """The finished game as one document. Deleted players' names are redacted in it; the
        entries whose hash covered such a name are listed in ``redacted``, so that the
        document still verifies (``domain.redaction``). A game this server played is signed:
        ``signature`` holds the signature of its chain head (``domain.signature``), which
        redaction does not change."""
        game = self.tables.get(game_id)
        table = game.table
        if table.status != tables.FINISHED:
            raise GameNotActive("Only a finished game can be exported (its secrets are revealed).")
        assert table.outcome is not None
        stored = self.tables.stored_events(game_id)
        shown = self.tables.shown(stored)
        erased = {
            e.version
            for s, e in zip(stored, shown, strict=True)
            if e is not s and redaction.is_sealed_name(s)
        }
        redacted = sorted(erased | set(getattr(game, "redacted", None) or []))
        document: dict[str, Any] = {
            "format": EXPORT_FORMAT,
            "formatVersion": EXPORT_VERSION,
            "kind": table.kind,
            "seats": table.seats,
            "options": table.options,
            "rulesVersion": table.rules_version,
            "seed": table.seed,
            "seedSalt": table.seed_salt,
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
            "events": [{name: getattr(e, name) for name in ENTRY_FIELDS} for e in shown],
        }
        if redacted:
            document["redacted"] = redacted
        signed = self.signing.of_game(game)
        if signed is not None:
            document["signature"] = signed
        return document

    def import_game(self, caller: Caller, document: Any) -> GameTable:
        require_player(caller)
        entries = parse_document(document)
        redacted = parse_redacted(document, entries)
        finding = self.audit.check(entries, trusted=False, redacted=redacted)
        if not finding.ok:
            raise BadInput(f"Event {finding.version} does not hold: {finding.reason}.")
        table = replay_table(entries)
        if table.status != tables.FINISHED or table.outcome is None:
            raise BadInput("Only a finished game can be imported; this log does not end.")
        problem = header_problem(document, table)
        if problem is not None:
            raise BadInput(f"{problem[:1].upper()}{problem[1:]}.")
        first = entries[0]
        game = open_table(
            first.event,
            rules_version=first.rules_version,
            actor=first.actor,
            seed=table.seed,
            command=first.command,
            at=datetime.fromisoformat(first.at),
            imported_by=caller.player_id,
            redacted=redacted,
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
                recorded_hash=entry.hash if entry.version in redacted else None,
            )
        if game.table.last_hash != entries[-1].hash:  # the chain must come out identical
            raise BadInput("The events do not reproduce their hashes.")
        self.tables.save_new(game)
        return game


def parse_redacted(document: dict[str, Any], entries: list[Entry]) -> list[int]:
    """The versions a document lists as ``redacted`` whose entries hold a sealed name that was
    erased (only those are taken as recorded: any other entry is checked by its hash)."""
    listed = document.get("redacted", [])
    if not isinstance(listed, list) or not all(
        type(v) is int and 1 <= v <= len(entries) for v in listed
    ):
        raise BadInput('"redacted" must be a list of the versions of events in the document.')
    return sorted(
        v
        for v in set(listed)
        if redaction.is_sealed_name(entries[v - 1]) and redaction.is_redacted(entries[v - 1])
    )


def parse_document(document: Any) -> list[Entry]:
    """The entries of an exported game, or ``BAD_INPUT`` saying exactly what is wrong."""
    if not isinstance(document, dict):
        raise BadInput("An exported game is a JSON object.")
    if document.get("format") != EXPORT_FORMAT or document.get("formatVersion") != EXPORT_VERSION:
        raise BadInput(f'This is not a "{EXPORT_FORMAT}" document of version {EXPORT_VERSION}.')
    if document.get("kind") not in kinds():
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


def header_problem(document: Any, table: tables.Table) -> str | None:
    """What an exported game's own fields (its header, its result) say that its finished log,
    replayed into ``table``, does not (``importGame``, ``papyrus verify``, the conformance
    check)."""
    for key, value in (
        ("kind", table.kind),
        ("seats", table.seats),
        ("options", table.options),
        ("seed", table.seed),
        ("seedSalt", table.seed_salt),  # null (or absent) in logs older than salts
        ("seedCommitment", table.seed_commitment),
        ("rulesVersion", table.rules_version),
    ):
        if document.get(key) != value:
            return f"the document's {key} does not match its first event"
    outcome = table.outcome
    actual = outcome and {
        "scores": outcome.scores,
        "winners": outcome.winners,
        "ranks": outcome.ranks,
    }
    if document.get("result") != actual:
        return "the document's result is not the log's result"
    return None
