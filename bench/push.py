"""The push shape of bench/api.py (``--shape push``): every seat holds one websocket and plays
from what the server pushes to it, as boardgame.io's harness does (../shared/peers/boardgameio).

Each seat of a table opens ONE websocket (``graphql-transport-ws`` on ``/graphql``, its token in
``connection_init``) when the load generator starts (not measured), and keeps it for every game
played at that table. For each game, every seat subscribes on its socket to
``gameChanged(gameId, afterVersion: V0 - 1)`` with ``version status activeSeats state
legalActions`` (``state``: the seat's filtered view, like the peer's pushed state), V0 being the
game's version once the last seat joined: the server pushes the change at V0 first, then every
later event. A finished game's subscription is completed by the server; an abandoned one (the end
of a closed round) by the client.

The seat to move acts on what was pushed to it: a random one of its ``legalActions``, sent as
``act(gameId, action, expectedVersion)`` over its own socket (a ``subscribe`` message carrying
the mutation: the server answers one ``next`` with the result, then ``complete``), or by HTTP
POST with ``--act-over http`` (the pushes still come by socket). The answer,
``act { game { version status activeSeats } }``, gives V', the version after the whole command
(one command may record several events, each pushed to every seat). The next mover is a seat of
the answer's ``activeSeats`` whose own push at V' shows legal actions; it acts once it holds that
push and the answer is known (so the mover also waits for its act's answer, which boardgame.io's
client does not have: its mover waits only for the pushed state). Status not ACTIVE at V' is the
end of the game: a new one starts at that table (in the next round in the closed loop, at once in
the open loop, as the poll shape does).

Measured per action: ``act`` latency (send to answer) and push latency (send to the moment the
last of the four seats holds its push of version >= V'); in the open loop both from the scheduled
time instead of the send. Also kept (in ``--json`` only, ``mover_push_*``): send to the moment
the mover's own socket holds its push of V', the closest figure to boardgame.io's move latency.
Pushes received are counted (about 4 x the events per command), and the events per command (V'
minus the version acted on). Imhotep hides no log entry from any seat,
so every seat numbers the log alike (``service.app.numbering``); a seat whose final version
differs from the mover's is reported as an error, as are a push not received within
``PUSH_TIMEOUT`` seconds, a refused subscription or act, and a socket the server closes.
"""

from __future__ import annotations

import asyncio
import json
import time
from bisect import bisect_left
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import aiohttp

from bench.api import ACT, CREATE, Client, Figures, Table, body, payload

SUBSCRIBE = (
    "subscription($g: ID!, $a: Int) { gameChanged(gameId: $g, afterVersion: $a) "
    "{ version status activeSeats state legalActions } }"
)
JOIN = (
    "mutation($g: ID!, $s: Int) { joinGame(gameId: $g, seat: $s) { version status activeSeats } }"
)
PROTOCOL = "graphql-transport-ws"
PUSH_TIMEOUT = 60.0  # seconds a push (or an act's answer) may take before it is an error
PONG = json.dumps({"type": "pong"})
T = TypeVar("T")


def server_args(games: int, rate_limits: bool) -> list[str]:
    """``papyrus serve`` arguments for this shape: one loopback address holds every seat's
    socket (4 per game, past the default of 50 per client address), and the subscription
    budgets are rate limits (off unless ``--rate-limits``)."""
    extra = ["--max-websockets-per-client", str(max(50, 4 * games + 16))]
    if not rate_limits:
        extra += [
            "--subscription-budget-per-connection=0",
            "--subscription-budget-per-address=0",
            "--subscription-budget-total=0",
        ]
    return extra


class PushError(RuntimeError):
    """The server refused, dropped or did not push something the bench waits for."""


class Seat:
    """One seat's websocket: its reader keeps the pushes of the table's current game."""

    def __init__(self, table: PushTable, index: int, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.table, self.index, self.ws = table, index, ws
        self.sub = ""  # the id of the current game's subscription
        self.versions: list[int] = []  # versions pushed for the current game, ascending
        self.times: list[float] = []  # when each arrived (perf_counter)
        self.latest: dict[str, Any] | None = None
        self.acts: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.closing = False
        self.reader: asyncio.Task[None] | None = None

    def reset(self, sub: str) -> None:
        self.sub, self.versions, self.times, self.latest = sub, [], [], None

    def arrival(self, version: int) -> float | None:
        """When this seat first held a push of ``version`` or later (None: not yet)."""
        at = bisect_left(self.versions, version)
        return self.times[at] if at < len(self.times) else None

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send_str(json.dumps(message, separators=(",", ":")))

    async def read(self) -> None:
        reason = "closed"
        try:
            async for message in self.ws:
                if message.type != aiohttp.WSMsgType.TEXT:
                    reason = f"{message.type.name} {message.data!r}"
                    continue
                now = time.perf_counter()
                frame = json.loads(message.data)
                kind, key = frame.get("type"), frame.get("id")
                if kind == "next":
                    if key == self.sub:
                        self.pushed(frame["payload"], now)
                    elif key in self.acts:
                        future = self.acts[key]
                        if not future.done():
                            future.set_result(frame["payload"])
                    # else: a push of a game this table left (its subscription is completing)
                elif kind == "complete":
                    act = self.acts.pop(key, None)
                    if act is not None and not act.done():
                        act.set_exception(PushError(f"act {key}: complete without an answer"))
                elif kind == "error":
                    error = PushError(f"seat {self.index}: operation {key} refused: {frame}")
                    act = self.acts.pop(key, None)
                    if act is not None:
                        if not act.done():
                            act.set_exception(error)
                    elif key == self.sub:
                        self.table.fail(error)
                elif kind == "ping":
                    await self.ws.send_str(PONG)
        except Exception as failed:  # reported to whoever waits on this table
            reason = repr(failed)
        finally:
            if not self.closing:
                closed = PushError(
                    f"seat {self.index}: the server closed the websocket "
                    f"(code {self.ws.close_code}, {reason}, {self.ws.exception()!r})"
                )
                self.table.fail(closed)
                for act in self.acts.values():
                    if not act.done():
                        act.set_exception(closed)

    def pushed(self, payload: dict[str, Any], now: float) -> None:
        if payload.get("errors") or not payload.get("data"):
            self.table.fail(PushError(f"seat {self.index}: push with errors: {payload}"))
            return
        change = payload["data"]["gameChanged"]
        version = int(change["version"])
        if self.versions and version <= self.versions[-1]:
            self.table.fail(PushError(f"seat {self.index}: version {version} pushed again"))
            return
        self.versions.append(version)
        self.times.append(now)
        self.latest = change
        if version > self.table.start:
            self.table.driver.pushes += 1
        self.table.wake()


class PushTable:
    """A table's four sockets, the game it plays now and where that game stands."""

    def __init__(self, base: Table, driver: PushDriver) -> None:
        self.base, self.driver = base, driver
        self.seats: list[Seat] = []
        self.changed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.error: BaseException | None = None
        self.start = 0  # the game's version once seated (V0)
        self.target = 0  # the version after the last command (V')
        self.status = "OVER"
        self.active: list[int] = []
        self.order: list[int] = []  # ``active`` in the order the next mover is looked for
        self.over = True
        self.seat = 0  # the prepared action: who sends it, what, on which version
        self.action: Any = None
        self.expected = 0
        self.measures: list[asyncio.Task[None]] = []

    def wake(self) -> None:
        woken, self.changed = self.changed, asyncio.get_running_loop().create_future()
        if not woken.done():
            woken.set_result(None)

    def fail(self, error: BaseException) -> None:
        if self.error is None:
            self.error = error
        self.wake()

    async def wait(self, ready: Callable[[], T | None], what: str) -> T:
        """The first non-None ``ready()``, checked after every push to this table."""
        deadline = time.monotonic() + PUSH_TIMEOUT
        while True:
            if self.error is not None:
                raise self.error
            found = ready()
            if found is not None:
                return found
            left = deadline - time.monotonic()
            if left <= 0:
                held = {s.index: s.versions[-1] if s.versions else None for s in self.seats}
                raise PushError(
                    f"game {self.base.game_id}: no {what} within {PUSH_TIMEOUT:.0f} s "
                    f"(latest version pushed to each seat: {held})"
                )
            await asyncio.wait((self.changed,), timeout=left)

    def everyone(self, version: int) -> float | None:
        """When the last seat came to hold a push of ``version`` or later."""
        latest = 0.0
        for seat in self.seats:
            at = seat.arrival(version)
            if at is None:
                return None
            latest = max(latest, at)
        return latest

    def mover(self) -> tuple[int, dict[str, Any]] | None:
        """A seat of ``active`` whose push at ``target`` shows it may act (None: not yet)."""
        waiting = False
        for index in self.order:
            change = self.seats[index].latest
            if change is None or change["version"] < self.target:
                waiting = True
            elif index in change["activeSeats"] and change["legalActions"]:
                return index, change
        if waiting:
            return None
        if self.everyone(self.target) is None:  # none of ``active`` may act: anybody else?
            return None
        for seat in self.seats:
            change = seat.latest
            if change and seat.index in change["activeSeats"] and change["legalActions"]:
                return seat.index, change
        raise PushError(
            f"game {self.base.game_id}: no seat may act at version {self.target} "
            f"(active {self.active})"
        )


class PushDriver:
    """The push shape for one load generator: its tables, their sockets, their rounds."""

    def __init__(self, client: Client, tables: list[Table], url: str, act_over: str) -> None:
        self.client, self.url, self.act_over = client, url, act_over
        self.bases = tables
        self.tables: list[PushTable] = []
        self.session: aiohttp.ClientSession | None = None
        self.pushes = 0
        self.acts = 0  # acts sent over a socket (HTTP ones are counted by the client)
        self.events = 0
        self.finished = 0  # games played to their end
        self.ids = 0

    def next_id(self, prefix: str) -> str:
        self.ids += 1
        return f"{prefix}{self.ids}"

    async def connect(self) -> None:
        """One websocket per seat, authenticated (not measured)."""
        self.session = aiohttp.ClientSession(
            self.url,
            connector=aiohttp.TCPConnector(limit=0),
            timeout=aiohttp.ClientTimeout(total=None, sock_connect=30),
        )
        self.tables = [PushTable(base, self) for base in self.bases]
        await asyncio.gather(*(self.open_seats(table) for table in self.tables))

    async def open_seats(self, table: PushTable) -> None:
        assert self.session is not None
        for index, headers in enumerate(table.base.headers):
            ws = await self.session.ws_connect("/graphql", protocols=(PROTOCOL,), max_msg_size=0)
            token = headers["Authorization"]
            init = {"type": "connection_init", "payload": {"authorization": token}}
            await ws.send_str(json.dumps(init))
            ack = json.loads(await asyncio.wait_for(ws.receive_str(), PUSH_TIMEOUT))
            if ack.get("type") != "connection_ack":
                raise PushError(f"seat {index}: no connection_ack but {ack}")
            seat = Seat(table, index, ws)
            seat.reader = asyncio.create_task(seat.read())
            table.seats.append(seat)

    async def close(self) -> None:
        for table in self.tables:
            for seat in table.seats:
                seat.closing = True
                await seat.ws.close()
            for seat in table.seats:
                if seat.reader is not None:
                    await seat.reader
        if self.session is not None:
            await self.session.close()

    async def lobby(self) -> None:
        """A new game at every table (a closed round's lobby)."""
        await asyncio.gather(*(self.new_game(table) for table in self.tables))

    async def new_game(self, table: PushTable) -> None:
        """A fresh 4-player game at this table, every seat joined and subscribed, and every
        seat holding its first push (the game's version once seated)."""
        if table.measures:
            await asyncio.gather(*table.measures)  # the last game's final pushes
            table.measures.clear()
        for seat in table.seats:
            if seat.sub and seat.latest is not None and seat.latest["status"] == "ACTIVE":
                await seat.send({"id": seat.sub, "type": "complete"})  # an abandoned game
        headers = table.base.headers
        created = await self.client.gql(CREATE, {"o": None, "s": None}, headers[0])
        game_id = str(created["createGame"]["id"])
        for index in range(4):
            game = await self.client.gql(JOIN, {"g": game_id, "s": index}, headers[index])
        state = game["joinGame"]
        table.base.game_id = game_id
        table.start = table.target = int(state["version"])
        table.status, table.active = state["status"], list(state["activeSeats"])
        variables = {"g": game_id, "a": table.start - 1}
        for seat in table.seats:
            seat.reset(self.next_id("g"))
            message = payload(SUBSCRIBE, variables)
            await seat.send({"id": seat.sub, "type": "subscribe", "payload": message})
        await table.wait(lambda: table.everyone(table.start), f"first push at {table.start}")
        table.over = table.status != "ACTIVE"

    async def prepare(self, table: PushTable) -> bool:
        """Wait for the next mover's push at V' and pick its action; False once it is over."""
        if table.status != "ACTIVE":
            if not table.over:
                self.finished += 1
            table.over = True
            return False
        rng = table.base.rng
        table.order = rng.sample(table.active, len(table.active))
        found = await table.wait(table.mover, f"push at {table.target} to a seat that may act")
        table.seat, change = found
        table.action = rng.choice(change["legalActions"])
        table.expected = int(change["version"])
        return True

    async def act(self, table: PushTable) -> float:
        """Send the prepared action; the time its answer came. Sets V' and who acts next."""
        variables = {"g": table.base.game_id, "a": table.action, "v": table.expected}
        if self.act_over == "ws":
            seat = table.seats[table.seat]
            key = self.next_id("a")
            answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            seat.acts[key] = answer
            message = payload(ACT, variables)
            await seat.send({"id": key, "type": "subscribe", "payload": message})
            self.acts += 1
            try:
                answered_with = await asyncio.wait_for(answer, PUSH_TIMEOUT)
            finally:
                seat.acts.pop(key, None)
            if answered_with.get("errors"):
                raise PushError(f"act refused: {answered_with['errors']}")
            game = answered_with["data"]["act"]["game"]
        else:
            headers = table.base.headers[table.seat]
            game = (await self.client.call(body(ACT, variables), headers))["act"]["game"]
        answered = time.perf_counter()
        table.target = int(game["version"])
        table.status, table.active = game["status"], list(game["activeSeats"])
        self.events += table.target - table.expected
        return answered

    async def measure(
        self, table: PushTable, mover: int, version: int, final: bool, started: float, f: Figures
    ) -> None:
        """Push latency: ``started`` to the moment the last seat holds its push at V' (and to
        the moment the mover holds its own, boardgame.io's measure of a move)."""
        done = await table.wait(lambda: table.everyone(version), f"push at {version} to all")
        f.push_latencies.append(done - started)
        own = table.seats[mover].arrival(version)
        assert own is not None
        f.mover_push_latencies.append(own - started)
        if final:  # the end: every seat must have ended where the mover did
            ends = {s.index: s.versions[-1] for s in table.seats}
            if set(ends.values()) != {version}:
                raise PushError(f"game {table.base.game_id}: final versions {ends} != {version}")

    def measure_later(self, table: PushTable, started: float, f: Figures) -> asyncio.Task[None]:
        """Measure the push latency of the action just answered (V' and status as now)."""
        final = table.status != "ACTIVE"
        measure = self.measure(table, table.seat, table.target, final, started, f)
        task = asyncio.create_task(measure)
        table.measures.append(task)
        if len(table.measures) > 64:  # keep the running ones and the failed ones (to raise)
            table.measures = [
                t for t in table.measures if not t.done() or (not t.cancelled() and t.exception())
            ]
        return task

    def counters(self) -> tuple[int, int, int, int]:
        return self.pushes, self.events, self.client.requests + self.acts, self.finished

    def count(self, f: Figures, before: tuple[int, int, int, int]) -> None:
        after = self.counters()
        f.pushes += after[0] - before[0]
        f.events += after[1] - before[1]
        f.requests += after[2] - before[2]
        f.finished += after[3] - before[3]

    async def closed_round(self, deadline: float, f: Figures) -> None:
        async def play(table: PushTable) -> None:
            while time.monotonic() < deadline and await self.prepare(table):
                started = time.perf_counter()
                answered = await self.act(table)
                f.latencies.append(answered - started)
                f.actions += 1
                self.measure_later(table, started, f)
            await asyncio.gather(*table.measures)
            table.measures.clear()

        before = self.counters()
        await asyncio.gather(*(play(table) for table in self.tables))
        self.count(f, before)

    async def open_round(self, seconds: float, rate: float, f: Figures, phase: float) -> None:
        ready: asyncio.Queue[PushTable] = asyncio.Queue()
        pending: set[asyncio.Task[None]] = set()
        errors: list[BaseException] = []
        before = self.counters()

        def spawn(work: Coroutine[Any, Any, None]) -> None:
            task = asyncio.create_task(work)
            pending.add(task)
            task.add_done_callback(done)

        def done(task: asyncio.Task[None]) -> None:
            pending.discard(task)
            error = None if task.cancelled() else task.exception()
            if error is not None:
                errors.append(error)

        async def ready_up(table: PushTable) -> None:
            while table.over or not await self.prepare(table):
                await self.new_game(table)  # a finished game is replaced (lobby in the load)
                f.games += 1
            ready.put_nowait(table)

        await asyncio.gather(*(ready_up(t) for t in self.tables))

        async def fire(scheduled: float) -> None:
            table = await ready.get()
            answered = await self.act(table)
            f.latencies.append(answered - scheduled)
            f.actions += 1
            self.measure_later(table, scheduled, f)
            spawn(ready_up(table))

        sent = 0
        start = time.perf_counter() + phase / rate
        end = start + seconds
        interval = 1 / rate
        while not errors:
            scheduled = start + sent * interval
            if scheduled >= end:
                break
            delay = scheduled - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            spawn(fire(scheduled))
            sent += 1
        grace = time.perf_counter() + 10
        measures = [m for t in self.tables for m in t.measures]
        while (pending or not all(m.done() for m in measures)) and time.perf_counter() < grace:
            await asyncio.sleep(0.01)
            measures = [m for t in self.tables for m in t.measures]
        for task in [*pending, *measures]:
            task.cancel()
        for task in measures:
            error = task.exception() if task.done() and not task.cancelled() else None
            if error is not None:
                errors.append(error)
        for table in self.tables:
            table.measures.clear()
        f.late += sent - f.actions
        self.count(f, before)
        if errors:
            raise errors[0]
