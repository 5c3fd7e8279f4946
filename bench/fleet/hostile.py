"""The hostile mix: what one careless or malicious client can throw at the fleet while honest
players play (issue #20), each on its own loopback address unless said otherwise:

* **costly subscriptions**: anonymous websockets, each running many ``gameChanged`` from the
  first event of the longest game there is, again as soon as one ends;
* **silent sockets**: websockets that subscribe, then never read again nor answer a ping;
* **bot floods**: one account making tables of searching bots, untimed and timed (whose clocks
  run out into more searching bots), as fast as it is let;
* **bad tokens**: requests with made-up tokens, sent from the address honest players use.

Everything they are answered is counted (``Tally``, role ``hostile``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections import Counter
from typing import Any

from bench.fleet.client import DROPPED, Api, Refused, socket

CHANGED = """subscription($g: ID!) { gameChanged(gameId: $g, afterVersion: 0) {
  version state legalActions view { __typename } } }"""
LOBBY = "subscription { lobbyChanged { gameId status } }"
LONGEST = "query { games(first: 50) { nodes { id version } } }"
CREATE = "mutation($i: CreateGameInput!) { createGame(input: $i) { id } }"
JOIN = "mutation($g: ID!) { joinGame(gameId: $g, seat: 0) { id } }"
ADD_BOT = 'mutation($g: ID!) { addBot(gameId: $g, strategy: "mcts") { id } }'
REGISTER = "mutation($n: String!) { registerPlayer(name: $n) { token } }"
ME = "query { me { id } }"


class Hostile:
    """The hostile clients, until ``stop`` is set; ``seen`` counts what happened to them."""

    def __init__(self, apis: dict[str, Api], stop: asyncio.Event) -> None:
        self.apis = apis
        self.stop = stop
        self.seen: Counter[str] = Counter()
        #: (local port, replica URL, Unix time) of every silent socket opened
        self.opened: list[tuple[int, str, float]] = []

    async def longest_game(self) -> str | None:
        try:
            nodes = (await self.apis["costly"].gql(LONGEST, {}, role="hostile"))["games"]["nodes"]
        except Refused:
            return None
        return max(nodes, key=lambda n: n["version"])["id"] if nodes else None

    async def costly_subscriptions(self, sockets: int = 10, each: int = 20) -> None:
        api = self.apis["costly"]

        async def one() -> None:
            while not self.stop.is_set():
                game_id = await self.longest_game()
                if game_id is None:
                    await asyncio.sleep(1.0)
                    continue
                try:
                    ws = await socket(
                        api.next_url().replace("http", "ws", 1) + "/graphql", api.address, None
                    )
                except (*DROPPED, ConnectionError):
                    self.seen["costly socket refused"] += 1
                    await asyncio.sleep(1.0)
                    continue
                try:
                    for n in range(each):
                        payload = {"query": CHANGED, "variables": {"g": game_id}}
                        await ws.send(
                            json.dumps({"id": str(n), "type": "subscribe", "payload": payload})
                        )
                    async for raw in ws:
                        message = json.loads(raw)
                        kind = message.get("type")
                        if kind == "ping":
                            await ws.send('{"type": "pong"}')
                        elif kind == "next":
                            self.seen["costly pushes"] += 1
                        elif kind == "error":
                            api.tally.note("hostile", message.get("payload") or [], "costly")
                        elif kind == "complete":
                            self.seen["costly completed"] += 1
                        if self.stop.is_set():
                            break
                except DROPPED:
                    self.seen["costly dropped"] += 1
                finally:
                    await ws.close()

        await asyncio.gather(*(one() for _ in range(sockets)))

    async def silent_sockets(self, sockets: int = 10, hold: float = 20.0) -> None:
        """Subscribe to the lobby and the longest game, then never read again (the client
        library stops reading the connection once it holds one frame: pings go unanswered);
        each socket is let go after ``hold`` seconds (reset, as a vanished client) and another
        opened. The server cannot tell such a client to close (it does not read): ``opened``
        lists each socket's local port and when it was opened, and the soak looks in the
        replicas' logs for the server's ``websocket dropped`` of each."""
        api = self.apis["silent"]
        held: list[tuple[float, Any]] = []
        loop = asyncio.get_running_loop()
        while not self.stop.is_set():
            for opened, ws in [entry for entry in held if loop.time() - entry[0] >= hold]:
                held.remove((opened, ws))
                ws.transport.abort()
            while len(held) < sockets and not self.stop.is_set():
                game_id = await self.longest_game()
                url = api.next_url()
                try:
                    ws = await socket(
                        url.replace("http", "ws", 1) + "/graphql", api.address, None, read_limit=1
                    )
                except (*DROPPED, ConnectionError):
                    self.seen["silent socket refused"] += 1
                    await asyncio.sleep(1.0)
                    continue
                self.seen["silent sockets opened"] += 1
                self.opened.append((ws.transport.get_extra_info("sockname")[1], url, time.time()))
                with contextlib.suppress(*DROPPED):
                    await ws.send(
                        json.dumps({"id": "l", "type": "subscribe", "payload": {"query": LOBBY}})
                    )
                    if game_id:
                        payload = {"query": CHANGED, "variables": {"g": game_id}}
                        await ws.send(
                            json.dumps({"id": "g", "type": "subscribe", "payload": payload})
                        )
                held.append((loop.time(), ws))
            await asyncio.sleep(1.0)
        for _, ws in held:
            ws.transport.abort()

    async def bot_flood(self, timed: bool) -> None:
        """One account: tables of one seat (its own, never played) and searching bots."""
        api = self.apis["flood"]
        token = str(
            (await api.gql(REGISTER, {"n": "Flooder"}, role="hostile"))["registerPlayer"]["token"]
        )
        options: dict[str, Any] = {"kind": "AMUN_RE", "seats": 5}
        if timed:
            options["options"] = {
                "clock": {"mode": "move", "moveMs": 2000, "onExpiry": "takeover", "bot": "mcts"}
            }
        while not self.stop.is_set():
            try:
                game_id = (await api.gql(CREATE, {"i": options}, token, "hostile"))["createGame"][
                    "id"
                ]
                await api.gql(JOIN, {"g": game_id}, token, "hostile")
                for _ in range(4):
                    await api.gql(ADD_BOT, {"g": game_id}, token, "hostile")
                self.seen[f"flood {'timed ' if timed else ''}tables made"] += 1
            except Refused as refused:
                self.seen[f"flood refused {refused.code}"] += 1
                await asyncio.sleep(0.5)

    async def bad_tokens(self, per_second: float = 20.0) -> None:
        api = self.apis["bad tokens"]
        while not self.stop.is_set():
            token = secrets.token_urlsafe(32)
            body = await api.post(ME, {}, token, "hostile")
            self.seen["bad tokens sent"] += 1
            if not body.get("errors"):
                self.seen["bad tokens accepted"] += 1
            await asyncio.sleep(1.0 / per_second)
