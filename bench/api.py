"""HTTP load benchmark: many concurrent games through the real GraphQL API.

Starts ``papyrus serve`` in a subprocess on a free loopback port (SQLite in a temporary file, or
a fresh PostgreSQL database), then drives ``--games`` concurrent Imhotep games with random legal
actions for ``--seconds``; prints actions/s and the p50/p99 latency of ``act`` mutations.

    .venv/bin/python bench/api.py --store sqlite --games 32 --seconds 20
    .venv/bin/python bench/api.py --store postgres --games 32 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script
from bench.common import gql, new_game, register, start_server

ADMIN_URL = os.environ.get("PAPYRUS_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")


READ = "query($g: ID!) { game(id: $g) { version status activeSeats legalActions } }"
ACT = (
    "mutation($g: ID!, $a: JSON!, $v: Int) { act(gameId: $g, action: $a, expectedVersion: $v) "
    "{ game { version status activeSeats } } }"
)


async def player_loop(
    client: aiohttp.ClientSession,
    index: int,
    deadline: float,
    latencies: list[float],
    counts: dict[str, int],
    think: float,
) -> None:
    rng = random.Random(index)
    tokens = [await register(client, f"bench-{index}-{i}") for i in range(4)]
    while time.monotonic() < deadline:
        game_id = await new_game(client, tokens)
        counts["games"] += 1
        active = (await gql(client, READ, {"g": game_id}, tokens[0]))["game"]["activeSeats"]
        while active and time.monotonic() < deadline:
            seat = rng.choice(active)
            game = (await gql(client, READ, {"g": game_id}, tokens[seat]))["game"]
            if not game["legalActions"]:
                active = game["activeSeats"]
                continue
            action = rng.choice(game["legalActions"])
            started = time.perf_counter()
            result = await gql(
                client, ACT, {"g": game_id, "a": action, "v": game["version"]}, tokens[seat]
            )
            latencies.append(time.perf_counter() - started)
            if think:  # a player's think time (0: closed loop, the server's saturation point)
                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
            counts["actions"] += 1
            state = result["act"]["game"]
            active = state["activeSeats"] if state["status"] == "ACTIVE" else []


async def drive_part(
    url: str, first: int, games: int, seconds: float, think: float
) -> tuple[list[float], dict[str, int], float]:
    latencies: list[float] = []
    counts = {"actions": 0, "games": 0}
    connector = aiohttp.TCPConnector(limit=games * 2)
    timeout = aiohttp.ClientTimeout(total=60)
    async with aiohttp.ClientSession(url, connector=connector, timeout=timeout) as client:
        started = time.monotonic()
        deadline = started + seconds
        await asyncio.gather(
            *(
                player_loop(client, i, deadline, latencies, counts, think)
                for i in range(first, first + games)
            )
        )
        elapsed = time.monotonic() - started
    return latencies, counts, elapsed


def drive_process(
    args: tuple[str, int, int, float, float],
) -> tuple[list[float], dict[str, int], float]:
    return asyncio.run(drive_part(*args))


def drive(
    urls: list[str], games: int, seconds: float, clients: int, think: float
) -> dict[str, Any]:
    """Split the games over ``clients`` load-generating processes (one alone is the bottleneck)."""
    from concurrent.futures import ProcessPoolExecutor

    shares = [games // clients + (1 if i < games % clients else 0) for i in range(clients)]
    firsts = [sum(shares[:i]) for i in range(clients)]
    jobs = [
        (urls[i % len(urls)], f, n, seconds, think)
        for i, (f, n) in enumerate(zip(firsts, shares, strict=True))
    ]
    with ProcessPoolExecutor(clients) as pool:
        parts = list(pool.map(drive_process, jobs))
    latencies = sorted(x for part in parts for x in part[0])
    counts = {k: sum(part[1][k] for part in parts) for k in ("actions", "games")}
    elapsed = max(part[2] for part in parts)
    return {
        "actions": counts["actions"],
        "games_started": counts["games"],
        "seconds": elapsed,
        "actions_per_s": counts["actions"] / elapsed,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[int(len(latencies) * 0.99) - 1],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--store", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--games", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--clients", type=int, default=2, help="load-generating processes")
    parser.add_argument(
        "--servers", type=int, default=1, help="server processes on the one database"
    )
    parser.add_argument(
        "--think-ms", type=float, default=0, help="mean think time between a player's actions"
    )
    args = parser.parse_args()
    stores = ["sqlite", "postgres"] if args.store == "both" else [args.store]
    for store in stores:
        cleanup = None
        if store == "sqlite":
            folder = tempfile.mkdtemp()
            database_url = f"sqlite:///{folder}/bench.sqlite"
        else:
            import psycopg

            name = f"papyrus_bench_{uuid.uuid4().hex[:8]}"
            with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
                admin.execute(f'CREATE DATABASE "{name}"')
            database_url = ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"

            def cleanup(name: str = name) -> None:
                with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
                    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

        started = [start_server(database_url) for _ in range(args.servers)]
        servers = [process for process, _ in started]
        try:
            figures = drive(
                [url for _, url in started],
                args.games,
                args.seconds,
                args.clients,
                args.think_ms / 1000,
            )
        finally:
            for server in servers:
                server.terminate()
                server.wait(timeout=30)
            if cleanup:
                cleanup()
        print(
            f"{store:8s} servers={args.servers} think={args.think_ms:.0f}ms games={args.games:3d} "
            f"actions={figures['actions']:6d} "
            f"in {figures['seconds']:.1f}s  {figures['actions_per_s']:7.1f} actions/s  "
            f"act p50={figures['p50_ms']:.1f} ms p99={figures['p99_ms']:.1f} ms  "
            f"(games started: {figures['games_started']})"
        )


if __name__ == "__main__":
    main()
