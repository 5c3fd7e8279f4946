"""The operator's view over the real HTTP server: Prometheus metrics at ``/metrics`` on the
operator's port (``--metrics-port``, never the public one), one
structured log line per request with its ``X-Request-Id`` (also in GraphQL
``extensions.requestId`` and REST problems' ``requestId``), and the client address a trusted
proxy forwards (``--forwarded-allow-ips``).

The log tests run ``papyrus serve`` in a subprocess and read its stderr: what an operator's log
collector reads, configured by the same settings.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from prometheus_client.parser import text_string_to_metric_families

from tests.client import Client, register
from tests.conftest import free_port
from tests.service.play import create_table
from tests.serving import ServeProcess

ROOT = Path(__file__).resolve().parents[3]
ACT = "mutation Move($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { version } } }"
LEGAL = "query($g: ID!) { game(id: $g) { activeSeats mySeat legalActions } }"
EVENTS = "subscription($g: ID!) { gameEvents(gameId: $g) { version } }"


# -- reading /metrics ----------------------------------------------------------------------------


def scrape(metrics_url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics`` (the operator's port), parsed by the Prometheus client's own
    parser."""
    response = httpx.get(metrics_url, timeout=30)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def moved(before: dict[Any, float], after: dict[Any, float], name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


def a_started_game(base_url: str) -> tuple[list[Client], str]:
    players = [register(base_url, "Ann"), register(base_url, "Bob")]
    return players, create_table(players, "IMHOTEP")


def the_acting_player(players: list[Client], game_id: str) -> tuple[Client, dict[str, Any]]:
    game = players[0].gql(LEGAL, {"g": game_id})["game"]
    player = players[game["activeSeats"][0]]
    return player, player.gql(LEGAL, {"g": game_id})["game"]


def test_metrics_count_the_actions_of_a_game_by_kind_and_operation(server) -> None:  # type: ignore[no-untyped-def]
    """Metrics capability: actions per game kind, act latency, requests by transport, operation
    and code, and store latency move when a game is played over GraphQL and REST."""
    players, game_id = a_started_game(server.url)
    before = scrape(server.metrics_url)

    player, game = the_acting_player(players, game_id)
    player.gql(ACT, {"g": game_id, "a": game["legalActions"][0]})
    player, game = the_acting_player(players, game_id)
    response = player.rest(
        "POST", f"/games/{game_id}/actions", json={"action": game["legalActions"][0]}
    )
    assert response.status_code == 200, response.text
    refused = player.error(ACT, {"g": game_id, "a": {"type": "no_such_action"}})
    after = scrape(server.metrics_url)

    assert moved(before, after, "papyrus_actions_total", kind="imhotep", code="OK") == 2
    assert moved(before, after, "papyrus_actions_total", kind="imhotep", code=refused.code) == 1
    assert moved(before, after, "papyrus_act_duration_seconds_count", kind="imhotep") == 3
    assert moved(before, after, "papyrus_act_duration_seconds_sum", kind="imhotep") > 0
    requests = "papyrus_http_requests_total"
    assert moved(before, after, requests, transport="graphql", operation="act", code="OK") == 1
    assert moved(before, after, requests, transport="rest", operation="act", code="OK") == 1
    assert (
        moved(before, after, requests, transport="graphql", operation="act", code=refused.code) == 1
    )
    assert moved(before, after, requests, transport="graphql", operation="game", code="OK") == 4
    assert moved(before, after, "papyrus_store_duration_seconds_count", operation="save") >= 2
    # the game is read from this process's cache, which its own saves keep current: the 4 reads
    # and 3 commands are cache hits that ask the store nothing (issue #14)
    assert moved(before, after, "papyrus_store_duration_seconds_count", operation="load") == 0
    assert moved(before, after, "papyrus_aggregate_cache_lookups_total", result="hit") >= 7
    assert value(after, "papyrus_aggregate_cache_entries") >= 1
    assert value(after, "papyrus_aggregate_cache_capacity_entries") > 0
    assert value(after, "papyrus_store_breaker_open") == 0
    for readmodel in ("games", "profiles", "ratings", "stats"):
        assert ("papyrus_readmodel_lag_events", (("readmodel", readmodel),)) in after
    assert value(after, "process_resident_memory_bytes") > 0


# -- a server of our own (settings that the shared fixtures do not take) ----------------------


@contextlib.contextmanager
def serving(**settings: Any) -> Iterator[tuple[str, str]]:
    """A real uvicorn server in a thread on ``Settings(**settings)``; yields its URL and its
    metrics' URL."""
    import uvicorn

    from service.asgi import create_app
    from service.settings import Settings

    port, metrics_port = free_port(), free_port()
    config = uvicorn.Config(
        create_app(Settings(metrics_port=metrics_port, **settings)),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws="websockets-sansio",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", f"http://127.0.0.1:{metrics_port}/metrics"
    finally:
        server.should_exit = True
        thread.join(timeout=20)


def test_read_model_lag_is_the_store_position_minus_each_position(sqlite_url: str) -> None:
    """Metrics capability: read-model lag, sampled at scrape time. With the read models kept
    by another process (none here), every entry written is lag."""
    with serving(database_url=sqlite_url, run_projections=False) as (url, metrics_url):
        a_started_game(url)
        samples = scrape(metrics_url)
    head = value(samples, "papyrus_store_position")
    assert head > 0
    for readmodel in ("games", "profiles", "ratings", "stats"):
        position = value(samples, "papyrus_readmodel_position", readmodel=readmodel)
        lag = value(samples, "papyrus_readmodel_lag_events", readmodel=readmodel)
        assert lag == head - position > 0


def test_breaker_state_is_a_gauge(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """Metrics capability: the store breaker's state and trips."""
    before = scrape(sqlite_server.metrics_url)
    runtime = sqlite_server.server.config.app.state.runtime  # the app uvicorn serves
    runtime.app.breaker.trip()
    after = scrape(sqlite_server.metrics_url)
    assert value(before, "papyrus_store_breaker_open") == 0
    assert value(after, "papyrus_store_breaker_open") == 1
    assert moved(before, after, "papyrus_store_breaker_trips_total") == 1


async def test_open_websockets_and_subscriptions_are_gauges(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """Metrics capability: open websockets and active subscriptions, up while a client
    subscribes and down once it leaves."""
    _, game_id = await asyncio.to_thread(a_started_game, sqlite_server.url)

    async def gauges_become(connections: float, subscriptions: float) -> None:
        deadline = asyncio.get_running_loop().time() + 20
        while True:
            samples = await asyncio.to_thread(scrape, sqlite_server.metrics_url)
            seen = (
                value(samples, "papyrus_websocket_connections"),
                value(samples, "papyrus_graphql_subscriptions"),
            )
            if seen == (connections, subscriptions):
                return
            assert asyncio.get_running_loop().time() < deadline, seen
            await asyncio.sleep(0.05)

    await gauges_become(0, 0)
    protocols: Any = ["graphql-transport-ws"]
    async with websockets.connect(sqlite_server.ws_url, subprotocols=protocols) as ws:
        await ws.send(json.dumps({"type": "connection_init"}))
        assert json.loads(await ws.recv())["type"] == "connection_ack"
        await gauges_become(1, 0)
        subscribe = {"query": EVENTS, "variables": {"g": game_id}}
        await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": subscribe}))
        await gauges_become(1, 1)
    await gauges_become(0, 0)


# -- log lines: `papyrus serve` in a subprocess ---------------------------------------------------


class Serve(ServeProcess):
    """``papyrus serve`` with none of the caller's ``PAPYRUS_*`` or ``FORWARDED_ALLOW_IPS``
    (the options alone count), at its default log level, whose log lines are read."""

    def __init__(self, database_url: str, *options: str) -> None:
        bare = {"PATH": os.environ.get("PATH", "")}
        super().__init__(
            database_url, *options, ready="/healthz", log_level="info", environment=bare
        )

    def __enter__(self) -> Serve:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def line_with(self, text: str) -> str:
        """The first log line that contains ``text`` (it is written once the answer is sent:
        wait for it)."""
        log = self.wait_for_log(lambda lines: text in lines, seconds=30)
        found = [line for line in log.splitlines() if text in line]
        assert found, f"no log line with {text!r}:\n{log}"
        return found[0]

    def logged(self, request_id: str) -> dict[str, Any]:
        line: dict[str, Any] = json.loads(self.line_with(f'"request_id": "{request_id}"'))
        return line


FIELDS = {
    "request_id",
    "transport",
    "operation",
    "game_id",
    "seat",
    "status",
    "code",
    "duration_ms",
    "client",
}


def test_one_json_line_per_request_with_the_id_of_its_header_and_errors(sqlite_url: str) -> None:
    """Structured logs capability: one JSON line per request with its id, transport,
    operation, game, seat, status, error code and duration; the id is the X-Request-Id header
    (a sane incoming one is kept) and the requestId of GraphQL errors and REST problems; no
    token reaches the log."""
    with Serve(sqlite_url, "--log-format", "json") as served:
        players, game_id = a_started_game(served.url)
        player, game = the_acting_player(players, game_id)

        # an accepted action: the seat that acted and the game's kind
        response = player.http.post(
            "/graphql",
            json={"query": ACT, "variables": {"g": game_id, "a": game["legalActions"][0]}},
            headers={**player.headers(), "X-Request-Id": "trace-move-1"},
        )
        assert response.status_code == 200 and "errors" not in response.json()
        assert response.headers["x-request-id"] == "trace-move-1"
        line = served.logged("trace-move-1")
        assert set(line) >= FIELDS
        assert line["transport"] == "graphql"
        assert line["operation"] == "Move"  # the operation's name
        assert (line["game_id"], line["seat"], line["kind"]) == (game_id, game["mySeat"], "imhotep")
        assert (line["status"], line["code"]) == (200, None)
        assert isinstance(line["duration_ms"], int | float) and line["duration_ms"] >= 0
        assert line["client"] == "127.0.0.1"
        assert line["level"] == "info" and line["logger"] == "papyrus.request"

        # a GraphQL error: its requestId is the request's
        missing = str(uuid.uuid4())
        response = player.http.post(
            "/graphql",
            json={
                "query": ACT.replace("Move", ""),
                "variables": {"g": missing, "a": {"type": "x"}},
            },
            headers={**player.headers(), "X-Request-Id": "trace-missing-2"},
        )
        error = response.json()["errors"][0]
        assert error["extensions"] == {"code": "NOT_FOUND", "requestId": "trace-missing-2"}
        assert response.headers["x-request-id"] == "trace-missing-2"
        line = served.logged("trace-missing-2")
        assert (line["operation"], line["game_id"], line["code"]) == ("act", missing, "NOT_FOUND")

        # a REST problem, with an id the server made (the one offered is not sane)
        response = player.rest(
            "GET", f"/games/{missing}", headers={"X-Request-Id": "not a sane id"}
        )
        assert response.status_code == 404
        request_id = response.headers["x-request-id"]
        assert request_id != "not a sane id"
        assert response.json()["requestId"] == request_id
        line = served.logged(request_id)
        assert (line["transport"], line["operation"], line["game_id"]) == ("rest", "game", missing)
        assert (line["status"], line["code"]) == (404, "NOT_FOUND")

        # a REST success carries the header too
        response = player.rest("GET", f"/games/{game_id}")
        assert response.status_code == 200
        line = served.logged(response.headers["x-request-id"])
        assert (line["operation"], line["code"], line["status"]) == ("game", None, 200)
    text = served.log()
    for token in (p.token for p in players):
        assert token and token not in text
    # the log lines (stderr), not the startup banner printed on stdout for a person
    lines = [line for line in text.splitlines() if not line.startswith("Papyrus on http")]
    requests = [json.loads(line) for line in lines if '"papyrus.request"' in line]
    for request_id in ("trace-move-1", "trace-missing-2"):
        assert [r["request_id"] for r in requests].count(request_id) == 1
    assert all(json.loads(line) for line in lines)  # every line is JSON, uvicorn's too


@pytest.mark.parametrize(
    ("options", "client"),
    [
        pytest.param(("--log-format", "json"), "203.0.113.7", id="trusted-by-default"),
        pytest.param(
            ("--log-format", "json", "--forwarded-allow-ips", "192.0.2.1,10.0.0.0/8"),
            "127.0.0.1",
            id="not-trusted",
        ),
    ],
)
def test_a_forwarded_address_is_believed_only_from_an_allowed_proxy(
    sqlite_url: str, options: tuple[str, ...], client: str
) -> None:
    """Client address capability: X-Forwarded-For names the client only when the peer is one
    of --forwarded-allow-ips (loopback by default)."""
    with Serve(sqlite_url, *options) as served:
        response = httpx.get(
            f"{served.url}/healthz",
            headers={"X-Forwarded-For": "203.0.113.7", "X-Request-Id": "through-a-proxy"},
        )
        assert response.status_code == 200
        assert served.logged("through-a-proxy")["client"] == client


def test_text_lines_are_the_default_for_a_terminal(sqlite_url: str) -> None:
    """Structured logs capability: without --log-format, lines are plain text for a person,
    with the same fields."""
    with Serve(sqlite_url) as served:
        httpx.get(f"{served.url}/api/v1/games/nope", headers={"X-Request-Id": "plain-1"})
        line = served.line_with("request_id=plain-1")
    assert "GET /api/v1/games/nope 404 game" in line
    assert "code=NOT_FOUND" in line and "client=127.0.0.1" in line and "game_id=nope" in line
    with pytest.raises(ValueError):
        json.loads(line)
