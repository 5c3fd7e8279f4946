"""Keeps the catalog read model (``projections.catalog``) current and answers listings.

The runner reads the store's notification log after its tracking position and writes the
changed rows and the new position in one transaction, so each event is applied exactly once
and a restarted process resumes where it stopped. It works the same on SQLite and PostgreSQL
(polling; a save in this process pokes it).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from projections.catalog import Row, summarize
from service.store import Database, GameTable, Store

NAME = "catalog"
BATCH = 500
CREATED_TOPIC = "service.store:GameTable.Opened"
RECORDED_TOPIC = "service.store:GameTable.Recorded"


class Catalog:
    def __init__(self, store: Store, database: Database) -> None:
        self.store = store
        self.database = database
        self._lock = threading.Lock()
        self._sqlite: sqlite3.Connection | None = None
        self._pg: Any = None
        self._create_tables()

    # -- connections ------------------------------------------------------------------------

    @contextmanager
    def _tx(self) -> Iterator[Any]:
        """A cursor inside one transaction (committed on success, rolled back on error)."""
        if self.database.is_postgres:
            import psycopg

            if self._pg is None or self._pg.closed:
                self._pg = psycopg.connect(self.database.url, autocommit=False)
            with self._pg.transaction(), self._pg.cursor() as cursor:
                yield cursor
        else:
            if self._sqlite is None:
                self._sqlite = sqlite3.connect(
                    self.database.sqlite_path, check_same_thread=False, timeout=30
                )
                self._sqlite.execute("PRAGMA journal_mode=WAL")
            connection = self._sqlite
            cursor = connection.cursor()
            try:
                cursor.execute("BEGIN IMMEDIATE")
                yield cursor
                connection.commit()
            except BaseException:
                connection.rollback()
                raise
            finally:
                cursor.close()

    @property
    def _p(self) -> str:
        return "%s" if self.database.is_postgres else "?"

    def _create_tables(self) -> None:
        with self._lock, self._tx() as cur:
            cur.execute(
                "CREATE TABLE IF NOT EXISTS papyrus_catalog ("
                " game_id TEXT PRIMARY KEY, seq BIGINT NOT NULL, kind TEXT NOT NULL,"
                " status TEXT NOT NULL, row TEXT NOT NULL)"
            )
            cur.execute(
                "CREATE TABLE IF NOT EXISTS papyrus_tracking ("
                " projection TEXT PRIMARY KEY, position BIGINT NOT NULL)"
            )

    def close(self) -> None:
        if self._sqlite is not None:
            self._sqlite.close()
        if self._pg is not None:
            self._pg.close()

    # -- processing -------------------------------------------------------------------------

    def position(self) -> int:
        with self._lock, self._tx() as cur:
            return self._position(cur)

    def _position(self, cur: Any) -> int:
        cur.execute(f"SELECT position FROM papyrus_tracking WHERE projection = {self._p}", (NAME,))
        found = cur.fetchone()
        return int(found[0]) if found else 0

    def catch_up(self) -> int:
        """Apply every new event; returns the number applied."""
        applied = 0
        with self._lock:
            while True:
                with self._tx() as cur:
                    start = self._position(cur)
                    notes = self.store.recorder.select_notifications(
                        start + 1, BATCH, topics=(CREATED_TOPIC, RECORDED_TOPIC)
                    )
                    if not notes:
                        return applied
                    rows: dict[str, Row | None] = {}
                    for note in notes:
                        event: Any = self.store.mapper.to_domain_event(note)
                        game_id = str(event.originator_id)
                        if game_id not in rows:
                            rows[game_id] = self._load(cur, game_id)
                        rows[game_id] = summarize(
                            rows[game_id],
                            game_id,
                            event.originator_version,
                            event.timestamp.isoformat(),
                            event.type,
                            event.data,
                        )
                        if isinstance(event, GameTable.Opened):
                            rows[game_id]["seq"] = note.id  # type: ignore[index]
                    for row in rows.values():
                        assert row is not None
                        self._save(cur, row)
                    self._track(cur, notes[-1].id)
                    applied += len(notes)

    def _load(self, cur: Any, game_id: str) -> Row | None:
        cur.execute(f"SELECT row FROM papyrus_catalog WHERE game_id = {self._p}", (game_id,))
        found = cur.fetchone()
        return json.loads(found[0]) if found else None

    def _save(self, cur: Any, row: Row) -> None:
        p = self._p
        cur.execute(
            f"INSERT INTO papyrus_catalog (game_id, seq, kind, status, row)"
            f" VALUES ({p}, {p}, {p}, {p}, {p})"
            " ON CONFLICT (game_id) DO UPDATE SET status = excluded.status, row = excluded.row",
            (row["game_id"], row.get("seq", 0), row["kind"], row["status"], json.dumps(row)),
        )

    def _track(self, cur: Any, position: int) -> None:
        p = self._p
        cur.execute(
            f"INSERT INTO papyrus_tracking (projection, position) VALUES ({p}, {p})"
            " ON CONFLICT (projection) DO UPDATE SET position = excluded.position",
            (NAME, position),
        )

    # -- queries ----------------------------------------------------------------------------

    def list(
        self, kind: str | None, status: str | None, limit: int, before_seq: int | None
    ) -> list[Row]:
        """Newest first; ``before_seq`` continues after a cursor."""
        self.catch_up()
        p = self._p
        where: list[str] = []
        args: list[Any] = []
        if kind is not None:
            where.append(f"kind = {p}")
            args.append(kind)
        if status is not None:
            where.append(f"status = {p}")
            args.append(status)
        if before_seq is not None:
            where.append(f"seq < {p}")
            args.append(before_seq)
        sql = "SELECT row, seq FROM papyrus_catalog"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += f" ORDER BY seq DESC LIMIT {p}"
        args.append(limit)
        with self._lock, self._tx() as cur:
            cur.execute(sql, tuple(args))
            return [{**json.loads(r), "seq": int(s)} for r, s in cur.fetchall()]
