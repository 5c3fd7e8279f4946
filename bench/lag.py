"""Projection and live-update lag under load, on PostgreSQL.

Starts one or two ``papyrus serve`` processes on a fresh PostgreSQL database, drives Imhotep
games through the first at a steady ``--rate`` of actions per second (random legal actions),
and measures, for every event:

* subscriber lag: from the event's timestamp (taken when it is recorded, just before the commit)
  to its arrival at a ``gameEvents`` websocket subscriber connected to the *last* process;
* read-model lag: from the same timestamp until the ``games`` read model's tracking position
  covers the event (polled every 2 ms straight from the database).

    .venv/bin/python bench/lag.py --rate 200 --seconds 20 --processes 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import threading
import time
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

import aiohttp
import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: the repository's packages come first
from bench.common import gql, new_game, register, start_server  # noqa: E402

ADMIN_URL = os.environ.get("PAPYRUS_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")


READ = "query($g: ID!) { game(id: $g) { version status activeSeats legalActions } }"
ACT = (
    "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) "
    "{ game { version status activeSeats } } }"
)
EVENTS = "subscription($g: ID!) { gameEvents(gameId: $g, afterVersion: 0) { version } }"


async def subscriber(
    ws_url: str, game_id: str, arrivals: dict[tuple[str, int], float], stop: asyncio.Event
) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(ws_url, protocols=["graphql-transport-ws"]) as ws,
    ):
        await ws.send_json({"type": "connection_init"})
        await ws.receive_json()
        await ws.send_json(
            {
                "id": "1",
                "type": "subscribe",
                "payload": {"query": EVENTS, "variables": {"g": game_id}},
            }
        )
        while not stop.is_set():
            try:
                message = await asyncio.wait_for(ws.receive_json(), 1.0)
            except TimeoutError:
                continue
            if message.get("type") == "next":
                arrivals[(game_id, message["payload"]["data"]["gameEvents"]["version"])] = (
                    time.time()
                )
            elif message.get("type") == "complete":
                return


async def subscribe_all(ws_url: str, game_ids: list[str], seconds: float) -> dict[str, float]:
    """Subscribe to every game for ``seconds``; the arrival time of each (game, version)."""
    arrivals: dict[tuple[str, int], float] = {}
    stop = asyncio.Event()
    tasks = [asyncio.create_task(subscriber(ws_url, g, arrivals, stop)) for g in game_ids]
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {f"{g}/{v}": t for (g, v), t in arrivals.items()}


def subscriber_process(ws_url: str, game_ids: list[str], seconds: float, out: Any) -> None:
    """Runs in its own process so that the load generator cannot delay what it measures."""
    out.put(asyncio.run(subscribe_all(ws_url, game_ids, seconds)))


async def prepare(url: str, games: int) -> tuple[list[str], list[str]]:
    async with aiohttp.ClientSession(url) as session:
        tokens = [await register(session, f"lag-{i}") for i in range(4)]
        ids = [await new_game(session, tokens) for _ in range(games)]
    return tokens, ids


async def drive(url: str, tokens: list[str], ids: list[str], rate: float, seconds: float) -> int:
    """Actions at a steady ``rate``: one read of the acting seat's legal actions, one act."""
    rng = random.Random(1)
    active: dict[str, list[int]] = {}
    busy: set[str] = set()
    live = list(ids)
    pending: set[asyncio.Task[None]] = set()
    acted = 0
    async with aiohttp.ClientSession(url, connector=aiohttp.TCPConnector(limit=64)) as session:

        async def one(game_id: str) -> None:
            nonlocal acted
            try:
                seat = rng.choice(active.get(game_id) or [0, 1, 2, 3])
                game = (await gql(session, READ, {"g": game_id}, tokens[seat]))["game"]
                if game["status"] != "ACTIVE":
                    live.remove(game_id)
                    return
                if not game["legalActions"]:
                    active[game_id] = game["activeSeats"]
                    return
                action = rng.choice(game["legalActions"])
                result = await gql(session, ACT, {"g": game_id, "a": action}, tokens[seat])
                active[game_id] = result["act"]["game"]["activeSeats"]
                acted += 1
            finally:
                busy.discard(game_id)

        started = time.monotonic()
        next_at = started
        while time.monotonic() - started < seconds and live:
            free = [g for g in live if g not in busy]
            if free:
                game_id = rng.choice(free)
                busy.add(game_id)
                task = asyncio.create_task(one(game_id))
                pending.add(task)
                task.add_done_callback(pending.discard)
            next_at += 1.0 / rate
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
        await asyncio.gather(*pending)
        elapsed = time.monotonic() - started
        print(f"{acted} actions in {elapsed:.1f}s ({acted / elapsed:.0f} actions/s)")
    return acted


def drive_direct(
    database_url: str, ids: list[str], names: list[str], rate: float, seconds: float
) -> int:
    """The same load through the application layer in this process (no HTTP): isolates the
    path from commit to read model and to subscriber from the cost of serving requests."""
    from service.app import views
    from service.app.application import Application
    from service.app.caller import Caller
    from service.store.database import open_store

    games = Application(open_store(database_url))
    callers: dict[int, Caller] = {}
    rng = random.Random(1)
    live = list(ids)
    acted = 0
    started = time.monotonic()
    next_at = started
    while time.monotonic() - started < seconds and live:
        game_id = rng.choice(live)
        table = games.tables.get(game_id).table
        if table.status != "ACTIVE":
            live.remove(game_id)
            continue
        seat = rng.choice(views.active_seats(table))
        holder = table.holders[seat]
        assert holder is not None and holder.player_id is not None
        caller = callers.setdefault(seat, Caller(holder.player_id, holder.name))
        games.play.act(caller, game_id, rng.choice(views.legal_actions(table, caller)))
        acted += 1
        next_at += 1.0 / rate
        time.sleep(max(0.0, next_at - time.monotonic()))
    elapsed = time.monotonic() - started
    print(f"{acted} actions in {elapsed:.1f}s ({acted / elapsed:.0f} actions/s), in-process writer")
    return acted


class PositionMonitor(threading.Thread):
    """Records when the ``games`` read model's position first covers each notification."""

    def __init__(self, database_url: str) -> None:
        super().__init__(daemon=True)
        self.url = database_url
        self.reached: list[tuple[int, float]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        with psycopg.connect(self.url, autocommit=True) as db:
            last = -1
            while not self.stop.is_set():
                row = db.execute(
                    "SELECT position FROM papyrus_tracking WHERE projection = 'games'"
                ).fetchone()
                if row and row[0] != last:
                    last = row[0]
                    self.reached.append((int(last), time.time()))
                time.sleep(0.002)


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rate", type=float, default=200)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--games", type=int, default=64, help="tables played at once")
    parser.add_argument(
        "--direct",
        action="store_true",
        help="act through the application layer in this process instead of over HTTP",
    )
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument(
        "--projection-process",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="keep the read models in a dedicated `papyrus projections run` process",
    )
    args = parser.parse_args()
    name = f"papyrus_lag_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    database_url = ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    servers = []
    try:
        for _ in range(args.processes):
            servers.append(
                start_server(
                    database_url, *(["--no-projections"] if args.projection_process else [])
                )
            )
        if args.projection_process:
            worker = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "service.cli",
                    "projections",
                    "run",
                    "--database-url",
                    database_url,
                ],
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
            )
            servers.append((worker, ""))
        urls = [url for _, url in servers if url]
        tokens, ids = asyncio.run(prepare(urls[0], args.games))
        ws_url = urls[-1].replace("http", "ws") + "/graphql"
        import multiprocessing

        spawn = multiprocessing.get_context("spawn")
        out = spawn.Queue()
        listener = spawn.Process(
            target=subscriber_process, args=(ws_url, ids, args.seconds + 5, out)
        )
        listener.start()
        time.sleep(3.0)  # every subscriber is connected before the load starts
        monitor = PositionMonitor(database_url)
        monitor.start()
        load_started = time.time()  # events before this were caught up, not live
        if args.direct:
            drive_direct(database_url, ids, [], args.rate, args.seconds)
        else:
            asyncio.run(drive(urls[0], tokens, ids, args.rate, args.seconds))
        arrivals = {
            (key.rsplit("/", 1)[0], int(key.rsplit("/", 1)[1])): t for key, t in out.get().items()
        }
        listener.join(timeout=30)
        time.sleep(0.5)
        monitor.stop.set()
        monitor.join()
        with psycopg.connect(database_url, autocommit=True) as db:
            rows = db.execute(
                "SELECT notification_id, originator_id, originator_version, state"
                " FROM papyrus_events WHERE topic LIKE '%%GameTable.%%'"
            ).fetchall()
        at = {}
        by_note = {}
        for note, originator, version, state in rows:
            stamp = datetime.fromisoformat(
                json.loads(bytes(state))["timestamp"]["_data_"]
            ).timestamp()
            at[(str(originator), version)] = stamp
            by_note[note] = stamp
        sub = [arrivals[k] - at[k] for k in arrivals if k in at and at[k] >= load_started]
        rm = []
        reached = monitor.reached
        for note, stamp in by_note.items():
            when = next((t for position, t in reached if position >= note), None)
            if when is not None and stamp >= load_started:
                rm.append(when - stamp)
        for label, values in (("subscriber", sub), ("read model", rm)):
            if values:
                print(
                    f"{label:10s} lag over {len(values):6d} events:"
                    f" p50 {1000 * percentile(values, 0.5):6.1f} ms"
                    f"  p99 {1000 * percentile(values, 0.99):6.1f} ms"
                    f"  max {1000 * max(values):6.1f} ms"
                )
    finally:
        for process, _ in servers:
            process.terminate()
            process.wait(timeout=30)
        with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
