"""Catch-up floods over websockets (issue #20 "An anonymous client stalls everyone").

Starts ``papyrus serve`` on a fresh SQLite file, plays one 5-seat Amun-Re game to its end with
random bots (about 420 events), then opens ``--sockets`` websockets without a token, each
subscribing ``--subscriptions`` times to ``gameChanged(afterVersion: 0)`` with every field
(the typed view, the state, the legal actions: about 300 cost units an event), while a probe
asks ``/healthz`` every 50 ms. Prints how long the flood took, how many events were delivered
and how many subscriptions were refused (and why), ``/healthz``'s p50 and worst latency, and
the server's resident memory before and after.

    .venv/bin/python bench/subscriptions.py --sockets 10 --subscriptions 20       # the budgets
    .venv/bin/python bench/subscriptions.py --sockets 2 --subscriptions 10 --no-budget

``--no-budget`` turns the subscription budgets off (every catch-up runs): what is left is the
work itself, off the event loop.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp
import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: the repository's packages come first
from bench.common import start_server  # noqa: E402
from tests.service.transport.test_push import CHANGED  # noqa: E402

NO_BUDGET = (
    "--subscription-budget-per-connection=0",
    "--subscription-budget-per-address=0",
    "--subscription-budget-per-anonymous-address=0",
    "--subscription-budget-total=0",
)


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def finished_game(url: str) -> str:
    """A 5-seat Amun-Re game played to its end by random bots."""
    with httpx.Client(base_url=url, timeout=60) as http:

        def gql(query: str, variables: dict[str, Any], token: str | None = None) -> Any:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            body = http.post(
                "/graphql", json={"query": query, "variables": variables}, headers=headers
            ).json()
            if body.get("errors"):
                raise RuntimeError(body["errors"])
            return body["data"]

        token = gql('mutation { registerPlayer(name: "Bench") { token } }', {})["registerPlayer"][
            "token"
        ]
        game = gql("mutation { createGame(input: {kind: AMUN_RE, seats: 5}) { id } }", {}, token)
        game_id = game["createGame"]["id"]
        for _ in range(5):
            gql(
                'mutation($g: ID!) { addBot(gameId: $g, strategy: "random") { id } }',
                {"g": game_id},
                token,
            )
        deadline = time.monotonic() + 300
        while (
            gql("query($g: ID!) { game(id: $g) { status } }", {"g": game_id})["game"]["status"]
            != "FINISHED"
        ):
            if time.monotonic() > deadline:
                raise RuntimeError("the bots did not finish the game")
            time.sleep(0.1)
        return str(game_id)


async def flood_socket(
    session: aiohttp.ClientSession, ws_url: str, game_id: str, count: int, found: Counter[str]
) -> None:
    async with session.ws_connect(ws_url, protocols=["graphql-transport-ws"], max_msg_size=0) as ws:
        await ws.send_json({"type": "connection_init"})
        await ws.receive_json()
        for n in range(count):
            payload = {"query": CHANGED, "variables": {"g": game_id, "a": 0}}
            await ws.send_json({"id": str(n), "type": "subscribe", "payload": payload})
        done = 0
        while done < count:
            message = json.loads((await ws.receive()).data)
            if message["type"] == "next" and message["payload"].get("errors"):
                error = message["payload"]["errors"][0]
                found[f"refused {error['extensions']['code']}"] += 1
            elif message["type"] == "next":
                found["events"] += 1
            elif message["type"] in ("complete", "error"):
                done += 1


async def probe(url: str, stop: asyncio.Event, latencies: list[float]) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=300) as http:
        while not stop.is_set():
            started = time.perf_counter()
            await http.get("/healthz")
            latencies.append(time.perf_counter() - started)
            await asyncio.sleep(0.05)


async def flood(
    url: str, game_id: str, sockets: int, subscriptions: int
) -> tuple[Counter[str], list[float], float]:
    ws_url = url.replace("http://", "ws://") + "/graphql"
    found: Counter[str] = Counter()
    latencies: list[float] = []
    stop = asyncio.Event()
    probing = asyncio.create_task(probe(url, stop, latencies))
    started = time.perf_counter()
    async with aiohttp.ClientSession() as session:
        await asyncio.gather(
            *(flood_socket(session, ws_url, game_id, subscriptions, found) for _ in range(sockets))
        )
    took = time.perf_counter() - started
    stop.set()
    await probing
    return found, latencies, took


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sockets", type=int, default=10)
    parser.add_argument("--subscriptions", type=int, default=20, help="per socket")
    parser.add_argument(
        "--no-budget", action="store_true", help="turn the subscription budgets off"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        extra = NO_BUDGET if args.no_budget else ()
        server, url = start_server(
            f"sqlite:///{folder}/bench.sqlite", *extra, "--rate-registrations-per-address=0"
        )
        try:
            game_id = finished_game(url)
            before = rss_mb(server.pid)
            found, latencies, took = asyncio.run(
                flood(url, game_id, args.sockets, args.subscriptions)
            )
            after = rss_mb(server.pid)
        finally:
            server.terminate()
            server.wait(timeout=60)
    latencies.sort()
    refused = ", ".join(f"{n} {k}" for k, n in sorted(found.items()) if k != "events")
    flooded = f"{args.sockets} sockets x {args.subscriptions} gameChanged(afterVersion: 0)"
    health = latencies[len(latencies) // 2] * 1000, latencies[-1] * 1000
    print(
        f"{flooded}: {took:.1f} s, {found['events']} events, {refused or 'none refused'}; "
        f"/healthz p50 {health[0]:.0f} ms, worst {health[1]:.0f} ms; "
        f"RSS {before:.0f} -> {after:.0f} MB"
    )


if __name__ == "__main__":
    main()
