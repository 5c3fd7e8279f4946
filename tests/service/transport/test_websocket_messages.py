"""Every websocket message a client can send is answered by the protocol, never by a crash
(docs/API.md "Errors"; deploy/OPERATIONS.md "Protocol limits"): a message of a shape its protocol
does not define closes the connection with 4400 and a reason, never 1006 (a connection dropped
without a close frame) and never a traceback in the server's log; a rate-limited mutation sent
over the socket is ``RATE_LIMITED`` with ``retryAfter``, never ``INTERNAL``.

Against a real ``papyrus serve`` process, whose log is read.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from tests.client import register
from tests.serving import ServeProcess

TRANSPORT, LEGACY = "graphql-transport-ws", "graphql-ws"
QUERY = "{ __typename }"

#: graphql-transport-ws messages that are not of the protocol's shape, sent once acknowledged
ODD_TRANSPORT_MESSAGES: list[tuple[str, str]] = [
    ("null", "null"),
    ("a number", "5"),
    ("a string", '"subscribe"'),
    ("an array", '[{"type": "ping"}]'),
    ("a type that is a number", '{"type": 5}'),
    ("a type that is an object", '{"type": {"a": 1}}'),
    ("no type", '{"id": "1"}'),
    ("a subscribe without an id", '{"type": "subscribe", "payload": {"query": "{ __typename }"}}'),
    (
        "an id that is an object",
        '{"type": "subscribe", "id": {"a": 1}, "payload": {"query": "{ __typename }"}}',
    ),
    (
        "an id that is a number",
        '{"type": "subscribe", "id": 5, "payload": {"query": "{ __typename }"}}',
    ),
    ("a complete whose id is a list", '{"type": "complete", "id": [1]}'),
    ("a payload that is null", '{"type": "subscribe", "id": "1", "payload": null}'),
    ("a payload that is a number", '{"type": "subscribe", "id": "1", "payload": 5}'),
    ("no payload", '{"type": "subscribe", "id": "1"}'),
    ("a query that is a number", '{"type": "subscribe", "id": "1", "payload": {"query": 5}}'),
    ("no query", '{"type": "subscribe", "id": "1", "payload": {"variables": {}}}'),
    (
        "variables that are a list",
        '{"type": "subscribe", "id": "1", "payload": {"query": "{ __typename }", "variables": [1]}}',
    ),
    (
        "an operation name that is a number",
        '{"type": "subscribe", "id": "1", "payload": {"query": "{ __typename }", "operationName": 5}}',
    ),
    (
        "extensions that are a string",
        '{"type": "subscribe", "id": "1", "payload": {"query": "{ __typename }", "extensions": "x"}}',
    ),
    ("an unknown type", '{"type": "launch"}'),
    ("not JSON", "{type: subscribe}"),
]

#: the same for the older graphql-ws protocol
ODD_LEGACY_MESSAGES: list[tuple[str, str]] = [
    ("null", "null"),
    ("an array", "[]"),
    ("a type that is a number", '{"type": 5}'),
    ("a start without an id", '{"type": "start", "payload": {"query": "{ __typename }"}}'),
    (
        "a start whose id is an object",
        '{"type": "start", "id": {}, "payload": {"query": "{ __typename }"}}',
    ),
    ("a payload that is null", '{"type": "start", "id": "1", "payload": null}'),
    ("a query that is a number", '{"type": "start", "id": "1", "payload": {"query": 5}}'),
    ("a stop whose id is a list", '{"type": "stop", "id": [1]}'),
]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    folder = tmp_path_factory.mktemp("messages")
    process = ServeProcess(
        f"sqlite:///{folder / 'papyrus.sqlite'}",
        "--rate-mutations-per-player",
        "2",
        log_path=folder / "server.log",
        log_level="info",
    )
    try:
        yield process
    finally:
        process.stop()


async def acknowledged(ws_url: str, protocol: str, token: str | None = None) -> Any:
    ws = await websockets.connect(ws_url, subprotocols=[protocol])  # type: ignore[list-item]
    init: dict[str, Any] = {"type": "connection_init"}
    if token:
        init["payload"] = {"authorization": f"Bearer {token}"}
    await ws.send(json.dumps(init))
    while True:
        ack = json.loads(await asyncio.wait_for(ws.recv(), 20))
        if ack["type"] != "ka":  # graphql-ws's keep-alive
            break
    assert ack["type"] == "connection_ack", ack
    return ws


async def close_of(ws: Any, message: str) -> tuple[int | None, str]:
    """Send ``message``, then read until the server closes: its close code and reason (None:
    no close frame, 1006)."""
    await ws.send(message)
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(10):
            answer = json.loads(await asyncio.wait_for(ws.recv(), 20))
            assert answer.get("type") in ("ka", "ping", "pong"), answer
    received = closed.value.rcvd
    return (None, "") if received is None else (received.code, received.reason)


def tracebacks(server: ServeProcess) -> int:
    return server.log().count("Traceback")


@pytest.mark.parametrize(
    ("shape", "message"), ODD_TRANSPORT_MESSAGES, ids=[m[0] for m in ODD_TRANSPORT_MESSAGES]
)
async def test_an_odd_graphql_transport_ws_message_closes_with_4400(
    served: ServeProcess, shape: str, message: str
) -> None:
    before = tracebacks(served)
    ws = await acknowledged(served.ws_url, TRANSPORT)
    code, reason = await close_of(ws, message)
    assert code == 4400 and reason, (shape, code, reason)
    # the server goes on: another connection is served
    again = await acknowledged(served.ws_url, TRANSPORT)
    await again.send(json.dumps({"id": "q", "type": "subscribe", "payload": {"query": QUERY}}))
    answer = json.loads(await asyncio.wait_for(again.recv(), 20))
    assert answer["payload"] == {"data": {"__typename": "Query"}}, answer
    await again.close()
    assert tracebacks(served) == before, served.log()[-3000:]


@pytest.mark.parametrize(
    ("shape", "message"), ODD_LEGACY_MESSAGES, ids=[m[0] for m in ODD_LEGACY_MESSAGES]
)
async def test_an_odd_graphql_ws_message_closes_with_4400(
    served: ServeProcess, shape: str, message: str
) -> None:
    before = tracebacks(served)
    ws = await acknowledged(served.ws_url, LEGACY)
    code, reason = await close_of(ws, message)
    assert code == 4400 and reason, (shape, code, reason)
    assert tracebacks(served) == before, served.log()[-3000:]


async def test_a_binary_frame_closes_with_4400(served: ServeProcess) -> None:
    ws = await acknowledged(served.ws_url, TRANSPORT)
    code, _ = await close_of(ws, b'{"type": "ping"}')  # type: ignore[arg-type]
    assert code == 4400


async def test_a_rate_limited_mutation_over_the_socket_is_rate_limited(
    served: ServeProcess,
) -> None:
    """--rate-mutations-per-player 2: the third mutation of a player over the socket is
    RATE_LIMITED with retryAfter (it answered INTERNAL: the refusal tried to set Retry-After
    on the socket's handshake headers)."""
    player = await asyncio.to_thread(register, served.url, "Limited")
    before = tracebacks(served)
    ws = await acknowledged(served.ws_url, TRANSPORT, player.token)
    create = "mutation { createGame(input: {kind: IMHOTEP, seats: 2}) { id } }"
    answers = []
    for n in range(3):
        await ws.send(json.dumps({"id": str(n), "type": "subscribe", "payload": {"query": create}}))
        while True:
            answer = json.loads(await asyncio.wait_for(ws.recv(), 20))
            if answer["type"] == "next":
                answers.append(answer["payload"])
            if answer["type"] == "complete":
                break
    await ws.close()
    assert [bool(a.get("errors")) for a in answers] == [False, False, True], answers
    error = answers[2]["errors"][0]
    assert error["extensions"]["code"] == "RATE_LIMITED", error
    assert error["extensions"]["retryAfter"] >= 1
    assert answers[2]["data"] is None
    assert tracebacks(served) == before, served.log()[-3000:]
