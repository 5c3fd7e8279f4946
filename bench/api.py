"""Load benchmark: concurrent Imhotep games through the real GraphQL API (HTTP and websockets).

Starts ``papyrus serve`` in a subprocess on a free loopback port (SQLite in a temporary file, or
a fresh PostgreSQL database) and drives 4-player Imhotep games with random legal actions. Each
seat is its own player (its own token). Two shapes (``--shape``):

* ``poll`` (default): the seat to move reads the game with its legal actions over HTTP
  (``game { version status activeSeats legalActions }``), picks one, and sends ``act`` over HTTP
  with the version it read. Nobody else hears of the action: two requests per action.
* ``push`` (bench/push.py), the shape of boardgame.io's harness: each seat holds one websocket
  (``graphql-transport-ws``), subscribed to ``gameChanged`` of its game with its filtered
  ``state`` and ``legalActions``; the seat to move acts on what was pushed to it, sending ``act``
  over that socket (``--act-over http``: by HTTP POST), and the next mover is the seat whose push
  of the new version (V', from the act's answer) shows it may act: it moves once it holds that
  push and the answer is known. Every event of a command (about 2 per action) is pushed to all
  four seats. Also measured: the push latency, send to the moment the last of the four seats
  holds its push of V' (from the scheduled time in the open loop), and the pushes received per
  action. Unlike boardgame.io, the mover waits for its act's answer too (boardgame.io's client
  waits only for the pushed state, and the peer's latency is send to the mover's own push).
  The websockets are opened once per load generator (not measured); the server is started with
  ``--max-websockets-per-client`` above 4 per game (one loopback address holds every seat) and,
  without ``--rate-limits``, without subscription budgets.

Modes:

* ``closed`` (default): rounds of ``--games`` concurrent games, like boardgame.io's harness
  (``../shared/peers/boardgameio``): each round creates and seats its games (the lobby, not
  measured), then plays them until they are over or the play time (``--seconds``, summed over
  the rounds) is used up. A short unmeasured warm-up round comes first. Each game has one
  action in flight at a time, so this finds the server's saturation at that concurrency.
* ``open`` (``--rate R``): actions are sent at a fixed offered rate of R actions/s (over
  ``--games`` games in play, a finished game replaced by a new one), each ``act`` at its
  scheduled time; its latency is measured from that scheduled time (no coordinated omission:
  when the server falls behind, the wait for a game ready to act counts). The read before each
  act is made right after the previous act of that game, off the timed path (push: the wait for
  the next mover's push, likewise; a game is ready to act once its mover holds it).
* ``read``: the cost of reading a short (about 50 events) and a long (about 5,000 events) game,
  ``game { version view legalActions }``, each read alone, with the ratio.

Printed: actions/s, requests/s (reads + acts in the measured play; push: acts, and the lobby
of the open loop), p50/p99/p999 of ``act`` in ms, and the server's CPU per action: utime+stime
of the server processes (``/proc/<pid>/stat``, the process and its children) over the measured
play, divided by the actions; the push shape adds push p50/p99/p999, pushes per action (about 4
x events per action, both printed) and the games played to their end. ``--json`` adds one
machine-readable line per result (the last lines of the output; ``shape``, ``act_over``,
``push_p50_ms``, ``push_p99_ms``, ``push_p999_ms``, ``pushes_per_action``, and
``mover_push_p50_ms``/``p99``: send to the mover's own push, as boardgame.io times a move; the
push figures are null for poll).

    .venv/bin/python bench/api.py --store sqlite --games 32 --seconds 20
    .venv/bin/python bench/api.py --store postgres --games 8 --seconds 20 --json
    .venv/bin/python bench/api.py --store sqlite --games 32 --rate 100 --seconds 20
    .venv/bin/python bench/api.py --store sqlite --rate half --games 32 --seconds 20
    .venv/bin/python bench/api.py --store sqlite --mode read
    .venv/bin/python bench/api.py --store sqlite --shape push --games 8 --seconds 10
    .venv/bin/python bench/api.py --store postgres --shape push --act-over http --rate half

``--rate half`` runs the closed loop first and then the open loop at half its actions/s.
``--pin`` puts the server on CPU 0 and the load generator on CPU 1 (as the peer's harness).
Rate limits are off by default (one loopback address plays every seat; ``--rate-limits``
keeps the server's defaults). ``--profile DIR`` samples the server's threads
(bench/server_profile.py prints where its time went).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import multiprocessing
import os
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script
from bench.common import ROOT, start_server

ADMIN_URL = os.environ.get("PAPYRUS_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
TICK = os.sysconf("SC_CLK_TCK")
NO_RATE_LIMITS = (
    "--rate-mutations-per-player",
    "0",
    "--rate-mutations-per-address",
    "0",
    "--rate-registrations-per-address",
    "0",
)

READ = "query($g: ID!) { game(id: $g) { version status activeSeats legalActions } }"
ACT = (
    "mutation($g: ID!, $a: JSON!, $v: Int) { act(gameId: $g, action: $a, expectedVersion: $v) "
    "{ game { version status activeSeats } } }"
)
VIEW = "query($g: ID!) { game(id: $g) { version view { __typename } legalActions } }"
VIEW_FULL = "query($g: ID!) { game(id: $g) { version state legalActions } }"
REGISTER = "mutation($n: String!) { registerPlayer(name: $n) { token } }"
CREATE = (
    "mutation($o: JSON, $s: String) "
    "{ createGame(input: {kind: IMHOTEP, seats: 4, options: $o, seed: $s}) { id } }"
)
JOIN = "mutation($g: ID!, $s: Int) { joinGame(gameId: $g, seat: $s) { id } }"
UNDO = "mutation($g: ID!) { requestUndo(gameId: $g) { version } }"
JSON_HEADERS = {"Content-Type": "application/json"}


# -- the server's CPU, from /proc ----------------------------------------------------------


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (a server may run helper processes)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    tree, todo = [], [pid]
    while todo:
        current = todo.pop()
        tree.append(current)
        todo.extend(children.get(current, []))
    return tree


def cpu_seconds(pids: list[int]) -> float:
    """utime + stime of these processes and their descendants, in seconds."""
    total = 0
    for root in pids:
        for pid in process_tree(root):
            try:
                with open(f"/proc/{pid}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)
    return total / TICK


def rss_mib(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


# -- a lean GraphQL client -----------------------------------------------------------------


class Client:
    """One keep-alive connection pool; bodies are serialised once where they can be."""

    def __init__(self, session: aiohttp.ClientSession) -> None:
        self.session = session
        self.requests = 0

    async def call(self, body: bytes, headers: dict[str, str]) -> Any:
        self.requests += 1
        async with self.session.post("/graphql", data=body, headers=headers) as response:
            payload = json.loads(await response.read())
        if payload.get("errors"):
            raise RuntimeError(payload["errors"])
        return payload["data"]

    async def gql(self, query: str, variables: dict[str, Any], headers: dict[str, str]) -> Any:
        return await self.call(body(query, variables), headers)


def payload(query: str, variables: dict[str, Any]) -> dict[str, Any]:
    """A request's operation: by its id where the servers trust this bench's documents
    (``--documents id``, the default, as the web client and the SDKs send theirs), else the
    text."""
    if query in trusted_here():
        return {"documentId": document_id(query), "variables": variables}
    return {"query": query, "variables": variables}


def body(query: str, variables: dict[str, Any]) -> bytes:
    return json.dumps(payload(query, variables), separators=(",", ":")).encode()


def document_id(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


#: the environment variable that says how this run sends its documents (inherited by the
#: load generators' processes)
DOCUMENTS_VARIABLE = "PAPYRUS_BENCH_DOCUMENTS"


def bench_documents() -> list[str]:
    """Every document this bench sends (the push shape's too)."""
    from bench.push import JOIN as PUSH_JOIN
    from bench.push import SUBSCRIBE

    return [READ, ACT, VIEW, VIEW_FULL, REGISTER, CREATE, JOIN, UNDO, SUBSCRIBE, PUSH_JOIN]


_trusted: frozenset[str] | None = None


def trusted_here() -> frozenset[str]:
    global _trusted
    if _trusted is None:
        by_id = os.environ.get(DOCUMENTS_VARIABLE, "id") == "id"
        _trusted = frozenset(bench_documents()) if by_id else frozenset()
    return _trusted


@contextmanager
def documents_manifest(documents: str) -> Iterator[list[str]]:
    """The servers' arguments for ``--documents``: ``id``, this bench's documents trusted
    (``--trusted-documents``, a manifest written for the run) and sent by id; ``text``, sent
    as text (graphql-core executes them, as any client's documents the server does not know)."""
    os.environ[DOCUMENTS_VARIABLE] = documents
    global _trusted
    _trusted = None
    if documents != "id":
        yield []
        return
    with tempfile.TemporaryDirectory(prefix="papyrus-bench-documents-") as folder:
        manifest = Path(folder) / "trusted.json"
        manifest.write_text(json.dumps({document_id(d): d for d in bench_documents()}))
        yield ["--trusted-documents", str(manifest)]


def auth(token: str) -> dict[str, str]:
    return {**JSON_HEADERS, "Authorization": f"Bearer {token}"}


@dataclass
class Table:
    """One game slot: four seats (tokens) and the game they play now."""

    headers: list[dict[str, str]]
    rng: random.Random
    game_id: str = ""
    read_bodies: bytes = b""
    over: bool = True
    seat: int = 0
    action_body: bytes = b""


async def seat_players(client: Client, slot: int) -> Table:
    headers = []
    for seat in range(4):
        data = await client.gql(REGISTER, {"n": f"bench-{slot}-{seat}"}, JSON_HEADERS)
        headers.append(auth(data["registerPlayer"]["token"]))
    return Table(headers=headers, rng=random.Random(slot))


async def new_game(client: Client, table: Table) -> None:
    """A fresh 4-player game at this table, every seat joined (so it starts)."""
    data = await client.gql(CREATE, {"o": None, "s": None}, table.headers[0])
    table.game_id = str(data["createGame"]["id"])
    for seat in range(4):
        await client.gql(JOIN, {"g": table.game_id, "s": seat}, table.headers[seat])
    table.read_bodies = body(READ, {"g": table.game_id})
    table.over = False


async def prepare(client: Client, table: Table, active: list[int]) -> bool:
    """Read the game as a seat that must act and pick its action; False once it is over."""
    while active:
        seat = table.rng.choice(active)
        game = (await client.call(table.read_bodies, table.headers[seat]))["game"]
        if game["status"] != "ACTIVE":
            break
        if not game["legalActions"]:
            active = game["activeSeats"]
            continue
        action = table.rng.choice(game["legalActions"])
        table.seat = seat
        table.action_body = body(ACT, {"g": table.game_id, "a": action, "v": game["version"]})
        return True
    table.over = True
    return False


async def act(client: Client, table: Table) -> list[int]:
    """Send the prepared action; the seats that must act next ([] once the game is over)."""
    state = (await client.call(table.action_body, table.headers[table.seat]))["act"]["game"]
    return list(state["activeSeats"]) if state["status"] == "ACTIVE" else []


# -- the load-generating processes ---------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    """How the seats play: ``poll`` (read, then act, both over HTTP) or ``push`` (one websocket
    per seat, bench/push.py), whose acts go over that socket (``ws``) or by HTTP POST."""

    name: str = "poll"
    act_over: str = "http"

    @property
    def label(self) -> str:
        return self.name if self.name == "poll" else f"{self.name}/{self.act_over}"


@dataclass
class Shared:
    """What the coordinator tells the load generators before each round."""

    barrier: Any
    go: Any  # 0: stop, 1: a closed round, 2: an open round
    budget: Any  # seconds of play in this round
    measured: Any  # 1: keep this round's figures
    rate: Any  # actions/s offered by this generator (open rounds)


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    requests: int = 0
    games: int = 0
    late: int = 0  # open loop: scheduled actions not answered by the end
    driver_cpu: float = 0.0
    push_latencies: list[float] = field(default_factory=list)  # the push shape (bench/push.py)
    mover_push_latencies: list[float] = field(default_factory=list)
    pushes: int = 0
    events: int = 0
    finished: int = 0  # push: games played to their end

    def add(self, other: Figures) -> None:
        for name, value in vars(other).items():
            setattr(self, name, getattr(self, name) + value)


def driver_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def closed_round(client: Client, tables: list[Table], deadline: float, f: Figures) -> None:
    async def play(table: Table) -> None:
        active = [0, 1, 2, 3]
        while time.monotonic() < deadline and await prepare(client, table, active):
            started = time.perf_counter()
            active = await act(client, table)
            f.latencies.append(time.perf_counter() - started)
            f.actions += 1

    requests = client.requests
    await asyncio.gather(*(play(t) for t in tables))
    f.requests += client.requests - requests


async def open_round(
    client: Client, tables: list[Table], seconds: float, rate: float, f: Figures, phase: float
) -> None:
    ready: asyncio.Queue[Table] = asyncio.Queue()
    pending: set[asyncio.Task[None]] = set()
    requests_before = client.requests

    async def ready_up(table: Table, active: list[int]) -> None:
        if table.over:
            await new_game(client, table)
            f.games += 1
        while not await prepare(client, table, active):
            await new_game(client, table)  # a finished game is replaced (lobby in the load)
            f.games += 1
            active = [0, 1, 2, 3]
        ready.put_nowait(table)

    await asyncio.gather(*(ready_up(t, [0, 1, 2, 3]) for t in tables))
    sent = 0

    async def fire(scheduled: float) -> None:
        table = await ready.get()
        active = await act(client, table)
        f.latencies.append(time.perf_counter() - scheduled)
        f.actions += 1
        task = asyncio.create_task(ready_up(table, active))
        pending.add(task)
        task.add_done_callback(pending.discard)

    start = time.perf_counter() + phase / rate
    end = start + seconds
    interval = 1 / rate
    while True:
        scheduled = start + sent * interval
        if scheduled >= end:
            break
        delay = scheduled - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        task = asyncio.create_task(fire(scheduled))
        pending.add(task)
        task.add_done_callback(pending.discard)
        sent += 1
    grace = time.perf_counter() + 10
    while pending and time.perf_counter() < grace:
        await asyncio.sleep(0.01)
    for task in list(pending):
        task.cancel()
    f.late += sent - f.actions
    f.requests += client.requests - requests_before


class PollDriver:
    """The poll shape: the seat to move reads the game over HTTP, then acts over HTTP."""

    def __init__(self, client: Client, tables: list[Table]) -> None:
        self.client, self.tables = client, tables

    async def connect(self) -> None:
        pass

    async def lobby(self) -> None:
        for table in self.tables:
            await new_game(self.client, table)

    async def closed_round(self, deadline: float, f: Figures) -> None:
        await closed_round(self.client, self.tables, deadline, f)

    async def open_round(self, seconds: float, rate: float, f: Figures, phase: float) -> None:
        await open_round(self.client, self.tables, seconds, rate, f, phase)

    async def close(self) -> None:
        pass


async def generate(
    url: str, first: int, games: int, shared: Shared, out: Any, index: int, shape: Shape
) -> None:
    connector = aiohttp.TCPConnector(limit=games * 2 + 2)
    timeout = aiohttp.ClientTimeout(total=120)
    kept = Figures()
    async with aiohttp.ClientSession(url, connector=connector, timeout=timeout) as session:
        client = Client(session)
        tables = [await seat_players(client, slot) for slot in range(first, first + games)]
        driver: Any = PollDriver(client, tables)
        if shape.name == "push":
            from bench.push import PushDriver

            driver = PushDriver(client, tables, url, shape.act_over)
        await driver.connect()  # push: one websocket per seat (not measured)
        while True:
            if shared.go.value == 1:  # a closed round: its lobby, not measured
                await driver.lobby()
            shared.barrier.wait()  # A: the coordinator samples the server's CPU
            go, budget, measured = shared.go.value, shared.budget.value, shared.measured.value
            if not go:
                break
            f = Figures()
            cpu = driver_cpu()
            if go == 1:
                await driver.closed_round(time.monotonic() + budget, f)
            else:
                await driver.open_round(budget, shared.rate.value, f, index / 7)
            f.driver_cpu = driver_cpu() - cpu
            shared.barrier.wait()  # B: the round is over everywhere
            if measured:
                f.games += len(tables) if go == 1 else 0
                kept.add(f)
        await driver.close()
    out.put(vars(kept))


def generator_process(
    url: str,
    first: int,
    games: int,
    shared: Shared,
    out: Any,
    index: int,
    cpu: int | None,
    shape: Shape,
) -> None:
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})
    try:
        asyncio.run(generate(url, first, games, shared, out, index, shape))
    except BaseException:
        shared.barrier.abort()  # the coordinator stops waiting (its traceback follows this one)
        raise


def signal_all(pids: list[int], signum: int) -> None:
    for pid in pids:
        os.kill(pid, signum)


def quantile(ordered: list[float], q: float) -> float:
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, int(len(ordered) * q + 0.5) - 1))]


def drive(
    urls: list[str],
    pids: list[int],
    games: int,
    seconds: float,
    clients: int,
    rate: float | None,
    warmup: float,
    driver_cpu_index: int | None,
    profiling: bool = False,
    shape: Shape = Shape(),
) -> dict[str, Any]:
    """Rounds of play over ``clients`` generator processes; the figures of the measured ones."""
    ctx = multiprocessing.get_context("fork")
    clients = max(1, min(clients, games))
    shared = Shared(
        barrier=ctx.Barrier(clients + 1),
        go=ctx.Value("i", 1),
        budget=ctx.Value("d", warmup),
        measured=ctx.Value("i", 0),
        rate=ctx.Value("d", (rate or 1) / clients),
    )
    out = ctx.Queue()
    shares = [games // clients + (1 if i < games % clients else 0) for i in range(clients)]
    firsts = [sum(shares[:i]) for i in range(clients)]
    workers = [
        ctx.Process(
            target=generator_process,
            args=(urls[i % len(urls)], f, n, shared, out, i, driver_cpu_index, shape),
            daemon=True,
        )
        for i, (f, n) in enumerate(zip(firsts, shares, strict=True))
    ]
    for worker in workers:
        worker.start()
    played = cpu = 0.0
    rounds = 0
    try:
        if warmup > 0:  # round 0: warm-up, closed loop, not measured
            shared.barrier.wait()
            shared.barrier.wait()
        while played < seconds - 0.05:
            shared.go.value = 2 if rate else 1
            shared.budget.value = seconds - played
            shared.measured.value = 1
            shared.barrier.wait()
            if profiling and not rounds:
                signal_all(pids, signal.SIGUSR1)  # bench/server_profile.py: samples start
            started, cpu_started = time.monotonic(), cpu_seconds(pids)
            shared.barrier.wait()
            played += time.monotonic() - started
            cpu += cpu_seconds(pids) - cpu_started
            rounds += 1
            if rate:
                break
        memory = rss_mib(pids)
        if profiling:
            signal_all(pids, signal.SIGUSR2)  # samples stop
        shared.go.value = 0
        shared.barrier.wait()
        parts = [out.get(timeout=60) for _ in workers]
    except BaseException:
        shared.barrier.abort()
        raise
    finally:
        for worker in workers:
            worker.join(timeout=10)
            if worker.is_alive():
                worker.kill()
    total = Figures()
    for part in parts:
        total.add(Figures(**part))
    latencies = sorted(total.latencies)
    pushed = sorted(total.push_latencies)
    own = sorted(total.mover_push_latencies)
    actions, requests = total.actions, total.requests
    push = shape.name == "push"

    def ms(values: list[float], q: float) -> float | None:
        return 1000 * quantile(values, q) if push else None

    return {
        "mode": "open" if rate else "closed",
        "shape": shape.name,
        "act_over": shape.act_over,
        "games": games,
        "rounds": rounds,
        "offered_rate": rate,
        "actions": actions,
        "requests": requests,
        "games_played": total.games,
        "late": total.late,
        "seconds": played,
        "actions_per_s": actions / played if played else 0.0,
        "requests_per_s": requests / played if played else 0.0,
        "p50_ms": 1000 * quantile(latencies, 0.50),
        "p99_ms": 1000 * quantile(latencies, 0.99),
        "p999_ms": 1000 * quantile(latencies, 0.999),
        "server_cpu_s": cpu,
        "server_cpu_ms_per_action": 1000 * cpu / actions if actions else float("nan"),
        "server_cpu_percent": 100 * cpu / played if played else 0.0,
        "server_rss_mib": memory,
        "driver_cpu_percent": 100 * total.driver_cpu / played if played else 0.0,
        "push_p50_ms": ms(pushed, 0.50),
        "push_p99_ms": ms(pushed, 0.99),
        "push_p999_ms": ms(pushed, 0.999),
        "mover_push_p50_ms": ms(own, 0.50),
        "mover_push_p99_ms": ms(own, 0.99),
        "push_measured": len(pushed) if push else None,
        "pushes": total.pushes if push else None,
        "pushes_per_action": total.pushes / actions if push and actions else None,
        "events_per_action": total.events / actions if push and actions else None,
        "games_finished": total.finished if push else None,
    }


# -- reading cost: a short and a long game -------------------------------------------------


LONG_ACT = (
    "mutation($g: ID!, $a: JSON!, $v: Int) { act(gameId: $g, action: $a, expectedVersion: $v) "
    "{ game { version status legalActions } } }"
)
LONG_UNDO = (
    "mutation($g: ID!, $t: Int) { requestUndo(gameId: $g, toVersion: $t) "
    "{ version status legalActions } }"
)


async def build_long_game(
    client: Client, events: int, batch: int = 3
) -> tuple[str, dict[str, str], int]:
    """A 2-seat Imhotep game held by one player, grown to about ``events`` log entries.

    A game alone is about 180 entries, so the log is grown with undo: ``batch`` actions, then
    one ``requestUndo`` back to before them (one's own actions go back at once; undone entries
    stay in the log, marked). An undo across a random draw or a reveal is refused: those actions
    then stay and the game moves on, so a game may end before ``events`` (the length reached is
    what is reported). Seeded, hence unranked, so undo is allowed.
    """
    data = await client.gql(REGISTER, {"n": "bench-long"}, JSON_HEADERS)
    headers = auth(data["registerPlayer"]["token"])
    created = await client.gql(
        CREATE.replace("seats: 4", "seats: 2"), {"o": None, "s": f"long-{events}"}, headers
    )
    game_id = str(created["createGame"]["id"])
    for seat in range(2):
        await client.gql(JOIN, {"g": game_id, "s": seat}, headers)
    rng = random.Random(events)
    game = (await client.call(body(READ, {"g": game_id}), headers))["game"]
    start = game["version"]
    done = 0
    while game["version"] < events and game["status"] == "ACTIVE" and game["legalActions"]:
        action = rng.choice(game["legalActions"])
        variables = {"g": game_id, "a": action, "v": game["version"]}
        game = (await client.gql(LONG_ACT, variables, headers))["act"]["game"]
        done += 1
        if done < min(batch, max(1, events - game["version"])) and game["status"] == "ACTIVE":
            continue
        target = start
        for _ in range(2):
            try:
                undone = await client.gql(LONG_UNDO, {"g": game_id, "t": target}, headers)
                game = undone["requestUndo"]
                break
            except RuntimeError as error:
                # a random draw or a reveal in the batch: back to just after it, if anything is
                # left to take back (else these actions stay and the game moves on)
                found = re.search(r"earliest version to go back to is (\d+)", str(error))
                if not found or int(found.group(1)) >= game["version"]:
                    break
                target = int(found.group(1))
        start, done = game["version"], 0
    game = (await client.call(body(READ, {"g": game_id}), headers))["game"]
    return game_id, headers, int(game["version"])


async def time_reads(
    client: Client, game_id: str, headers: dict[str, str], reads: int, query: str
) -> list[float]:
    request = body(query, {"g": game_id})
    await client.call(request, headers)  # first read: may fill a cache
    times = []
    for _ in range(reads):
        started = time.perf_counter()
        await client.call(request, headers)
        times.append(time.perf_counter() - started)
    return times


async def reading(url: str, pids: list[int], short: int, long: int, reads: int) -> dict[str, Any]:
    async with aiohttp.ClientSession(url, timeout=aiohttp.ClientTimeout(total=600)) as session:
        client = Client(session)
        built = time.monotonic()
        games = {"short": await build_long_game(client, short)}
        games["long"] = await build_long_game(client, long)
        build_seconds = time.monotonic() - built
        result: dict[str, Any] = {"mode": "read", "build_s": build_seconds, "reads": reads}
        for label, (game_id, headers, version) in games.items():
            for name, query in (("view", VIEW), ("state", VIEW_FULL)):
                cpu = cpu_seconds(pids)
                times = sorted(await time_reads(client, game_id, headers, reads, query))
                cpu = cpu_seconds(pids) - cpu
                result[f"{label}_events"] = version
                result[f"{label}_{name}_p50_ms"] = 1000 * statistics.median(times)
                result[f"{label}_{name}_p99_ms"] = 1000 * quantile(times, 0.99)
                result[f"{label}_{name}_cpu_ms"] = 1000 * cpu / (reads + 1)
        for name in ("view", "state"):
            result[f"ratio_{name}_p50"] = (
                result[f"long_{name}_p50_ms"] / result[f"short_{name}_p50_ms"]
            )
            result[f"ratio_{name}_cpu"] = (
                result[f"long_{name}_cpu_ms"] / result[f"short_{name}_cpu_ms"]
                if result[f"short_{name}_cpu_ms"]
                else float("nan")
            )
        return result


# -- the store and the server --------------------------------------------------------------


@contextmanager
def database(store: str) -> Iterator[str]:
    """A fresh database URL for one run; dropped (PostgreSQL) or deleted (SQLite) after."""
    if store == "sqlite":
        with tempfile.TemporaryDirectory(prefix="papyrus-bench-") as folder:
            yield f"sqlite:///{folder}/bench.sqlite"
        return
    import psycopg

    name = f"papyrus_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def servers(
    database_url: str,
    count: int,
    extra: list[str],
    pin: bool,
    profile: str | None,
    projections_process: bool = False,
) -> Iterator[tuple[list[str], list[int]]]:
    """``count`` servers; with ``projections_process``, deploy/compose.yaml's shape: the
    servers run ``--no-projections`` and one ``papyrus projections run`` process keeps the read
    models (its pid is among those returned: its CPU counts as the servers' does)."""
    env = None
    if profile:
        Path(profile).mkdir(parents=True, exist_ok=True)
        env = {"PAPYRUS_BENCH_PROFILE": profile}
    started = []
    helpers: list[subprocess.Popen[bytes]] = []
    if projections_process:
        extra = ["--no-projections", *extra]
        helpers.append(
            subprocess.Popen(
                [*PROJECTIONS_RUN, "--database-url", database_url],
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                preexec_fn=(lambda: os.sched_setaffinity(0, {0})) if pin else None,
            )
        )
    try:
        for _ in range(count):
            if profile:
                started.append(profiled_server(database_url, extra, pin, env or {}))
            else:
                started.append(
                    start_server(database_url, *extra, cpus={0} if pin else None, env=env)
                )
        pids = [process.pid for process, _ in started] + [h.pid for h in helpers]
        yield [url for _, url in started], pids
    finally:
        for process in [p for p, _ in started] + helpers:
            process.terminate()
            try:
                process.wait(timeout=30)
            except Exception:
                process.kill()


def profiled_server(database_url: str, extra: list[str], pin: bool, env: dict[str, str]) -> Any:
    """``papyrus serve`` with a sampling profiler (bench/server_profile.py), written on SIGTERM."""
    return start_server(
        database_url,
        *extra,
        cpus={0} if pin else None,
        env=env,
        program=(str(ROOT / "bench" / "server_profile.py"),),
        ready_seconds=60,
    )


PROJECTIONS_RUN = (sys.executable, "-m", "service.cli", "projections", "run")


def line(store: str, servers_: int, f: dict[str, Any]) -> str:
    if f["mode"] == "read":
        return (
            f"{store:8s} read  short={f['short_events']} events: view p50 "
            f"{f['short_view_p50_ms']:.2f} ms ({f['short_view_cpu_ms']:.2f} ms CPU), "
            f"state p50 {f['short_state_p50_ms']:.2f} ms  |  long={f['long_events']} events: "
            f"view p50 {f['long_view_p50_ms']:.2f} ms ({f['long_view_cpu_ms']:.2f} ms CPU), "
            f"state p50 {f['long_state_p50_ms']:.2f} ms  |  ratio long/short: view "
            f"{f['ratio_view_p50']:.2f} (CPU {f['ratio_view_cpu']:.2f}), state "
            f"{f['ratio_state_p50']:.2f}"
        )
    offered = f" offered={f['offered_rate']:.0f}/s late={f['late']}" if f["mode"] == "open" else ""
    shape = Shape(f.get("shape", "poll"), f.get("act_over", "http"))
    pushed = ""
    if shape.name == "push":
        pushed = (
            f"  push p50={f['push_p50_ms']:.1f} p99={f['push_p99_ms']:.1f} "
            f"p999={f['push_p999_ms']:.1f} ms  {f['pushes_per_action'] or 0:.2f} pushes/action "
            f"({f['events_per_action'] or 0:.2f} events/action, {f['games_finished']} games over)"
        )
    return (
        f"{store:8s} {f['mode']:6s} {shape.label:9s} servers={servers_} games={f['games']:3d}"
        f"{offered} "
        f"actions={f['actions']:6d} in {f['seconds']:.1f}s  {f['actions_per_s']:7.1f} actions/s "
        f"{f['requests_per_s']:7.1f} req/s  act p50={f['p50_ms']:.1f} p99={f['p99_ms']:.1f} "
        f"p999={f['p999_ms']:.1f} ms  server CPU {f['server_cpu_ms_per_action']:.2f} ms/action "
        f"({f['server_cpu_percent']:.0f}% of a core, RSS {f['server_rss_mib']:.0f} MiB)  "
        f"driver {f['driver_cpu_percent']:.0f}%{pushed}"
    )


def run(args: argparse.Namespace, store: str, emit: Callable[[str], None]) -> list[dict[str, Any]]:
    extra = [] if args.rate_limits else list(NO_RATE_LIMITS)
    shape = Shape(args.shape, args.act_over if args.shape == "push" else "http")
    if shape.name == "push":
        from bench.push import server_args

        extra += server_args(args.games, args.rate_limits)
    extra += args.server_arg or []
    results: list[dict[str, Any]] = []
    separate = args.projections_process == "on"  # the read models in their own process
    if separate and args.profile:  # the profiler's signals would stop that process
        raise SystemExit("--profile samples the servers only: add --projections-process off")
    with (
        documents_manifest(args.documents) as trusting,
        database(store) as url,
        servers(url, args.servers, [*extra, *trusting], args.pin, args.profile, separate) as (
            urls,
            pids,
        ),
    ):
        if args.mode == "read":
            figures = asyncio.run(reading(urls[0], pids, args.short, args.long, args.reads))
            figures.update(
                store=store,
                servers=args.servers,
                projections_process=separate,
                documents=args.documents,
            )
            emit(line(store, args.servers, figures))
            return [figures]
        rate: float | None = None
        if args.rate not in (None, "half"):
            rate = float(args.rate)
        plan: list[float | None] = [rate]
        if args.rate == "half":
            plan = [None, None]  # the closed loop, then the open loop at half of it
        for step, wanted in enumerate(plan):
            if args.rate == "half" and step == 1:
                wanted = results[0]["actions_per_s"] / 2
            figures = drive(
                urls,
                pids,
                args.games,
                args.seconds,
                args.clients,
                wanted,
                args.warmup,
                1 if args.pin else None,
                profiling=bool(args.profile),
                shape=shape,
            )
            figures.update(
                store=store,
                servers=args.servers,
                projections_process=separate,
                documents=args.documents,
            )
            emit(line(store, args.servers, figures))
            results.append(figures)
    return results


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--store", choices=["sqlite", "postgres", "both"], default="both")
    p.add_argument("--mode", choices=["closed", "open", "read"], default=None)
    p.add_argument("--games", type=int, default=32, help="concurrent games")
    p.add_argument("--seconds", type=float, default=20, help="measured play time")
    p.add_argument(
        "--rate",
        default=None,
        help="open loop: offered actions/s over all games, or 'half' (half the closed loop's)",
    )
    p.add_argument(
        "--shape",
        choices=["poll", "push"],
        default="poll",
        help="poll: read then act over HTTP; push: one websocket per seat (bench/push.py)",
    )
    p.add_argument(
        "--act-over",
        choices=["ws", "http"],
        default="ws",
        help="push shape: send act over the seat's websocket (ws) or by HTTP POST",
    )
    p.add_argument("--warmup", type=float, default=3, help="unmeasured warm-up play, seconds")
    p.add_argument("--clients", type=int, default=1, help="load-generating processes")
    p.add_argument("--servers", type=int, default=1, help="server processes on the one database")
    p.add_argument("--pin", action="store_true", help="server on CPU 0, load generator on CPU 1")
    p.add_argument(
        "--rate-limits", action="store_true", help="keep the server's default rate limits"
    )
    p.add_argument(
        "--server-arg", action="append", help="one more argument for papyrus serve (repeat)"
    )
    p.add_argument("--short", type=int, default=50, help="read mode: events of the short game")
    p.add_argument("--long", type=int, default=5000, help="read mode: events of the long game")
    p.add_argument("--reads", type=int, default=200, help="read mode: reads of each game")
    p.add_argument(
        "--profile",
        metavar="DIR",
        help="sample the server's stacks into DIR (bench/server_profile.py DIR)",
    )
    p.add_argument(
        "--projections-process",
        choices=["on", "off"],
        default="off",
        help="the servers run --no-projections and a `papyrus projections run` process keeps "
        "the read models, its CPU counted with the servers' (off: each server keeps them, the "
        "default of papyrus serve and deploy/compose.yaml)",
    )
    p.add_argument(
        "--documents",
        choices=["id", "text"],
        default="id",
        help="send the bench's documents by id, trusted by the servers (--trusted-documents; "
        "their queries and mutations run by compiled plans), or as text (graphql-core)",
    )
    p.add_argument("--json", action="store_true", help="one JSON line per result")
    return p


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    args = parser().parse_args(argv)
    if args.mode is None:
        args.mode = "open" if args.rate else "closed"
    if args.mode == "open" and not args.rate:
        parser().error("--mode open needs --rate")
    if args.mode == "read" and args.shape != "poll":
        parser().error("--mode read reads over HTTP: no --shape push")
    if args.rate not in (None, "half"):
        try:
            if float(args.rate) <= 0:
                raise ValueError
        except ValueError:
            parser().error("--rate takes a positive number of actions/s or 'half'")
    stores = ["sqlite", "postgres"] if args.store == "both" else [args.store]
    results: list[dict[str, Any]] = []
    for store in stores:
        results += run(args, store, lambda text: print(text, flush=True))
    if args.json:
        for figures in results:
            print(json.dumps(figures, sort_keys=True), flush=True)
    return results


if __name__ == "__main__":
    # run the module's copy that bench/push.py imports (one Figures class, not two)
    from bench.api import main as entry

    entry()
