"""Many subscribers on one server process: idle subscribers, and one game pushed to spectators.

Starts ``papyrus serve`` (bench/common.py ``start_server``) on a fresh SQLite file or PostgreSQL
database (bench/api.py ``database``) for each phase, and plays every client from this one load
generator on 127.0.0.1 (aiohttp websockets, ``graphql-transport-ws`` on ``/graphql``, one asyncio
process). The games are 4-player Imhotep tables made with bench/api.py's helpers
(``registerPlayer``, ``createGame``, ``joinGame``), started but idle unless told.

Phase 1, idle (``--idle N``, once per value of ``--per-socket``): ``--games`` running games,
N subscriptions to ``gameChanged(gameId, afterVersion: null) { version status activeSeats
state }`` spread round-robin over them, ``--per-socket`` subscriptions per websocket (N /
per-socket websockets, no token). Measured:

* open: seconds from the first handshake to the last socket's ``pong`` (a ``ping`` sent after
  its ``subscribe`` messages; ``--open-concurrency`` sockets are opened at a time), then a
  ``--settle`` wait for late refusals;
* memory per subscriber: the server's RSS (VmRSS) after the subscriptions minus before them
  (the games made, nothing open), divided by the subscriptions that are live (not refused);
  per websocket too (the same difference divided by the sockets);
* idle CPU: the server's utime+stime (``/proc/<pid>/stat``, with its children) over
  ``--idle-seconds`` (default 60) of nothing happening, as a share of one core, beside the same
  server's share over ``--baseline-seconds`` before any subscriber, and the difference per
  second per 1000 subscriptions. Idle is not free: the server pings every socket every 20 s
  (``--websocket-ping-interval``; the load generator answers) and every live subscription
  re-reads the store every 30 s when nothing woke it (``gamestream.RECHECK_SECONDS``): 60 s
  holds three ping rounds and two rechecks of each subscription (a 20 s window catches a
  share of the rechecks that depends on when the subscriptions were opened). ``--server-arg
  =--websocket-ping-interval=600`` shows the pings' share;
* the load generator's own CPU over the same windows (``getrusage``), to show it is idle too;
* refusals (handshakes, subscriptions: by code) and sockets the server closed (by close code);
* a liveness check afterwards: one act in every game, and how many subscriptions received a
  change within ``--settle`` + 10 s (all of them, unless some subscription is not live).

Phase 2, spectators (``--spectators S``, once per ``--variant``): ONE running game, S websockets
without a token, each with one ``gameChanged(gameId, afterVersion: null)`` subscription
selecting ``version status activeSeats state`` (variant ``state``) or ``version status
activeSeats view { __typename }`` (variant ``view``). Then the players make ``--acts`` moves one
at a time: the seat to move reads ``game { version legalActions }`` over HTTP, picks a random
legal action, sends ``act(gameId, action, expectedVersion)``; the act's answer gives the version
V' after the command, and the next act waits until every spectator holds a change with version
>= V' (Imhotep hides no entry: every caller numbers the log alike). Measured per (act,
spectator) pair: the latency from sending ``act`` to that spectator's receipt of version V'
(taken when the load generator's reader handles the message, so it includes this process's own
queueing: see its CPU); printed as p50/p99/max over all pairs, plus the act's own answer time
and the slowest spectator per act (p50 of it), then per act: its events, its first, median and
last spectator's latency and the server CPU it took. Server CPU per act: utime+stime from just
before the ``act`` until the last spectator got V', summed over the acts and divided by them
(the read before each act is excluded; ``all-in`` includes it). CPU figures have the
kernel's 10 ms tick resolution.

Server limits raised (one load generator on 127.0.0.1 plays every client, so every limit per
client address would count all of them as one hostile client):

* ``--max-websockets-per-client`` (default 50 open websockets per address): to the sockets
  needed plus 100;
* ``--max-subscriptions`` (default 10000 live subscriptions per process): to the subscriptions
  plus 1000 (10,000 subscribers plus nothing else would just fit the default);
* ``--max-subscriptions-per-connection`` (default 20): to ``--per-socket`` if above;
* the four subscription budgets (cost units per 60 s window spent starting subscriptions: per
  connection 300000, per address 600000, per anonymous address 150000, total 2000000): 0, no
  limit, since 10,000 starts from one anonymous address exceed the per-anonymous-address budget
  (and the total's, at the selection's cost);
* the rate limits on registrations and mutations (bench/api.py ``NO_RATE_LIMITS``).

``--keep-limits`` passes none of these but the rate limits (400 registrations would pass the
default 300 per address): the refusals then show which limit bites (first the 50 websockets
per address, answered 429 in the handshake; with ``--server-arg=--max-websockets-per-client=
2000`` too, the anonymous address's budget: a subscription from now on is charged its
selection's cost twice, 2 x 30 units for the ``state`` selection, so about 2,500 starts a
minute pass, 60 s of refill aside). ``--server-arg`` (repeatable) adds any ``papyrus serve``
option, after the bench's own (it wins). RLIMIT_NOFILE of this process is raised to
``--nofile`` (soft and hard; the hard limit only where allowed, else soft = hard), and the
server inherits it; 10,000 sockets take 10,000 descriptors on each side.

    .venv/bin/python bench/spectators.py --idle 500 --spectators 100 --games 10 \\
        --idle-seconds 5 --acts 10                                       # smoke run
    .venv/bin/python bench/spectators.py                                 # 10,000 idle, 1,000
    .venv/bin/python bench/spectators.py --per-socket 10,1 --json        # also 1 per socket
    .venv/bin/python bench/spectators.py --store postgres
    .venv/bin/python bench/spectators.py --idle 10000 --spectators 0 --keep-limits
    .venv/bin/python bench/spectators.py --spectators 0 --per-socket 1 \\
        --server-arg=--websocket-ping-interval=600                       # without pings

Each phase also prints the machine's 1-minute load average before and after: the latencies
(and, less, the CPU figures) depend on what else runs on the machine's CPUs.

``--idle 0`` or ``--spectators 0`` skips that phase. ``--json`` prints one JSON line at the end
with every figure (``idle``: one object per ``--per-socket``, ``spectators``: one per variant).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import resource
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script
from bench.api import (
    ACT,
    NO_RATE_LIMITS,
    Client,
    Table,
    body,
    cpu_seconds,
    database,
    new_game,
    quantile,
    rss_mib,
    seat_players,
)
from bench.common import start_server

PROTOCOL = "graphql-transport-ws"
SELECTIONS = {
    "state": "version status activeSeats state",
    "view": "version status activeSeats view { __typename }",
}
READ = "query($g: ID!) { game(id: $g) { version status activeSeats legalActions } }"
BUDGETS_OFF = (
    "--subscription-budget-per-connection=0",
    "--subscription-budget-per-address=0",
    "--subscription-budget-per-anonymous-address=0",
    "--subscription-budget-total=0",
)
PUSH_TIMEOUT = 30.0


def subscription(selection: str) -> str:
    head = "subscription($g: ID!) { gameChanged(gameId: $g, afterVersion: null)"
    return f"{head} {{ {selection} }} }}"


def driver_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def raise_nofile(wanted: int) -> tuple[int, int]:
    """RLIMIT_NOFILE up to ``wanted`` (soft and hard; hard only if allowed); the limits now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(wanted, soft), max(wanted, hard)))
    except (ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


# -- the subscribers -------------------------------------------------------------------------


@dataclass
class Tally:
    """What every socket of a phase saw, together."""

    refused: Counter[str] = field(default_factory=Counter)  # by code
    closed: Counter[str] = field(default_factory=Counter)  # by close code
    errors: Counter[str] = field(default_factory=Counter)  # the players' HTTP requests
    changes: int = 0
    completed: int = 0


@dataclass
class Round:
    """One act of the spectator phase: the version every spectator must reach."""

    target: int
    sent: float
    waiting: int
    latencies: list[float]
    done: asyncio.Event


class Sub:
    """One subscription: the last version it received and the rounds it completed."""

    __slots__ = ("at", "game", "last", "refused", "rounds")

    def __init__(self, game: str) -> None:
        self.game = game
        self.last = -1  # the highest version received
        self.at = 0.0  # when it was received (perf_counter)
        self.rounds = 0
        self.refused = False


class Sock:
    """One websocket with its subscriptions, read by one task (which answers pings)."""

    def __init__(self, subs: list[Sub], tally: Tally, phase: Phase) -> None:
        self.subs = subs
        self.tally = tally
        self.phase = phase
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.pong = asyncio.Event()
        self.reader: asyncio.Task[None] | None = None

    async def open(self, session: aiohttp.ClientSession, ws_url: str, query: str) -> bool:
        try:
            ws = await session.ws_connect(
                ws_url, protocols=[PROTOCOL], max_msg_size=0, autoping=True, heartbeat=None
            )
        except aiohttp.WSServerHandshakeError as error:
            self.tally.refused[f"handshake {error.status}"] += 1
            return False
        except (aiohttp.ClientError, OSError) as error:
            self.tally.refused[f"connect {type(error).__name__}: {error}"] += 1
            return False
        await ws.send_str('{"type":"connection_init"}')
        ack = await ws.receive(timeout=60)
        if ack.type != aiohttp.WSMsgType.TEXT or json.loads(ack.data)["type"] != "connection_ack":
            self.tally.refused[f"connection_init answered {ack.type.name} {ack.data!r}"] += 1
            await ws.close()
            return False
        self.ws = ws
        for n, sub in enumerate(self.subs):
            payload = {"query": query, "variables": {"g": sub.game}}
            await ws.send_str(json.dumps({"id": str(n), "type": "subscribe", "payload": payload}))
        await ws.send_str('{"type":"ping"}')
        self.reader = asyncio.create_task(self.read())
        await asyncio.wait_for(self.pong.wait(), 120)
        return True

    async def read(self) -> None:
        ws = self.ws
        assert ws is not None
        while True:
            message = await ws.receive()  # answers the server's websocket pings (autoping)
            if message.type != aiohttp.WSMsgType.TEXT:
                if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                    if not self.phase.closing:
                        self.tally.closed[f"{ws.close_code} {message.extra or ''}".strip()] += 1
                    return
                if message.type == aiohttp.WSMsgType.ERROR:
                    self.tally.closed[f"error {message.data}"] += 1
                    return
                continue
            now = time.perf_counter()
            frame = json.loads(message.data)
            kind = frame["type"]
            if kind == "next":
                payload = frame["payload"]
                sub = self.subs[int(frame["id"])]
                if payload.get("errors"):
                    self.tally.refused[code(payload["errors"][0])] += 1
                    sub.refused = True
                    continue
                self.tally.changes += 1
                version = payload["data"]["gameChanged"]["version"]
                if version > sub.last:
                    sub.last, sub.at = version, now
                self.phase.received(sub)
            elif kind == "error":
                self.tally.refused[code(frame["payload"][0])] += 1
                self.subs[int(frame["id"])].refused = True
            elif kind == "complete":
                self.tally.completed += 1
            elif kind == "pong":
                self.pong.set()
            elif kind == "ping":
                await ws.send_str('{"type":"pong"}')

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            try:
                await asyncio.wait_for(self.reader, 10)
            except Exception:
                self.reader.cancel()


def live_subs(phase: Phase) -> list[Sub]:
    """The subscriptions of the sockets open (and not closed) that were not refused."""
    return [
        sub
        for sock in phase.socks
        if sock.ws is not None and not sock.ws.closed
        for sub in sock.subs
        if not sub.refused
    ]


def code(error: dict[str, Any]) -> str:
    extensions = error.get("extensions") or {}
    return f"{extensions.get('code', 'no code')}: {error.get('message', '')}"


class Phase:
    """The subscribers of one phase and the act being waited for (spectators)."""

    def __init__(self) -> None:
        self.tally = Tally()
        self.socks: list[Sock] = []
        self.round: Round | None = None
        self.number = 0
        self.closing = False

    def received(self, sub: Sub) -> None:
        """Count ``sub`` for the current act if it holds the act's version now."""
        current = self.round
        if current is None or sub.rounds >= self.number or sub.last < current.target:
            return
        sub.rounds = self.number
        current.latencies.append(sub.at - current.sent)
        current.waiting -= 1
        if current.waiting == 0:
            current.done.set()

    async def open(
        self,
        session: aiohttp.ClientSession,
        ws_url: str,
        query: str,
        subs: list[Sub],
        per_socket: int,
        concurrency: int,
    ) -> float:
        """Open sockets of ``per_socket`` subscriptions each; the seconds it took."""
        gate = asyncio.Semaphore(concurrency)

        async def one(sock: Sock) -> None:
            async with gate:
                try:
                    if await sock.open(session, ws_url, query):
                        return
                except (TimeoutError, aiohttp.ClientError, OSError) as error:
                    sock.tally.refused[f"open {type(error).__name__}: {error}"] += 1

        socks = [
            Sock(subs[start : start + per_socket], self.tally, self)
            for start in range(0, len(subs), per_socket)
        ]
        self.socks.extend(socks)
        started = time.perf_counter()
        await asyncio.gather(*(one(sock) for sock in socks))
        return time.perf_counter() - started

    async def close(self) -> None:
        self.closing = True
        gate = asyncio.Semaphore(500)

        async def one(sock: Sock) -> None:
            async with gate:
                await sock.close()

        await asyncio.gather(*(one(sock) for sock in self.socks))


# -- the server ------------------------------------------------------------------------------


def limits(sockets: int, subscriptions: int, per_socket: int) -> list[str]:
    return [
        f"--max-websockets-per-client={sockets + 100}",
        f"--max-subscriptions={subscriptions + 1000}",
        f"--max-subscriptions-per-connection={max(20, per_socket)}",
        *BUDGETS_OFF,
    ]


@contextmanager
def server(url: str, extra: list[str]) -> Iterator[tuple[str, int]]:
    process, http_url = start_server(url, *extra, ready_seconds=60)
    try:
        yield http_url, process.pid
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except Exception:
            process.kill()
        if process.returncode not in (0, -15, None):
            print(f"  server exited with {process.returncode}", flush=True)


def http_session(url: str) -> aiohttp.ClientSession:
    """The players' HTTP client: idle keep-alive connections are dropped after 2 s, before
    uvicorn's 5 s keep-alive timeout can close one that is being reused."""
    return aiohttp.ClientSession(base_url=url, connector=aiohttp.TCPConnector(keepalive_timeout=2))


async def tables(client: Client, count: int) -> list[Table]:
    gate = asyncio.Semaphore(16)

    async def one(slot: int) -> Table:
        async with gate:
            table = await seat_players(client, slot)
            await new_game(client, table)
            return table

    return list(await asyncio.gather(*(one(slot) for slot in range(count))))


async def act_once(client: Client, table: Table) -> int | None:
    """Read the game as a seat to move, send a random legal action: the version after it (None
    once the game is over). Returns after the read; the act's send time is ``table.sent``."""
    active = [0, 1, 2, 3]
    while active:
        seat = table.rng.choice(active)
        game = (await client.gql(READ, {"g": table.game_id}, table.headers[seat]))["game"]
        if game["status"] != "ACTIVE":
            return None
        if not game["legalActions"]:
            active = game["activeSeats"]
            continue
        action = table.rng.choice(game["legalActions"])
        payload = body(ACT, {"g": table.game_id, "a": action, "v": game["version"]})
        table.seat = seat
        table.action_body = payload
        return int(game["version"])
    return None


async def send_act(client: Client, table: Table) -> int:
    answer = await client.call(table.action_body, table.headers[table.seat])
    return int(answer["act"]["game"]["version"])


# -- phase 1: idle ---------------------------------------------------------------------------


async def idle_phase(args: argparse.Namespace, url: str, pid: int, per_socket: int) -> dict:
    count = args.idle
    async with http_session(url) as session:
        client = Client(session)
        made = time.perf_counter()
        games = await tables(client, args.games)
        print(f"  {len(games)} games made in {time.perf_counter() - made:.1f} s", flush=True)
        await asyncio.sleep(2)
        baseline_start, baseline_wall = cpu_seconds([pid]), time.perf_counter()
        await asyncio.sleep(args.baseline_seconds)  # the server idle without subscribers
        baseline_wall = time.perf_counter() - baseline_wall
        baseline = (cpu_seconds([pid]) - baseline_start) / baseline_wall
        rss_before, cpu_before = rss_mib([pid]), cpu_seconds([pid])
        phase = Phase()
        subs = [Sub(games[n % len(games)].game_id) for n in range(count)]
        ws_url = url.replace("http://", "ws://") + "/graphql"
        query = subscription(SELECTIONS["state"])
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as wss:
            driver_before = driver_cpu()
            took = await phase.open(wss, ws_url, query, subs, per_socket, args.open_concurrency)
            open_cpu = cpu_seconds([pid]) - cpu_before
            open_driver = driver_cpu() - driver_before
            print(f"  opened in {took:.1f} s; settling {args.settle:.0f} s", flush=True)
            await asyncio.sleep(args.settle)
            live = live_subs(phase)
            sockets = math.ceil(count / per_socket)
            live_sockets = sum(1 for sock in phase.socks if sock.ws is not None)
            rss_after = rss_mib([pid])
            print(
                f"  RSS {rss_before:.1f} -> {rss_after:.1f} MiB; idle for "
                f"{args.idle_seconds:.0f} s",
                flush=True,
            )
            cpu_start, driver_start = cpu_seconds([pid]), driver_cpu()
            idle_started = time.perf_counter()
            await asyncio.sleep(args.idle_seconds)
            idle_wall = time.perf_counter() - idle_started
            idle_cpu = cpu_seconds([pid]) - cpu_start
            idle_driver = driver_cpu() - driver_start
            closed_while_idle = sum(phase.tally.closed.values())
            # liveness: one act in every game; who hears of it
            versions = await asyncio.gather(*(act_once(client, table) for table in games))
            after: dict[str, int] = {}
            for table, version in zip(games, versions, strict=True):
                if version is None:
                    continue
                try:
                    after[table.game_id] = await send_act(client, table)
                except (aiohttp.ClientError, RuntimeError) as error:
                    phase.tally.errors[f"act {type(error).__name__}: {error}"] += 1
            deadline = time.monotonic() + args.settle + 10
            while time.monotonic() < deadline:
                heard = sum(1 for sub in subs if sub.last >= after.get(sub.game, 1 << 30))
                if heard >= len(live):
                    break
                await asyncio.sleep(0.2)
            heard = sum(1 for sub in subs if sub.last >= after.get(sub.game, 1 << 30))
            rss_live = rss_mib([pid])
            await phase.close()
    return {
        "store": args.store,
        "subscriptions": count,
        "per_socket": per_socket,
        "sockets": sockets,
        "sockets_open": live_sockets,
        "live": len(live),
        "games": len(games),
        "open_s": round(took, 2),
        "open_server_cpu_s": round(open_cpu, 2),
        "open_driver_cpu_s": round(open_driver, 2),
        "refused": dict(phase.tally.refused),
        "closed": dict(phase.tally.closed),
        "closed_while_idle": closed_while_idle,
        "http_errors": dict(phase.tally.errors),
        "rss_before_mib": round(rss_before, 1),
        "rss_after_mib": round(rss_after, 1),
        "rss_after_push_mib": round(rss_live, 1),
        "kib_per_subscription": round((rss_after - rss_before) * 1024 / max(len(live), 1), 2),
        "kib_per_socket": round((rss_after - rss_before) * 1024 / max(live_sockets, 1), 2),
        "idle_s": round(idle_wall, 1),
        "idle_server_cpu_s": round(idle_cpu, 3),
        "idle_server_cpu_pct": round(100 * idle_cpu / idle_wall, 2),
        "idle_driver_cpu_pct": round(100 * idle_driver / idle_wall, 2),
        "baseline_server_cpu_pct": round(100 * baseline, 2),
        "idle_server_cpu_ms_per_s_per_1000": round(
            1000 * (idle_cpu / idle_wall - baseline) * 1000 / max(len(live), 1), 3
        ),
        "liveness_heard": heard,
    }


def idle_line(r: dict) -> str:
    refused = ", ".join(f"{n} x {k}" for k, n in r["refused"].items()) or "none"
    closed = ", ".join(f"{n} x {k}" for k, n in r["closed"].items()) or "none"
    return (
        f"idle [{r['store']}] {r['subscriptions']} subscriptions over {r['games']} games, "
        f"{r['per_socket']}/socket ({r['sockets']} sockets, {r['sockets_open']} open):\n"
        f"  opened in {r['open_s']:.1f} s (server CPU {r['open_server_cpu_s']:.1f} s, "
        f"driver CPU {r['open_driver_cpu_s']:.1f} s); refused: {refused}; closed by server: "
        f"{closed}\n"
        f"  RSS {r['rss_before_mib']:.1f} -> {r['rss_after_mib']:.1f} MiB: "
        f"{r['kib_per_subscription']:.1f} KiB per subscription, {r['kib_per_socket']:.1f} KiB "
        f"per socket\n"
        f"  idle {r['idle_s']:.0f} s: server CPU {r['idle_server_cpu_s']:.2f} s = "
        f"{r['idle_server_cpu_pct']:.2f}% of a core (driver {r['idle_driver_cpu_pct']:.2f}%); "
        f"without subscribers {r['baseline_server_cpu_pct']:.2f}%: "
        f"{r['idle_server_cpu_ms_per_s_per_1000']:.2f} ms of CPU per second per 1000 "
        "subscriptions\n"
        f"  liveness: one act per game heard by {r['liveness_heard']} of "
        f"{r['subscriptions']} subscriptions (RSS then {r['rss_after_push_mib']:.1f} MiB); "
        f"players' HTTP errors: {r['http_errors'] or 'none'}"
    )


# -- phase 2: spectators ---------------------------------------------------------------------


async def spectator_phase(
    args: argparse.Namespace, url: str, pid: int, variant: str
) -> dict[str, Any]:
    count = args.spectators
    async with http_session(url) as session:
        client = Client(session)
        (table,) = await tables(client, 1)
        phase = Phase()
        subs = [Sub(table.game_id) for _ in range(count)]
        ws_url = url.replace("http://", "ws://") + "/graphql"
        rss_before = rss_mib([pid])
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as wss:
            took = await phase.open(
                wss, ws_url, subscription(SELECTIONS[variant]), subs, 1, args.open_concurrency
            )
            await asyncio.sleep(args.settle)
            live = live_subs(phase)
            refused = count - len(live)
            expected = len(live)
            rss_after = rss_mib([pid])
            print(
                f"  {len(live)} spectators open in {took:.1f} s, {refused} refused; "
                f"(RSS {rss_before:.1f} -> {rss_after:.1f} MiB); {args.acts} acts",
                flush=True,
            )
            latencies: list[float] = []
            answers: list[float] = []
            slowest: list[float] = []
            per_act: list[dict[str, Any]] = []
            changes_before = phase.tally.changes
            act_cpu = 0.0
            timeouts = 0
            all_cpu, all_driver = cpu_seconds([pid]), driver_cpu()
            all_started = time.perf_counter()
            acts = 0
            events = 0
            for _ in range(args.acts):
                before_version = await act_once(client, table)
                if before_version is None:
                    break
                current = Round(0, 0.0, expected, [], asyncio.Event())
                phase.number += 1
                cpu = cpu_seconds([pid])
                current.sent = time.perf_counter()
                current.target = 1 << 30  # nothing counts until the answer is known
                phase.round = current
                version = await send_act(client, table)
                answers.append(time.perf_counter() - current.sent)
                current.target = version
                events += version - before_version
                for sub in live:  # the changes that came before the answer
                    phase.received(sub)
                if current.waiting > 0:
                    try:
                        await asyncio.wait_for(current.done.wait(), PUSH_TIMEOUT)
                    except TimeoutError:
                        timeouts += 1
                spent = cpu_seconds([pid]) - cpu
                act_cpu += spent
                phase.round = None
                latencies.extend(current.latencies)
                if current.latencies:
                    slowest.append(max(current.latencies))
                    ordered = sorted(current.latencies)
                    per_act.append(
                        {
                            "events": version - before_version,
                            "answer_ms": round(answers[-1] * 1000, 1),
                            "first_ms": round(ordered[0] * 1000, 1),
                            "p50_ms": round(quantile(ordered, 0.5) * 1000, 1),
                            "last_ms": round(ordered[-1] * 1000, 1),
                            "server_cpu_ms": round(spent * 1000),
                        }
                    )
                acts += 1
            all_wall = time.perf_counter() - all_started
            all_cpu = cpu_seconds([pid]) - all_cpu
            all_driver = driver_cpu() - all_driver
            pushes = phase.tally.changes - changes_before
            await phase.close()
    latencies.sort()
    answers.sort()
    slowest.sort()

    def ms(values: list[float], q: float) -> float | None:
        return round(quantile(values, q) * 1000, 2) if values else None

    return {
        "store": args.store,
        "variant": variant,
        "selection": SELECTIONS[variant],
        "spectators": count,
        "open": len(live),
        "open_s": round(took, 2),
        "refused": dict(phase.tally.refused),
        "closed": dict(phase.tally.closed),
        "kib_per_spectator": round((rss_after - rss_before) * 1024 / max(len(live), 1), 2),
        "acts": acts,
        "events_per_act": round(events / acts, 2) if acts else None,
        "pairs": len(latencies),
        "missing_pairs": acts * expected - len(latencies),
        "timeouts": timeouts,
        "push_p50_ms": ms(latencies, 0.5),
        "push_p99_ms": ms(latencies, 0.99),
        "push_max_ms": round(latencies[-1] * 1000, 2) if latencies else None,
        "last_spectator_p50_ms": ms(slowest, 0.5),
        "act_answer_p50_ms": ms(answers, 0.5),
        "server_cpu_per_act_ms": round(1000 * act_cpu / acts, 1) if acts else None,
        "server_cpu_per_act_all_in_ms": round(1000 * all_cpu / acts, 1) if acts else None,
        "driver_cpu_pct": round(100 * all_driver / all_wall, 1) if all_wall else None,
        "server_cpu_pct": round(100 * all_cpu / all_wall, 1) if all_wall else None,
        "pushes_per_spectator_act": round(pushes / max(acts * expected, 1), 2),
        "per_act": per_act,
    }


def spectator_line(r: dict[str, Any]) -> str:
    refused = ", ".join(f"{n} x {k}" for k, n in r["refused"].items()) or "none"
    closed = ", ".join(f"{n} x {k}" for k, n in r["closed"].items()) or "none"
    return (
        f"spectators [{r['store']}] {r['spectators']} x gameChanged {{ {r['selection']} }} "
        f"of one game ({r['open']} open in {r['open_s']:.1f} s, "
        f"{r['kib_per_spectator']:.1f} KiB each; refused: {refused}; closed: {closed}):\n"
        f"  {r['acts']} acts ({r['events_per_act']} events each), {r['pairs']} (act, spectator) "
        f"pairs, {r['missing_pairs']} missing, {r['timeouts']} timeouts\n"
        f"  act -> spectator holds it: p50 {r['push_p50_ms']} ms, p99 {r['push_p99_ms']} ms, "
        f"max {r['push_max_ms']} ms; last spectator per act p50 {r['last_spectator_p50_ms']} "
        f"ms; act answered p50 {r['act_answer_p50_ms']} ms\n"
        f"  server CPU per act {r['server_cpu_per_act_ms']} ms (with the read before it "
        f"{r['server_cpu_per_act_all_in_ms']} ms; server {r['server_cpu_pct']}% / driver "
        f"{r['driver_cpu_pct']}% of a core while acting)\n"
        f"  {r['pushes_per_spectator_act']} pushes per spectator per act; per act (events: "
        f"first/p50/last spectator ms, server CPU ms): "
        + ", ".join(
            f"{a['events']}: {a['first_ms']:.0f}/{a['p50_ms']:.0f}/{a['last_ms']:.0f} "
            f"{a['server_cpu_ms']}"
            for a in r["per_act"]
        )
    )


def load_line(r: dict[str, Any]) -> str:
    before, after = r["loadavg_1min"]
    return (
        f"  machine load (1-min average) {before} -> {after} on {os.cpu_count()} CPUs "
        "(other processes share them: latencies suffer first)"
    )


# -- the command line ------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--store", choices=("sqlite", "postgres"), default="sqlite")
    p.add_argument("--idle", type=int, default=10000, help="idle subscriptions (0: skip)")
    p.add_argument("--games", type=int, default=100, help="games the idle ones watch")
    p.add_argument(
        "--per-socket",
        default="10",
        help="idle subscriptions per websocket; a comma-separated list runs each (10,1)",
    )
    p.add_argument("--idle-seconds", type=float, default=60, help="the idle CPU's window")
    p.add_argument("--spectators", type=int, default=1000, help="spectators (0: skip)")
    p.add_argument(
        "--variant",
        default="state,view",
        help="spectator selections, comma-separated: state, view",
    )
    p.add_argument("--acts", type=int, default=30)
    p.add_argument("--open-concurrency", type=int, default=100, help="handshakes at a time")
    p.add_argument("--settle", type=float, default=3, help="seconds to wait after opening")
    p.add_argument("--keep-limits", action="store_true", help="the server's default limits")
    p.add_argument(
        "--baseline-seconds",
        type=float,
        default=10,
        help="seconds the server's CPU is measured before any subscriber",
    )
    p.add_argument(
        "--server-arg",
        action="append",
        default=[],
        help="one more option of papyrus serve (--server-arg=--websocket-ping-interval=60)",
    )
    p.add_argument("--nofile", type=int, default=65536, help="RLIMIT_NOFILE to ask for")
    p.add_argument("--json", action="store_true", help="one JSON line at the end")
    return p


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parser().parse_args(argv)
    soft, hard = raise_nofile(args.nofile)
    per_sockets = [int(n) for n in str(args.per_socket).split(",") if n]
    variants = [v for v in str(args.variant).split(",") if v]
    for variant in variants:
        if variant not in SELECTIONS:
            raise SystemExit(f"unknown variant {variant!r}: {', '.join(SELECTIONS)}")
    print(f"RLIMIT_NOFILE {soft}/{hard} (the server inherits it)", flush=True)
    result: dict[str, Any] = {"store": args.store, "nofile": soft, "idle": [], "spectators": []}
    if args.idle:
        for per_socket in per_sockets:
            sockets = math.ceil(args.idle / per_socket)
            extra = [*NO_RATE_LIMITS]
            if not args.keep_limits:
                extra += limits(sockets, args.idle, per_socket)
            extra += args.server_arg  # last: it wins
            print(f"idle: {args.idle} subscriptions, {per_socket} per socket", flush=True)
            with database(args.store) as url, server(url, extra) as (http_url, pid):
                load = os.getloadavg()[0]
                r = asyncio.run(idle_phase(args, http_url, pid, per_socket))
                r["loadavg_1min"] = [round(load, 2), round(os.getloadavg()[0], 2)]
            print(idle_line(r), load_line(r), sep="\n", flush=True)
            result["idle"].append(r)
    if args.spectators:
        for variant in variants:
            extra = (
                [*NO_RATE_LIMITS, *args.server_arg]
                if args.keep_limits
                else [
                    *NO_RATE_LIMITS,
                    *limits(args.spectators, args.spectators, 1),
                    *args.server_arg,
                ]
            )
            print(f"spectators: {args.spectators}, variant {variant}", flush=True)
            with database(args.store) as url, server(url, extra) as (http_url, pid):
                load = os.getloadavg()[0]
                s = asyncio.run(spectator_phase(args, http_url, pid, variant))
                s["loadavg_1min"] = [round(load, 2), round(os.getloadavg()[0], 2)]
            print(spectator_line(s), load_line(s), sep="\n", flush=True)
            result["spectators"].append(s)
    if args.json:
        print(json.dumps(result, separators=(",", ":")))
    return result


if __name__ == "__main__":
    main()
