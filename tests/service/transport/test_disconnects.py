"""Clients that go away (issue #20: "Client disconnects are logged as ERROR tracebacks, 23 in
one run"): a websocket reset while its subscriptions and queries are still sending, on both
protocols, and HTTP clients gone mid-body or before reading their answer, each cost at most
one ``info`` line on ``papyrus.http``, and never an ERROR or a traceback.

A real ``papyrus serve`` process at ``info``, its log read as an operator reads it. The
websocket is reset (RST, no close frame) right after its operations start streaming a whole
game's catch-up, until a send finds it gone (usually the first time: a send racing the
server's read of the reset)."""

from __future__ import annotations

import asyncio
import json
import random
import re
import socket
import struct
import time
from collections.abc import Iterator
from typing import Any

import pytest
import websockets

from tests.service.play import create_table, play_graphql, seated
from tests.serving import ServeProcess

EVENTS = "subscription($g: ID!) { gameEvents(gameId: $g, afterVersion: 0) { version type data } }"
PAGE = "query($g: ID!) { game(id: $g) { events(first: 200) { nodes { version type data } } } }"
GONE = "went away while answers were still being sent"
ATTEMPTS = 15


class Played:
    def __init__(self, served: ServeProcess, game_id: str) -> None:
        self.served, self.game_id = served, game_id


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """A server at ``info`` with one finished game of some hundred events."""
    folder = tmp_path_factory.mktemp("disconnects")
    served = ServeProcess(
        f"sqlite:///{folder / 'papyrus.sqlite'}",
        "--max-subscriptions-per-connection",
        "20",
        log_path=folder / "server.log",
        log_level="info",
    )
    try:
        players = seated(served.url, 2)
        game_id = create_table(players, "IMHOTEP")
        play_graphql(players, game_id, random.Random(7))
        yield Played(served, game_id)
    finally:
        served.stop()


def linger_zero(sock: Any) -> None:
    """Closing ``sock`` will reset the connection (no close frame, no FIN): a dropped network
    or a killed tab."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def reset(sock: socket.socket) -> None:
    linger_zero(sock)
    sock.close()


async def streaming_then_reset(ws_url: str, protocol: str, game_id: str) -> None:
    """18 operations streaming a whole game, and the socket reset at their first answer."""
    protocols: Any = [protocol]
    ws = await websockets.connect(ws_url, subprotocols=protocols, max_size=None)
    await ws.send(json.dumps({"type": "connection_init"}))
    assert json.loads(await asyncio.wait_for(ws.recv(), 30))["type"] == "connection_ack"
    legacy = protocol == "graphql-ws"  # subscriptions only there
    start = "start" if legacy else "subscribe"
    for number in range(18):
        query = EVENTS if number % 2 or legacy else PAGE
        payload = {"query": query, "variables": {"g": game_id}}
        await ws.send(json.dumps({"id": str(number), "type": start, "payload": payload}))
    while True:  # the first answer that is not a keep-alive: the operations are sending
        if json.loads(await asyncio.wait_for(ws.recv(), 30))["type"] not in ("ka", "ping"):
            break
    linger_zero(ws.transport.get_extra_info("socket"))
    ws.transport.abort()


def problems(log: str) -> list[str]:
    return [line for line in log.splitlines() if "ERROR" in line or "Traceback" in line]


@pytest.mark.parametrize("protocol", ["graphql-transport-ws", "graphql-ws"])
def test_a_websocket_reset_mid_answer_is_one_info_line(played: Played, protocol: str) -> None:
    served = played.served
    start = len(served.log())  # this test's lines only
    before = served.log().count(GONE)
    attempts = 0
    while served.log().count(GONE) == before and attempts < ATTEMPTS:
        attempts += 1
        asyncio.run(streaming_then_reset(served.ws_url, protocol, played.game_id))
        served.wait_for_log(lambda text: text.count(GONE) > before, seconds=2)
    log = served.log()
    assert problems(log[start:]) == [], "\n".join(problems(log[start:])[:20])
    assert before < log.count(GONE) <= before + attempts, log[-3000:]
    line = next(line for line in log.splitlines() if GONE in line)
    assert "INFO" in line and "papyrus.http" in line and "WEBSOCKET /graphql" in line, line
    assert "127.0.0.1" in line, line


def test_http_clients_gone_mid_body_or_before_their_answer_cost_no_error(played: Played) -> None:
    served = played.served
    game = played.game_id
    start = len(served.log())  # this test's lines only
    body = json.dumps({"query": PAGE, "variables": {"g": game}}).encode()
    cut_short = (
        b"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n" + body[:20]
    )
    requests = [
        cut_short,
        # whole requests whose answers (large, gzipped or not) nobody reads
        b"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        + f"Content-Length: {len(body)}\r\n\r\n".encode()
        + body,
        f"GET /api/v1/games/{game}/replay?limit=200 HTTP/1.1\r\nHost: x\r\n"
        "Accept-Encoding: gzip\r\n\r\n".encode(),
        f"GET /api/v1/games/{game}/export HTTP/1.1\r\nHost: x\r\n\r\n".encode(),
        b"GET /graphql/assets/graphiql/graphiql.min.js HTTP/1.1\r\nHost: x\r\n\r\n",
    ]
    for request in requests * 3:
        sock = socket.create_connection(("127.0.0.1", served.port), timeout=30)
        sock.sendall(request)
        reset(sock)  # perhaps before the server read it: then it never was a request

    def cut_logged(text: str) -> bool:
        return "before its request body was complete" in text[start:]

    for attempt in range(ATTEMPTS):  # a body cut short once the server waits for the rest
        if cut_logged(served.log()):
            break
        sock = socket.create_connection(("127.0.0.1", served.port), timeout=30)
        sock.sendall(cut_short)
        time.sleep(0.2 * (attempt + 1))
        reset(sock)
        served.wait_for_log(cut_logged, seconds=3)
    # the server is fine and says so
    sock = socket.create_connection(("127.0.0.1", served.port), timeout=30)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert sock.recv(65536).startswith(b"HTTP/1.1 200")
    sock.close()
    log = served.log()[start:]
    assert problems(log) == [], "\n".join(problems(log)[:20])
    # a connection reset before the server asked for its peer has no address left to name (the
    # socket's getpeername fails): "the client went away ..." with the address where there is one
    gone = [line for line in log.splitlines() if "went away" in line]
    assert gone and all("INFO" in line and "papyrus.http" in line for line in gone), gone
    named = [re.search(r"the client (\S+) went away", line) for line in gone]
    assert all(name[1].startswith("127.0.0.1:") for name in named if name), gone
    assert any("before its request body was complete" in line for line in gone), gone
    # a request without a body is not said to have left one unfinished
    assert not [line for line in gone if "GET " in line and "request body" in line], gone
