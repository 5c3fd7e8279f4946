"""Fixtures of the fleet's tests."""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterator

import pytest
from eventsourcing.sqlite import SQLiteConnection, SQLiteConnectionPool

#: the threads that serve requests: the event loop's and the worker pools' (``papyrus_0``...);
#: the feed, the read-model worker, the bot driver and the clocks work in the background
WORKER = re.compile(r"papyrus(-costly)?_\d+")


class Statements:
    """Every SQL statement run on the store's SQLite connections, with the thread that ran it
    (``sqlite3.Connection.set_trace_callback`` on each connection the library opens)."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []
        self._lock = threading.Lock()

    def trace(self, statement: str) -> None:
        with self._lock:
            self.seen.append((threading.current_thread().name, statement))

    def since(self, mark: int, threads: set[str]) -> list[str]:
        with self._lock:
            return [
                sql for name, sql in self.seen[mark:] if name in threads or WORKER.fullmatch(name)
            ]


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> Iterator[Statements]:
    traced = Statements()
    create = SQLiteConnectionPool._create_connection

    def traced_connection(pool: SQLiteConnectionPool) -> SQLiteConnection:
        connection = create(pool)
        raw: sqlite3.Connection = connection._sqlite_conn
        raw.set_trace_callback(traced.trace)
        return connection

    monkeypatch.setattr(SQLiteConnectionPool, "_create_connection", traced_connection)
    yield traced
