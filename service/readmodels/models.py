"""Read models kept from the event log with tracking positions: ``ReadModels``.

Each projection has its own position in the store's notification log. A catch-up reads the
notifications after it and, in one transaction per batch, writes the changed rows and the new
position: each event is applied exactly once, and a process that dies resumes where the last
committed batch ended. The transaction first takes the projection's write lock (the tracking
row ``FOR UPDATE`` on PostgreSQL, ``BEGIN IMMEDIATE`` on SQLite), so several server processes
may run the same projections over one database without applying anything twice.

Positions are notification ids, and the log holds every seat's private steps (Amun-Re's
Offering): a number shown to callers that moved with each of them would let anybody count
another seat's secret steps (``domain.visibility``). So what callers are shown, and what they
send back (``minPosition``), are *public positions*: the number of game entries everybody sees
at a notification id. Each tracking row keeps both, and the games' order in the listings (their
cursors) is by public position too.
"""

from __future__ import annotations

import dataclasses
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from service.readmodels.folder import Folder, Step
from service.readmodels.projections import PROJECTIONS
from service.readmodels.queries import Queries
from service.store.database import Database, Store, schema_lock
from service.store.entries import entry_of, imported_by
from service.store.sql import Cursor, Sql

TOPICS = ("service.store:GameTable.Opened", "service.store:GameTable.Recorded")
#: a read model's tracking: its notification id and its public position (module docstring)
Mark = tuple[int, int]
#: events applied per transaction, by default (``papyrus serve --projection-batch``)
BATCH = 200


class ReadModels(Queries):
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
                " position BIGINT NOT NULL, public BIGINT NOT NULL DEFAULT 0)"
            )
            if "public" not in cur.columns("papyrus_tracking"):  # read models of before #20
                cur.execute(
                    "ALTER TABLE papyrus_tracking ADD COLUMN public BIGINT NOT NULL DEFAULT 0"
                )
                for projection in self.projections.values():  # ordered by id: made again
                    for table in projection.tables:
                        cur.execute(f"DROP TABLE IF EXISTS {table}")
                cur.execute("UPDATE papyrus_tracking SET position = 0")
            for projection in self.projections.values():
                for statement in projection.ddl:
                    cur.create(statement)
                cur.execute(
                    "INSERT INTO papyrus_tracking (projection, position) VALUES (?, 0)"
                    " ON CONFLICT (projection) DO NOTHING",
                    (projection.name,),
                )

    def close(self) -> None:
        self.sql.close()

    # -- positions ------------------------------------------------------------------------------

    def positions(self) -> dict[str, int]:
        """Each read model's notification id (the operator's figures; callers are shown
        ``public_positions``)."""
        with self.sql.read() as cur:
            rows = cur.execute("SELECT projection, position FROM papyrus_tracking").all()
        return {name: int(position) for name, position in rows if name in self.projections}

    def store_position(self) -> int:
        return int(self.store.recorder.max_notification_id() or 0)

    def public_positions(self) -> tuple[int, dict[str, int]]:
        """What callers are shown: the public position of the store's head and of each read
        model (module docstring). An active process applies what the store has first."""
        self.fresh()
        head = self.store_position()
        with self.sql.read() as cur:
            rows = cur.execute("SELECT projection, position, public FROM papyrus_tracking").all()
        marks = {name: (int(p), int(n)) for name, p, n in rows if name in self.projections}
        furthest, public = max(marks.values(), default=(0, 0))
        if furthest < head:  # entries no read model applied yet: counted here, not applied
            public += self._public_between(furthest, head)
        return public, {name: n for name, (_, n) in marks.items()}

    def _public_between(self, after: int, until: int) -> int:
        folder, counted = Folder(self.store), 0
        while after < until:
            notes = self.store.recorder.select_notifications(after + 1, self.batch, stop=until)
            if not notes:
                break
            counted += sum(step.visible for step in self._steps(list(notes), folder))
            after = notes[-1].id
        return counted

    def wait_for_public(self, position: int, timeout: float = 5.0) -> bool:
        """Block until every read model has applied the store up to the public ``position``
        (``minPosition``: read your own writes)."""
        return self._wait(lambda: min(self._public_marks().values()), position, timeout)

    def _public_marks(self) -> dict[str, int]:
        """Each read model's public position (the last public entry it has applied)."""
        with self.sql.read() as cur:
            rows = cur.execute("SELECT projection, public FROM papyrus_tracking").all()
        return {str(name): int(n) for name, n in rows if name in self.projections}

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
                marks = self._positions(cur, chosen, " FOR UPDATE SKIP LOCKED")
                notes = self._notes(marks)
                if not notes:
                    return 0
                self._apply(cur, marks, self._counted(notes, marks), notes[-1].id)
                return len(notes)
        with self.sql.read() as cur:
            marks = self._positions(cur, chosen, "")
        notes = self._notes(marks)
        if not notes:
            return 0
        steps = self._counted(notes, marks)
        with self.sql.tx() as cur:
            if self._positions(cur, chosen, "") != marks:  # another process moved on
                self._folder = Folder(self.store)
                return len(notes)
            self._apply(cur, marks, steps, notes[-1].id)
        return len(notes)

    def _positions(self, cur: Cursor, chosen: tuple[str, ...], lock: str) -> dict[str, Mark]:
        """Each chosen read model's position and public position."""
        marks = ", ".join("?" for _ in chosen)
        rows = cur.execute(
            "SELECT projection, position, public FROM papyrus_tracking"
            f" WHERE projection IN ({marks}) ORDER BY projection{lock}",
            chosen,
        ).all()
        return {name: (int(position), int(public)) for name, position, public in rows}

    def _notes(self, marks: dict[str, Mark]) -> list[Any]:
        """Every notification after the lowest position (players' too: a position must be able
        to reach the head of the log, so that "current" means current)."""
        if not marks:
            return []
        after = min(position for position, _ in marks.values())
        return list(self.store.recorder.select_notifications(after + 1, self.batch))

    def _counted(self, notes: list[Any], marks: dict[str, Mark]) -> list[Step]:
        """The steps of ``notes``, each with its public position, counted on from the public
        position of the read model furthest behind (where ``notes`` begin)."""
        public = min(marks.values())[1]
        counted = []
        for step in self._steps(notes, self._folder):
            public += step.visible
            counted.append(dataclasses.replace(step, public=public))
        return counted

    def _steps(self, notes: list[Any], folder: Folder) -> list[Step]:
        try:
            return [
                folder.step(
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
            if folder is self._folder:
                self._folder = Folder(self.store)
            raise

    def _apply(self, cur: Cursor, marks: dict[str, Mark], steps: list[Step], last: int) -> None:
        try:
            for name, (position, _) in marks.items():
                self.projections[name].apply_batch(
                    cur, [step for step in steps if step.position > position]
                )
        except Exception:
            self._folder = Folder(self.store)  # it may be ahead of what gets rolled back
            for name in marks:
                self.projections[name].reset()
            raise
        public_at_last = steps[-1].public if steps else min(marks.values())[1]
        cur.many(  # one round trip for every read model (psycopg pipelines executemany)
            "UPDATE papyrus_tracking SET position = ?, public = ? WHERE projection = ?",
            [
                (last, public_at_last, name) if last > position else (position, public, name)
                for name, (position, public) in marks.items()
            ],
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
                    "UPDATE papyrus_tracking SET position = 0, public = 0 WHERE projection = ?",
                    (name,),
                )
        return self.catch_up(chosen)

    def wait_for(self, position: int, timeout: float = 5.0) -> bool:
        """Block until every read model has applied the store up to ``position``."""
        return self._wait(lambda: min(self.positions().values()), position, timeout)

    def _wait(self, reached: Callable[[], int], position: int, timeout: float) -> bool:
        """Until ``reached()`` is at ``position`` (catching up meanwhile if this process keeps
        the models), at most ``timeout`` seconds: whether it got there."""
        deadline = time.monotonic() + timeout
        while True:
            if reached() >= position:
                return True
            if self.active:
                self.catch_up()
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
