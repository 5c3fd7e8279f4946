"""The event store on SQLite: the library's factory, its connections in WAL mode with
``synchronous=NORMAL`` (``PERSISTENCE_MODULE=service.store.sqlite:Factory``, set by
``Database.env``).

In WAL mode SQLite's own documentation (https://sqlite.org/pragma.html#pragma_synchronous)
states that a committed transaction is durable across an application crash whatever the
``synchronous`` level; ``NORMAL`` skips the ``fsync`` of the write-ahead log at each commit
(it syncs at checkpoints), so a transaction committed just before a power loss or an operating
system crash may roll back. ``FULL`` (the library's default) syncs every commit, which costs one
``fsync`` per action (5-8 ms on this machine's disk against 20 µs). The server's promise is no
acknowledged action lost on ``kill -9`` of the process (``tests/service/fleet/test_outage.py``),
which ``NORMAL`` keeps; ``PAPYRUS_SQLITE_SYNCHRONOUS=full`` buys power-loss durability too
(docs/configuration.md, "Caching and durability").
"""

from __future__ import annotations

from typing import Any

from eventsourcing.sqlite import SQLiteConnection, SQLiteConnectionPool, SQLiteFactory
from eventsourcing.utils import Environment, EnvType

SYNCHRONOUS = "SQLITE_SYNCHRONOUS"
LEVELS = ("normal", "full")


class Pool(SQLiteConnectionPool):
    """The library's pool; each new connection is set to the ``synchronous`` level."""

    def __init__(self, *, synchronous: str, **kwargs: Any) -> None:
        self.synchronous = synchronous
        super().__init__(**kwargs)

    def _create_connection(self) -> SQLiteConnection:
        connection = super()._create_connection()
        if not self.is_sqlite_memory_mode:
            connection._sqlite_conn.execute(f"PRAGMA synchronous={self.synchronous.upper()}")
        return connection


class Factory(SQLiteFactory):
    def __init__(self, env: Environment | EnvType | None) -> None:
        super().__init__(env)
        synchronous = (self.env.get(SYNCHRONOUS) or "normal").strip().lower()
        if synchronous not in LEVELS:
            raise OSError(f"{SYNCHRONOUS} must be one of {', '.join(LEVELS)}, not {synchronous!r}")
        library = self.datastore.pool
        self.datastore.pool = Pool(
            synchronous=synchronous,
            db_name=library.db_name,
            lock_timeout=library.lock_timeout,
        )
        library.close()
