"""Read models kept from the event log with tracking positions (issue #7).

Each projection has its own position in the store's notification log. A catch-up reads the
notifications after it and, in one transaction per batch, writes the changed rows and the new
position: each event is applied exactly once, and a process that dies resumes where the last
committed batch ended. The transaction first takes the projection's write lock (the tracking
row ``FOR UPDATE`` on PostgreSQL, ``BEGIN IMMEDIATE`` on SQLite), so several server processes
may run the same projections over one database without applying anything twice.

The mappings are pure (``projections.*``); here they get what they need: each entry, and the
public facts of its game right before and after it (folded with the rules, never a secret).
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from domain import table as tables
from domain.log import Entry
from domain.registry import rules_for
from projections import games as summaries
from projections import profiles, ratings, stats
from service.store import entry_of, imported_by
from service.store.database import Database, Store, schema_lock
from service.store.sql import Cursor, Sql

log = logging.getLogger("papyrus.readmodels")

TOPICS = ("service.store:GameTable.Opened", "service.store:GameTable.Recorded")
#: events applied per transaction (tune with PAPYRUS_PROJECTION_BATCH)
BATCH = int(os.environ.get("PAPYRUS_PROJECTION_BATCH", "200"))


@dataclass(frozen=True, slots=True)
class Step:
    """One entry with the public facts of its game before and after it."""

    game_id: str
    entry: Entry
    position: int
    kind: str
    status: str
    scores_before: list[int]
    scores_after: list[int]
    active_seats: list[int]
    players: list[dict[str, Any]]
    forked_from: dict[str, Any] | None
    imported: bool = False
    """A copy of a game played elsewhere (``importGame``): it does not count again."""


def dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class Projection:
    name = ""
    tables: tuple[str, ...] = ()
    ddl: tuple[str, ...] = ()

    def apply(self, cur: Cursor, step: Step) -> None:
        raise NotImplementedError

    def apply_batch(self, cur: Cursor, steps: list[Step]) -> None:
        """Apply a batch of steps; a projection may read and write its rows in bulk."""
        for step in steps:
            self.apply(cur, step)
        self.flush(cur)

    def flush(self, cur: Cursor) -> None:
        """Write what ``apply`` kept in memory during the batch (same transaction)."""

    def reset(self) -> None:
        """Forget what ``apply`` kept in memory (the batch was rolled back)."""


class GamesProjection(Projection):
    """``projections.games``: summaries, the lobby, and who played which game."""

    name = "games"
    tables = ("papyrus_games", "papyrus_game_players")
    ddl = (
        "CREATE TABLE IF NOT EXISTS papyrus_games (game_id TEXT PRIMARY KEY, seq BIGINT NOT NULL,"
        " kind TEXT NOT NULL, status TEXT NOT NULL, free_seats INTEGER NOT NULL,"
        " updated_at TEXT NOT NULL, row TEXT NOT NULL)",
        "CREATE INDEX IF NOT EXISTS papyrus_games_kind ON papyrus_games (kind, status, seq)",
        "CREATE TABLE IF NOT EXISTS papyrus_game_players (game_id TEXT NOT NULL,"
        " seat INTEGER NOT NULL, player_id TEXT, name TEXT NOT NULL, seq BIGINT NOT NULL,"
        " PRIMARY KEY (game_id, seat))",
        "CREATE INDEX IF NOT EXISTS papyrus_game_players_player"
        " ON papyrus_game_players (player_id, seq)",
    )

    def __init__(self) -> None:
        self._rows: dict[str, tuple[dict[str, Any], int]] = {}
        self._seats: list[tuple[Any, ...]] = []

    def apply(self, cur: Cursor, step: Step) -> None:
        old, seq = self._rows.get(step.game_id, (None, step.position))
        public = {
            "status": step.status,
            "active_seats": step.active_seats,
            "scores": step.scores_after,
        }
        self._rows[step.game_id] = (summaries.summarize(old, step.game_id, step.entry, public), seq)
        if step.entry.type == tables.SEAT_TAKEN:
            d = step.entry.data
            self._seats.append((step.game_id, d["seat"], d["player_id"], d["name"], seq))

    def apply_batch(self, cur: Cursor, steps: list[Step]) -> None:
        wanted = sorted({step.game_id for step in steps} - set(self._rows))
        if wanted:
            marks = ", ".join("?" for _ in wanted)
            for game_id, row, seq in cur.execute(
                f"SELECT game_id, row, seq FROM papyrus_games WHERE game_id IN ({marks})", wanted
            ).all():
                self._rows[game_id] = (json.loads(row), int(seq))
        super().apply_batch(cur, steps)

    def flush(self, cur: Cursor) -> None:
        cur.many(
            "INSERT INTO papyrus_games"
            " (game_id, seq, kind, status, free_seats, updated_at, row)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
            " status = excluded.status, free_seats = excluded.free_seats,"
            " updated_at = excluded.updated_at, row = excluded.row",
            [
                (
                    game_id,
                    seq,
                    row["kind"],
                    row["status"],
                    row["free_seats"],
                    row["updated_at"],
                    dump(row),
                )
                for game_id, (row, seq) in self._rows.items()
            ],
        )
        cur.many(
            "INSERT INTO papyrus_game_players (game_id, seat, player_id, name, seq)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO NOTHING",
            self._seats,
        )
        self.reset()

    def reset(self) -> None:
        self._rows = {}
        self._seats = []


def finished_summary(step: Step) -> dict[str, Any] | None:
    """The game's summary once it finished (profiles and ratings fold it on game_finished)."""
    if step.entry.type != tables.GAME_FINISHED:
        return None
    d = step.entry.data
    return {
        "game_id": step.game_id,
        "kind": step.kind,
        "players": step.players,
        "scores": list(d["scores"]),
        "winners": list(d["winners"]),
        "ranks": list(d["ranks"]),
        "forked_from": step.forked_from,
        "imported": step.imported,
        "updated_at": step.entry.at,
    }


class ProfilesProjection(Projection):
    name = "profiles"
    tables = ("papyrus_profiles",)
    ddl = (
        "CREATE TABLE IF NOT EXISTS papyrus_profiles (player_id TEXT PRIMARY KEY,"
        " name TEXT NOT NULL, games_played INTEGER NOT NULL, row TEXT NOT NULL)",
    )

    def apply(self, cur: Cursor, step: Step) -> None:
        summary = finished_summary(step)
        if summary is None or summary["imported"] or summary["forked_from"]:
            return  # a copy or a sandbox: what its players did counts where it was played
        seen: set[str] = set()
        for player in summary["players"]:
            pid = player["player_id"]
            if pid is None or pid in seen:
                continue
            seen.add(pid)
            found = cur.execute(
                "SELECT row FROM papyrus_profiles WHERE player_id = ?", (pid,)
            ).one()
            row = profiles.record_game(
                json.loads(found[0]) if found else None, pid, player["name"], summary
            )
            cur.execute(
                "INSERT INTO papyrus_profiles (player_id, name, games_played, row)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (player_id) DO UPDATE SET name = excluded.name,"
                " games_played = excluded.games_played, row = excluded.row",
                (pid, row["name"], row["games_played"], dump(row)),
            )


class RatingsProjection(Projection):
    name = "ratings"
    tables = ("papyrus_ratings",)
    ddl = (
        "CREATE TABLE IF NOT EXISTS papyrus_ratings (kind TEXT NOT NULL, player_id TEXT NOT NULL,"
        " rating DOUBLE PRECISION NOT NULL, row TEXT NOT NULL, PRIMARY KEY (kind, player_id))",
        "CREATE INDEX IF NOT EXISTS papyrus_ratings_board ON papyrus_ratings (kind, rating)",
    )

    def apply(self, cur: Cursor, step: Step) -> None:
        summary = finished_summary(step)
        if summary is None:
            return
        ids = [p for _, p, _ in ratings.rated_seats(summary)]
        current = {}
        for pid in ids:
            found = cur.execute(
                "SELECT row FROM papyrus_ratings WHERE kind = ? AND player_id = ?", (step.kind, pid)
            ).one()
            current[pid] = json.loads(found[0]) if found else None
        for pid, row in ratings.rate_game(current, summary).items():
            cur.execute(
                "INSERT INTO papyrus_ratings (kind, player_id, rating, row) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (kind, player_id) DO UPDATE SET rating = excluded.rating,"
                " row = excluded.row",
                (step.kind, pid, row["rating"], dump(row)),
            )


class StatsProjection(Projection):
    """Points by scoring source: per game while it runs, added to the kind's totals at the end."""

    name = "stats"
    tables = ("papyrus_game_sources", "papyrus_stats")
    ddl = (
        "CREATE TABLE IF NOT EXISTS papyrus_game_sources (game_id TEXT NOT NULL,"
        " seat INTEGER NOT NULL, source TEXT NOT NULL, points BIGINT NOT NULL,"
        " PRIMARY KEY (game_id, seat, source))",
        "CREATE TABLE IF NOT EXISTS papyrus_stats (kind TEXT NOT NULL, source TEXT NOT NULL,"
        " points BIGINT NOT NULL, games BIGINT NOT NULL, PRIMARY KEY (kind, source))",
    )

    def __init__(self) -> None:
        self._points: dict[tuple[str, int, str], int] = {}

    def apply(self, cur: Cursor, step: Step) -> None:
        entry = step.entry
        if step.imported or step.forked_from:  # a copy or a sandbox: counted at its source
            return
        if step.scores_before != step.scores_after and entry.type not in tables.TABLE_EVENTS:
            gained = stats.score_sources(
                entry.type, entry.data, step.scores_before, step.scores_after
            )
            for seat, sources in gained.items():
                for source, points in sources.items():
                    key = (step.game_id, seat, source)
                    self._points[key] = self._points.get(key, 0) + points
        if entry.type == tables.GAME_FINISHED:
            self.flush(cur)  # the game's sources must be in the table to total them
            totals: dict[str, int] = {}
            for source, points in cur.execute(
                "SELECT source, points FROM papyrus_game_sources WHERE game_id = ?",
                (step.game_id,),
            ).all():
                totals[source] = totals.get(source, 0) + int(points)
            for source, points in [*totals.items(), ("__games__", 0)]:
                cur.execute(
                    "INSERT INTO papyrus_stats (kind, source, points, games) VALUES (?, ?, ?, 1)"
                    " ON CONFLICT (kind, source) DO UPDATE SET"
                    " points = papyrus_stats.points + excluded.points,"
                    " games = papyrus_stats.games + 1",
                    (step.kind, source, points),
                )

    def flush(self, cur: Cursor) -> None:
        cur.many(
            "INSERT INTO papyrus_game_sources (game_id, seat, source, points)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (game_id, seat, source) DO UPDATE"
            " SET points = papyrus_game_sources.points + excluded.points",
            [(g, seat, source, points) for (g, seat, source), points in self._points.items()],
        )
        self.reset()

    def reset(self) -> None:
        self._points = {}


PROJECTIONS: tuple[Projection, ...] = (
    GamesProjection(),
    ProfilesProjection(),
    RatingsProjection(),
    StatsProjection(),
)


class Folder:
    """Public facts of each game at each entry, folded with the rules (an LRU of tables)."""

    def __init__(self, store: Store, size: int = 256) -> None:
        self.store = store
        self.size = size
        self._tables: OrderedDict[str, tables.Table] = OrderedDict()
        self._imported: dict[str, bool] = {}

    def step(self, game_id: str, entry: Entry, position: int, imported: bool = False) -> Step:
        """``imported``: for the first entry, whether its game was imported."""
        table = self._tables.pop(game_id, None)
        if entry.version == 1:
            table = tables.start(entry)
            self._imported[game_id] = imported
        else:
            if table is None or table.version != entry.version - 1:
                table = self._load(game_id, entry.version - 1)
        rules = rules_for(table.kind)
        before = scores_of(table, rules)
        if entry.version != 1:
            table = tables.evolve(table, entry, rules)
        active = list(rules.active_seats(table.game)) if table.status == tables.ACTIVE else []
        self._tables[game_id] = table
        while len(self._tables) > self.size:
            self._tables.popitem(last=False)
        players = [
            {
                "seat": seat,
                "player_id": holder.player_id if holder else None,
                "name": holder.name if holder else None,
                "bot": holder.bot if holder else None,
            }
            for seat, holder in enumerate(table.holders)
        ]
        return Step(
            game_id,
            entry,
            position,
            table.kind,
            table.status,
            before,
            scores_of(table, rules),
            active,
            players,
            table.forked_from,
            self._is_imported(game_id),
        )

    def _is_imported(self, game_id: str) -> bool:
        if game_id not in self._imported:
            first = next(iter(self.store.events.get(uuid.UUID(game_id), lte=1)))
            self._imported[game_id] = imported_by(first) is not None
        while len(self._imported) > 4 * self.size:
            self._imported.pop(next(iter(self._imported)))
        return self._imported[game_id]

    def _load(self, game_id: str, version: int) -> tables.Table:
        stored = [entry_of(e) for e in self.store.events.get(uuid.UUID(game_id), lte=version)]
        table = tables.start(stored[0])
        rules = rules_for(table.kind)
        for entry in stored[1:]:
            table = tables.evolve(table, entry, rules)
        return table


def scores_of(table: tables.Table, rules: Any) -> list[int]:
    return list(rules.scores(table.game)) if table.game is not None else [0] * table.seats


class ReadModels:
    def __init__(self, store: Store, database: Database, *, active: bool = True) -> None:
        """``active=False``: this process only reads; another one keeps the models current."""
        self.active = active
        self.store = store
        self.sql = Sql(database)
        self.projections = {p.name: p for p in PROJECTIONS}
        self._folder = Folder(self.store)
        self._lock = threading.Lock()
        self._create()

    def _create(self) -> None:
        with schema_lock(self.sql.database), self.sql.tx() as cur:
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
        return list(self.store.recorder.select_notifications(min(positions.values()) + 1, BATCH))

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
        for name, position in positions.items():
            cur.execute(
                "UPDATE papyrus_tracking SET position = ? WHERE projection = ?",
                (max(position, last), name),
            )

    def rebuild(self, names: tuple[str, ...] | None = None) -> int:
        """Drop the named read models (all by default) and apply the whole log again."""
        chosen = names or tuple(self.projections)
        for name in chosen:
            if name not in self.projections:
                raise KeyError(name)
            with self._lock, self.sql.tx() as cur:
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
        if self.active and not self.is_current():
            self.catch_up()

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

    def _summaries(
        self,
        kind: str | None,
        status: str | None,
        player_id: str | None,
        lobby: bool,
        limit: int,
        before_seq: int | None,
    ) -> list[dict[str, Any]]:
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
        if before_seq is not None:
            where.append("g.seq < ?")
            args.append(before_seq)
        sql = "SELECT g.row, g.seq FROM papyrus_games g"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY g.seq DESC LIMIT ?"
        args.append(limit)
        with self.sql.read() as cur:
            rows = cur.execute(sql, args).all()
        return [{**json.loads(row), "seq": int(seq)} for row, seq in rows]

    def summary(self, game_id: str) -> dict[str, Any] | None:
        self.fresh()
        with self.sql.read() as cur:
            found = cur.execute(
                "SELECT row, seq FROM papyrus_games WHERE game_id = ?", (game_id,)
            ).one()
        return {**json.loads(found[0]), "seq": int(found[1])} if found else None

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


class Worker:
    """Keeps the read models current in the background: woken by the feed, and every second."""

    def __init__(self, models: ReadModels, interval: float = 1.0) -> None:
        self.models = models
        self.interval = interval
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="papyrus-readmodels", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def wake(self, *_: Any) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            self._wake.wait(self.interval)
            self._wake.clear()
            try:
                self.models.catch_up()
                failures = 0
                self._stop.wait(0.01)  # let a burst of events gather into one batch
            except Exception:  # loud, then retry from the last committed position
                failures += 1
                log.exception("read model catch-up failed (attempt %d); retrying", failures)
                self._stop.wait(min(30.0, 0.5 * 2**failures))
