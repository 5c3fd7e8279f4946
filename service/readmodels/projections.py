"""The read models' tables and how each entry changes them: games (summaries, the lobby, who
played which game), profiles, ratings and statistics. The mappings themselves are pure
(``projections.*``); here they are written to SQL, in the batch's transaction."""

from __future__ import annotations

import json
from typing import Any

from domain import table as tables
from projections import bots, profiles, ratings, stats
from projections import games as summaries
from service.readmodels.folder import Step
from service.store.sql import Cursor


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
        old, seq = self._rows.get(step.game_id, (None, step.public))
        public = {
            "status": step.status,
            "active_seats": step.active_seats,
            "scores": step.scores_after,
            "imported": step.imported,
            "visible": step.visible,
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
        "unranked_reason": step.unranked_reason,
        "updated_at": step.entry.at,
        "timed_out": step.timed_out or [],
        "thinking": step.thinking,
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
        if summary is None or summary["unranked_reason"]:
            return  # a copy, a fork or a chosen seed: unranked (a copy counts where it was played)
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
        if step.unranked_reason:  # a copy (counted at its source), a fork or a chosen seed
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


class BotsProjection(Projection):
    """``projections.bots``: the bots seated at tables not over, by the account that seated
    them (the per-account bot bounds count them)."""

    name = "bots"
    tables = ("papyrus_bot_seats",)
    ddl = (
        "CREATE TABLE IF NOT EXISTS papyrus_bot_seats (game_id TEXT NOT NULL,"
        " seat INTEGER NOT NULL, account TEXT NOT NULL, level TEXT NOT NULL,"
        " PRIMARY KEY (game_id, seat))",
        "CREATE INDEX IF NOT EXISTS papyrus_bot_seats_account ON papyrus_bot_seats (account)",
    )

    def apply(self, cur: Cursor, step: Step) -> None:
        if bots.ends(step.entry):
            cur.execute("DELETE FROM papyrus_bot_seats WHERE game_id = ?", (step.game_id,))
        elif (row := bots.seated_bot(step.entry, step.created_by)) is not None:
            cur.execute(
                "INSERT INTO papyrus_bot_seats (game_id, seat, account, level) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, seat) DO NOTHING",
                (step.game_id, row["seat"], row["account"], row["level"]),
            )


PROJECTIONS: tuple[Projection, ...] = (
    GamesProjection(),
    ProfilesProjection(),
    RatingsProjection(),
    StatsProjection(),
    BotsProjection(),
)
