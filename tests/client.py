"""A small real client for the tests: GraphQL over HTTP, REST, and graphql-transport-ws."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx


class GraphQLFailure(Exception):
    def __init__(self, errors: list[dict[str, Any]]) -> None:
        super().__init__(errors[0]["message"])
        self.errors = errors
        self.code = errors[0].get("extensions", {}).get("code")


class Client:
    def __init__(self, base_url: str, token: str | None = None) -> None:
        self.base_url = base_url
        self.token = token
        self.http = httpx.Client(base_url=base_url, timeout=90)

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def raw(self, query: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
        response = self.http.post(
            "/graphql", json={"query": query, "variables": variables or {}}, headers=self.headers()
        )
        return dict(response.json())

    def gql(self, query: str, variables: dict[str, Any] | None = None) -> Any:
        body = self.raw(query, variables)
        if body.get("errors"):
            raise GraphQLFailure(body["errors"])
        return body["data"]

    def error(self, query: str, variables: dict[str, Any] | None = None) -> GraphQLFailure:
        body = self.raw(query, variables)
        assert body.get("errors"), f"expected an error, got {body}"
        return GraphQLFailure(body["errors"])

    def rest(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        headers = {**self.headers(), **kwargs.pop("headers", {})}
        return self.http.request(method, f"/api/v1{path}", headers=headers, **kwargs)

    def close(self) -> None:
        self.http.close()


SETTLED_GAME = """query($g: ID!) {
  game(id: $g) { status version activeSeats seats { seat isBot takenOver } }
}"""


def bots_settled(game: dict[str, Any]) -> bool:
    """No bot must act in ``game`` (a ``SETTLED_GAME`` answer): it is not running, or only seats
    humans play must act (in a simultaneous step every bot has made its move)."""
    if game["status"] != "ACTIVE":
        return True
    botted = {s["seat"] for s in game["seats"] if s["isBot"] or s.get("takenOver")}
    return not botted.intersection(game["activeSeats"])


def wait_game(
    client: Client,
    game_id: str,
    until: Callable[[dict[str, Any]], bool] = bots_settled,
    *,
    query: str = SETTLED_GAME,
    timeout: float = 120.0,
) -> dict[str, Any]:
    """The game once ``until(game)`` holds, polled the way a real client would (bots reply in
    their own commands, after the command that made them due: ``bots.driver``). The default
    waits until no bot must act. ``timeout`` is generous: it only stops a test that would hang."""
    deadline = time.monotonic() + timeout
    while True:
        game = client.gql(query, {"g": game_id})["game"]
        if until(game):
            return dict(game)
        if time.monotonic() > deadline:
            raise AssertionError(f"game {game_id} never got there in {timeout} s: {game}")
        time.sleep(0.02)


EVENTS_PAGE = """query($g: ID!, $after: String) { game(id: $g) {
  events(first: 200, after: $after) { pageInfo { hasNextPage endCursor } nodes { %s } }
} }"""


def events_of(
    client: Client, game_id: str, fields: str = "version type seat"
) -> list[dict[str, Any]]:
    """Every event of the game's log as ``client`` may see it (``fields`` of each), page by page."""
    out: list[dict[str, Any]] = []
    after = None
    while True:
        page = client.gql(EVENTS_PAGE % fields, {"g": game_id, "after": after})["game"]["events"]
        out.extend(page["nodes"])
        if not page["pageInfo"]["hasNextPage"]:
            return out
        after = page["pageInfo"]["endCursor"]


def register(base_url: str, name: str) -> Client:
    client = Client(base_url)
    data = client.gql(
        "mutation($n: String!) { registerPlayer(name: $n) { player { id name } token } }",
        {"n": name},
    )
    client.token = data["registerPlayer"]["token"]
    client.player_id = data["registerPlayer"]["player"]["id"]  # type: ignore[attr-defined]
    return client


@asynccontextmanager
async def acknowledged(ws_url: str, token: str | None = None) -> AsyncIterator[Any]:
    """A graphql-transport-ws websocket (messages of any size), ``token``'s if given, once
    the server acknowledged its ``connection_init``."""
    import websockets

    async with websockets.connect(
        ws_url, subprotocols=["graphql-transport-ws"], max_size=None  # type: ignore[list-item]
    ) as ws:
        init: dict[str, Any] = {"type": "connection_init"}
        if token:
            init["payload"] = {"authorization": f"Bearer {token}"}
        await ws.send(json.dumps(init))
        ack = json.loads(await asyncio.wait_for(ws.recv(), 30))
        assert ack["type"] == "connection_ack", ack
        yield ws


async def subscribe(
    ws_url: str,
    query: str,
    variables: dict[str, Any],
    token: str | None = None,
    *,
    until: Any = None,
    timeout: float = 120,
) -> list[dict[str, Any]]:
    """Collect subscription payloads until the server completes (or ``until(payloads)``)."""
    import websockets

    payloads: list[dict[str, Any]] = []
    # max_queue=None: a client that stops reading early must still see the close frame
    async with websockets.connect(ws_url, subprotocols=["graphql-transport-ws"], max_queue=None) as ws:  # type: ignore[list-item]
        init: dict[str, Any] = {"type": "connection_init"}
        if token:
            init["payload"] = {"authorization": f"Bearer {token}"}
        await ws.send(json.dumps(init))
        ack = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        assert ack["type"] == "connection_ack", ack
        await ws.send(
            json.dumps(
                {
                    "id": "1",
                    "type": "subscribe",
                    "payload": {"query": query, "variables": variables},
                }
            )
        )
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout))
            if message["type"] == "next":
                payloads.append(message["payload"])
                if until is not None and until(payloads):
                    return payloads
            elif message["type"] in ("complete", "error"):
                if message["type"] == "error":
                    payloads.append({"errors": message["payload"]})
                return payloads
            elif message["type"] == "ping":
                await ws.send(json.dumps({"type": "pong"}))
