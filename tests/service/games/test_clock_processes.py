"""Clocks that survive processes (issue #15, acceptance 2): a server killed with SIGKILL while
clocks run, restarted later, fires every deadline that passed while it was down, once each and
earliest first (its scheduler rebuilds the clocks from the log); two server processes on one
PostgreSQL never record an expiry twice.

The processes read their time from ``PAPYRUS_CLOCK_OFFSET_FILE`` (tests only), so the test
moves time while no server runs."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.client import Client, register
from tests.service.games.test_clocks import create
from tests.serving import ServeProcess as Process
from tests.serving import processes

EVENTS = """query($g: ID!) { game(id: $g) { status events(first: 200) { edges { node {
  version type at data } } } } }"""


def expiries(client: Client, game_id: str) -> list[dict[str, Any]]:
    edges = client.gql(EVENTS, {"g": game_id})["game"]["events"]["edges"]
    return [e["node"] for e in edges if e["node"]["type"] == "time_expired"]


def wait_for_expiries(client: Client, game_ids: list[str], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if all(expiries(client, g) for g in game_ids):
            return
        time.sleep(0.2)
    raise AssertionError("not every passed deadline fired")


@pytest.fixture
def offset_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "clock-offset"
    path.write_text("0")
    monkeypatch.setenv("PAPYRUS_CLOCK_OFFSET_FILE", str(path))  # the processes inherit it
    return path


def timed_games(client_url: str) -> tuple[list[Client], list[str]]:
    players = [register(client_url, "Ann"), register(client_url, "Bob")]
    games = [
        create(players, "IMHOTEP", {"mode": "move", "moveMs": 10_000, "onExpiry": "takeover"}),
        create(players, "IMHOTEP", {"mode": "bank", "bankMs": 20_000, "onExpiry": "abandon"}),
        create(players, "IMHOTEP", {"mode": "move", "moveMs": 30_000, "onExpiry": "takeover"}),
    ]
    return players, games


@pytest.mark.postgres
def test_deadlines_passed_while_down_fire_once_in_order(
    postgres_url: str, offset_file: Path
) -> None:
    """SIGKILL while three clocks run; 40 s pass while the server is down; the restarted
    server fires each of the three expiries once, the earliest deadline first."""
    server = Process(postgres_url)
    try:
        players, games = timed_games(server.url)
        assert not any(expiries(players[0], g) for g in games)
    finally:
        server.kill()  # kill -9: no shutdown of any kind
    offset_file.write_text("40000")
    restarted = Process(postgres_url)
    try:
        watcher = Client(restarted.url, players[0].token)
        wait_for_expiries(watcher, games)
        time.sleep(1.5)  # a second scheduler round finds nothing more to fire
        fired = [expiries(watcher, g) for g in games]
        assert [len(f) for f in fired] == [1, 1, 1]
        recorded = [f[0]["at"] for f in fired]  # the store's own times: the order of firing
        assert recorded == sorted(recorded)
        deadlines = [f[0]["data"]["deadline"] for f in fired]
        assert deadlines == sorted(deadlines)
        assert all(f[0]["data"]["at"] >= f[0]["data"]["deadline"] for f in fired)
        status = watcher.gql(EVENTS, {"g": games[1]})["game"]["status"]
        assert status == "ABANDONED"
        for game_id in games:
            verified = watcher.gql(
                "query($g: ID!) { verifyLog(gameId: $g) { ok reason } }", {"g": game_id}
            )["verifyLog"]
            assert verified["ok"], verified
    finally:
        restarted.stop()


@pytest.mark.postgres
def test_two_processes_record_each_expiry_once(postgres_url: str, offset_file: Path) -> None:
    """Both processes' schedulers see the same passed deadlines; each game has one expiry."""
    with processes(postgres_url) as (first, second):
        players, games = timed_games(first.url)
        offset_file.write_text("40000")
        watcher = Client(second.url, players[0].token)
        wait_for_expiries(watcher, games)
        time.sleep(2.5)  # both schedulers have had more rounds
        assert [len(expiries(watcher, g)) for g in games] == [1, 1, 1]
