"""What counts as a failure of the store itself (UNAVAILABLE to clients), not a bug."""

from __future__ import annotations

import sqlite3

import eventsourcing.persistence
import psycopg

#: failures of the store itself (down, locked, out of connections, a statement timed out):
#: UNAVAILABLE to clients. The event store raises the library's errors; the read models' SQL
#: (``service.store.sql``) raises the drivers' own (psycopg's, sqlite3's): see ``is_store_failure``
STORE_FAILURES: tuple[type[BaseException], ...] = (
    eventsourcing.persistence.OperationalError,
    eventsourcing.persistence.InterfaceError,
    eventsourcing.persistence.ConnectionUnavailableError,
    psycopg.OperationalError,  # the server is gone, refused, shutting down; timeouts, pool waits
    psycopg.InterfaceError,  # the connection is closed
)
#: what sqlite3.OperationalError says when the file, not the SQL, is the trouble (a syntax
#: error is an OperationalError too, and a bug)
SQLITE_FAILURES = (
    "database is locked",
    "database table is locked",
    "unable to open database file",
    "disk i/o error",
    "no such table",  # the file was replaced by an empty one
    "attempt to write a readonly database",
    "database or disk is full",
)


def is_store_failure(error: BaseException) -> bool:
    """The store failed (``UNAVAILABLE``), as opposed to a bug; the exception or what it was
    raised from."""
    seen: BaseException | None = error
    for _ in range(8):
        if seen is None:
            return False
        if isinstance(seen, STORE_FAILURES):
            return True
        if isinstance(seen, sqlite3.OperationalError):
            text = str(seen).lower()
            return any(words in text for words in SQLITE_FAILURES)
        seen = seen.__cause__
    return False
