"""Read models: each read model on SQLite and PostgreSQL, rebuild equals incremental, a killed
projection process resumes without losing or duplicating anything."""

from __future__ import annotations

import itertools
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from domain import table as tables
from service.app import views
from service.app.application import Application
from service.app.caller import Caller
from service.readmodels import ReadModels
from service.store.database import Database, open_store

ROOT = Path(__file__).resolve().parents[3]


def play_games(url: str, count: int, seed: int = 1) -> tuple[Application, list[Caller], list[str]]:
    games = Application(open_store(url))
    players = [games.accounts.register_player(name)[0] for name in ("Ana", "Bo", "Cy")]
    rng = random.Random(seed)
    ids = []
    for n in range(count):
        kind = "imhotep" if n % 2 == 0 else "amun_re"
        game = games.seating.create_game(players[0], kind, 3, {}, None)  # server-seeded: ranked
        game_id = str(game.id)
        ids.append(game_id)
        for p in players:
            games.seating.join_game(p, game_id, None)
        while games.tables.get(game_id).table.status == tables.ACTIVE:
            table = games.tables.get(game_id).table
            seat = rng.choice(views.active_seats(table))
            games.play.act(players[seat], game_id, rng.choice(views.legal_actions(table, players[seat])))
    return games, players, ids


def snapshot(models: ReadModels) -> dict[str, list[tuple]]:  # type: ignore[type-arg]
    out = {}
    with models.sql.read() as cur:
        for projection in models.projections.values():
            for table in projection.tables:
                out[table] = sorted(
                    tuple(map(str, r)) for r in cur.execute(f"SELECT * FROM {table}").all()
                )
    return out


def test_every_read_model_on_both_stores_and_rebuild_equals_incremental(database_url: str) -> None:
    games, players, ids = play_games(database_url, 2)
    timeline = games
    copy_ = timeline.archive.import_game(players[1], timeline.archive.export(ids[0]))  # counts only once
    log = timeline.audit.entries(ids[0])
    at = next(
        a.version for a, b in itertools.pairwise(log) if a.version > 30 and a.command != b.command
    )
    sandbox = str(timeline.forks.fork(players[2], ids[0], at).id)  # a fork counts nowhere either
    for p in players:
        games.seating.join_game(p, sandbox, None)
    rng = random.Random(2)
    while games.tables.get(sandbox).table.status == tables.ACTIVE:
        table = games.tables.get(sandbox).table
        seat = rng.choice(views.active_seats(table))
        games.play.act(players[seat], sandbox, rng.choice(views.legal_actions(table, players[seat])))
    open_table = games.seating.create_game(players[1], "imhotep", 4, {"sides": {"market": "B"}}, None)
    games.seating.join_game(players[1], str(open_table.id), None)
    models = ReadModels(games.store, Database(database_url))
    assert models.catch_up() > 0
    head = models.store_position()
    assert set(models.positions().values()) == {head}

    lobby = models.summaries(lobby=True)
    assert [r["game_id"] for r in lobby] == [str(open_table.id)]
    assert lobby[0]["free_seats"] == 3 and lobby[0]["players"][0]["name"] == "Bo"
    assert models.summaries(lobby=True, options={"sides": {"market": "B"}}) == lobby
    assert models.summaries(lobby=True, options={"sides": {"market": "A"}}) == []
    finished = models.summaries(status="FINISHED", player_id=players[2].player_id)
    assert sorted(r["game_id"] for r in finished) == sorted([*ids, str(copy_.id), sandbox])
    for row in finished:
        live = games.tables.get(row["game_id"]).table
        assert row["scores"] == live.outcome.scores and row["winners"] == live.outcome.winners
        assert row["version"] == games.tables.get(row["game_id"]).version

    profile = models.profile(players[0].player_id)
    assert profile is not None and profile["games_played"] == 2
    wins = sum(1 for g in ids if 0 in games.tables.get(g).table.outcome.winners)
    assert profile["games_won"] == wins
    board = models.leaderboard("imhotep", 10)
    assert len(board) == 3 and board[0]["rating"] >= board[-1]["rating"]
    assert [r["games"] for r in board] == [1, 1, 1]  # the imported copy is not rated again
    assert abs(sum(r["rating"] for r in board) - 3 * 1500) < 1e-6
    statistics = models.statistics("imhotep")
    assert statistics["games"] == 1
    final = games.tables.get(ids[0]).table.outcome.scores
    assert sum(s["points"] for s in statistics["sources"]) == sum(final)

    incremental = snapshot(models)
    models.rebuild()
    assert snapshot(models) == incremental
    models.rebuild(("ratings",))
    assert snapshot(models) == incremental


def test_a_killed_projection_process_resumes_without_loss_or_duplicates(tmp_path) -> None:  # type: ignore[no-untyped-def]
    url = f"sqlite:///{tmp_path / 'kill.sqlite'}"
    games, _, _ = play_games(url, 4, seed=2)
    head = int(games.store.recorder.max_notification_id())
    env = {**os.environ, "PAPYRUS_PROJECTION_BATCH": "3", "PYTHONPATH": str(ROOT)}
    models = ReadModels(games.store, Database(url))
    killed_midway = False
    for _ in range(5):
        worker = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "projections", "run", "--database-url", url],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            positions = models.positions()
            if min(positions.values()) > 0 or max(positions.values()) > 50:
                break
            time.sleep(0.01)
        worker.send_signal(signal.SIGKILL)  # no chance to clean up: a crash
        worker.wait(timeout=30)
        positions = models.positions()
        if max(positions.values()) > 0 and min(positions.values()) < head:
            killed_midway = True
            break
    assert killed_midway, "the worker finished before it could be killed"
    models.catch_up()  # resume where the last committed batch ended
    resumed = snapshot(models)
    models.rebuild()
    assert snapshot(models) == resumed


def test_replicas_starting_together_on_an_empty_postgresql_both_start(postgres_url: str) -> None:
    """Table creation is serialised by an advisory lock (two replicas, one empty database)."""
    import threading

    failures: list[BaseException] = []

    def start() -> None:
        try:
            store = open_store(postgres_url)
            ReadModels(store, Database(postgres_url)).close()
        except BaseException as failure:
            failures.append(failure)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_read_models_of_before_public_positions_are_made_again_from_the_log(
    database_url: str,
) -> None:
    """Read models written when positions were notification ids (before issue #20) ordered
    games by those ids, which count other seats' private steps: on the first start after the
    upgrade they are dropped and made again from the log, in public positions, and equal a
    fresh build."""
    games, _, _ = play_games(database_url, 2)
    database = Database(database_url)
    models = ReadModels(games.store, database)
    models.catch_up()
    expected = snapshot(models)
    public, _ = models.public_positions()
    with models.sql.tx() as cur:  # the tables as the version before wrote them
        cur.execute("DROP TABLE papyrus_tracking")
        cur.execute(
            "CREATE TABLE papyrus_tracking (projection TEXT PRIMARY KEY, position BIGINT NOT NULL)"
        )
        for name in models.projections:
            cur.execute(
                "INSERT INTO papyrus_tracking VALUES (?, ?)", (name, models.store_position())
            )
        cur.execute("UPDATE papyrus_games SET seq = seq + 1000")
    models.close()

    upgraded = ReadModels(games.store, database)
    assert set(upgraded.positions().values()) == {0}  # made again
    upgraded.catch_up()
    assert snapshot(upgraded) == expected
    assert upgraded.public_positions() == (public, {name: public for name in upgraded.projections})
    upgraded.close()
