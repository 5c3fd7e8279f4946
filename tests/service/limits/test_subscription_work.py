"""A subscription's work runs off the event loop (service/api/graphql/gamestream.py,
streaming.py): the catch-up of a long game (its entries folded into the table, the caller's
view, typed view and legal actions after each, every event's selection executed) on worker
threads, a costly catch-up on the costly pool, and the loop serves everybody else between any
two events; every entry still arrives exactly once, in order, numbered in the caller's log.

Issue #20: ten websockets of twenty ``gameChanged(afterVersion: 0)`` on a 455-event game
stalled every other client for 43.7 s (the loop ran each catch-up start to end). Over a real
HTTP server with real websockets.
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import websockets

from service.app import views
from tests.client import Client, acknowledged, events_of, register, subscribe
from tests.conftest import Server
from tests.service.limits.test_limits import finished_game
from tests.service.play import create_table, seated
from tests.service.transport.test_push import CHANGED

#: no budget: these tests are about where the work runs, not how much of it is allowed
NO_BUDGET = {
    "subscription_budget_per_connection": 0,
    "subscription_budget_per_address": 0,
    "subscription_budget_per_anonymous_address": 0,
    "subscription_budget_total": 0,
}
EVENTS = "subscription($g: ID!, $a: Int) { gameEvents(gameId: $g, afterVersion: $a) { version type seat bySeat data } }"
LIGHT = "subscription($g: ID!, $a: Int) { gameChanged(gameId: $g, afterVersion: $a) { version status activeSeats event { version type } } }"


@pytest.fixture
def unbudgeted(sqlite_url: str) -> Iterator[Server]:
    with Server(sqlite_url, **NO_BUDGET) as running:
        yield running


class Calls:
    """The threads on which ``views.state`` and ``views.legal_actions`` run (every caller's
    view and legal actions after each event of a ``gameChanged``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.threads: list[str] = []
        for name in ("state", "legal_actions"):
            monkeypatch.setattr(views, name, self.recorded(getattr(views, name)))

    def recorded(self, real: Callable[..., Any]) -> Callable[..., Any]:
        def recording(*args: Any, **kwargs: Any) -> Any:
            self.threads.append(threading.current_thread().name)
            return real(*args, **kwargs)

        return recording


class LoopLag:
    """The longest the server's event loop went without a turn, measured on the loop itself
    (a 10 ms tick that notes how late it runs)."""

    def __init__(self, server: Server) -> None:
        self.loop = server.server.config.app.state.runtime.hub._loop
        self.worst = 0.0
        self.stop = threading.Event()
        self.future = asyncio.run_coroutine_threadsafe(self.tick(), self.loop)

    async def tick(self) -> None:
        last = self.loop.time()
        while not self.stop.is_set():
            await asyncio.sleep(0.01)
            now = self.loop.time()
            self.worst = max(self.worst, now - last - 0.01)
            last = now

    def end(self) -> float:
        self.stop.set()
        self.future.result(timeout=30)
        return self.worst


async def catch_up(
    ws_url: str, game_id: str, count: int, query: str = CHANGED, token: str | None = None
) -> list[list[int]]:
    """``count`` catch-ups from 0 on one websocket (``token``'s): the versions each
    delivered."""
    async with acknowledged(ws_url, token) as ws:
        for n in range(count):
            payload = {"query": query, "variables": {"g": game_id, "a": 0}}
            await ws.send(json.dumps({"id": str(n), "type": "subscribe", "payload": payload}))
        versions: list[list[int]] = [[] for _ in range(count)]
        done = 0
        while done < count:
            message = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if message["type"] == "next":
                assert "errors" not in message["payload"], message
                versions[int(message["id"])].append(
                    message["payload"]["data"]["gameChanged"]["version"]
                )
            elif message["type"] == "complete":
                done += 1
            else:
                raise AssertionError(message)
        return versions


def test_a_catch_up_runs_on_worker_threads_and_leaves_the_loop_free(
    unbudgeted: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three full catch-ups of a finished game by three callers (the typed view, the state and
    the legal actions after each event; three callers, so that none is handed another's steps:
    ``test_shared_pushes``): every view and every legal action is computed on a worker thread
    (the costly pool's: each costs more than a tenth of the cost limit), never on the event
    loop's thread, and the loop is never held longer than a quarter of the catch-up (it was
    held for all of it) nor a second; each delivers every event once, in order."""
    owner = register(unbudgeted.url, "Owner")
    readers = [register(unbudgeted.url, f"Reader {n}") for n in range(3)]
    game_id = finished_game(unbudgeted)
    version = owner.gql("query($g: ID!) { game(id: $g) { version } }", {"g": game_id})["game"][
        "version"
    ]
    calls = Calls(monkeypatch)
    gc.collect()  # the garbage of earlier tests in this process is not the catch-ups' to collect
    lag = LoopLag(unbudgeted)
    started = time.monotonic()

    async def three() -> list[list[int]]:
        ws_url = unbudgeted.ws_url
        done = await asyncio.gather(*(catch_up(ws_url, game_id, 1, token=r.token) for r in readers))
        return [versions for each in done for versions in each]

    delivered = asyncio.run(three())
    took = time.monotonic() - started
    worst = lag.end()
    assert delivered == [list(range(1, version + 1))] * 3
    loop_thread = unbudgeted.thread.name
    assert calls.threads and loop_thread not in calls.threads, set(calls.threads)
    assert all(name.startswith("papyrus-costly") for name in calls.threads), set(calls.threads)
    report = f"the loop went {worst:.2f} s without a turn during {took:.2f} s of catch-ups"
    print(report)
    assert worst < min(1.0, took / 4), report


def graphql_fields_alive() -> int:
    """graphql-core's per-field execution records alive in this process (the server's too)."""
    gc.collect()
    return sum(type(o).__name__ in ("FieldDetails", "CollectedFields") for o in gc.get_objects())


def test_a_long_subscription_keeps_nothing_of_the_events_it_executed(unbudgeted: Server) -> None:
    """A full catch-up of a long game: what executing each event's selection makes is gone
    once the event is sent (graphql-core's per-event executors shared the subscription's memo
    of collected fields, which grew by every event's for as long as it lived: about a hundred
    records an event, 10 MB a catch-up, 250 MB for the issue's twenty)."""
    game_id = finished_game(unbudgeted, "AMUN_RE", 5)

    async def measure() -> tuple[int, int, int]:
        async with websockets.connect(
            unbudgeted.ws_url, subprotocols=["graphql-transport-ws"], max_size=None
        ) as ws:  # type: ignore[list-item]
            await ws.send(json.dumps({"type": "connection_init"}))
            assert json.loads(await ws.recv())["type"] == "connection_ack"
            payload = {"query": CHANGED, "variables": {"g": game_id, "a": 0}}
            await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
            counts, received = [], 0
            while received < 350:
                message = json.loads(await asyncio.wait_for(ws.recv(), 120))
                assert message["type"] == "next" and "errors" not in message["payload"], message
                received += 1
                if received in (50, 350):
                    counts.append(await asyncio.to_thread(graphql_fields_alive))
            return counts[0], counts[1], received

    early, late, received = asyncio.run(measure())
    assert late - early < 3_000, f"{late - early} more after {received - 50} more events"


def test_a_cheap_catch_up_runs_on_the_common_pool(
    unbudgeted: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The web client's selection (no view, no legal actions) computes neither, and a short
    catch-up costing less than a tenth of the limit stays on the common pool (a reconnecting
    client does not queue behind the costly catch-ups of others)."""
    game_id = finished_game(unbudgeted)
    calls = Calls(monkeypatch)
    reads: list[str] = []
    tables = unbudgeted.server.config.app.state.runtime.app.tables
    real = tables.recent  # a subscriber's read of the entries after its last

    def recent(*args: Any, **kwargs: Any) -> Any:
        reads.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(tables, "recent", recent)
    # the last three entries: a catch-up whose cost is known to be short (from version 0 the
    # whole game's length decides, and a random game's is near the threshold either way)
    last = Client(unbudgeted.url).gql("query($g: ID!) { game(id: $g) { version } }", {"g": game_id})
    after = last["game"]["version"] - 3
    payloads = asyncio.run(
        subscribe(unbudgeted.ws_url, LIGHT, {"g": game_id, "a": after}, until=lambda p: len(p) >= 3)
    )
    versions = [p["data"]["gameChanged"]["version"] for p in payloads[:3]]
    assert versions == [after + 1, after + 2, after + 3]
    assert calls.threads == [], "nothing selected needs a view or legal actions"
    assert reads and all(name.startswith("papyrus_") for name in reads), reads


#: Amun-Re's secret steps (R11.2): another seat's are left out of a player's log
PRIVATE = ("mark_for_sale", "set_adjustment")
GAME = "query($g: ID!) { game(id: $g) { version status activeSeats legalActions } }"
ACT = "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { version } } }"


def play_until_hidden(players: list[Client], game_id: str, hidden: Callable[[], bool]) -> None:
    """Random legal actions (another seat's secret step whenever one may take it) until
    ``hidden()``: player 1's log leaves some entry out."""
    rng = random.Random(5)
    for _ in range(600):
        if hidden():
            return
        seats = players[0].gql(GAME, {"g": game_id})["game"]["activeSeats"]
        assert seats, "the game ended before any entry was hidden"
        moves = [
            (s, a)
            for s in seats
            for a in players[s].gql(GAME, {"g": game_id})["game"]["legalActions"]
        ]
        secret = [(s, a) for s, a in moves if s != 1 and a["type"] in PRIVATE]
        seat, action = rng.choice(secret or moves)
        players[seat].gql(ACT, {"g": game_id, "a": action})
    raise AssertionError("no entry was ever hidden from player 1")


def test_a_long_catch_up_delivers_each_entry_of_the_callers_log_once_in_order(
    unbudgeted: Server,
) -> None:
    """A running Amun-Re game whose log hides other seats' secret offerings from each player:
    a catch-up from 0, in many batches, delivers exactly the caller's log (the entries and
    numbers ``Game.events`` shows that caller), for a seated player and for a spectator."""
    players = seated(unbudgeted.url, 3)
    game_id = create_table(players, "AMUN_RE", seed="batches")
    stored = unbudgeted.server.config.app.state.runtime.app.tables

    def hidden() -> bool:
        version = stored.get(game_id).version
        return version > 40 and len(events_of(players[1], game_id)) < version

    play_until_hidden(players, game_id, hidden)
    for client in (players[1], Client(unbudgeted.url)):
        logged = events_of(client, game_id, "version type seat bySeat data")
        count = len(logged)
        caught = asyncio.run(
            subscribe(
                unbudgeted.ws_url,
                EVENTS,
                {"g": game_id, "a": 0},
                client.token,
                until=lambda p: len(p) >= count,  # noqa: B023 - used before the loop goes on
            )
        )
        assert [p["data"]["gameEvents"] for p in caught] == logged
        assert [e["version"] for e in logged] == list(range(1, len(logged) + 1))
        assert count > 30
