"""The operator's port (issue #20): the metrics count every player's steps, Amun-Re's secret
Offering steps included, so they are served on a listener of their own (``--metrics-host``,
loopback by default; ``--metrics-port``) and never on the public port."""

from __future__ import annotations

import random
import socket
from typing import Any

import httpx
import pytest

from service import cli
from service.api.metrics import Metrics
from service.api.metrics_port import MetricsPort, MetricsPortUnavailable
from service.settings import Settings
from tests.client import register
from tests.conftest import free_port
from tests.service.play import create_table

ACTIONS = "papyrus_actions_total"
SECRET_STEP = "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { version } } }"
LEGAL = "query($g: ID!) { game(id: $g) { activeSeats legalActions } }"


def offering(base_url: str) -> tuple[Any, str, dict[str, Any]]:
    """An Amun-Re game played by its three seats up to a seat's secret Offering step: the
    seat and one of its private actions (marking a card for sale)."""
    players = [register(base_url, name) for name in ("Ana", "Bo", "Cy")]
    game_id = create_table(players, "AMUN_RE")
    rng = random.Random(20)
    for _ in range(400):
        game = players[0].gql(LEGAL, {"g": game_id})["game"]
        seat = game["activeSeats"][0]
        mine = players[seat].gql(LEGAL, {"g": game_id})["game"]["legalActions"]
        marks = [a for a in mine if a["type"] == "mark_for_sale"]
        if marks:
            return players[seat], game_id, marks[0]
        players[seat].gql(SECRET_STEP, {"g": game_id, "a": rng.choice(mine)})
    raise AssertionError("no Offering step with a card to mark came")


def test_the_public_port_serves_no_metrics_while_the_operators_port_counts(server: Any) -> None:
    """Anyone could read ``papyrus_actions_total{kind="amun_re"}`` on the public port and count
    another seat's secret steps: the public port now answers 404 there, before and after a
    secret step, and only the operator's port (loopback) serves the counters."""
    seat, game_id, mark = offering(server.url)
    before = httpx.get(server.metrics_url, timeout=30)
    assert before.status_code == 200 and ACTIONS in before.text

    public = httpx.get(f"{server.url}/metrics", timeout=30)
    assert public.status_code == 404
    assert ACTIONS not in public.text and "papyrus_" not in public.text
    seat.gql(SECRET_STEP, {"g": game_id, "a": mark})
    for path in ("/metrics", "/metrics/", "/api/v1/metrics", "/graphql/metrics"):
        answer = httpx.get(f"{server.url}{path}", headers={"Accept": "text/plain"}, timeout=30)
        assert answer.status_code == 404, path
        assert "papyrus_actions" not in answer.text, path

    after = httpx.get(server.metrics_url, timeout=30)
    assert after.status_code == 200 and 'kind="amun_re"' in after.text


def test_the_operators_port_answers_metrics_only() -> None:
    metrics = Metrics()
    port = free_port()
    listener = MetricsPort(metrics, "127.0.0.1", port)
    listener.start()
    try:
        assert listener.url == f"http://127.0.0.1:{port}/metrics"
        answer = httpx.get(listener.url, timeout=30)
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/plain")
        assert "process_resident_memory_bytes" in answer.text
        open_metrics = httpx.get(
            listener.url, headers={"Accept": "application/openmetrics-text"}, timeout=30
        )
        assert open_metrics.headers["content-type"].startswith("application/openmetrics-text")
        for path in ("/", "/graphql", "/metrics/x"):
            assert httpx.get(f"http://127.0.0.1:{port}{path}", timeout=30).status_code == 404
    finally:
        listener.close()
    with pytest.raises(httpx.ConnectError):  # closed with the server
        httpx.get(listener.url, timeout=5)


def test_a_metrics_port_in_use_stops_the_start_with_what_to_do() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(MetricsPortUnavailable, match=r"--metrics-port of its own, or 0"):
            MetricsPort(Metrics(), "127.0.0.1", port).start()


def test_the_listener_is_on_the_loopback_and_off_unless_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    defaults = Settings()
    assert (defaults.metrics_host, defaults.metrics_port) == ("127.0.0.1", 0)
    with pytest.raises(SystemExit):  # one port cannot be both
        cli.main(["serve", "--port", "8123", "--metrics-port", "8123"], {})
    assert "the metrics listener needs a port of its own" in capsys.readouterr().err
