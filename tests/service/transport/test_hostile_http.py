"""A hostile client over the real HTTP server: malformed bodies, bodies past the size limit,
clients that go away mid-body or trickle their headers, too many websockets and subscriptions
(docs/API.md "Errors": BAD_INPUT 422, RATE_LIMITED 429; deploy/OPERATIONS.md "Protocol limits"),
and live subscriptions that cost nothing while idle.

The protocol limits are checked on a ``papyrus serve`` process started with low limits, so that
what the command line hands uvicorn (the header deadline) is what is tested, and its log output
can be read.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.client import Client, register
from tests.serving import ServeProcess as Served

MISSING = "7d5c6a3e-0000-4000-8000-000000000000"
PROTOCOL = "graphql-transport-ws"
EVENTS = (
    "subscription($g: ID!, $v: Int) { gameEvents(gameId: $g, afterVersion: $v) { version type } }"
)
#: nested past what Python's json reads (a RecursionError at about 1,000)
TOO_DEEP = b"[" * 5000 + b"]" * 5000
#: a string with a byte that is not UTF-8
NOT_UTF8 = b'{"name": "Ann\xff"}'


# -- helpers -----------------------------------------------------------------------------------


def nested(depth: int) -> str:
    """A JSON object ``depth`` levels deep, as text (json.dumps itself would recurse)."""
    return '{"a": ' * (depth - 1) + "{}" + "}" * (depth - 1)


def read_response(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 response with a Content-Length (all this server sends here)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed before a response: {data!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    while len(body) < int(headers.get("content-length", "0")):
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(lines[0].split()[1]), headers, body


def chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


def post_chunked(port: int, path: str, first: bytes, total: int) -> tuple[int, dict[str, Any]]:
    """POST ``total`` bytes of chunked body (``first``, then spaces) and never end it: the
    answer must come from the bytes read so far."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n".encode()
        )
        sock.sendall(chunk(first))
        sent = len(first)
        while sent < total:
            sock.sendall(chunk(b" " * 65536))
            sent += 65536
        status, _, body = read_response(sock)
    return status, json.loads(body)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    limits = ["--max-websockets-per-client", "3", "--max-subscriptions-per-connection", "2"]
    folder = tmp_path_factory.mktemp("hostile")
    process = Served(
        f"sqlite:///{folder / 'papyrus.sqlite'}",
        "--header-timeout",
        "1.5",
        *limits,
        log_path=folder / "server.log",
        log_level="info",
    )
    try:
        yield process
    finally:
        process.stop()


async def connected(ws_url: str) -> Any:
    """An acknowledged graphql-transport-ws connection."""
    ws = await websockets.connect(ws_url, subprotocols=[PROTOCOL])  # type: ignore[list-item]
    await ws.send(json.dumps({"type": "connection_init"}))
    ack = json.loads(await asyncio.wait_for(ws.recv(), 20))
    assert ack["type"] == "connection_ack", ack
    return ws


async def start(ws: Any, ident: str, game_id: str, after: int) -> None:
    """Subscribe to the game's events after version ``after`` (the table as it was opened:
    whenever the subscription starts, it delivers the same events)."""
    payload = {"query": EVENTS, "variables": {"g": game_id, "v": after}}
    await ws.send(json.dumps({"id": ident, "type": "subscribe", "payload": payload}))


async def next_message(ws: Any, seconds: float = 20) -> dict[str, Any]:
    """The next message that is not a keep-alive ping."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), seconds))
        if message["type"] != "ping":
            return dict(message)


def open_table(base_url: str) -> tuple[str, int, Client]:
    """A new two-seat table: its id, its version and its creator."""
    owner = register(base_url, "Owner")
    created = owner.gql("mutation { createGame(input: {kind: IMHOTEP, seats: 2}) { id version } }")
    return str(created["createGame"]["id"]), int(created["createGame"]["version"]), owner


async def reconnected(ws_url: str) -> Any:
    """A connection, once the server has counted the one just closed out (it does when that
    connection's handler has finished)."""
    for _ in range(100):
        try:
            return await connected(ws_url)
        except websockets.InvalidStatus:
            await asyncio.sleep(0.1)
    raise AssertionError("the closed websocket was never counted out")


def join(client: Client, game_id: str) -> None:
    client.gql("mutation($g: ID!) { joinGame(gameId: $g) { id } }", {"g": game_id})


# -- malformed bodies --------------------------------------------------------------------------


def rest_posts_with_a_body() -> list[str]:
    from service.api.rest import ROUTERS

    return sorted(
        "/api/v1" + route.path.replace("{id}", MISSING)
        for router in ROUTERS
        for route in router.routes
        if "POST" in getattr(route, "methods", ()) and getattr(route, "body_field", None)
    )


def test_deep_or_non_utf8_json_is_bad_input_on_every_post(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """JSON nested past what Python's json reads, or not UTF-8, is BAD_INPUT 422 on POST
    /graphql and on every REST POST that takes a body, and the connection stays usable."""
    paths = rest_posts_with_a_body()
    assert "/api/v1/players" in paths and len(paths) >= 8, paths
    with httpx.Client(base_url=sqlite_server.url, timeout=30) as http:
        for body, reason in ((TOO_DEEP, "nested too deeply"), (NOT_UTF8, "not UTF-8")):
            answer = http.post(
                "/graphql", content=body, headers={"content-type": "application/json"}
            )
            assert answer.status_code == 422, (reason, answer.text)
            assert answer.headers["content-type"].startswith("application/json")
            error = answer.json()["errors"][0]
            assert answer.json()["data"] is None and error["extensions"]["code"] == "BAD_INPUT"
            assert reason in error["message"]
            for path in paths:
                answer = http.post(path, content=body)
                assert answer.status_code == 422, (path, reason, answer.text)
                assert answer.headers["content-type"].startswith("application/problem+json")
                assert answer.json()["code"] == "BAD_INPUT" and reason in answer.json()["detail"]
        assert http.get("/healthz").status_code == 200


def test_graphql_variables_nested_deeply_are_bad_input(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """A JSON variable nested deeper than the server reads is BAD_INPUT before any resolver
    runs (as deep as json can parse, or just deeper than the limit); a deep JSON literal in
    the document is BAD_INPUT too."""
    from service.api.bodies import MAX_JSON_DEPTH

    player = register(sqlite_server.url, "Ann")
    act = "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { id } } }"
    for depth in (MAX_JSON_DEPTH + 1, 990):
        body = f'{{"query": {json.dumps(act)}, "variables": {{"g": "{MISSING}", "a": {nested(depth)}}}}}'
        answer = player.http.post(
            "/graphql",
            content=body,
            headers={**player.headers(), "content-type": "application/json"},
        )
        assert answer.status_code == 422, (depth, answer.text[:300])
        error = answer.json()["errors"][0]
        assert (
            error["extensions"]["code"] == "BAD_INPUT" and "nested too deeply" in error["message"]
        )
    # the body, its variables and the action are three levels: the rest may nest this deep
    shallow = {"type": "take", "p": json.loads(nested(MAX_JSON_DEPTH - 3))}
    assert player.error(act, {"g": MISSING, "a": shallow}).code == "NOT_FOUND"
    literal = "{a: " * 400 + "1" + "}" * 400
    failure = player.error(
        f'mutation {{ act(gameId: "{MISSING}", action: {literal}) {{ game {{ id }} }} }}'
    )
    assert failure.code == "BAD_INPUT"


def test_megabytes_of_unused_variables_do_not_hold_the_event_loop(
    sqlite_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #20: 2 MB of unused nested variables (a million lists, within the body limit)
    held the event loop for as long as reading them took (``/healthz`` stalled 1.1 s). They
    are refused, BAD_INPUT 422 naming the limit, before they are read, the loop never held
    for a third of that time; a large body within the limits is read on a worker thread."""
    import orjson

    from service.api import bodies
    from service.api.bodies import MAX_JSON_CONTAINERS
    from tests.service.limits.test_subscription_work import LoopLag

    unit = "[" * 60 + "1" + "]" * 60
    lists = ",".join([unit] * (2_000_000 // (len(unit) + 1)))
    body = '{"query": "{ __typename }", "variables": {"unused": [' + lists + "]}}"
    started = time.perf_counter()
    orjson.loads(body)
    reading = time.perf_counter() - started  # what reading it costs, here and now
    lag = LoopLag(sqlite_server)
    for _ in range(3):
        answer = httpx.post(
            f"{sqlite_server.url}/graphql",
            content=body,
            headers={"content-type": "application/json"},
            timeout=60,
        )
        assert answer.status_code == 422, answer.text[:300]
        error = answer.json()["errors"][0]
        assert error["extensions"]["code"] == "BAD_INPUT"
        assert f"{MAX_JSON_CONTAINERS} JSON arrays and objects" in error["message"]
    worst = lag.end()
    assert worst < reading / 3, f"the loop waited {worst:.2f} s; reading takes {reading:.2f} s"
    threads: list[str] = []
    real = bodies.parse_json

    def parse(raw: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(raw)

    monkeypatch.setattr(bodies, "parse_json", parse)
    objects = ",".join(['{"a": [1]}'] * (MAX_JSON_CONTAINERS // 2 - 10))
    large = '{"query": "{ __typename }", "variables": {"unused": [' + objects + "]}}"
    answer = httpx.post(
        f"{sqlite_server.url}/graphql",
        content=large,
        headers={"content-type": "application/json"},
        timeout=60,
    )
    assert answer.json() == {"data": {"__typename": "Query"}}
    assert threads and sqlite_server.thread.name not in threads, threads


def test_a_lone_surrogate_is_bad_input_wherever_text_comes_in(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """JSON (and a GraphQL string) may escape a lone surrogate (``"\\udfff"``), which is no
    Unicode character: no text holding one can be hashed into the log as UTF-8. As a GraphQL
    variable, in the document itself (graphql-core refuses it), or in a REST body, it is
    BAD_INPUT (it used to be
    INTERNAL once an idempotency key or an abandon reason reached the log), and nothing is
    recorded."""
    from tests.service.play import create_table

    players = [register(sqlite_server.url, "Ann"), register(sqlite_server.url, "Bob")]
    game_id = create_table(players, "IMHOTEP", seed="surrogate")
    read = "query($g: ID!) { game(id: $g) { version activeSeats legalActions } }"
    game = players[0].gql(read, {"g": game_id})["game"]
    mover = players[game["activeSeats"][0]]
    headers = {**mover.headers(), "content-type": "application/json"}
    act = "mutation($g: ID!, $a: JSON!, $k: String) { act(gameId: $g, action: $a, idempotencyKey: $k) { game { version } } }"
    as_variable = json.dumps(
        {"query": act, "variables": {"g": game_id, "a": game["legalActions"][0], "k": "KEY"}}
    ).replace('"KEY"', '"\\udfff"')  # json.dumps would write the character, not its escape
    answer = mover.http.post("/graphql", content=as_variable, headers=headers)
    assert answer.status_code == 422, answer.text
    [error] = answer.json()["errors"]
    assert error["extensions"]["code"] == "BAD_INPUT" and "lone surrogate" in error["message"]

    literal = act.replace("$k: String", "").replace("idempotencyKey: $k", 'idempotencyKey: "KEY"')
    in_document = json.dumps(
        {"query": literal, "variables": {"g": game_id, "a": game["legalActions"][0]}}
    ).replace("KEY", "\\\\udfff")  # the GraphQL escape \udfff, inside a JSON string
    answer = mover.http.post("/graphql", content=in_document, headers=headers)
    assert answer.status_code < 500, answer.text
    [error] = answer.json()["errors"]  # graphql-core's lexer refuses the escape itself
    assert error["extensions"]["code"] == "BAD_INPUT" and "Invalid Unicode" in error["message"]

    rest = mover.http.post(
        f"/api/v1/games/{game_id}/abandon", content='{"reason": "\\udfff"}', headers=headers
    )
    assert rest.status_code == 422 and rest.json()["code"] == "BAD_INPUT", rest.text
    assert "lone surrogate" in rest.json()["detail"]
    after = players[0].gql(read, {"g": game_id})["game"]
    assert after["version"] == game["version"]  # nothing recorded
    assert mover.gql(act, {"g": game_id, "a": game["legalActions"][0], "k": "plain"})["act"]


async def test_a_websocket_message_nested_too_deeply_closes_the_socket_as_invalid(
    sqlite_server,
) -> None:  # type: ignore[no-untyped-def]
    """graphql-transport-ws: a message that cannot be read as JSON closes with 4400."""
    ws = await connected(sqlite_server.ws_url)
    await ws.send(TOO_DEEP.decode())
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await next_message(ws)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400


# -- the body limit ----------------------------------------------------------------------------


def test_a_chunked_body_past_the_limit_is_refused_without_waiting_for_the_rest(
    sqlite_server,
) -> None:  # type: ignore[no-untyped-def]
    """Transfer-Encoding: chunked carries no length: the 2 MiB limit holds on the bytes read,
    413 with BAD_INPUT as soon as they pass it (the client has not even finished)."""
    port = int(sqlite_server.url.rsplit(":", 1)[1])
    query = b'{"query": "mutation { registerPlayer(name: \\"Big\\") { token } }"'
    status, body = post_chunked(port, "/graphql", query, 3 * 2**20)
    assert status == 413, body
    assert body["data"] is None and body["errors"][0]["extensions"]["code"] == "BAD_INPUT"
    status, body = post_chunked(port, "/api/v1/players", b'{"name": "Big"', 3 * 2**20)
    assert (status, body["code"], body["detail"]) == (
        413,
        "BAD_INPUT",
        "The request body is too large.",
    )


def test_a_declared_length_past_the_limit_is_refused_before_the_body(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """REST answers 413 on a Content-Length past the limit without reading the body."""
    port = int(sqlite_server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(
            f"POST /api/v1/players HTTP/1.1\r\nHost: x\r\nContent-Length: {3 * 2**20}\r\n\r\n".encode()
        )
        status, headers, body = read_response(sock)
    assert status == 413 and headers["content-type"].startswith("application/problem+json")
    assert json.loads(body)["code"] == "BAD_INPUT"


# -- routes outside /api/v1, and the OpenAPI document ------------------------------------------


def test_unknown_routes_and_wrong_methods_outside_the_api_are_problems(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    cases = {
        ("GET", "/nope"): (404, "NOT_FOUND"),
        ("PUT", "/graphql"): (405, "BAD_INPUT"),
        ("DELETE", "/healthz"): (405, "BAD_INPUT"),
    }
    with httpx.Client(base_url=sqlite_server.url, timeout=30) as http:
        for (method, path), (status, code) in cases.items():
            answer = http.request(method, path)
            assert answer.status_code == status, (method, path, answer.text)
            assert answer.headers["content-type"].startswith("application/problem+json")
            assert (answer.json()["status"], answer.json()["code"]) == (status, code)
        assert "POST" in http.request("PUT", "/graphql").headers["allow"]


def test_the_openapi_document_names_401_429_and_503_where_they_can_occur() -> None:
    """Every operation reads the store (503 UNAVAILABLE); where a token is read (401), failed
    authentications are rate limited (429); registration is rate limited too."""
    from service.api.rest import openapi_document

    operations = [
        operation
        for item in openapi_document()["paths"].values()
        for operation in item.values()
        if isinstance(operation, dict) and "responses" in operation
    ]
    assert len(operations) >= 20
    for operation in operations:
        responses = operation["responses"]
        assert "503" in responses, operation["operationId"]
        if "401" in responses:
            assert "429" in responses, operation["operationId"]
    registering = [o for o in operations if o["operationId"] == "registerPlayer"]
    assert "429" in registering[0]["responses"]


# -- clients that go away, or trickle ------------------------------------------------------------


def test_a_client_gone_mid_body_costs_one_log_line_not_a_traceback(served: Served) -> None:
    for path in ("/graphql", "/api/v1/players"):
        with socket.create_connection(("127.0.0.1", served.port), timeout=20) as sock:
            sock.sendall(
                f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                "Content-Length: 1000\r\n\r\n".encode()
            )
            sock.sendall(b'{"query": ')

    def both_logged(text: str) -> bool:
        return all(f"POST {p}: the client" in text for p in ("/graphql", "/api/v1/players"))

    log = served.wait_for_log(both_logged)
    assert both_logged(log), log
    assert "Traceback" not in log, log
    for path in ("/graphql", "/api/v1/players"):
        assert log.count(f"POST {path}: the client") == 1, log


def test_headers_sent_one_byte_a_second_are_cut_off_after_the_header_timeout(
    served: Served,
) -> None:
    """--header-timeout 1.5: a connection still sending its headers (slowloris), or sending
    nothing at all, is answered 408 and closed; other clients are served as ever."""
    silent = socket.create_connection(("127.0.0.1", served.port), timeout=20)
    slow = socket.create_connection(("127.0.0.1", served.port), timeout=1)
    header = b"X-Slow: " + b"a" * 20
    sent, answer = 0, b""
    try:
        slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        for byte in header:
            try:
                slow.sendall(bytes([byte]))
                sent += 1
                answer = slow.recv(65536)  # waits a second for an answer, then sends on
            except TimeoutError:
                continue
            except OSError:  # reset: cut off
                break
            break  # an answer, or the end of the connection
    finally:
        slow.close()
    assert sent < len(header), "the server waited for every header byte"
    assert answer.startswith(b"HTTP/1.1 408"), answer
    assert silent.recv(65536).startswith(b"HTTP/1.1 408")
    assert silent.recv(65536) == b""  # and closed
    silent.close()
    assert httpx.get(f"{served.url}/healthz", timeout=10).status_code == 200


def test_a_request_held_open_mid_body_does_not_hold_the_servers_stop(tmp_path: Path) -> None:
    """--shutdown-timeout 1: on SIGTERM, a websocket is closed at once with 1012 (service
    restart), and two requests whose bodies never come are answered 503 UNAVAILABLE (a GraphQL
    error, a problem) once that second is past; then the process exits. Without the timeout
    uvicorn waits for such a request for ever, and a cancelled one was a 500 and a traceback."""
    server = Served(
        f"sqlite:///{tmp_path / 'papyrus.sqlite'}",
        "--shutdown-timeout",
        "1",
        log_path=tmp_path / "server.log",
        log_level="trace",
    )
    held: list[socket.socket] = []
    try:
        with connect(server.ws_url, subprotocols=[PROTOCOL]) as subscribed:  # type: ignore[list-item]
            subscribed.send(json.dumps({"type": "connection_init"}))
            assert json.loads(subscribed.recv(timeout=20))["type"] == "connection_ack"
            for path in ("/graphql", "/api/v1/players"):
                sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
                sock.sendall(
                    f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    'Content-Length: 1000\r\n\r\n{"query": '.encode()
                )
                held.append(sock)
            # uvicorn's trace lines: both requests' ASGI calls have begun (the lifespan, the
            # start's /readyz and the websocket log a started scope too: counting scopes could
            # leave a request unread, and a connection closed with its request unread is reset)
            started = server.wait_for_log(lambda text: len(http_scopes(text)) >= 2)
            assert {path for path in http_scopes(started)} == {"/graphql", "/api/v1/players"}, started
            server.stop(seconds=30)
            with pytest.raises(ConnectionClosed) as closed:
                subscribed.recv(timeout=5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        graphql, rest = (answer_of(sock) for sock in held)
    finally:
        for sock in held:
            sock.close()
        if server.process.poll() is None:  # an assertion failed before the stop
            server.kill()
    assert graphql.startswith(b"HTTP/1.1 503"), graphql
    body = json.loads(graphql.partition(b"\r\n\r\n")[2])
    assert body["data"] is None
    assert body["errors"][0]["extensions"]["code"] == "UNAVAILABLE"
    assert "send it again" in body["errors"][0]["message"]
    assert rest.startswith(b"HTTP/1.1 503"), rest
    assert b"application/problem+json" in rest
    assert json.loads(rest.partition(b"\r\n\r\n")[2])["code"] == "UNAVAILABLE"
    log = server.log()
    assert "Traceback" not in log and "Exception in ASGI application" not in log, log
    answered = [line for line in log.splitlines() if "papyrus.request POST" in line]
    assert len(answered) == 2, log
    assert all(" 503 " in line and "code=UNAVAILABLE" in line for line in answered), answered


def http_scopes(log: str) -> list[str]:
    """The paths of the POST requests whose ASGI call uvicorn's trace log says has begun."""
    return re.findall(r"Started scope=\{'type': 'http'.*?'method': 'POST', 'path': '([^']*)'", log)


def answer_of(sock: socket.socket) -> bytes:
    """Everything the server sent on ``sock`` until it closed it."""
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    return received


# -- websockets and subscriptions ----------------------------------------------------------------


async def test_one_address_may_open_only_so_many_websockets(served: Served) -> None:
    """--max-websockets-per-client 3: a fourth handshake from the address is refused with 429
    RATE_LIMITED; once one closes, another is accepted."""
    sockets = [await connected(served.ws_url) for _ in range(3)]
    try:
        with pytest.raises(websockets.InvalidStatus) as refused:
            await websockets.connect(served.ws_url, subprotocols=[PROTOCOL])  # type: ignore[list-item]
        response = refused.value.response
        assert response.status_code == 429
        error = json.loads(response.body)["errors"][0]
        assert error["extensions"]["code"] == "RATE_LIMITED"
        assert "max_websockets_per_client" in error["message"]
        await sockets.pop().close()
        sockets.append(await reconnected(served.ws_url))
    finally:
        for ws in sockets:
            await ws.close()


async def test_one_connection_may_run_only_so_many_subscriptions(served: Served) -> None:
    """--max-subscriptions-per-connection 2: a third subscription on the connection is an error
    with extensions.code RATE_LIMITED naming the limit; the first two stay live, and once one
    completes another may start."""
    game_id, version, owner = await asyncio.to_thread(open_table, served.url)
    ws = await connected(served.ws_url)
    try:
        for ident in "123":
            await start(ws, ident, game_id, version)
        refused = await next_message(ws)
        assert (refused["type"], refused["id"]) == ("error", "3"), refused
        error = refused["payload"][0]
        assert error["extensions"]["code"] == "RATE_LIMITED"
        assert "max_subscriptions_per_connection" in error["message"]
        await ws.send(json.dumps({"id": "1", "type": "complete"}))
        await start(ws, "4", game_id, version)
        await asyncio.to_thread(join, owner, game_id)
        delivered = {(await next_message(ws))["id"] for _ in range(2)}
        assert delivered == {"2", "4"}
    finally:
        await ws.close()


# -- live subscriptions are woken, not polling -----------------------------------------------------


class Reads:
    """Counts the application's store reads that a subscription makes (``Tables.get``, and
    ``Tables.events``/``recent`` for its entries), from the moment it is installed on a running
    server."""

    def __init__(self, server: Any) -> None:
        self.count = 0
        self.lock = threading.Lock()
        tables = server.server.config.app.state.runtime.app.tables
        for name in ("events", "recent", "get"):
            setattr(tables, name, self.counted(getattr(tables, name)))

    def counted(self, read: Callable[..., Any]) -> Callable[..., Any]:
        def counting(*args: Any, **kwargs: Any) -> Any:
            try:
                return read(*args, **kwargs)
            finally:
                with self.lock:
                    self.count += 1

        return counting

    async def reach(self, count: int) -> None:
        while self.count < count:
            await asyncio.sleep(0.05)


async def test_idle_subscriptions_do_not_read_the_store(server) -> None:  # type: ignore[no-untyped-def]
    """30 live subscriptions (10 websockets, 3 games) read the store once each to start
    (the game: nothing is newer than it, so no entry is read) and then not at all while
    nothing happens (they used to re-read it every second each); an action still reaches
    every subscriber of its game, which then reads once more."""
    tables = [await asyncio.to_thread(open_table, server.url) for _ in range(3)]
    reads = Reads(server)
    sockets = [await connected(server.ws_url) for _ in range(10)]
    try:
        for n, ws in enumerate(sockets):
            for game_id, version, _ in tables:
                await start(ws, f"{n}-{game_id}", game_id, version)
        await reach_all(reads, 30)
        idle = reads.count
        await asyncio.sleep(3)  # three times as long as the old polling interval
        assert reads.count == idle, f"{reads.count - idle} store reads by idle subscriptions"
        game_id, _, owner = tables[0]
        await asyncio.to_thread(join, owner, game_id)
        for ws in sockets:
            message = await next_message(ws)
            assert message["id"].endswith(game_id), message
            assert message["payload"]["data"]["gameEvents"]["type"] == "seat_taken"
    finally:
        for ws in sockets:
            await ws.close()


async def reach_all(reads: Reads, count: int) -> None:
    await asyncio.wait_for(reads.reach(count), 60)


def test_a_subscription_cancelled_as_it_is_woken_ends(sqlite_url: str) -> None:
    """A client leaves (its websocket closes, or it sends ``complete``) in the same turn of the
    event loop as a wake-up for its game (the hub wakes a game's subscribers once for this
    process's save and once more for the feed's news of it): the subscription's task ends.
    Python 3.11's ``asyncio.wait_for`` returns the inner result and drops the cancellation
    when both land together, so such a subscription ran on for ever, reading the store every
    ``gamestream.RECHECK_SECONDS``, and the server's stop waited for it (CI's hang at this module's
    end)."""
    from concurrent.futures import ThreadPoolExecutor

    from service.api.graphql.context import Context
    from service.api.graphql.gamestream import game_entries
    from service.api.hub import Hub
    from service.app.application import Application
    from service.store.database import open_store

    app = Application(open_store(sqlite_url))
    caller, token = app.accounts.register_player("Ann")
    game_id = str(app.seating.create_game(caller, "imhotep", 2, None, "woken").id)

    async def scenario() -> bool:
        hub = Hub()
        hub.bind(asyncio.get_running_loop())
        executor = ThreadPoolExecutor(2)
        context = Context(app=app, hub=hub, executor=executor, authorization=f"Bearer {token}")

        async def listen() -> None:
            async for _ in game_entries(context, game_id, None, cost=1):
                pass

        listening = asyncio.create_task(listen())
        try:

            def parked() -> bool:  # the subscriber waits on its hub event (asyncio's own list)
                return any(event._waiters for event in hub._waiters.get(game_id, ()))

            for _ in range(400):
                if parked():
                    break
                await asyncio.sleep(0.025)
            assert parked(), "the subscriber never waited for a wake-up"
            hub._wake(game_id)  # a wake-up, and the client gone, in one turn of the loop
            listening.cancel()
            await asyncio.wait({listening}, timeout=10)
            return listening.done() and listening.cancelled()
        finally:
            if not listening.done():
                listening.cancel()  # the dropped cancellation: cancel it again to clean up
                await asyncio.wait({listening}, timeout=10)
            executor.shutdown()

    try:
        assert asyncio.run(scenario()), "the cancelled subscription ran on"
    finally:
        app.store.close()


def test_the_limits_are_settings_with_sensible_defaults() -> None:
    from service.cli import server_options
    from service.settings import Settings

    defaults = Settings()
    assert defaults.max_websockets_per_client >= 10
    assert defaults.max_subscriptions_per_connection >= 5
    assert 1 <= defaults.header_timeout <= 60
    chosen = Settings.from_environment(
        {"PAPYRUS_HEADER_TIMEOUT": "2.5"}, ["--max-subscriptions-per-connection", "7"]
    )
    assert (chosen.header_timeout, chosen.max_subscriptions_per_connection) == (2.5, 7)
    # a stop waits at most this long for the requests still running (less than an
    # orchestrator's usual 30 s grace period: compose gives 20 s)
    assert 1 <= defaults.shutdown_timeout < 20
    stopping = Settings.from_environment({"PAPYRUS_SHUTDOWN_TIMEOUT": "3"}, [])
    assert stopping.shutdown_timeout == 3.0
    assert server_options(stopping)["timeout_graceful_shutdown"] == 3.0


#: GraphQL bodies of odd shapes a client may POST, each BAD_INPUT 422 (docs/API.md "Errors": a
#: malformed request is BAD_INPUT, never a 500)
ODD_POSTS: list[tuple[str, bytes, str]] = [
    ("a batch", b'[{"query": "{ __typename }"}]', "application/json"),
    (
        "variables not an object",
        b'{"query": "{ __typename }", "variables": [1]}',
        "application/json",
    ),
    (
        "extensions not an object",
        b'{"query": "{ __typename }", "extensions": 3}',
        "application/json",
    ),
    ("a query that is not text", b'{"query": 42}', "application/json"),
    ("no query", b'{"variables": {}}', "application/json"),
    ("a JSON value that is no object", b'"{ __typename }"', "application/json"),
    (
        "an unknown operation name",
        b'{"query": "query A { __typename }", "operationName": "B"}',
        "application/json",
    ),
    ("a subscription", b'{"query": "subscription { lobbyChanged { id } }"}', "application/json"),
    (
        "an operation name that is not text",
        b'{"query": "query A { __typename }", "operationName": 5}',
        "application/json",
    ),
    ("a JSON scalar under another JSON type", b"5", "application/json-seq"),
    ("text, not JSON", b"{ __typename }", "text/plain"),
]


@pytest.mark.parametrize(
    ("shape", "body", "content_type"), ODD_POSTS, ids=[p[0] for p in ODD_POSTS]
)
def test_every_shape_of_graphql_post_is_answered_with_its_code(  # type: ignore[no-untyped-def]
    sqlite_server, shape: str, body: bytes, content_type: str
) -> None:
    """Plain JSON POSTs are executed by Papyrus's own path (``PapyrusGraphQL.answer``), the
    rest by strawberry's view: either way an odd request is BAD_INPUT with a message."""
    response = httpx.post(
        f"{sqlite_server.url}/graphql", content=body, headers={"content-type": content_type}
    )
    assert response.status_code == 422, (shape, response.text)
    error = response.json()["errors"][0]
    assert error["extensions"]["code"] == "BAD_INPUT" and error["message"], shape


def test_a_plain_graphql_post_answers_alike_with_a_charset_and_over_get(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """The same query by JSON POST (with and without a charset, in any case) and by GET: the
    same answer, as ``application/json``."""
    query = "query($g: ID!) { __typename a: __typename game(id: $g) { version } }"
    body = json.dumps({"query": query, "variables": {"g": MISSING}}).encode()
    answers = []
    for content_type in ("application/json", "Application/JSON; charset=utf-8"):
        response = httpx.post(
            f"{sqlite_server.url}/graphql", content=body, headers={"content-type": content_type}
        )
        assert response.status_code == 200
        assert response.headers["content-type"] == "application/json"
        answers.append(response.json())
    response = httpx.get(
        f"{sqlite_server.url}/graphql",
        params={"query": query, "variables": json.dumps({"g": MISSING})},
        headers={"accept": "application/json"},
    )
    assert response.status_code == 200
    answers.append(response.json())
    assert answers == [{"data": {"__typename": "Query", "a": "Query", "game": None}}] * 3
