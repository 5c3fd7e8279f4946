"""A small adapter over sqlite3 and psycopg for the read models: one placeholder style (``?``),
one transaction helper that takes the write lock first, and portable upserts."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from service.store.database import Database


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

    def all(self) -> list[Any]:
        return list(self.raw.fetchall())


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
        if self.postgres:
            import psycopg

            connection = psycopg.connect(self.database.url, autocommit=True)
        else:
            connection = sqlite3.connect(
                self.database.sqlite_path,
                check_same_thread=False,
                timeout=60,
                isolation_level=None,
            )
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA busy_timeout=60000")
        self._local.connection = connection
        with self._lock:
            self._all.append(connection)
        return connection

    @contextmanager
    def tx(self, *, write: bool = True) -> Iterator[Cursor]:
        connection = self._connection()
        if self.postgres:
            with connection.transaction(), connection.cursor() as raw:
                yield Cursor(raw, True)
            return
        raw = connection.cursor()
        raw.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        try:
            yield Cursor(raw, False)
            raw.execute("COMMIT")
        except BaseException:
            raw.execute("ROLLBACK")
            raise
        finally:
            raw.close()

    def read(self) -> Any:
        return self.tx(write=False)

    def close(self) -> None:
        with self._lock:
            for connection in self._all:
                with contextlib.suppress(Exception):  # a dead connection must not stop shutdown
                    connection.close()
            self._all.clear()
