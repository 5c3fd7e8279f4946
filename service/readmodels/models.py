"""Read models kept from the event log with tracking positions: ``ReadModels``.

Each projection has its own position in the store's notification log. A catch-up reads the
notifications after it and, in one transaction per batch, writes the changed rows and the new
position: each event is applied exactly once, and a process that dies resumes where the last
committed batch ended. The transaction first takes the projection's write lock (the tracking
row ``FOR UPDATE`` on PostgreSQL, ``BEGIN IMMEDIATE`` on SQLite), so several server processes
may run the same projections over one database without applying anything twice.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from typing import Any

from projections import games as summaries
from service.readmodels.folder import Folder, Step
from service.readmodels.projections import PROJECTIONS
from service.store import entry_of, imported_by
from service.store.database import Database, Store, schema_lock
from service.store.sql import Cursor, Sql

TOPICS = ("service.store:GameTable.Opened", "service.store:GameTable.Recorded")
#: events applied per transaction, by default (``papyrus serve --projection-batch``)
BATCH = 200


class ReadModels:
    def __init__(
        self, store: Store, database: Database, *, active: bool = True, batch: int = BATCH
    ) -> None:
        """``active=False``: this process only reads; another one keeps the models current.
        ``batch``: events applied per transaction."""
        self.active = active
        self.batch = batch
        self.store = store
        self.sql = Sql(database)
        self.projections = {p.name: p for p in PROJECTIONS}
        self._folder = Folder(self.store)
        self._lock = threading.RLock()  # held by a catch-up (``fresh`` waits for it, bounded)
        self._create()

    def _create(self) -> None:
        with schema_lock(self.sql.database), self.sql.tx() as cur:
            cur.without_timeout()
            cur.execute(
                "CREATE TABLE IF NOT EXISTS papyrus_tracking (projection TEXT PRIMARY KEY,"
                " position BIGINT NOT NULL)"
            )
            for projection in self.projections.values():
                for statement in projection.ddl:
                    cur.execute(statement)
                cur.execute(
                    "INSERT INTO papyrus_tracking (projection, position) VALUES (?, 0)"
                    " ON CONFLICT (projection) DO NOTHING",
                    (projection.name,),
                )

    def close(self) -> None:
        self.sql.close()

    # -- positions ------------------------------------------------------------------------------

    def positions(self) -> dict[str, int]:
        with self.sql.read() as cur:
            rows = cur.execute("SELECT projection, position FROM papyrus_tracking").all()
        return {name: int(position) for name, position in rows if name in self.projections}

    def store_position(self) -> int:
        return int(self.store.recorder.max_notification_id() or 0)

    def is_current(self) -> bool:
        head = self.store_position()
        return all(p >= head for p in self.positions().values())

    # -- processing -----------------------------------------------------------------------------

    def catch_up(self, names: tuple[str, ...] | None = None) -> int:
        """Apply every new event to the named projections (all by default).

        Projections are caught up together: one fold of each event serves all of them, each
        keeps its own position (one that was rebuilt starts further back and catches up).
        Returns the number of events read.
        """
        chosen = names or tuple(self.projections)
        applied = 0
        with self._lock:
            while True:
                count = self._batch(chosen)
                applied += count
                if count == 0:
                    return applied

    def _batch(self, chosen: tuple[str, ...]) -> int:
        """One batch, in one transaction with the projections' write lock.

        On PostgreSQL the tracking rows are locked ``FOR UPDATE SKIP LOCKED`` (another process
        already catching up does the work). SQLite has one writer for the whole file, shared
        with the event store: the events are read and folded first, and the write lock is held
        only to check that nobody moved meanwhile and to write the rows.
        """
        if self.sql.postgres:
            with self.sql.tx() as cur:
                positions = self._positions(cur, chosen, " FOR UPDATE SKIP LOCKED")
                notes = self._notes(positions)
                if not notes:
                    return 0
                self._apply(cur, positions, self._steps(notes), notes[-1].id)
                return len(notes)
        with self.sql.read() as cur:
            positions = self._positions(cur, chosen, "")
        notes = self._notes(positions)
        if not notes:
            return 0
        steps = self._steps(notes)
        with self.sql.tx() as cur:
            if self._positions(cur, chosen, "") != positions:  # another process moved on
                self._folder = Folder(self.store)
                return len(notes)
            self._apply(cur, positions, steps, notes[-1].id)
        return len(notes)

    def _positions(self, cur: Cursor, chosen: tuple[str, ...], lock: str) -> dict[str, int]:
        marks = ", ".join("?" for _ in chosen)
        rows = cur.execute(
            f"SELECT projection, position FROM papyrus_tracking WHERE projection IN ({marks})"
            f" ORDER BY projection{lock}",
            chosen,
        ).all()
        return {name: int(position) for name, position in rows}

    def _notes(self, positions: dict[str, int]) -> list[Any]:
        """Every notification after the lowest position (players' too: a position must be able
        to reach the head of the log, so that "current" means current)."""
        if not positions:
            return []
        after = min(positions.values())
        return list(self.store.recorder.select_notifications(after + 1, self.batch))

    def _steps(self, notes: list[Any]) -> list[Step]:
        try:
            return [
                self._folder.step(
                    str(uuid.UUID(str(note.originator_id))),
                    entry_of(event),
                    note.id,
                    imported_by(event) is not None,
                )
                for note in notes
                if note.topic in TOPICS
                for event in [self.store.mapper.to_domain_event(note)]
            ]
        except Exception:
            self._folder = Folder(self.store)
            raise

    def _apply(self, cur: Cursor, positions: dict[str, int], steps: list[Step], last: int) -> None:
        try:
            for name, position in positions.items():
                self.projections[name].apply_batch(
                    cur, [step for step in steps if step.position > position]
                )
        except Exception:
            self._folder = Folder(self.store)  # it may be ahead of what gets rolled back
            for name in positions:
                self.projections[name].reset()
            raise
        cur.many(  # one round trip for every read model (psycopg pipelines executemany)
            "UPDATE papyrus_tracking SET position = ? WHERE projection = ?",
            [(max(position, last), name) for name, position in positions.items()],
        )

    def rebuild(self, names: tuple[str, ...] | None = None) -> int:
        """Drop the named read models (all by default) and apply the whole log again."""
        chosen = names or tuple(self.projections)
        for name in chosen:
            if name not in self.projections:
                raise KeyError(name)
            with self._lock, self.sql.tx() as cur:
                cur.without_timeout()
                for table in self.projections[name].tables:
                    cur.execute(f"DELETE FROM {table}")
                cur.execute(
                    "UPDATE papyrus_tracking SET position = 0 WHERE projection = ?", (name,)
                )
        return self.catch_up(chosen)

    def wait_for(self, position: int, timeout: float = 5.0) -> bool:
        """Block until every read model has applied the store up to ``position``."""
        deadline = time.monotonic() + timeout
        while True:
            if min(self.positions().values()) >= position:
                return True
            if self.active:
                self.catch_up()
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)

    # -- queries (read your writes: each first applies what the store already has) --------------

    def fresh(self) -> None:
        """Apply what the store already has before a query. If another thread is catching up
        and does not finish within the statement timeout (a slow or failing database), the
        query reads what is there rather than queueing behind it: waits stay bounded."""
        if not self.active or self.is_current():
            return
        if not self._lock.acquire(timeout=self.sql.database.options.statement_timeout):
            return
        try:
            self.catch_up()
        finally:
            self._lock.release()

    def summaries(
        self,
        *,
        kind: str | None = None,
        status: str | None = None,
        player_id: str | None = None,
        lobby: bool = False,
        options: dict[str, Any] | None = None,
        limit: int = 50,
        before_seq: int | None = None,
    ) -> list[dict[str, Any]]:
        """Game summaries, newest first (``before_seq`` continues after a cursor). ``options``
        keeps the tables whose options contain these values (matched here, batch by batch)."""
        self.fresh()
        if options:
            found: list[dict[str, Any]] = []
            while len(found) < limit:
                batch = self._summaries(kind, status, player_id, lobby, 200, before_seq)
                found += [r for r in batch if summaries.matches_options(r, options)]
                if len(batch) < 200:
                    break
                before_seq = batch[-1]["seq"]
            return found[:limit]
        return self._summaries(kind, status, player_id, lobby, limit, before_seq)

    def count_summaries(
        self,
        *,
        kind: str | None = None,
        status: str | None = None,
        player_id: str | None = None,
        lobby: bool = False,
        options: dict[str, Any] | None = None,
    ) -> int:
        """How many game summaries match the filters of ``summaries`` (every page): one
        ``COUNT`` in SQL; with ``options``, the rows the SQL filters keep are matched here, as
        ``summaries`` does (the lobby, where options are asked for, holds only open tables)."""
        self.fresh()
        where, args = self._filters(kind, status, player_id, lobby)
        if options:
            with self.sql.read() as cur:
                rows = cur.execute(f"SELECT g.row FROM papyrus_games g{where}", args).all()
            return sum(1 for (row,) in rows if summaries.matches_options(json.loads(row), options))
        with self.sql.read() as cur:
            (total,) = cur.execute(f"SELECT COUNT(*) FROM papyrus_games g{where}", args).one()
        return int(total)

    @staticmethod
    def _filters(
        kind: str | None, status: str | None, player_id: str | None, lobby: bool
    ) -> tuple[str, list[Any]]:
        """The ``WHERE`` clause (empty, or with a leading space) of a listing, and its
        arguments."""
        where: list[str] = []
        args: list[Any] = []
        if kind is not None:
            where.append("g.kind = ?")
            args.append(kind)
        if status is not None:
            where.append("g.status = ?")
            args.append(status)
        if lobby:
            where.append("g.status = 'OPEN' AND g.free_seats > 0")
        if player_id is not None:
            where.append(
                "g.game_id IN (SELECT game_id FROM papyrus_game_players WHERE player_id = ?)"
            )
            args.append(player_id)
        return (" WHERE " + " AND ".join(where) if where else ""), args

    def _summaries(
        self,
        kind: str | None,
        status: str | None,
        player_id: str | None,
        lobby: bool,
        limit: int,
        before_seq: int | None,
    ) -> list[dict[str, Any]]:
        where, args = self._filters(kind, status, player_id, lobby)
        if before_seq is not None:
            where += " AND g.seq < ?" if where else " WHERE g.seq < ?"
            args.append(before_seq)
        sql = f"SELECT g.row, g.seq FROM papyrus_games g{where} ORDER BY g.seq DESC LIMIT ?"
        args.append(limit)
        with self.sql.read() as cur:
            rows = cur.execute(sql, args).all()
        return [summaries.read({**json.loads(row), "seq": int(seq)}) for row, seq in rows]

    def summary(self, game_id: str) -> dict[str, Any] | None:
        self.fresh()
        with self.sql.read() as cur:
            found = cur.execute(
                "SELECT row, seq FROM papyrus_games WHERE game_id = ?", (game_id,)
            ).one()
        return summaries.read({**json.loads(found[0]), "seq": int(found[1])}) if found else None

    def profile(self, player_id: str) -> dict[str, Any] | None:
        self.fresh()
        with self.sql.read() as cur:
            found = cur.execute(
                "SELECT row FROM papyrus_profiles WHERE player_id = ?", (player_id,)
            ).one()
        return json.loads(found[0]) if found else None

    def leaderboard(self, kind: str, limit: int, offset: int = 0) -> list[dict[str, Any]]:
        self.fresh()
        with self.sql.read() as cur:
            rows = cur.execute(
                "SELECT row FROM papyrus_ratings WHERE kind = ?"
                " ORDER BY rating DESC, player_id LIMIT ? OFFSET ?",
                (kind, limit, offset),
            ).all()
        return [json.loads(row) for (row,) in rows]

    def count_ratings(self, kind: str) -> int:
        """How many players the leaderboard of ``kind`` ranks (every page)."""
        self.fresh()
        with self.sql.read() as cur:
            (total,) = cur.execute(
                "SELECT COUNT(*) FROM papyrus_ratings WHERE kind = ?", (kind,)
            ).one()
        return int(total)

    def statistics(self, kind: str) -> dict[str, Any]:
        self.fresh()
        with self.sql.read() as cur:
            rows = cur.execute(
                "SELECT source, points, games FROM papyrus_stats WHERE kind = ?", (kind,)
            ).all()
        games = next((int(g) for s, _, g in rows if s == "__games__"), 0)
        sources = sorted(
            (
                {
                    "source": source,
                    "points": int(points),
                    "average_per_game": int(points) / games if games else 0.0,
                }
                for source, points, _ in rows
                if source != "__games__"
            ),
            key=lambda s: (-s["points"], s["source"]),
        )
        return {"kind": kind, "games": games, "sources": sources}
