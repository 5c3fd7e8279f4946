"""The read models' queries (``ReadModels`` inherits them): summaries and the lobby, profiles,
ratings, statistics and the bots an account seated. Read your writes: each first applies what
the store already has (``fresh``)."""

from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING, Any

from projections import games as summaries
from service.store.sql import Sql


class Queries:
    """What ``ReadModels`` answers (``service.readmodels.models``)."""

    sql: Sql
    active: bool
    _lock: threading.RLock

    if TYPE_CHECKING:  # ``ReadModels``'s own

        def catch_up(self, names: tuple[str, ...] | None = None) -> int: ...

        def is_current(self) -> bool: ...

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

    def bot_seats(self, account: str) -> list[tuple[str, str]]:
        """(game id, level) of every bot ``account`` seated at a table not over (the read
        model as it is: bring it up to the store first, ``wait_for``)."""
        with self.sql.read() as cur:
            rows = cur.execute(
                "SELECT game_id, level FROM papyrus_bot_seats WHERE account = ?", (account,)
            ).all()
        return [(str(game_id), str(level)) for game_id, level in rows]

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

    def player_ratings(self, player_id: str) -> list[tuple[int, dict[str, Any]]]:
        """(leaderboard place, row) of the player's rating in each kind they were rated in,
        by kind; the place as ``leaderboard`` orders it (rating, then player id)."""
        self.fresh()
        with self.sql.read() as cur:
            rows = cur.execute(
                "SELECT kind, rating, row FROM papyrus_ratings WHERE player_id = ? ORDER BY kind",
                (player_id,),
            ).all()
            found = []
            for kind, rating, row in rows:
                (ahead,) = cur.execute(
                    "SELECT COUNT(*) FROM papyrus_ratings WHERE kind = ?"
                    " AND (rating > ? OR (rating = ? AND player_id < ?))",
                    (kind, rating, rating, player_id),
                ).one()
                found.append((int(ahead) + 1, json.loads(row)))
        return found

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
