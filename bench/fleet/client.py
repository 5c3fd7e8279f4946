"""The clients' side of the soak: GraphQL over HTTP and websockets, each simulated client machine
with its own loopback address (any of 127.0.0.0/8 reaches the replicas), so that per-address
limits count each one apart, as they would behind a proxy that names the client.

Every answer's error codes are counted (``Tally``); an ``INTERNAL`` is kept with its request.
A call that reaches no replica, or that a replica answers ``UNAVAILABLE`` (the database
restarting), is sent again to the next replica, as a proxy and a careful client would: the
actions carry idempotency keys, so a resend never plays one twice.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import websockets

#: how long a call keeps trying while replicas are down or the database restarts
PATIENCE = 60.0
#: transport failures of a websocket or an HTTP connection (a replica killed, restarted)
DROPPED = (aiohttp.ClientError, OSError, asyncio.TimeoutError, websockets.WebSocketException)


@dataclass
class Tally:
    """What the soak's clients were answered."""

    codes: Counter[str] = field(default_factory=Counter)
    internal: list[str] = field(default_factory=list)
    resent: int = 0

    def note(self, role: str, errors: Sequence[dict[str, Any]], what: str) -> None:
        for error in errors:
            code = str((error.get("extensions") or {}).get("code") or "NONE")
            self.codes[f"{role} {code}"] += 1
            if code in ("INTERNAL", "NONE"):
                self.internal.append(f"{role}: {what[:120]} -> {error.get('message')!r}")


class Api:
    """One client machine: a source address, its calls spread over the replicas in turn."""

    def __init__(self, urls: Callable[[], list[str]], address: str, tally: Tally) -> None:
        self.urls = urls
        self.address = address
        self.tally = tally
        self._turn = itertools.count()
        self._session: aiohttp.ClientSession | None = None

    def session(self) -> aiohttp.ClientSession:
        if self._session is None:
            connector = aiohttp.TCPConnector(local_addr=(self.address, 0), limit=64)
            self._session = aiohttp.ClientSession(
                connector=connector, timeout=aiohttp.ClientTimeout(total=30)
            )
        return self._session

    def next_url(self) -> str:
        urls = self.urls()
        return urls[next(self._turn) % len(urls)]

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def post(
        self, query: str, variables: dict[str, Any], token: str | None, role: str
    ) -> dict[str, Any]:
        """The answer's body, sent again to the next replica while none answers or the one
        that does is ``UNAVAILABLE``, for ``PATIENCE`` seconds."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        deadline = time.monotonic() + PATIENCE
        while True:
            try:
                async with self.session().post(
                    f"{self.next_url()}/graphql",
                    json={"query": query, "variables": variables},
                    headers=headers,
                ) as response:
                    body = await response.json(content_type=None)
            except DROPPED:
                body = None
            errors = (body or {}).get("errors") or []
            unavailable = body is None or any(
                (e.get("extensions") or {}).get("code") == "UNAVAILABLE" for e in errors
            )
            if not unavailable or time.monotonic() > deadline:
                if body is None:
                    raise ConnectionError(f"no replica answered for {PATIENCE} s")
                self.tally.note(role, errors, query)
                return dict(body)
            self.tally.resent += 1
            self.tally.codes[f"{role} resent"] += 1
            await asyncio.sleep(0.2)

    async def gql(
        self, query: str, variables: dict[str, Any], token: str | None = None, role: str = "honest"
    ) -> Any:
        """The data of an answer without errors (``Refused`` otherwise)."""
        body = await self.post(query, variables, token, role)
        if body.get("errors"):
            raise Refused(body["errors"])
        return body["data"]


class Refused(Exception):
    def __init__(self, errors: list[dict[str, Any]]) -> None:
        super().__init__(errors[0].get("message"))
        self.code = (errors[0].get("extensions") or {}).get("code")


async def socket(
    url: str, address: str, token: str | None, *, read_limit: int | None = None
) -> Any:
    """A ``graphql-transport-ws`` websocket from ``address``, initialised (acknowledged).
    ``read_limit``: frames the client library may hold unread (a client that never reads
    holds that many, then reads nothing more, pings included)."""
    ws = await websockets.connect(
        url,
        subprotocols=["graphql-transport-ws"],  # type: ignore[list-item]
        local_addr=(address, 0),
        max_queue=read_limit,
        open_timeout=10,
        ping_interval=None,
    )
    init: dict[str, Any] = {"type": "connection_init"}
    if token:
        init["payload"] = {"authorization": f"Bearer {token}"}
    await ws.send(json.dumps(init))
    ack = json.loads(await asyncio.wait_for(ws.recv(), 10))
    if ack.get("type") != "connection_ack":
        await ws.close()
        raise ConnectionError(f"websocket refused: {ack}")
    return ws


async def messages(ws: Any) -> AsyncIterator[dict[str, Any]]:
    """A websocket's messages, pings answered."""
    async for raw in ws:
        message = json.loads(raw)
        if message.get("type") == "ping":
            await ws.send(json.dumps({"type": "pong"}))
            continue
        yield message
