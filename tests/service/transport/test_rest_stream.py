"""Push for REST clients (issue #23): ``GET /api/v1/games/{id}/stream``, a game's changes as
Server-Sent Events (docs/API.md "Push for REST clients (Server-Sent Events)").

Real servers, real HTTP: the stream read as a client reads it (``SseReader``), compared with
what the REST read paths show the same caller; resumed with ``Last-Event-ID``; refused with a
problem and its code before the first byte; read through the nginx of ``deploy/`` as events
happen; kept to the caller's own view (no other seat's secret); and driving a whole game of a
REST client generated from the served ``openapi.json`` by openapi-python-client, with no poll.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from domain.registry import rules_for
from service.api.rest import stream
from service.api.rest.typedactions import pascal
from service.app.application import Application
from service.cli import main as papyrus
from service.store.database import open_store
from tests.client import Client
from tests.conftest import Server
from tests.proxy import Nginx
from tests.service.play import create_table, seated
from tests.service.secrecy.test_secrets import SEED, secrets_of
from tests.serving import ServeProcess

ACT = "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { version } } }"
LEGAL = "query($g: ID!) { game(id: $g) { status activeSeats version legalActions } }"


@dataclass
class Sse:
    """One Server-Sent Event as a client parses it."""

    event: str
    data: str
    id: str | None = None

    @property
    def json(self) -> Any:
        return json.loads(self.data)


@dataclass
class SseReader:
    """Parses a ``text/event-stream`` as the HTML standard's EventSource does (the fields used
    here: ``id``, ``event``, ``data``, ``retry``; comment lines counted)."""

    lines: Iterator[str]
    comments: int = 0
    retry: int | None = None
    _data: list[str] = field(default_factory=list)

    def __iter__(self) -> Iterator[Sse]:
        event, ident = "message", None
        for line in self.lines:
            if line == "":
                if self._data:
                    yield Sse(event, "\n".join(self._data), ident)
                event, ident, self._data = "message", None, []
                continue
            if line.startswith(":"):
                self.comments += 1
                continue
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "data":
                self._data.append(value)
            elif name == "event":
                event = value
            elif name == "id":
                ident = value
            elif name == "retry":
                self.retry = int(value)


def read_stream(
    base_url: str, game_id: str, token: str | None = None, *, timeout: float = 60, **options: Any
) -> tuple[list[Sse], httpx.Response]:
    """Every event of a stream up to ``timeout`` seconds without one (a live game's stream does
    not end by itself), and its response."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    headers.update(options.pop("headers", {}))
    events: list[Sse] = []
    try:
        with (
            httpx.Client(base_url=base_url, timeout=timeout) as http,
            http.stream(
                "GET", f"/api/v1/games/{game_id}/stream", headers=headers, **options
            ) as response,
        ):
            if response.status_code != 200:
                response.read()
                return [], response
            for event in SseReader(response.iter_lines()):
                events.append(event)
    except httpx.ReadTimeout:
        pass
    return events, response


def rest_events(client: Client, game_id: str) -> list[dict[str, Any]]:
    page = client.rest("GET", f"/games/{game_id}/events?limit=200").json()
    assert page["nextAfter"] is None
    return list(page["items"])


def finished_game(base_url: str, rng: random.Random) -> tuple[list[Client], str]:
    """Two players who played an Imhotep game to its end."""
    players = seated(base_url, 2)
    game_id = create_table(players, "IMHOTEP")
    while True:
        game = players[0].gql(LEGAL, {"g": game_id})["game"]
        if game["status"] != "ACTIVE":
            return players, game_id
        seat = game["activeSeats"][0]
        legal = players[seat].gql(LEGAL, {"g": game_id})["game"]["legalActions"]
        players[seat].gql(ACT, {"g": game_id, "a": rng.choice(legal)})


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, list[Client], str]]:
    url = f"sqlite:///{tmp_path_factory.mktemp('stream') / 'papyrus.sqlite'}"
    with Server(url) as server:
        players, game_id = finished_game(server.url, random.Random(4))
        yield server, players, game_id


def test_a_finished_game_streams_the_callers_log_then_ends(played) -> None:  # type: ignore[no-untyped-def]
    """From ``after=0``: one ``change`` per entry of the caller's log, numbered as it numbers
    them, each entry exactly as ``/events`` shows it to that caller and the state as
    ``/state?version=`` does; then ``end``, and the stream closes."""
    server, players, game_id = played
    for caller in (players[1], Client(server.url)):  # a seat, and a spectator
        events, response = read_stream(server.url, game_id, caller.token, params={"after": 0})
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        assert response.headers["cache-control"] == "no-cache"
        assert "content-encoding" not in response.headers  # never gzipped: events would wait
        changes = [e for e in events if e.event == "change"]
        shown = rest_events(caller, game_id)
        assert [c.id for c in changes] == [str(e["version"]) for e in shown]
        assert [c.json["event"] for c in changes] == shown
        for change in changes[:: max(1, len(changes) // 6)]:
            data, version = change.json, int(change.id or 0)
            assert data["version"] == version
            at = caller.rest("GET", f"/games/{game_id}/state?version={version}").json()
            assert data["state"] == at
            assert [m["action"] for m in data["moves"]] == data["legalActions"]
        assert changes[-1].json["status"] == "FINISHED"
        assert [e.event for e in events[len(changes) :]] == ["end"]
        assert events[-1].json == {"status": "FINISHED", "version": len(shown)}


def test_last_event_id_resumes_after_it_and_wins_over_after(played) -> None:  # type: ignore[no-untyped-def]
    """What an EventSource sends when it reconnects: nothing missed, nothing twice."""
    server, players, game_id = played
    token = players[0].token
    everything, _ = read_stream(server.url, game_id, token, params={"after": 0})
    ids = [e.id for e in everything if e.event == "change"]
    for cut in (1, len(ids) // 2, len(ids) - 1):
        resumed, _ = read_stream(
            server.url,
            game_id,
            token,
            params={"after": 0},
            headers={"Last-Event-ID": str(cut)},
        )
        assert [e.id for e in resumed if e.event == "change"] == ids[cut:]
        by_after, _ = read_stream(server.url, game_id, token, params={"after": cut})
        assert [e.data for e in by_after] == [e.data for e in resumed]
    # caught up with a finished game: 204 (an EventSource stops reconnecting)
    done, response = read_stream(
        server.url, game_id, token, headers={"Last-Event-ID": str(len(ids))}
    )
    assert (response.status_code, done) == (204, [])
    assert read_stream(server.url, game_id, token)[1].status_code == 204


def test_refusals_are_problems_with_their_code(played) -> None:  # type: ignore[no-untyped-def]
    server, players, game_id = played
    token = players[0].token
    cases = [
        ({"Authorization": "Bearer not-a-token"}, game_id, {}, 401, "UNAUTHENTICATED"),
        ({}, "no-such-game", {}, 404, "NOT_FOUND"),
        ({}, game_id, {"after": "x"}, 422, "BAD_INPUT"),
        ({}, game_id, {"after": "-1"}, 422, "BAD_INPUT"),
        ({}, game_id, {"after": "100000"}, 422, "BAD_INPUT"),
        ({"Last-Event-ID": "abc"}, game_id, {}, 422, "BAD_INPUT"),
    ]
    for headers, target, params, status, code in cases:
        _, response = read_stream(server.url, target, headers=headers, params=params)
        assert response.status_code == status, (headers, params, response.text)
        assert response.headers["content-type"].startswith("application/problem+json")
        assert response.json()["code"] == code, response.text
    _, response = read_stream(server.url, game_id, token, headers={"Last-Event-ID": "x1"})
    assert "Last-Event-ID must be the id of an event" in response.json()["detail"]


def test_streams_past_the_limits_are_refused_with_429(tmp_path: Path) -> None:
    """The websocket's limits: open streams per address, and the subscription budget (a
    catch-up costs what the same ``gameChanged`` does)."""
    with Server(
        f"sqlite:///{tmp_path / 'papyrus.sqlite'}",
        max_websockets_per_client=1,
        subscription_budget_per_anonymous_address=2000,
    ) as server:
        players = seated(server.url, 2)
        game_id = create_table(players, "IMHOTEP")
        headers = {"Authorization": f"Bearer {players[0].token}"}
        with (
            httpx.Client(base_url=server.url, timeout=30) as http,
            http.stream("GET", f"/api/v1/games/{game_id}/stream", headers=headers) as first,
        ):
            assert first.status_code == 200
            second = http.get(f"/api/v1/games/{game_id}/stream", headers=headers)
            assert second.status_code == 429, second.text
            assert second.json()["code"] == "RATE_LIMITED"
            assert "max_websockets_per_client" in second.json()["detail"]
            assert int(second.headers["retry-after"]) > 0
        # closed: the address may open one again
        with (
            httpx.Client(base_url=server.url, timeout=30) as http,
            http.stream("GET", f"/api/v1/games/{game_id}/stream", headers=headers) as again,
        ):
            assert again.status_code == 200
        # a spectator's catch-ups spend its address's budget: refused once it is spent
        answers = []
        with httpx.Client(base_url=server.url, timeout=30) as http:
            for _ in range(40):
                with http.stream(
                    "GET", f"/api/v1/games/{game_id}/stream", params={"after": 0}
                ) as response:
                    answers.append(response.status_code)
                    if response.status_code != 200:
                        problem = json.loads(response.read())
                        break
        assert answers[-1] == 429 and problem["code"] == "RATE_LIMITED", answers
        assert "subscription_budget_per_anonymous_address" in problem["detail"]


def test_a_stream_counts_as_a_live_subscription(tmp_path: Path) -> None:
    """``max_subscriptions`` counts streams with the websockets' subscriptions: one more than
    the process runs is refused with 429 before it starts, and a stream closed frees its
    place."""
    with Server(f"sqlite:///{tmp_path / 'papyrus.sqlite'}", max_subscriptions=1) as server:
        players = seated(server.url, 2)
        game_id = create_table(players, "IMHOTEP")
        path = f"/api/v1/games/{game_id}/stream"
        with httpx.Client(base_url=server.url, timeout=30) as http:
            with http.stream("GET", path, params={"after": 0}) as first:
                assert first.status_code == 200
                lines = first.iter_lines()
                while not next(lines).startswith("id:"):  # delivering: its subscription is live
                    pass
                with http.stream("GET", path) as refused:
                    assert refused.status_code == 429
                    problem = json.loads(refused.read())
                assert problem["code"] == "RATE_LIMITED"
                assert "max_subscriptions" in problem["detail"]
            for _ in range(100):  # closed: counted out once its handler has finished
                with http.stream("GET", path) as again:
                    if again.status_code == 200:
                        break
                time.sleep(0.05)
            assert again.status_code == 200


class Listener(threading.Thread):
    """Reads a stream in the background, each event with when it came."""

    def __init__(self, url: str, token: str | None, **options: Any) -> None:
        super().__init__(daemon=True)
        self.url, self.token, self.options = url, token, options
        self.events: list[tuple[float, Sse]] = []
        self.response: httpx.Response | None = None
        self.http = httpx.Client(base_url=url, timeout=120)
        self.ready = threading.Event()
        self.reader: SseReader | None = None

    def run(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        headers.update(self.options.pop("headers", {}))
        path = self.options.pop("path")
        try:
            with self.http.stream("GET", path, headers=headers, **self.options) as response:
                self.response = response
                self.ready.set()
                self.reader = SseReader(response.iter_lines())
                for event in self.reader:
                    self.events.append((time.monotonic(), event))
        except httpx.HTTPError:  # hung up by ``stop``
            pass
        finally:
            self.ready.set()

    def wait_for(self, test: Any, seconds: float = 30) -> list[Sse]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if test([e for _, e in self.events]):
                return [e for _, e in self.events]
            time.sleep(0.01)
        raise AssertionError(f"never there: {[e.id for _, e in self.events]}")

    def stop(self) -> None:
        """Hang up: the socket shut down under the reading thread (which a close from this
        thread would not wake), as a client going away does."""
        if self.response is not None:
            stream = self.response.extensions.get("network_stream")
            sock = stream.get_extra_info("socket") if stream is not None else None
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
        self.join(timeout=10)
        self.http.close()
        assert not self.is_alive(), "the stream's reader did not stop"


def test_a_seats_stream_never_carries_another_seats_secret(sqlite_server, sqlite_url) -> None:  # type: ignore[no-untyped-def]
    """Live streams of a seat and of a spectator while a 4-seat Imhotep game is played: every
    state is exactly the allow-list view of that caller right after that entry, and no secret
    (the seed, the draw pile and round stack) is ever in the stream."""
    players = seated(sqlite_server.url, 4)
    game_id = create_table(players, "IMHOTEP", {"sides": "B"}, seed=SEED)
    server_side = Application(open_store(sqlite_url))
    rules = rules_for("imhotep")
    path = f"/api/v1/games/{game_id}/stream"
    seat_stream = Listener(sqlite_server.url, players[1].token, path=path, params={"after": 0})
    spectator = Listener(sqlite_server.url, None, path=path, params={"after": 0})
    seat_stream.start(), spectator.start()
    rng = random.Random(5)
    forbidden: set[str] = set()
    try:
        for _ in range(60):  # not to the end: once it is over everything is public
            game = players[0].gql(LEGAL, {"g": game_id})["game"]
            assert game["status"] == "ACTIVE"
            forbidden.update(secrets_of(server_side, game_id))
            seat = rng.choice(game["activeSeats"])
            legal = players[seat].gql(LEGAL, {"g": game_id})["game"]["legalActions"]
            players[seat].gql(ACT, {"g": game_id, "a": rng.choice(legal)})
        version = players[0].gql(LEGAL, {"g": game_id})["game"]["version"]
        for listener, seat in ((seat_stream, 1), (spectator, None)):
            events = listener.wait_for(lambda got: len(got) >= version)
            assert [e.id for e in events] == [str(v) for v in range(1, version + 1)]
            for event in events:
                text = event.data
                for fragment in forbidden:
                    assert fragment not in text, f"secret {fragment!r} streamed to seat {seat}"
                table = server_side.tables.at_version(game_id, int(event.id or 0)).table
                if table.game is not None:
                    assert event.json["state"] == rules.view(table.game, seat, False)
    finally:
        seat_stream.stop(), spectator.stop()


def test_events_come_through_the_deploy_nginx_as_they_happen(
    sqlite_server, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """The shipped nginx configuration does not buffer the stream: each action's change comes
    to the client within moments, not when a buffer fills or the stream ends; a quiet stream
    carries its heartbeat comments through it too."""
    monkeypatch.setattr(stream, "HEARTBEAT", 0.3)  # the server runs in this process
    players = seated(sqlite_server.url, 2)
    game_id = create_table(players, "IMHOTEP")
    with Nginx([f"127.0.0.1:{sqlite_server.port}"], bind="127.0.0.1") as proxy:
        start = players[0].gql(LEGAL, {"g": game_id})["game"]["version"]
        listener = Listener(proxy.url, players[0].token, path=f"/api/v1/games/{game_id}/stream")
        listener.start()
        try:
            assert listener.ready.wait(30) and listener.response is not None
            assert listener.response.status_code == 200
            assert listener.response.headers["content-type"].startswith("text/event-stream")
            rng = random.Random(6)
            version = start
            for _ in range(5):
                game = players[0].gql(LEGAL, {"g": game_id})["game"]
                seat = game["activeSeats"][0]
                legal = players[seat].gql(LEGAL, {"g": game_id})["game"]["legalActions"]
                acted = time.monotonic()
                played = players[seat].gql(ACT, {"g": game_id, "a": rng.choice(legal)})
                version = played["act"]["game"]["version"]
                listener.wait_for(lambda got, v=version: str(v) in [e.id for e in got], 10)
                came = next(at for at, e in listener.events if e.id == str(version))
                assert came - acted < 3, f"the change came {came - acted:.1f} s after the act"
            assert listener.reader is not None
            beats = listener.reader.comments
            time.sleep(1.5)  # quiet: only heartbeats
            assert listener.reader.comments >= beats + 2
            ids = [e.id for _, e in listener.events]
            assert ids == [str(v) for v in range(start + 1, version + 1)]
        finally:
            listener.stop()


@pytest.mark.postgres
def test_a_stream_on_one_process_carries_what_another_records(two_processes) -> None:  # type: ignore[no-untyped-def]
    """Two ``papyrus serve`` on one PostgreSQL: a stream opened on the first is woken by the
    store's feed for the actions played on the second, each entry once and in order, and a
    stream resumed on the second with the last id read on the first goes on from there."""
    first, second = two_processes
    players = seated(second.url, 2)
    game_id = create_table(players, "IMHOTEP")
    path = f"/api/v1/games/{game_id}/stream"
    listener = Listener(first.url, players[0].token, path=path, params={"after": 0})
    listener.start()
    rng = random.Random(9)
    try:
        version = 0
        for _ in range(8):
            game = players[0].gql(LEGAL, {"g": game_id})["game"]
            seat = game["activeSeats"][0]
            legal = players[seat].gql(LEGAL, {"g": game_id})["game"]["legalActions"]
            played = players[seat].gql(ACT, {"g": game_id, "a": rng.choice(legal)})
            version = played["act"]["game"]["version"]
        events = listener.wait_for(lambda got: len(got) >= version)
    finally:
        listener.stop()
    assert [e.id for e in events] == [str(v) for v in range(1, version + 1)]
    cut = version // 2
    resumed = Listener(second.url, players[0].token, path=path, headers={"Last-Event-ID": str(cut)})
    resumed.start()
    try:
        again = resumed.wait_for(lambda got: len(got) >= version - cut)
    finally:
        resumed.stop()
    assert [e.data for e in again] == [e.data for e in events[cut:]]


def test_a_token_revoked_mid_stream_ends_it_with_a_problem_event(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """Logged out while its stream runs: the next entry is not sent; a ``problem`` event says
    why, and the stream closes (as the websocket's subscription ends with an error)."""
    players = seated(sqlite_server.url, 2)
    game_id = create_table(players, "IMHOTEP")
    game = players[0].gql(LEGAL, {"g": game_id})["game"]
    actor, watcher = players[game["activeSeats"][0]], players[1 - game["activeSeats"][0]]
    path = f"/api/v1/games/{game_id}/stream"
    listener = Listener(sqlite_server.url, watcher.token, path=path, params={"after": 0})
    listener.start()
    try:
        version = game["version"]
        listener.wait_for(lambda got: len(got) >= version)
        assert watcher.rest("POST", "/me/logout").status_code in (200, 204)
        legal = actor.gql(LEGAL, {"g": game_id})["game"]["legalActions"]
        actor.gql(ACT, {"g": game_id, "a": legal[0]})
        events = listener.wait_for(lambda got: got[-1].event == "problem")
        listener.join(timeout=10)
        assert not listener.is_alive(), "the stream did not close after its problem"
    finally:
        listener.stop()
    assert [e.event for e in events[version:]] == ["problem"]
    assert events[-1].json["code"] == "UNAUTHENTICATED"


def test_a_stopping_server_ends_its_streams_with_a_word(tmp_path: Path) -> None:
    """SIGTERM to ``papyrus serve`` with two streams open (a seat's and a spectator's): each
    ends at once with an ``UNAVAILABLE`` problem that says to reconnect with Last-Event-ID,
    instead of being cut when ``--shutdown-timeout`` (30 s here) runs out; the process then
    stops well within it."""
    server = ServeProcess(f"sqlite:///{tmp_path / 'stopping.sqlite'}", "--shutdown-timeout", "30")
    try:
        players = seated(server.url, 2)
        game_id = create_table(players, "IMHOTEP")
        version = players[0].gql(LEGAL, {"g": game_id})["game"]["version"]
        path = f"/api/v1/games/{game_id}/stream"
        listeners = [
            Listener(server.url, token, path=path, params={"after": 0})
            for token in (players[0].token, None)
        ]
        for listener in listeners:
            listener.start()
            listener.wait_for(lambda got: len(got) >= version)
        started = time.monotonic()
        server.stop()
        took = time.monotonic() - started
    finally:
        if server.process.poll() is None:
            server.kill()
    for listener in listeners:
        listener.join(timeout=10)
        assert not listener.is_alive(), "the stream was not closed"
        last = listener.events[-1][1]
        assert last.event == "problem", [e.event for _, e in listener.events]
        assert last.json["code"] == "UNAVAILABLE"
        assert "Last-Event-ID" in last.json["detail"]
        assert [e.event for _, e in listener.events].count("change") == version
    assert took < 15, f"the server took {took:.1f} s to stop"


# -- acceptance: a REST client generated from openapi.json plays on the stream alone ------------


def generated_client(base_url: str, folder: Path) -> Any:
    """The Python client openapi-python-client generates from the server's own document."""
    document = httpx.get(f"{base_url}/api/v1/openapi.json", timeout=30)
    assert document.status_code == 200
    (folder / "openapi.json").write_text(document.text, encoding="utf-8")
    package = f"papyrus_rest_{folder.name.replace('-', '_')}"
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "openapi-python-client"),
            "generate",
            "--path",
            str(folder / "openapi.json"),
            "--output-path",
            str(folder / package),
            "--meta",
            "none",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(package)
    finally:
        sys.path.remove(str(folder))


def test_a_generated_rest_client_plays_a_whole_game_on_the_stream_alone(
    sqlite_server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:  # type: ignore[no-untyped-def]
    """Acceptance (issue #23): the client openapi-python-client generates from ``openapi.json``
    registers, opens a table against a server bot and plays it to the end, deciding only on
    the ``change`` events of the stream (parsed into the generated ``GameChange``): not one
    read of the game or its events. Each legal move is parsed into its generated class
    (``ImhotepPlaceStone``...) and its typed form (``TypedAction``), and sent by one or the
    other in turn. Its export passes ``papyrus verify``."""
    rest = generated_client(sqlite_server.url, tmp_path)
    api = importlib.import_module(f"{rest.__name__}.api")
    models = importlib.import_module(f"{rest.__name__}.models")
    from_api = {
        name: importlib.import_module(f"{api.__name__}.{group}.{name}")
        for group, name in [
            ("players", "register_player"),
            ("games", "create_game"),
            ("games", "join_game"),
            ("games", "add_bot"),
            ("play", "act"),
            ("play", "game_stream"),
            ("audit", "export_game"),
        ]
    }
    base = f"{sqlite_server.url}/api/v1"
    session = from_api["register_player"].sync(
        client=rest.Client(base_url=base), body=models.RegisterPlayer.from_dict({"name": "Gen"})
    )
    assert isinstance(session, models.PlayerSession), session
    sent: list[tuple[str, str]] = []

    def record(request: httpx.Request) -> None:
        sent.append((request.method, request.url.path))

    client = rest.AuthenticatedClient(
        base_url=base,
        token=session.token,
        timeout=httpx.Timeout(60),
        httpx_args={"event_hooks": {"request": [record]}},
    )
    game = from_api["create_game"].sync(
        client=client, body=models.CreateGame.from_dict({"kind": "IMHOTEP", "seats": 2})
    )
    assert isinstance(game, models.Game), game
    seated_game = from_api["join_game"].sync(game.id, client=client)
    assert isinstance(seated_game, models.Game), seated_game
    mine = seated_game.my_seat
    assert isinstance(from_api["add_bot"].sync(game.id, client=client), models.Game)

    rng = random.Random(8)
    acts, conflicts, changes, last = 0, 0, 0, None
    classes: set[str] = set()
    stream = from_api["game_stream"]._get_kwargs(game.id, after=0)  # the generated request
    with client.get_httpx_client().stream(**stream) as response:
        assert response.status_code == 200
        for event in SseReader(response.iter_lines()):
            if event.event == "end":
                last = models.StreamEnd.from_dict(event.json)
                break
            assert event.event == "change", event
            change = models.GameChange.from_dict(event.json)
            changes += 1
            if mine in change.active_seats and change.moves:
                move = rng.choice(change.moves)
                # each legal action parsed into its own generated class, in both forms
                assert type(move.action).__name__ == pascal(f"imhotep_{move.type_}"), move
                assert isinstance(move.typed_action, models.TypedAction), move
                classes.add(type(move.action).__name__)
                form = (
                    {"typedAction": move.typed_action.to_dict()}
                    if acts % 2
                    else {"action": move.action.to_dict()}
                )
                body = models.Act.from_dict({**form, "expectedVersion": change.version})
                answer = from_api["act"].sync(game.id, client=client, body=body)
                stale = ("CONFLICT", "GAME_NOT_ACTIVE")  # acted on an old change: the game moved
                if isinstance(answer, models.Problem) and answer.code in stale:
                    conflicts += 1  # on (or ended) by changes the stream has not brought yet
                    continue
                assert isinstance(answer, models.ActResult), answer
                acts += 1
    assert last is not None and last.status == "FINISHED"
    assert acts > 10 and changes > acts and conflicts < acts
    assert {"ImhotepGetStones", "ImhotepPlaceStone"} <= classes, classes
    reads = [
        (method, path)
        for method, path in sent
        if method == "GET" and not path.endswith("/stream") and "/games/" in path
    ]
    assert reads == [], f"the client polled: {reads[:5]}"

    exported = from_api["export_game"].sync(game.id, client=client)
    document = exported.to_dict()
    path = tmp_path / "exported.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    capsys.readouterr()
    assert papyrus(["verify", str(path)]) == 0
    verdict = capsys.readouterr().out.splitlines()[0]
    assert verdict == f"ok: {len(document['events'])} events verified"
