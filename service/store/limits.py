"""Rate-limit counters that every server process shares: rows in the database, in fixed windows.

One row per counted key (``papyrus_rate_limits``: key, the start of its current window in Unix
seconds, hits in it). ``Counters.hit`` adds to several keys with ONE statement, an UPSERT with
``RETURNING`` that PostgreSQL and SQLite (3.35 and later) both run: a key's count starts again
at the first hit of a newer window, and a process whose clock is a little behind adds to the
newer window rather than resetting it. Keys are hit in sorted order, so two processes counting
the same keys at once lock them in the same order. ``forget_before`` deletes the rows of
windows long over (the limiter calls it about once per window).
"""

from __future__ import annotations

from collections.abc import Sequence

from service.store.database import Database, schema_lock
from service.store.sql import Sql

TABLE = "papyrus_rate_limits"
DDL = (
    f"CREATE TABLE IF NOT EXISTS {TABLE} (key TEXT PRIMARY KEY, window_start BIGINT NOT NULL,"
    " hits BIGINT NOT NULL)"
)
UPSERT = (
    f"INSERT INTO {TABLE} (key, window_start, hits) VALUES {{rows}}"
    f" ON CONFLICT (key) DO UPDATE SET"
    f" hits = CASE WHEN {TABLE}.window_start >= excluded.window_start"
    f" THEN {TABLE}.hits + excluded.hits ELSE excluded.hits END,"
    f" window_start = CASE WHEN {TABLE}.window_start >= excluded.window_start"
    f" THEN {TABLE}.window_start ELSE excluded.window_start END"
    " RETURNING key, hits, window_start"
)


class Counters:
    """Hits per key and window, in the event store's database."""

    def __init__(self, database: Database) -> None:
        self.sql = Sql(database)
        with schema_lock(database), self.sql.tx() as cur:
            cur.execute(DDL)

    def hit(self, hits: Sequence[tuple[str, int]], window_start: int) -> dict[str, tuple[int, int]]:
        """Add ``count`` to each ``(key, count)`` in the window starting at ``window_start``:
        each key's hits in its current window, and that window's start."""
        if not hits:
            return {}
        merged: dict[str, int] = {}
        for key, count in hits:  # a key twice in one UPSERT is an error on PostgreSQL
            merged[key] = merged.get(key, 0) + count
        ordered = sorted(merged.items())
        rows = ", ".join("(?, ?, ?)" for _ in ordered)
        params = [value for key, count in ordered for value in (key, window_start, count)]
        with self.sql.tx() as cur:
            found = cur.execute(UPSERT.format(rows=rows), params).all()
        return {str(key): (int(count), int(start)) for key, count, start in found}

    def forget_before(self, window_start: int) -> None:
        """Delete the rows of windows that started before ``window_start``."""
        with self.sql.tx() as cur:
            cur.execute(f"DELETE FROM {TABLE} WHERE window_start < ?", (window_start,))

    def close(self) -> None:
        self.sql.close()
