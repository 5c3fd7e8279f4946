"""Scaling out: several stateless server processes over one PostgreSQL. Actions handled by one
process reach a subscriber connected to another, in order and without gaps, and a reconnect
with ``afterVersion`` misses nothing."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from typing import Any

import pytest

from tests.client import Client, subscribe
from tests.service.play import create_table, seated

EVENTS = (
    "subscription($g: ID!, $v: Int) { gameEvents(gameId: $g, afterVersion: $v) { version type } }"
)
LOBBY = "subscription { lobbyChanged { gameId status freeSeats } }"


def in_thread(coroutine: Any) -> tuple[threading.Thread, list[Any]]:
    box: list[Any] = []
    thread = threading.Thread(target=lambda: box.append(asyncio.run(coroutine)), daemon=True)
    thread.start()
    return thread, box


def act_n(players: list[Client], game_id: str, n: int, rng: random.Random) -> int:
    query = "query($g: ID!) { game(id: $g) { version status activeSeats legalActions } }"
    version = 0
    for _ in range(n):
        game = players[0].gql(query, {"g": game_id})["game"]
        if game["status"] != "ACTIVE":
            break
        seat = rng.choice(game["activeSeats"])
        legal = players[seat].gql(query, {"g": game_id})["game"]["legalActions"]
        result = players[seat].gql(
            "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { version } } }",
            {"g": game_id, "a": rng.choice(legal)},
        )
        version = result["act"]["game"]["version"]
    return version


def started(payloads: list[dict[str, Any]]) -> bool:
    """The table's five lobby entries (created, three seats, started) have all been sent."""
    return len(payloads) >= 5


@pytest.mark.postgres
def test_a_subscriber_on_one_process_sees_every_action_handled_by_another(two_processes) -> None:  # type: ignore[no-untyped-def]
    front, back = two_processes
    lobby_thread, lobby = in_thread(subscribe(back.ws_url, LOBBY, {}, until=started, timeout=60))
    time.sleep(0.5)  # the lobby subscriber is connected before the table is made
    players = seated(front.url, 3)
    game_id = create_table(players, "IMHOTEP")
    rng = random.Random(6)
    act_n(players, game_id, 5, rng)
    start = players[0].gql("query($g: ID!) { game(id: $g) { version } }", {"g": game_id})["game"][
        "version"
    ]

    target = start + 30
    thread, box = in_thread(
        subscribe(
            back.ws_url,
            EVENTS,
            {"g": game_id, "v": 0},
            until=lambda p: p[-1]["data"]["gameEvents"]["version"] >= start + 10,
            timeout=60,
        )
    )
    time.sleep(0.3)
    version = act_n(players, game_id, 40, rng)
    thread.join(timeout=60)
    first_part = [p["data"]["gameEvents"]["version"] for p in box[0]]
    assert first_part == list(range(1, first_part[-1] + 1))  # in order, no gap, no duplicate

    # the connection is gone; the client reconnects to the other process from where it stopped
    resumed = asyncio.run(
        subscribe(
            front.ws_url,
            EVENTS,
            {"g": game_id, "v": first_part[-1]},
            until=lambda p: p[-1]["data"]["gameEvents"]["version"] >= version,
            timeout=60,
        )
    )
    second_part = [p["data"]["gameEvents"]["version"] for p in resumed]
    assert first_part + second_part == list(range(1, version + 1))
    assert version >= target or version >= first_part[-1]

    lobby_thread.join(timeout=60)
    changes = [p["data"]["lobbyChanged"] for p in lobby[0]]
    assert changes and all(c["gameId"] == game_id for c in changes)
    assert changes[-1]["status"] == "ACTIVE" and changes[-1]["freeSeats"] == 0
    # one change per lobby entry, none dropped, each showing the table at least as it was after
    # the entry that caused it, never older (the other process may still be applying it)
    assert len(changes) == 5
    assert all(c["freeSeats"] <= most for c, most in zip(changes, [3, 2, 1, 0, 0], strict=True))
    assert changes[4]["status"] == "ACTIVE"


@pytest.mark.postgres
def test_read_models_of_both_processes_agree_and_expose_their_position(two_processes) -> None:  # type: ignore[no-untyped-def]
    front, back = two_processes
    players = seated(front.url, 2)
    game_id = create_table(players, "IMHOTEP")
    status = Client(back.url).gql("{ readModels { storePosition readModels { name position } } }")[
        "readModels"
    ]
    head = status["storePosition"]
    summaries = Client(back.url).gql(
        "query($p: Int) { gameSummaries(minPosition: $p, first: 5) { nodes { gameId status version } } }",
        {"p": head},
    )["gameSummaries"]["nodes"]
    assert summaries[0] == {
        "gameId": game_id,
        "status": "ACTIVE",
        "version": summaries[0]["version"],
    }
    after = Client(back.url).gql("{ readModels { readModels { position } } }")["readModels"][
        "readModels"
    ]
    assert all(m["position"] >= head for m in after)


@pytest.mark.postgres
@pytest.mark.parametrize("table", ["papyrus_events", "papyrus_games"])
def test_a_replica_starts_while_a_write_is_held_open(postgres_url: str, table: str) -> None:
    """A replica restarted under load starts at once: a write transaction held open on the
    event log (or a read model's table) for longer than the statement timeout neither fails its
    start nor is queued behind it. PostgreSQL takes a table's SHARE lock before it looks whether
    ``CREATE INDEX IF NOT EXISTS`` has anything to do; the start ran that statement on every
    table and, with a writer in flight, waited the 2 s statement timeout and exited (the soak's
    ``kill -9``ed replica came back as "Application startup failed")."""
    import psycopg

    from tests.serving import ServeProcess

    first = ServeProcess(postgres_url)  # the tables made
    try:
        with psycopg.connect(postgres_url) as writer:
            writer.execute(f"LOCK TABLE {table} IN ROW EXCLUSIVE MODE")  # what every write holds
            began = time.monotonic()
            second = ServeProcess(postgres_url, "--statement-timeout", "1")
            took = time.monotonic() - began
            try:
                # a write after the start is not queued behind a lock the start is waiting for
                players = seated(second.url, 2)
                game_id = create_table(players, "IMHOTEP")
                game = players[0].gql("query($g: ID!) { game(id: $g) { status } }", {"g": game_id})
                assert game["game"]["status"] == "ACTIVE"
            finally:
                second.stop()
            writer.rollback()
    finally:
        first.stop()
    assert took < 15, f"the second replica took {took:.1f} s to start"
