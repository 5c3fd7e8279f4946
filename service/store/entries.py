"""The log entry inside each stored event of a table: how an entry is sealed into the members
of the event that stores it (``sealed``) and read back from it (``entry_of``), and what the
first event carries beside its entry (``imported_by``, ``redacted_of``).

The events themselves (``GameTable.Opened`` and ``GameTable.Recorded``) stay in
``service.store``, where their topics name them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from domain.contract import Event
from domain.log import Entry, entry_hash


@dataclass(frozen=True)
class EntryFields:
    """What both stored events of a table carry: a log entry without its version and time."""

    type: str
    data: dict[str, Any]
    seat: int | None
    automatic: bool
    by_seat: int | None
    command: str | None
    action: dict[str, Any] | None
    actor: str | None
    rules_version: str
    hash: str


def sealed(
    event: Event,
    version: int,
    timestamp: datetime,
    *,
    rules_version: str,
    after: tuple[str, str, str | None],
    recorded_hash: str | None = None,
    **caused: Any,
) -> dict[str, Any]:
    """The members of the stored event that records ``event`` as log entry ``version``: the
    entry but its version and time (the stored event's own version and ``timestamp`` hold
    them), and its hash, which seals it to the entry before (``after``: that entry's hash, the
    seed and its salt, as ``domain.log.entry_hash`` takes them) unless ``recorded_hash`` is
    given. ``caused``: who and what caused the entry (``automatic``, ``by_seat``, ``command``,
    ``action``, ``actor``)."""
    entry = Entry(
        version=version,
        at=timestamp.isoformat(),
        type=event.type,
        data=event.data,
        seat=event.seat,
        rules_version=rules_version,
        **caused,
    )
    members = entry.content()
    del members["version"], members["at"]
    return {**members, "timestamp": timestamp, "hash": recorded_hash or entry_hash(entry, *after)}


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def stamp(ms: int) -> datetime:
    """The time recorded on an entry for ``ms`` milliseconds since the epoch: a command's
    entries carry the application's time of the command (``Tables.command``), the time its
    clock entries read too, so that an audit can anchor them to each other
    (``domain.audit_clock``)."""
    return EPOCH + timedelta(milliseconds=ms)


def milliseconds(at: datetime) -> int:
    """``at`` in whole milliseconds since the epoch (a time without a zone is UTC)."""
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return (at - EPOCH) // timedelta(milliseconds=1)


def imported_by(stored: Any) -> str | None:
    """Who imported the game whose first stored event this is (events stored before the field
    existed have none: they were not imported)."""
    return getattr(stored, "imported_by", None)


def redacted_of(stored: Any) -> list[int]:
    """The redacted entries of the game whose first stored event this is (none for events
    stored before the field existed)."""
    return list(getattr(stored, "redacted", None) or [])


def entry_of(stored: Any) -> Entry:
    """The log entry of a stored ``Opened`` or ``Recorded`` event."""
    return Entry(
        version=stored.originator_version,
        at=stored.timestamp.isoformat(),
        type=stored.type,
        data=stored.data,
        seat=stored.seat,
        automatic=stored.automatic,
        by_seat=stored.by_seat,
        command=stored.command,
        action=stored.action,
        actor=stored.actor,
        rules_version=stored.rules_version,
        hash=stored.hash,
    )
