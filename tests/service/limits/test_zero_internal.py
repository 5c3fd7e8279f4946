"""Zero INTERNAL at the edge (issue #20).

Huge numbers on every path: a 5,000-digit Int literal in a GraphQL document was answered
INTERNAL and logged with all its digits (graphql-core reads an Int literal with ``int()``,
which Python refuses past 4,300 digits). Now every path answers ``BAD_INPUT`` naming the
number's length, never its digits, and nothing is logged as an error: documents over POST, GET
and the websocket (Int, Float and JSON literals), variables, REST parameters and bodies, and
JSON's non-numbers (``NaN``, ``Infinity``, ``1e400``). Over the websocket, a document that does
not parse is an ``error`` message too, and over the older graphql-ws protocol, which runs
subscriptions only, a query or a mutation is ``BAD_INPUT`` saying where to send it."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import httpx
import pytest
import websockets

BIG = "9" * 5000
GAMES = "{ games(first: %s) { totalCount } }"
ACT = 'mutation { act(gameId: "nope", action: {type: "x", n: %s}) { game { id } } }'
SUBSCRIBE = 'subscription { gameEvents(gameId: "nope", afterVersion: %s) { version } }'
INT_VARIABLE = "query($n: Int) { games(first: $n) { totalCount } }"
JSON_VARIABLE = 'mutation($a: JSON!) { act(gameId: "nope", action: $a) { game { id } } }'


def assert_named_not_written(answer: dict[str, Any]) -> None:
    """A BAD_INPUT error that names the number's length without writing it out."""
    assert answer.get("data") is None, answer
    (error,) = answer["errors"]
    assert error["extensions"]["code"] == "BAD_INPUT", error
    assert "5000" in error["message"] and "9" * 50 not in error["message"], error


def assert_quiet(caplog: pytest.LogCaptureFixture) -> None:
    """The server logged no error, and no line with the digits (the test's own HTTP client,
    which logs the URLs it asks for, aside)."""
    server = [r for r in caplog.records if not r.name.startswith(("httpx", "httpcore"))]
    errors = [r for r in server if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage()[:300] for r in errors]
    assert not [r.name for r in server if "9" * 50 in r.getMessage()]


def test_a_huge_number_literal_in_a_document_is_bad_input(
    sqlite_server: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    url = f"{sqlite_server.url}/graphql"
    for document in (GAMES % BIG, GAMES % f"1{BIG}.5", ACT % BIG, ACT % f"-{BIG}"):
        answer = httpx.post(url, json={"query": document}, timeout=30)
        assert answer.status_code == 200, answer.text
        error = answer.json()["errors"][0]
        assert error["extensions"]["code"] == "BAD_INPUT", error
        assert "numbers have at most 100" in error["message"], error
        assert "9" * 50 not in answer.text
    over_get = httpx.get(
        url, params={"query": GAMES % BIG}, headers={"Accept": "application/json"}, timeout=30
    )
    assert over_get.json()["errors"][0]["extensions"]["code"] == "BAD_INPUT"
    assert_named_not_written(over_get.json())
    assert_quiet(caplog)


def test_huge_numbers_and_non_numbers_in_variables_are_bad_input(
    sqlite_server: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    url = f"{sqlite_server.url}/graphql"
    query = json.dumps(INT_VARIABLE)
    sent = httpx.post(
        url,
        content=f'{{"query": {query}, "variables": {{"n": {BIG}}}}}',
        headers={"Content-Type": "application/json"},
        timeout=30,
    )
    assert sent.status_code == 422
    assert_named_not_written(sent.json())
    action = json.dumps(JSON_VARIABLE)
    for value in ("NaN", "Infinity", "-Infinity", "1e400"):
        for document in (query, action):
            variable = "n" if document is query else "a"
            sent = httpx.post(
                url,
                content=f'{{"query": {document}, "variables": {{"{variable}": {value}}}}}',
                headers={"Content-Type": "application/json"},
                timeout=30,
            )
            assert sent.status_code == 422, (value, sent.text)
            assert sent.json()["errors"][0]["extensions"]["code"] == "BAD_INPUT", sent.text
    assert_quiet(caplog)


def test_huge_numbers_on_rest_are_bad_input_without_echoing_them(
    sqlite_server: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    base = f"{sqlite_server.url}/api/v1"
    for path in (
        f"/games?limit={BIG}",
        f"/games?limit=-{BIG}",
        f"/games?limit={'9' * 4000}",
        f"/games/nope/events?after={BIG}",
    ):
        answer = httpx.get(f"{base}{path}", timeout=30)
        assert answer.status_code == 422, (path, answer.text[:300])
        problem = answer.json()
        assert problem["code"] == "BAD_INPUT"
        assert len(problem["detail"]) < 200 and "characters" in problem["detail"], problem
    created = httpx.post(
        f"{base}/games",
        content=f'{{"kind": "IMHOTEP", "seats": {BIG}}}',
        headers={"Content-Type": "application/json"},
        timeout=30,
    )
    assert created.status_code == 422 and created.json()["code"] == "BAD_INPUT"
    assert "5000 digits" in created.json()["detail"]
    assert_quiet(caplog)


async def test_a_huge_literal_or_a_syntax_error_over_the_websocket_is_an_error_message(
    sqlite_server: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Over graphql-transport-ws the refusal is the operation's ``error`` message (it was a
    bare ``complete`` and an ERROR traceback: the parse step's error escaped strawberry's
    handling), and the connection goes on serving."""
    caplog.set_level(logging.INFO)
    protocols: Any = ["graphql-transport-ws"]
    async with websockets.connect(sqlite_server.ws_url, subprotocols=protocols) as ws:
        await ws.send(json.dumps({"type": "connection_init"}))
        assert json.loads(await ws.recv())["type"] == "connection_ack"
        documents = {"1": SUBSCRIBE % BIG, "2": GAMES % BIG, "3": "subscription { gameEvents("}
        for ident, document in documents.items():
            payload = {"query": document}
            await ws.send(json.dumps({"id": ident, "type": "subscribe", "payload": payload}))
            answer = json.loads(await asyncio.wait_for(ws.recv(), 30))
            assert (answer["id"], answer["type"]) == (ident, "error"), answer
            (error,) = answer["payload"]
            assert error["extensions"]["code"] == "BAD_INPUT", error
            assert "9" * 50 not in error["message"]
        payload = {"query": GAMES % 5}
        await ws.send(json.dumps({"id": "4", "type": "subscribe", "payload": payload}))
        answer = json.loads(await asyncio.wait_for(ws.recv(), 30))
        assert answer["type"] == "next" and answer["payload"]["data"]["games"]["totalCount"] >= 0
    assert_quiet(caplog)


async def test_a_query_or_mutation_over_graphql_ws_is_bad_input_saying_where_to_send_it(
    sqlite_server: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The older graphql-ws protocol runs subscriptions only (strawberry's choice): a query or a
    mutation sent there was INTERNAL, with two ERROR tracebacks each."""
    caplog.set_level(logging.INFO)
    protocols: Any = ["graphql-ws"]
    async with websockets.connect(sqlite_server.ws_url, subprotocols=protocols) as ws:
        await ws.send(json.dumps({"type": "connection_init"}))
        assert json.loads(await ws.recv())["type"] == "connection_ack"
        documents = {"1": GAMES % 5, "2": 'mutation { registerPlayer(name: "Ana") { token } }'}
        for ident, document in documents.items():
            payload = {"query": document}
            await ws.send(json.dumps({"id": ident, "type": "start", "payload": payload}))
            while (answer := json.loads(await asyncio.wait_for(ws.recv(), 30)))["type"] == "ka":
                pass
            assert (answer["id"], answer["type"]) == (ident, "error"), answer
            assert answer["payload"]["extensions"]["code"] == "BAD_INPUT", answer
            assert "POST /graphql" in answer["payload"]["message"], answer
    assert_quiet(caplog)
