"""A small adapter over sqlite3 and psycopg for the read models: one placeholder style (``?``),
one transaction helper that takes the write lock first, and portable upserts.

Waits are bounded like the event store's (``StoreOptions``): PostgreSQL connections are opened
with the connect timeout and the statement timeout, SQLite ones wait for the write lock as long
as the store does. A connection that broke is dropped (the next transaction opens a new one),
and a transaction whose ``BEGIN`` finds its connection dead (the database restarted since) is
begun again once on a new connection: nothing was sent yet, so that is safe.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from service.store.database import Database

#: the name in ``CREATE [UNIQUE] INDEX IF NOT EXISTS name``
_INDEX = re.compile(r"\s*CREATE\s+(?:UNIQUE\s+)?INDEX\s+IF\s+NOT\s+EXISTS\s+(\w+)", re.I)


class Cursor:
    def __init__(self, raw: Any, postgres: bool) -> None:
        self.raw = raw
        self.postgres = postgres

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        if self.postgres:
            sql = sql.replace("?", "%s")
        self.raw.execute(sql, tuple(params))
        return self

    def many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        if self.postgres:
            sql = sql.replace("?", "%s")
        self.raw.executemany(sql, [tuple(r) for r in rows])

    def one(self) -> Any:
        return self.raw.fetchone()

    def create(self, statement: str) -> None:
        """``CREATE ... IF NOT EXISTS``, skipping an index that is there: PostgreSQL takes its
        table's SHARE lock before it looks, so on a table in use the statement waits for every
        write in flight while every new write queues behind it (a replica starting would hold
        its fleet's writes up)."""
        index = _INDEX.match(statement)
        present = "SELECT to_regclass(?) IS NOT NULL"
        if self.postgres and index and self.execute(present, (index[1],)).one()[0]:
            return
        self.execute(statement)

    def without_timeout(self) -> None:
        """Let this transaction's statements run as long as they need (creating an index on a
        big table, a rebuild's deletes): maintenance, not a request. PostgreSQL only."""
        if self.postgres:
            self.raw.execute("SET LOCAL statement_timeout = 0")

    def all(self) -> list[Any]:
        return list(self.raw.fetchall())

    def columns(self, table: str) -> set[str]:
        """The names of ``table``'s columns (none if there is no such table)."""
        if self.postgres:
            rows = self.execute(
                "SELECT column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND table_name = ?",
                (table,),
            ).all()
            return {str(row[0]) for row in rows}
        return {str(row[1]) for row in self.execute(f"PRAGMA table_info({table})").all()}


class Sql:
    """One connection per thread; ``tx()`` is one transaction holding the write lock."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.postgres = database.is_postgres
        self._local = threading.local()
        self._all: list[Any] = []
        self._lock = threading.Lock()

    def _connection(self) -> Any:
        connection = getattr(self._local, "connection", None)
        if connection is not None and not getattr(connection, "closed", False):
            return connection
        options = self.database.options
        if self.postgres:
            import psycopg

            connection = psycopg.connect(
                self.database.url,
                autocommit=True,
                connect_timeout=options.connect_timeout,
                options=options.postgres_options(),
            )
        else:
            lock_timeout = options.sqlite_lock_timeout
            connection = sqlite3.connect(
                self.database.sqlite_path,
                check_same_thread=False,
                timeout=lock_timeout,
                isolation_level=None,
            )
            try:
                connection.execute(f"PRAGMA busy_timeout={int(lock_timeout * 1000)}")
                connection.execute("PRAGMA journal_mode=WAL")
                connection.execute(f"PRAGMA synchronous={options.sqlite_synchronous.upper()}")
            except BaseException:
                connection.close()
                raise
        self._local.connection = connection
        with self._lock:
            self._all.append(connection)
        return connection

    def _drop(self, connection: Any) -> None:
        """Forget a connection that broke (the next transaction of this thread opens one)."""
        if getattr(self._local, "connection", None) is connection:
            self._local.connection = None
        with self._lock:
            if connection in self._all:
                self._all.remove(connection)
        with contextlib.suppress(Exception):
            connection.close()

    @contextmanager
    def tx(self, *, write: bool = True) -> Iterator[Cursor]:
        if self.postgres:
            with self._postgres_tx() as cursor:
                yield cursor
            return
        connection = self._connection()
        raw = connection.cursor()
        try:
            raw.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        except BaseException:
            raw.close()
            raise
        try:
            yield Cursor(raw, False)
            raw.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):  # the first failure is the one to report
                raw.execute("ROLLBACK")
            raise
        finally:
            raw.close()

    @contextmanager
    def _postgres_tx(self) -> Iterator[Cursor]:
        import psycopg

        failures = (psycopg.OperationalError, psycopg.InterfaceError)
        connection = self._connection()
        try:
            with contextlib.ExitStack() as stack:
                try:
                    stack.enter_context(connection.transaction())
                except failures:
                    if not (connection.broken or connection.closed):
                        raise
                    self._drop(connection)  # dead since its last use: begin on a new one
                    connection = self._connection()
                    stack.enter_context(connection.transaction())
                raw = stack.enter_context(connection.cursor())
                yield Cursor(raw, True)
        except failures:
            if connection.broken or connection.closed:
                self._drop(connection)
            raise

    def read(self) -> Any:
        return self.tx(write=False)

    def close(self) -> None:
        with self._lock:
            for connection in self._all:
                with contextlib.suppress(Exception):  # a dead connection must not stop shutdown
                    connection.close()
            self._all.clear()
