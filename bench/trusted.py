"""The hot documents by id, with compiled plans and without (issue #22, "the hot documents").

Starts ``papyrus serve`` twice per pair on a fresh SQLite file, once as it runs by default
(``--compiled-plans``) and once with ``--no-compiled-plans`` (graphql-core executes
everything), alternating A, B, A, B, ... so that both see the same machine. Each server gets
the same work from this one load generator (aiohttp, ``--concurrency`` requests in flight):

* ``game``: the web client's ``Game`` query of the Imhotep board (its whole ``GameFields`` and
  the typed view), sent by ``documentId``, by a seated player of a 4-player game;
* ``sdk game``: the Python SDK's ``game`` query (state and legal actions), by id;
* ``act``: the Python SDK's ``act`` mutation by id, a random legal action of the seat to move
  (read before it, not timed), games played to their end and replaced.

Measured per document: the server's CPU per request (utime + stime of its process tree over
the timed requests, ``/proc``) and the requests' latency percentiles. The figure to read is
the ratio of server CPU per request, plans ÷ graphql-core, median over the pairs.

    .venv/bin/python bench/trusted.py [--pairs 3] [--requests 600] [--concurrency 8] [--pin]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.api import cpu_seconds, process_tree, quantile  # noqa: E402
from bench.common import start_server  # noqa: E402
from service.api.graphql import trusted  # noqa: E402


def sdk_documents() -> dict[str, str]:
    return trusted.sdk_documents()


def web_game_document() -> str:
    return trusted.web_documents()["GAME@imhotep"]


async def post(
    session: aiohttp.ClientSession, url: str, token: str | None, body: dict[str, Any]
) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with session.post(f"{url}/graphql", json=body, headers=headers) as response:
        answer: dict[str, Any] = await response.json()
    if answer.get("errors"):
        raise RuntimeError(f"{body.get('documentId', '')[:16]}: {answer['errors'][0]}")
    return answer["data"]


async def by_id(
    session: aiohttp.ClientSession, url: str, token: str | None, text: str, variables: Any
) -> dict[str, Any]:
    return await post(
        session, url, token, {"documentId": trusted.document_id(text), "variables": variables}
    )


class Game:
    def __init__(self, game_id: str, tokens: list[str]) -> None:
        self.game_id, self.tokens = game_id, tokens


async def new_game(session: aiohttp.ClientSession, url: str, sdk: dict[str, str]) -> Game:
    tokens = []
    for _ in range(4):
        name = f"P{random.random()}"
        registered = await by_id(session, url, None, sdk["register"], {"n": name})
        tokens.append(registered["registerPlayer"]["token"])
    created = await by_id(
        session, url, tokens[0], sdk["createGame"], {"i": {"kind": "IMHOTEP", "seats": 4}}
    )
    game_id = created["createGame"]["id"]
    for seat, token in enumerate(tokens):
        await by_id(session, url, token, sdk["joinGame"], {"g": game_id, "s": seat})
    return Game(game_id, tokens)


async def measure(url: str, pids: list[int], requests: int, concurrency: int) -> dict[str, Any]:
    sdk = sdk_documents()
    web_game = web_game_document()
    figures: dict[str, Any] = {}
    async with aiohttp.ClientSession() as session:
        games = [await new_game(session, url, sdk) for _ in range(concurrency)]

        async def reads(name: str, text: str, variables: Any) -> None:
            latencies: list[float] = []

            async def one(game: Game, count: int) -> None:
                for _ in range(count):
                    begun = time.perf_counter()
                    await by_id(session, url, game.tokens[0], text, variables(game))
                    latencies.append(time.perf_counter() - begun)

            await asyncio.gather(*(one(g, 5) for g in games))  # warm
            latencies.clear()
            before = cpu_seconds(pids)
            await asyncio.gather(*(one(g, requests // concurrency) for g in games))
            figures[name] = summary(latencies, cpu_seconds(pids) - before)

        await reads("game", web_game, lambda g: {"id": g.game_id})
        await reads("sdk game", sdk["game"], lambda g: {"id": g.game_id, "v": None})

        latencies: list[float] = []
        spent = 0.0

        async def play(slot: int, count: int) -> None:
            nonlocal spent
            for _ in range(count):
                game = games[slot]
                asked = {"id": game.game_id, "v": None}
                state = (await by_id(session, url, game.tokens[0], sdk["game"], asked))["game"]
                if state["status"] != "ACTIVE":
                    games[slot] = await new_game(session, url, sdk)
                    continue
                seat = state["activeSeats"][0]
                token = game.tokens[seat]
                mine = (await by_id(session, url, token, sdk["game"], asked))["game"]
                action = random.choice(mine["legalActions"])
                before = cpu_seconds(pids)
                begun = time.perf_counter()
                await by_id(
                    session,
                    url,
                    token,
                    sdk["act"],
                    {"g": game.game_id, "a": action, "v": mine["version"], "k": None},
                )
                latencies.append(time.perf_counter() - begun)
                spent += cpu_seconds(pids) - before

        await asyncio.gather(*(play(slot, requests // concurrency) for slot in range(len(games))))
        # the acts overlap each other's reads: their CPU is each act's window, an upper bound
        figures["act"] = summary(latencies, spent / max(1, concurrency))
    return figures


def summary(latencies: list[float], cpu: float) -> dict[str, float]:
    ordered = sorted(latencies)
    return {
        "requests": len(ordered),
        "cpu_ms": 1000 * cpu / max(1, len(ordered)),
        "p50_ms": 1000 * quantile(ordered, 0.5),
        "p99_ms": 1000 * quantile(ordered, 0.99),
    }


def run_server(plans: bool, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="papyrus-trusted-") as folder:
        url_db = f"sqlite:///{folder}/bench.sqlite"
        extra = ["--compiled-plans" if plans else "--no-compiled-plans"]
        extra += ["--rate-mutations-per-player", "0", "--rate-mutations-per-address", "0"]
        extra += ["--rate-registrations-per-address", "0"]
        process, url = start_server(url_db, *extra, cpus={0} if args.pin else None)
        try:
            pids = process_tree(process.pid)
            return asyncio.run(measure(url, pids, args.requests, args.concurrency))
        finally:
            process.terminate()
            process.wait(30)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--pairs", type=int, default=3)
    p.add_argument("--requests", type=int, default=600, help="timed requests per document")
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--pin", action="store_true", help="the server on CPU 0, this on CPU 1")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.pin:
        import os

        os.sched_setaffinity(0, {1})
    runs: dict[bool, list[dict[str, Any]]] = {True: [], False: []}
    for pair in range(args.pairs):
        for plans in (True, False) if pair % 2 == 0 else (False, True):
            runs[plans].append(run_server(plans, args))
    result: dict[str, Any] = {}
    for name in runs[True][0]:
        pairs = zip(runs[True], runs[False], strict=True)
        ratios = [a[name]["cpu_ms"] / b[name]["cpu_ms"] for a, b in pairs]
        row = {
            "plans cpu_ms": statistics.median(r[name]["cpu_ms"] for r in runs[True]),
            "graphql-core cpu_ms": statistics.median(r[name]["cpu_ms"] for r in runs[False]),
            "ratio (median of pairs)": statistics.median(ratios),
            "plans p50_ms": statistics.median(r[name]["p50_ms"] for r in runs[True]),
            "graphql-core p50_ms": statistics.median(r[name]["p50_ms"] for r in runs[False]),
            "plans p99_ms": statistics.median(r[name]["p99_ms"] for r in runs[True]),
            "graphql-core p99_ms": statistics.median(r[name]["p99_ms"] for r in runs[False]),
        }
        result[name] = row
        if not args.json:
            print(
                f"{name:9} server CPU/request: plans {row['plans cpu_ms']:.2f} ms, graphql-core "
                f"{row['graphql-core cpu_ms']:.2f} ms, ratio {row['ratio (median of pairs)']:.2f}"
                f" (median of {args.pairs} pairs); p50 {row['plans p50_ms']:.1f} / "
                f"{row['graphql-core p50_ms']:.1f} ms, p99 {row['plans p99_ms']:.1f} / "
                f"{row['graphql-core p99_ms']:.1f} ms"
            )
    if args.json:
        print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
