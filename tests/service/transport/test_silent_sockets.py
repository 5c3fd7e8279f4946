"""Websocket clients that stop reading cannot pin the server (service/api/sockets.py;
deploy/OPERATIONS.md "Protocol limits"): one that never answers a ping is dropped after the
ping timeout (close code 1011), one that leaves its send buffer full is dropped after the send
timeout (1008, a slow consumer), and everything their subscriptions held is let go: no
subscription, connection, task or open-socket count is left behind, and the process's memory
is reused by the next such clients instead of growing.

Issue #20: ten sockets that never read nor answered pings took a server from 92 to 238 MB,
were never dropped in 60 s, and the memory stayed after they closed (uvicorn's keepalive
closed them with ``transport.close()``, which waits for a send buffer nobody reads).

The clients are bare TCP sockets (``tests.rawsocket``): any websocket library answers pings.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from starlette.routing import WebSocketRoute

from tests.client import register, subscribe
from tests.conftest import Server
from tests.rawsocket import RawSocket
from tests.service.limits.test_limits import finished_game
from tests.service.play import finished_against_bots
from tests.service.transport.test_push import CHANGED
from tests.serving import ServeProcess

#: no budget: the silent clients' subscriptions all start, and all of them must be let go
NO_BUDGET = {
    "subscription_budget_per_connection": 0,
    "subscription_budget_per_address": 0,
    "subscription_budget_per_anonymous_address": 0,
    "subscription_budget_total": 0,
}


#: a catch-up that is quick to compute and large to send: it fills a send buffer soon
STATES = (
    "subscription($g: ID!, $a: Int) { gameChanged(gameId: $g, afterVersion: $a) "
    "{ version state legalActions } }"
)


def silent(ws_url: str, game_id: str, subscriptions: int, query: str = CHANGED) -> RawSocket:
    """A client that starts catch-ups of the game from its start (every field of each change
    by default), then never reads again."""
    client = RawSocket(ws_url)
    client.init()
    for n in range(subscriptions):
        payload = {"query": query, "variables": {"g": game_id, "a": 0}}
        client.send_json({"id": str(n), "type": "subscribe", "payload": payload})
    return client


def wait_until(done: Callable[[], bool], seconds: float, what: Callable[[], str]) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds:g} s: {what()}")
        time.sleep(0.1)


class Held:
    """What a running in-process server holds for websockets: live subscriptions (the hub),
    websocket connections and their tasks (uvicorn), open sockets counted per address."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.runtime = server.server.config.app.state.runtime
        self.graphql = next(
            r.app for r in server.server.config.app.app.routes if isinstance(r, WebSocketRoute)
        )

    def now(self) -> dict[str, int]:
        state = self.server.server.server_state
        sockets = [c for c in list(state.connections) if hasattr(c, "conn")]
        return {
            "subscriptions": self.runtime.hub.subscriptions(),
            "websockets": len(sockets),
            "tasks": len(state.tasks),
            "admitted": sum(self.graphql.websockets.open.values()),
        }

    def is_empty(self) -> bool:
        return not any(self.now().values())


@pytest.fixture
def dropping(sqlite_url: str, request: pytest.FixtureRequest) -> Iterator[Server]:
    """A server with the keepalive and send timeouts of ``request.param`` (seconds)."""
    with Server(sqlite_url, **NO_BUDGET, **request.param) as running:
        yield running


PING = {"websocket_ping_interval": 0.5, "websocket_ping_timeout": 0.5}
SEND = {
    "websocket_ping_interval": 600.0,  # no ping comes: only the send buffer can drop them
    "websocket_send_timeout": 0.5,
    "websocket_send_buffer": 4096,
}


@pytest.mark.parametrize(
    ("dropping", "code", "sockets"),
    [(PING, 1011, 5), (SEND, 1008, 2)],  # two sockets fill their buffers sooner than five
    ids=["ping", "send"],
    indirect=["dropping"],
)
def test_a_client_that_stops_reading_is_dropped_and_let_go(
    dropping: Server, code: int, sockets: int, caplog: pytest.LogCaptureFixture
) -> None:
    """Silent clients of ten catch-ups each: every one is dropped with ``code``, logged in one
    line, and the server then holds nothing for them; it serves the next client as before."""
    owner = register(dropping.url, "Owner")
    game_id = finished_game(dropping)
    held = Held(dropping)
    caplog.set_level(logging.INFO, logger="papyrus.http")
    clients = [silent(dropping.ws_url, game_id, 10, STATES) for _ in range(sockets)]
    try:
        wait_until(held.is_empty, 60, lambda: f"still held: {held.now()}")
    finally:
        for client in clients:
            client.close()
    dropped = [r.getMessage() for r in caplog.records if "websocket dropped" in r.getMessage()]
    assert len(dropped) == sockets and all(f"({code})" in line for line in dropped), dropped
    assert not [r for r in caplog.records if r.exc_info], "no traceback"
    version = owner.gql("query($g: ID!) { game(id: $g) { version } }", {"g": game_id})
    payloads = asyncio.run(subscribe(dropping.ws_url, CHANGED, {"g": game_id, "a": 0}))
    assert len(payloads) == version["game"]["version"]
    wait_until(held.is_empty, 30, lambda: f"still held: {held.now()}")


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_silent_clients_are_dropped_and_their_memory_is_reused(tmp_path: Path) -> None:
    """A real ``papyrus serve``: ten silent clients of twenty full catch-ups of a long game,
    three rounds of them. Each round is dropped within the ping timeout, and the memory the
    first round took is reused by the next ones rather than added to: what a subscription
    held is let go even when it outlived the collections after which ``service.heap`` freezes
    the heap (graphql-core's executor is a reference cycle: frozen, each round's stayed for
    ``heap.FULL_SECONDS``, and the process grew by 10-15 MB a round)."""
    timeouts = ["--websocket-ping-interval", "1", "--websocket-ping-timeout", "1"]
    budgets = [f"--{name.replace('_', '-')}={value}" for name, value in NO_BUDGET.items()]
    database_url = f"sqlite:///{tmp_path / 'papyrus.sqlite'}"
    server = ServeProcess(
        database_url,
        *timeouts,
        *budgets,
        log_path=tmp_path / "server.log",
        log_level="info",
    )
    try:
        game_id = finished_against_bots(database_url, "AMUN_RE", 5, heard_by=server.url)
        baseline = rss_mb(server.pid)
        after: list[float] = []
        for round_ in (1, 2, 3):
            clients = [silent(server.ws_url, game_id, 20) for _ in range(10)]
            try:
                text = server.wait_for_log(
                    lambda log, n=round_: log.count("websocket dropped") >= 10 * n, 60
                )
                assert text.count("websocket dropped") == 10 * round_, text[-3000:]
            finally:
                for client in clients:
                    client.close()
            time.sleep(1)
            after.append(rss_mb(server.pid))
        report = f"RSS {baseline:.0f} MB, after each round " + ", ".join(f"{a:.0f}" for a in after)
        print(report)
        assert after[2] - after[0] < max(12.0, (after[0] - baseline) / 2), report
        assert "Traceback" not in server.log()
    finally:
        server.stop()
