"""Every websocket close has a code from the table of docs/API.md ("Websocket close codes") and
a reason that says what was wrong and what to do: one test per code, over a real websocket to a
real server, asserting both (the two drops of a client that does not read, 1008 and 1011, are
``test_silent_sockets``'s, which asserts their codes; their reasons are checked here as the
protocol writes them).
"""

from __future__ import annotations

import asyncio
import json
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from service.api import connections, sockets
from tests.client import register
from tests.conftest import Server

ROOT = Path(__file__).resolve().parents[3]
TRANSPORT = "graphql-transport-ws"
LEGACY = "graphql-ws"
QUERY = "subscription { lobbyChanged { gameId } }"


async def closed_after(
    url: str, protocol: str | None, *messages: dict[str, Any] | str, timeout: float = 20
) -> tuple[int, str, list[dict[str, Any]]]:
    """Open a websocket (``protocol``: its subprotocol, or none), send ``messages`` in turn
    (a text as it is), and read until the server closes: the close code, its reason and the
    messages received before it."""
    received: list[dict[str, Any]] = []
    offered = [protocol] if protocol else None
    async with websockets.connect(url, subprotocols=offered) as ws:  # type: ignore[arg-type]
        try:
            for message in messages:
                await ws.send(message if isinstance(message, str) else json.dumps(message))
            while True:
                received.append(json.loads(await asyncio.wait_for(ws.recv(), timeout)))
        except ConnectionClosed as closed:
            assert closed.rcvd is not None, "the server closed without a close frame"
            return closed.rcvd.code, closed.rcvd.reason, received


def close_of(url: str, protocol: str | None, *messages: dict[str, Any] | str) -> tuple[int, str]:
    code, reason, _ = asyncio.run(closed_after(url, protocol, *messages))
    return code, reason


def init(token: str | None = None) -> dict[str, Any]:
    payload = {"authorization": f"Bearer {token}"} if token else {}
    return {"type": "connection_init", "payload": payload}


def subscribe(op: str = "1") -> dict[str, Any]:
    return {"id": op, "type": "subscribe", "payload": {"query": QUERY}}


def test_4400_a_message_the_protocol_does_not_define(sqlite_server: Any) -> None:
    url = sqlite_server.ws_url
    assert close_of(url, TRANSPORT, {"type": 5}) == (4400, "A message's type must be a string.")
    code, reason = close_of(url, TRANSPORT, {"type": "connection_init", "payload": [1]})
    assert (code, reason) == (4400, connections.INIT_PAYLOAD)
    assert "authorization" in reason
    code, reason = close_of(url, TRANSPORT, init(), {"id": "1", "type": "subscribe"})
    assert code == 4400 and "payload" in reason
    code, reason = close_of(url, TRANSPORT, init(), "not json")
    assert (code, reason) == (4400, "WebSocket message must be valid JSON")
    # the older graphql-ws: the same code; a bad init payload too (strawberry closed it 1000)
    assert close_of(url, LEGACY, {"type": 5}) == (4400, "A message's type must be a string.")
    code, reason = close_of(url, LEGACY, {"type": "connection_init", "payload": 3})
    assert (code, reason) == (4400, connections.INIT_PAYLOAD)


def test_4401_an_operation_before_the_acknowledgement(sqlite_server: Any) -> None:
    for protocol, start in ((TRANSPORT, subscribe()), (LEGACY, {**subscribe(), "type": "start"})):
        code, reason = close_of(sqlite_server.ws_url, protocol, start)
        assert code == 4401, protocol
        assert "connection_init" in reason and "connection_ack" in reason, reason


def test_4403_a_refused_token_says_why_and_what_to_do(sqlite_server: Any) -> None:
    """A bad token: 4403 with the error's code and message (strawberry said "Forbidden"
    alone, and graphql-ws closed with 1011 and no reason)."""
    url = sqlite_server.ws_url
    code, reason = close_of(url, TRANSPORT, init("not-a-token"))
    assert code == 4403
    assert reason.startswith("UNAUTHENTICATED: "), reason
    assert "token" in reason and "none to watch" in reason, reason
    assert len(reason.encode()) <= connections.MAX_REASON
    # a revoked token: a longer message, cut to what a close frame holds
    alice = register(sqlite_server.url, "Alice")
    old = alice.token
    alice.gql("mutation { rotateToken { token } }")
    code, reason = close_of(url, TRANSPORT, init(old))
    assert code == 4403 and reason.startswith("UNAUTHENTICATED: This token was revoked"), reason
    assert len(reason.encode()) <= connections.MAX_REASON
    alice.close()
    # graphql-ws: the connection_error carries the code, then the same close
    code, reason, received = asyncio.run(closed_after(url, LEGACY, init("not-a-token")))
    assert code == 4403 and reason.startswith("UNAUTHENTICATED: "), (code, reason)
    assert received[0]["type"] == "connection_error"
    assert received[0]["payload"]["code"] == "UNAUTHENTICATED"


def test_4406_no_protocol_the_server_speaks(sqlite_server: Any) -> None:
    code, reason = close_of(sqlite_server.ws_url, None, init())
    assert (code, reason) == (4406, "Subprotocol not acceptable")


def test_4408_no_connection_init_in_time(
    sqlite_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """strawberry's deadline (a minute) shortened for the test: the same close, sooner."""
    accepted = connections.TransportWSHandler.on_request_accepted

    def sooner(self: Any) -> None:
        self.connection_init_wait_timeout = timedelta(seconds=0.3)
        accepted(self)

    monkeypatch.setattr(connections.TransportWSHandler, "on_request_accepted", sooner)
    code, reason = close_of(sqlite_server.ws_url, TRANSPORT)
    assert code == 4408
    assert reason == "Connection initialisation timeout: send connection_init within a minute of opening."


def test_4409_an_operation_id_already_running(sqlite_server: Any) -> None:
    code, reason = close_of(sqlite_server.ws_url, TRANSPORT, init(), subscribe(), subscribe())
    assert (code, reason) == (4409, "Subscriber for 1 already exists")


def test_4429_a_second_connection_init(sqlite_server: Any) -> None:
    code, reason = close_of(sqlite_server.ws_url, TRANSPORT, init(), init())
    assert (code, reason) == (
        4429,
        "Too many initialisation requests: send connection_init once per connection.",
    )


def test_1000_graphql_ws_connection_terminate(sqlite_server: Any) -> None:
    code, reason = close_of(sqlite_server.ws_url, LEGACY, init(), {"type": "connection_terminate"})
    assert (code, reason) == (1000, "connection_terminate: closed as the client asked.")


def test_1012_the_server_stops(sqlite_url: str) -> None:
    """Every open websocket: 1012 and a reason that says to reconnect and resume (uvicorn's
    stop sends no reason)."""

    async def stopped(server: Server) -> tuple[int, str]:
        async with websockets.connect(server.ws_url, subprotocols=[TRANSPORT]) as ws:  # type: ignore[list-item]
            await ws.send(json.dumps(init()))
            assert json.loads(await ws.recv())["type"] == "connection_ack"
            server.server.should_exit = True
            try:
                while True:
                    await asyncio.wait_for(ws.recv(), 30)
            except ConnectionClosed as closed:
                assert closed.rcvd is not None
                return closed.rcvd.code, closed.rcvd.reason

    with Server(sqlite_url) as server:
        code, reason = asyncio.run(stopped(server))
    assert (code, reason) == (sockets.SERVER_STOPPING, sockets.STOPPING_REASON)
    assert code == 1012 and "afterVersion" in reason


def test_the_drops_of_a_client_that_does_not_read_have_reasons() -> None:
    """1008 and 1011 (``test_silent_sockets`` drops real sockets with them): each with its
    reason, written by ``BoundedWebSocket.drop``."""
    source = Path(sockets.__file__).read_text()
    assert (sockets.SLOW_CONSUMER, sockets.PING_TIMEOUT) == (1008, 1011)
    assert '"slow consumer: the send buffer stayed full for' in source
    assert 'self.drop(PING_TIMEOUT, "keepalive ping timeout")' in source


def test_the_documented_table_lists_every_close_code_tested_here() -> None:
    """docs/API.md "Websocket close codes": a row per code, each with its reason."""
    text = (ROOT / "docs" / "API.md").read_text()
    section = text.split("## Websocket close codes", 1)[1].split("\n## ", 1)[0]
    documented = {int(code) for code in re.findall(r"^\| `(\d{4})` \|", section, re.MULTILINE)}
    tested = {int(n) for n in re.findall(r"def test_(\d{4})_", Path(__file__).read_text())}
    assert tested | {1008, 1011} == documented
