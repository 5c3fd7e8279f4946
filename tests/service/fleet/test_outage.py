"""A failing database: every request answers ``UNAVAILABLE`` fast (docs/API.md "Errors": 503, never
``INTERNAL``, never a hang), the store breaker trips on real traffic, nothing acknowledged is
lost and the read models are exact once the database is back.

Each test runs its own throwaway PostgreSQL cluster (``Cluster``) so that it can kill the
database (``pg_ctl -m immediate stop``: a crash, as an outage looks to the server) and start it
again; the cluster is stopped and its directory deleted in the fixture's teardown.
"""

from __future__ import annotations

import asyncio
import glob
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.settings import Settings
from tests.client import Client, GraphQLFailure, register, subscribe
from tests.conftest import IN_CI, Server, free_port
from tests.service.play import create_table
from tests.serving import ServeProcess

ROOT = Path(__file__).resolve().parents[3]
#: no request may wait longer than this, outage or not (seconds)
LONGEST_WAIT = 3.0
EVENTS = "subscription($g: ID!) { gameEvents(gameId: $g) { version type } }"


def postgres_bin() -> Path | None:
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).parent if on_path else None


class Cluster:
    """A private PostgreSQL cluster in a temporary directory, on a free loopback port."""

    def __init__(self) -> None:
        binaries = postgres_bin()
        if binaries is None or (os.geteuid() == 0 and shutil.which("su") is None):
            reason = "no PostgreSQL server binaries (initdb, pg_ctl) on this machine"
            if IN_CI:
                pytest.fail(reason)
            pytest.skip(reason)
        self.bin = binaries
        self.root = Path(tempfile.mkdtemp(prefix="papyrus-outage-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        if os.geteuid() == 0:  # initdb refuses to run as root: the cluster belongs to postgres
            shutil.chown(self.root, "postgres")
        self.run("initdb", "-D", str(self.data), "--auth=trust", "-U", "postgres", "-N")

    def run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if os.geteuid() == 0:
            command = ["su", "postgres", "-c", subprocess.list2cmdline(command)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, f"{program} failed: {done.stdout}\n{done.stderr}"

    def start(self) -> None:
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root}"
        self.run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.root / "log"),
                 "-w", "start")  # fmt: skip

    def kill(self) -> None:
        """Stop at once, as a crash would: connections break, nothing is shut down cleanly."""
        self.run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def remove(self) -> None:
        """Stop the cluster if it runs, and delete its directory."""
        if (self.data / "postmaster.pid").exists():
            command = [str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"]
            if os.geteuid() == 0:
                command = ["su", "postgres", "-c", subprocess.list2cmdline(command)]
            subprocess.run(command, capture_output=True, timeout=60, check=False)
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    made = Cluster()
    try:
        made.start()
        yield made
    finally:
        made.remove()


class Process(ServeProcess):
    """A real ``papyrus serve`` process whose log is kept in a file (shown when a test fails);
    ready on ``/healthz``: the breaker must not hear of ``/readyz``."""

    def __init__(self, database_url: str, log: Path) -> None:
        super().__init__(database_url, log_path=log, ready="/healthz")

    def tail(self) -> str:
        return self.log()[-4000:]


class TunedServer(Server):
    """``tests.conftest.Server`` with settings of the test's choosing."""

    def __init__(self, settings: Settings) -> None:
        import uvicorn

        from service.asgi import create_app

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/graphql"
        config = uvicorn.Config(
            create_app(settings),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws="websockets-sansio",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)


# -- the load -------------------------------------------------------------------------------


@dataclass
class Answer:
    """One request of the load: when it was sent and answered, and what it answered."""

    what: str
    sent: float
    answered: float
    code: str  # "OK", or the error code (GraphQL extensions.code / the problem's code)
    status: int
    rest: bool
    detail: str = ""

    @property
    def waited(self) -> float:
        return self.answered - self.sent


@dataclass
class Acknowledged:
    """An action the server said it recorded."""

    game_id: str
    player_id: str
    key: str
    first: int
    last: int


@dataclass
class Load:
    answers: list[Answer] = field(default_factory=list)
    acknowledged: list[Acknowledged] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    stop: threading.Event = field(default_factory=threading.Event)
    failures: list[BaseException] = field(default_factory=list)

    def graphql(
        self, client: Client, what: str, query: str, variables: dict[str, Any]
    ) -> dict[str, Any] | None:
        """The data, or None when the request failed (recorded either way)."""
        sent = time.monotonic()
        try:
            response = client.http.post(
                "/graphql",
                json={"query": query, "variables": variables},
                headers=client.headers(),
            )
        except httpx.HTTPError as failure:  # a hang (the client's timeout) or a dropped socket
            self.record(Answer(what, sent, time.monotonic(), "NO ANSWER", 0, False, repr(failure)))
            return None
        answered = time.monotonic()
        try:
            body = response.json()
        except ValueError:
            self.record(Answer(what, sent, answered, "NOT JSON", response.status_code, False,
                               response.text[:200]))  # fmt: skip
            return None
        if body.get("errors"):
            error = body["errors"][0]
            code = str((error.get("extensions") or {}).get("code"))
            self.record(Answer(what, sent, answered, code, response.status_code, False,
                               error["message"]))  # fmt: skip
            return None
        self.record(Answer(what, sent, answered, "OK", response.status_code, False))
        return dict(body["data"])

    def rest(
        self,
        client: Client,
        what: str,
        method: str,
        path: str,
        *,
        absent: bool = False,
        **kwargs: Any,
    ) -> Any:
        """The body, or None when the request failed (``absent``: a 404 is an answer too)."""
        sent = time.monotonic()
        try:
            response = client.rest(method, path, **kwargs)
        except httpx.HTTPError as failure:
            self.record(Answer(what, sent, time.monotonic(), "NO ANSWER", 0, True, repr(failure)))
            return None
        answered = time.monotonic()
        if response.status_code >= 400 and not (absent and response.status_code == 404):
            try:
                code = str(response.json().get("code"))
            except ValueError:
                code = "NOT JSON"
            self.record(Answer(what, sent, answered, code, response.status_code, True,
                               response.text[:200]))  # fmt: skip
            return None
        self.record(Answer(what, sent, answered, "OK", response.status_code, True))
        return response.json()

    def record(self, answer: Answer) -> None:
        with self.lock:
            self.answers.append(answer)

    def run(self, work: Callable[[], None]) -> threading.Thread:
        def loop() -> None:
            try:
                while not self.stop.is_set():
                    work()
            except BaseException as failure:  # the test reports it
                self.failures.append(failure)

        thread = threading.Thread(target=loop, daemon=True)
        thread.start()
        return thread


GAME = "query($g: ID!) { game(id: $g) { version status activeSeats mySeat legalActions } }"
ACT = (
    "mutation($g: ID!, $a: JSON!, $k: String) { act(gameId: $g, action: $a, idempotencyKey: $k)"
    " { game { version } events { version } } }"
)


def actor(load: Load, players: list[Client], game_id: str, over_rest: bool, seed: int):  # type: ignore[no-untyped-def]
    """The seat that must act takes one of its listed legal actions with a fresh idempotency
    key; an action not answered is sent again with the same key until it is (as a client
    should), so that each acknowledged key is the first attempt or its retry. While the game
    cannot be read, the last acknowledged action is sent again with its key: it must answer
    what it answered the first time, or UNAVAILABLE."""
    rng = random.Random(seed)
    pending: list[tuple[Client, dict[str, Any], str]] = []
    last: list[tuple[Client, dict[str, Any], str, list[int]]] = []

    def read(client: Client) -> dict[str, Any] | None:
        if over_rest:
            return load.rest(client, "GET game", "GET", f"/games/{game_id}")  # type: ignore[no-any-return]
        data = load.graphql(client, "game", GAME, {"g": game_id})
        return data["game"] if data else None

    def act(player: Client, action: dict[str, Any], key: str) -> list[int] | None:
        if over_rest:
            done = load.rest(player, "POST actions", "POST", f"/games/{game_id}/actions",
                             json={"action": action}, headers={"Idempotency-Key": key})  # fmt: skip
            return [e["version"] for e in done["events"]] if done else None
        data = load.graphql(player, "act", ACT, {"g": game_id, "a": action, "k": key})
        return [e["version"] for e in data["act"]["events"]] if data else None

    def step() -> None:
        if not pending:
            game = read(players[0])
            if game is None and last:
                player, action, key, versions = last[0]
                again = act(player, action, key)
                assert again is None or again == versions, (key, versions, again)
            if game is None or game["status"] != "ACTIVE":
                load.stop.wait(0.1)
                return
            player = players[game["activeSeats"][0]]
            mine = read(player)
            if mine is None or mine["version"] != game["version"] or not mine["legalActions"]:
                return
            pending.append((player, rng.choice(mine["legalActions"]), uuid.uuid4().hex))
        player, action, key = pending[0]
        versions = act(player, action, key)
        if versions is None:
            load.stop.wait(0.1)
            return
        pending.clear()
        last[:] = [(player, action, key, versions)]
        with load.lock:
            load.acknowledged.append(
                Acknowledged(game_id, player.player_id, key, versions[0], versions[-1])  # type: ignore[attr-defined]
            )

    return step


READS_GRAPHQL = [
    ("gameSummaries", "{ gameSummaries(first: 5) { nodes { gameId version } } }", {}),
    ("lobby", "{ lobby(first: 5) { nodes { gameId } } }", {}),
    ("leaderboard", "{ leaderboard(kind: IMHOTEP) { nodes { playerId } } }", {}),
    ("statistics", "{ statistics(kind: IMHOTEP) { games } }", {}),
    ("readModels", "{ readModels { storePosition readModels { name position } } }", {}),
    ("player", "query($p: ID!) { player(id: $p) { gamesPlayed } }", None),
]
READS_REST = [
    "/summaries?limit=5",
    "/lobby?limit=5",
    "/leaderboards/imhotep",
    "/statistics/imhotep",
    "/read-models",
    None,  # /players/{id}/profile
]


def reader(load: Load, client: Client, player_id: str, seed: int):  # type: ignore[no-untyped-def]
    """Every read model, over both transports, in a random order."""
    rng = random.Random(seed)

    def step() -> None:
        if rng.random() < 0.5:
            what, query, variables = rng.choice(READS_GRAPHQL)
            load.graphql(client, what, query, {"p": player_id} if variables is None else variables)
        else:
            path = rng.choice(READS_REST)
            if path is None:
                response = load.rest(
                    client, "profile", "GET", f"/players/{player_id}/profile", absent=True
                )
            else:
                response = load.rest(client, path, "GET", path)
            del response
        load.stop.wait(0.02)

    return step


def summary(answers: list[Answer], down_since: float, back_from: float) -> str:
    """What the load saw, phase by phase (printed: pytest shows it when the test fails)."""
    lines = []
    for name, low, high in (
        ("before", min((a.sent for a in answers), default=0.0), down_since),
        ("down", down_since, back_from),
        ("after", back_from, float("inf")),
    ):
        phase = [a for a in answers if low <= a.sent < high]
        codes: dict[str, int] = {}
        for a in phase:
            codes[a.code] = codes.get(a.code, 0) + 1
        longest = max((a.waited for a in phase), default=0.0)
        first_ok = min((a.answered - low for a in phase if a.code == "OK"), default=None)
        lines.append(f"{name}: {len(phase)} requests {codes}, longest {longest:.2f} s, "
                     f"first success after {first_ok}")  # fmt: skip
    return "\n".join(lines)


@pytest.mark.postgres
def test_an_outage_answers_unavailable_fast_and_loses_nothing_acknowledged(
    cluster: Cluster, tmp_path: Path
) -> None:
    """docs/API.md "Errors": while PostgreSQL is down every request (acts, game reads, each read
    model over GraphQL and REST) answers UNAVAILABLE within 3 s, never INTERNAL, a 500 or a
    hang; afterwards every acknowledged action is in the log (its idempotency key recorded at
    the versions the server answered) and the read models equal the games."""
    server = Process(cluster.url, tmp_path / "server.log")
    load = Load()
    try:
        games: list[tuple[str, list[Client]]] = []
        for n in range(4):
            players = [register(server.url, f"P{n}{seat}") for seat in range(2)]
            games.append((create_table(players, "IMHOTEP"), players))
        spectator = register(server.url, "Reader")
        for client in [spectator, *[p for _, ps in games for p in ps]]:
            client.http.timeout = httpx.Timeout(10.0)  # longer than any allowed wait
        threads = [
            load.run(actor(load, players, game_id, over_rest=n % 2 == 1, seed=n))
            for n, (game_id, players) in enumerate(games)
        ]
        some_player = games[0][1][0].player_id  # type: ignore[attr-defined]
        threads += [load.run(reader(load, spectator, some_player, seed)) for seed in range(3)]

        time.sleep(3)  # the load runs against a healthy database
        cluster.kill()
        down_since = time.monotonic()
        time.sleep(4)  # ... against a dead one
        back_from = time.monotonic()
        cluster.start()
        deadline = time.monotonic() + 20  # ... and once it is back, until it answers again
        while time.monotonic() < deadline and not any(
            a.code == "OK" and a.sent > back_from for a in list(load.answers)
        ):
            time.sleep(0.1)
        time.sleep(3)
        load.stop.set()
        for thread in threads:
            thread.join(timeout=30)
        assert not load.failures, load.failures

        answers = list(load.answers)
        print(summary(answers, down_since, back_from))
        slow = [a for a in answers if a.waited > LONGEST_WAIT]
        assert not slow, "requests waited too long: " + "; ".join(
            f"{a.what} sent {a.sent - down_since:+.2f} s from the kill "
            f"({a.sent - back_from:+.2f} s from the restart), waited {a.waited:.2f} s, {a.code}"
            for a in slow[:5]
        ) + "\n" + server.tail()
        wrong = [a for a in answers if a.code not in ("OK", "UNAVAILABLE")]
        assert not wrong, f"answers other than success or UNAVAILABLE: {wrong[:5]}"
        unavailable = [a for a in answers if a.code == "UNAVAILABLE"]
        assert all(a.status == 503 for a in unavailable if a.rest), "REST: 503 with the code"
        during = [a for a in answers if a.sent > down_since and a.answered < back_from]
        assert len(during) >= 20, f"too little load during the outage: {len(during)}"
        # until the server notices the outage (its first failed call, after --pool-timeout at
        # most), a game it holds current in memory is still read from there: no write can
        # have happened since; nothing else answers but UNAVAILABLE
        noticed = min(a.answered for a in during if a.code == "UNAVAILABLE")
        from_memory = [a for a in during if a.code == "OK"]
        assert noticed < down_since + 2.0, noticed - down_since
        assert all(a.what == "game" and a.answered <= noticed for a in from_memory), from_memory
        assert all(a.code == "UNAVAILABLE" for a in during if a.sent > noticed), [
            a for a in during if a.code != "UNAVAILABLE" and a.sent > noticed
        ][:5]
        asked = {a.what for a in during}
        assert len(asked) >= 8 and {"act", "POST actions"} & asked, asked
        after = [a for a in answers if a.sent > back_from]
        assert any(a.code == "OK" for a in after), "the service did not come back"
        assert any(a.code == "OK" for a in answers if a.answered < down_since)
        acknowledged = list(load.acknowledged)
        assert len(acknowledged) >= 8, f"too few actions acknowledged: {len(acknowledged)}"

        # nothing acknowledged is lost: each idempotency key is in its game's log, at the
        # versions the server answered with
        from service.store.database import open_store

        store = open_store(cluster.url)
        try:
            for ack in acknowledged:
                game: Any = store.repository.get(uuid.UUID(ack.game_id))
                recorded = game.commands.get(f"{ack.player_id}:{ack.key}")
                assert recorded is not None, f"acknowledged, not in the log: {ack}"
                first, last = recorded  # the end of the game, if it came, is recorded after
                assert first == ack.first and last <= ack.last <= game.version, (ack, recorded)
            versions = {game_id: store.repository.get(uuid.UUID(game_id)).version
                        for game_id, _ in games}  # fmt: skip
        finally:
            store.close()

        # the read models are exact once caught up: each summary is at its game's version
        reading = Client(server.url)
        head = reading.rest("GET", "/read-models").json()["storePosition"]  # a public position
        summaries = reading.rest("GET", f"/summaries?limit=50&minPosition={head}").json()["items"]
        by_id = {s["gameId"]: s for s in summaries}
        for game_id, players in games:
            real = players[0].rest("GET", f"/games/{game_id}").json()
            assert real["version"] == versions[game_id]
            assert by_id[game_id]["version"] == real["version"], (by_id[game_id], real)
            assert by_id[game_id]["status"] == real["status"]
        status = reading.rest("GET", "/read-models").json()
        assert all(p >= head for p in status["readModels"].values()), status
    except BaseException:
        print(server.tail())
        raise
    finally:
        load.stop.set()
        server.stop()


@pytest.mark.postgres
def test_the_breaker_trips_on_read_model_traffic_without_readyz(cluster: Cluster) -> None:
    """Store breaker: a read-model query whose SQL finds the database gone is UNAVAILABLE (503,
    not 500) and opens the breaker by itself (nothing polls /readyz here); the requests that
    follow, read models or the event store, are refused at once without asking the database."""
    with Server(cluster.url) as running:
        breaker = running.server.config.app.state.runtime.app.breaker
        client = register(running.url, "Reader")
        assert client.rest("GET", "/read-models").status_code == 200
        cluster.kill()
        try:
            response = client.rest("GET", "/read-models")  # the read models' own SQL first
            assert response.status_code == 503, response.text
            assert response.json()["code"] == "UNAVAILABLE"
            assert breaker.is_open(), "the breaker did not trip on this request"
            trips = breaker.trips
            failure = client.error("{ gameSummaries { nodes { gameId } } }")
            assert failure.code == "UNAVAILABLE"
            profile = client.rest("GET", f"/players/{client.player_id}/profile")  # type: ignore[attr-defined]
            assert profile.status_code == 503 and profile.json()["code"] == "UNAVAILABLE"
            game = client.rest("GET", f"/games/{uuid.uuid4()}")
            assert game.status_code == 503 and game.json()["code"] == "UNAVAILABLE"
            assert breaker.trips == trips, "refused by the open breaker: the database not asked"
        finally:
            cluster.start()


@pytest.mark.postgres
def test_a_database_too_slow_to_answer_is_unavailable_within_the_statement_timeout(
    postgres_url: str,
) -> None:
    """A database that accepts connections but does not answer (here: another session holds
    the event log and the read models' positions locked) cancels each statement after the
    statement timeout (``--statement-timeout``, 0.5 s here): the read models' SQL, an
    event-store read and an event-store write each answer UNAVAILABLE within 3 s instead of
    waiting for the lock. (The read is of a game this process has not cached: one it has
    is answered from memory, issue #14.)"""
    import psycopg

    with TunedServer(Settings(database_url=postgres_url, statement_timeout=0.5)) as running:
        breaker = running.server.config.app.state.runtime.app.breaker
        alice = register(running.url, "Alice")
        alice.gql("mutation { createGame(input: {kind: IMHOTEP, seats: 2}) { id } }")
        uncached = str(uuid.uuid4())
        alice.http.timeout = httpx.Timeout(10.0)
        requests: list[tuple[str, Callable[[], str]]] = [
            ("read models", lambda: alice.rest("GET", "/read-models").json()["code"]),
            (
                "event store read",
                lambda: (
                    alice.error("query($g: ID!) { game(id: $g) { version } }", {"g": uncached}).code
                ),
            ),
            (
                "event store write",
                lambda: alice.error('mutation { registerPlayer(name: "Bo") { token } }').code,
            ),
        ]
        with psycopg.connect(postgres_url) as blocker:
            blocker.execute("LOCK TABLE papyrus_events, papyrus_tracking IN ACCESS EXCLUSIVE MODE")
            try:
                for what, request in requests:
                    time.sleep(breaker.cool_down)  # the breaker lets the next call reach the store
                    sent = time.monotonic()
                    code = request()
                    waited = time.monotonic() - sent
                    assert code == "UNAVAILABLE" and waited < LONGEST_WAIT, (what, code, waited)
            finally:
                blocker.rollback()


def test_a_subscription_to_an_unknown_game_is_not_found_with_its_code(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """docs/API.md "Errors": subscription errors carry extensions.code like any other error."""
    for game_id in (str(uuid.uuid4()), "not-a-game"):
        payloads = asyncio.run(subscribe(sqlite_server.ws_url, EVENTS, {"g": game_id}, timeout=20))
        assert len(payloads) == 1 and payloads[0]["data"] is None, payloads
        (error,) = payloads[0]["errors"]
        assert error["extensions"]["code"] == "NOT_FOUND", error


LOBBY = "subscription { lobbyChanged { gameId } }"


@pytest.mark.postgres
def test_subscriptions_during_an_outage_are_unavailable_with_their_code(cluster: Cluster) -> None:
    """Subscriptions opened while the database is down end with an error whose
    extensions.code is UNAVAILABLE, never INTERNAL or a closed socket: gameEvents for a
    known caller, and gameEvents and lobbyChanged for a token the server has not seen yet
    (the websocket's authentication itself meets the outage)."""
    with Server(cluster.url) as running:
        players = [register(running.url, f"P{seat}") for seat in range(2)]
        game_id = create_table(players, "IMHOTEP")
        unseen = [register(running.url, f"Newcomer {n}") for n in range(2)]  # tokens unused
        cluster.kill()
        try:
            for query, variables, token in (
                (EVENTS, {"g": game_id}, players[1].token),
                (EVENTS, {"g": game_id}, unseen[0].token),
                (LOBBY, {}, unseen[1].token),
            ):
                payloads = asyncio.run(
                    subscribe(running.ws_url, query, variables, token, timeout=20)
                )
                assert len(payloads) == 1 and payloads[0]["data"] is None, payloads
                (error,) = payloads[0]["errors"]
                assert error["extensions"]["code"] == "UNAVAILABLE", (query, error)
        finally:
            cluster.start()


def test_a_locked_or_missing_sqlite_file_is_unavailable(tmp_path: Path) -> None:
    """SQLite: a file another process holds locked past the lock timeout, or one that is gone,
    is a store failure (UNAVAILABLE, and the breaker trips), not a bug: the read models' own
    SQL (sqlite3's errors) included, and it waits the store's lock timeout, not a minute."""
    import sqlite3

    from service.app.accounts import Accounts
    from service.app.breaker import Breaker
    from service.app.errors import Unavailable
    from service.readmodels import ReadModels
    from service.store.database import Database, StoreOptions, open_store

    folder = tmp_path / "data"
    url = f"sqlite:///{folder / 'papyrus.sqlite'}"
    database = Database(url, StoreOptions(sqlite_lock_timeout=1))
    store = open_store(url, database.options)
    models = ReadModels(store, database)
    try:
        Accounts(store).register_player("Ana")  # an entry the read models have not applied yet
        blocker = sqlite3.connect(database.sqlite_path, isolation_level=None)
        blocker.execute("BEGIN EXCLUSIVE")  # another process writing, for longer than allowed
        try:
            breaker = Breaker()
            with pytest.raises(Unavailable):
                breaker.call(models.summaries)  # applies the new entry first: locked out
            assert breaker.is_open()
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        assert models.summaries() == [] and models.is_current()

        shutil.rmtree(folder)  # the file and its directory are gone (a lost volume)
        found: list[BaseException] = []
        breaker = Breaker()

        def query() -> None:  # a thread without a connection yet: it must open the file
            try:
                breaker.call(models.positions)
            except BaseException as failure:
                found.append(failure)

        thread = threading.Thread(target=query)
        thread.start()
        thread.join(timeout=30)
        assert len(found) == 1 and isinstance(found[0], Unavailable), found
        assert breaker.is_open()
    finally:
        models.close()
        store.close()


def test_after_its_cool_down_the_breaker_lets_one_trial_call_through_at_a_time() -> None:
    """Store breaker: once the cool-down is over, one call finds out whether the store is back
    while the others are still refused at once; its success closes the breaker."""
    from eventsourcing.persistence import OperationalError

    from service.app.breaker import Breaker
    from service.app.errors import Unavailable

    def down() -> None:
        raise OperationalError("connection refused")

    breaker = Breaker(cool_down=0.0)
    with pytest.raises(Unavailable):
        breaker.call(down)
    inside, release = threading.Event(), threading.Event()
    results: list[str] = []

    def trial() -> str:
        inside.set()
        release.wait(10)
        return "back"

    thread = threading.Thread(target=lambda: results.append(breaker.call(trial)))
    thread.start()
    assert inside.wait(10)
    with pytest.raises(Unavailable):
        breaker.call(lambda: "another")  # refused while the trial runs
    release.set()
    thread.join(10)
    assert results == ["back"]
    assert [breaker.call(lambda: "closed") for _ in range(3)] == ["closed"] * 3
    with pytest.raises(Unavailable):  # the next store failure opens it again
        breaker.call(down)
    assert breaker.trips == 2


def test_a_deadline_passed_during_an_outage_fires_once_the_database_is_back(
    cluster: Cluster, tmp_path: Path
) -> None:
    """A timed game's move clock runs out while PostgreSQL is down: the scheduler's tries fail
    (one warning line each, no traceback), the deadline is kept, and the expiry is recorded
    once the database answers again. Before: the failed expiry was logged as an ERROR with a
    traceback and its deadline dropped, so the game waited for ever (the fleet soak's timed
    tables, through its PostgreSQL restart). The process reads its time from
    ``PAPYRUS_CLOCK_OFFSET_FILE``: the deadline passes at the test's word."""
    from tests.service.games.test_clock_processes import expiries
    from tests.service.games.test_clocks import create

    offset = tmp_path / "clock-offset"
    offset.write_text("0")
    served = ServeProcess(
        cluster.url,
        log_path=tmp_path / "server.log",
        ready="/healthz",
        environment={**os.environ, "PAPYRUS_CLOCK_OFFSET_FILE": str(offset)},
    )
    try:
        players = [register(served.url, "Ann"), register(served.url, "Bob")]
        clock = {"mode": "move", "moveMs": 10_000, "onExpiry": "takeover", "bot": "random"}
        game_id = create(players, "IMHOTEP", clock)
        cluster.kill()
        try:
            offset.write_text("20000")  # the deadline passes while the database is down
            tried = served.wait_for_log(lambda log: log.count("could not reach the store") >= 2, 30)
            assert tried.count("could not reach the store") >= 2, tried[-3000:]
        finally:
            cluster.start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if expiries(players[1], game_id):
                    break
            except GraphQLFailure:  # UNAVAILABLE until the breaker lets calls through
                pass
            time.sleep(0.3)
        assert len(expiries(players[1], game_id)) == 1, served.log()[-3000:]
        log = served.log()
        assert "Traceback" not in log and "ERROR" not in log, log[-3000:]
    finally:
        served.stop()


def positions(url: str) -> tuple[int, int]:
    """The store's last notification id and the lowest read-model position."""
    import psycopg

    with psycopg.connect(url) as connection:
        head = connection.execute("SELECT max(notification_id) FROM papyrus_events").fetchone()
        low = connection.execute("SELECT min(position) FROM papyrus_tracking").fetchone()
    return int((head or [0])[0] or 0), int((low or [0])[0] or 0)


def caught_up_by(url: str, seconds: float) -> tuple[int, int]:
    """Wait until every read model has applied the whole log: (head, lowest position)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            head, low = positions(url)
        except Exception:  # the database is still starting
            head, low = 1, 0
        if low >= head or time.monotonic() > deadline:
            return head, low
        time.sleep(0.2)


@pytest.mark.postgres
def test_a_projections_process_keeps_the_read_models_through_an_outage(
    cluster: Cluster, tmp_path: Path
) -> None:
    """The read models in a process of their own (deploy/compose.yaml's ``projections``
    profile): servers with ``--no-projections`` and one ``papyrus projections run`` process. PostgreSQL crashes and comes back: the projections
    process logs the outage, stays up, and applies what was written before and after it (it
    used to die on the first failed catch-up, and the read models froze until restarted)."""
    server = ServeProcess(cluster.url, "--no-projections", log_path=tmp_path / "server.log")
    log = (tmp_path / "projections.log").open("wb")
    runner = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "projections", "run", "--database-url", cluster.url],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        players = [register(server.url, f"P{seat}") for seat in range(2)]
        create_table(players, "IMHOTEP")
        head, low = caught_up_by(cluster.url, 20)
        assert low >= head > 0, (head, low)
        cluster.kill()
        time.sleep(3)  # the runner's catch-ups fail meanwhile
        assert runner.poll() is None, "the projections process died with the database"
        cluster.start()
        deadline = time.monotonic() + 30
        while True:  # the server answers again once its breaker lets a trial through
            try:
                players.append(register(server.url, "After"))
                create_table(players[-2:], "IMHOTEP")
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        head_after, low_after = caught_up_by(cluster.url, 30)
        assert head_after > head and low_after >= head_after, (head_after, low_after)
        assert runner.poll() is None
    finally:
        server.stop()
        runner.terminate()
        try:
            assert runner.wait(timeout=15) == 0, "the projections process did not stop cleanly"
        finally:
            log.close()
            print((tmp_path / "projections.log").read_text()[-3000:])


def test_the_compose_file_offers_the_projections_process_the_test_above_checks() -> None:
    """deploy/compose.yaml: the replicas keep the read models themselves (the default: it costs
    less CPU in all, OPERATIONS.md "Read models"), and a ``projections run`` service, restarted
    and started after the tables exist, is one profile away."""
    import yaml

    compose = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    replicas = [s for name, s in services.items() if name.startswith("papyrus-")]
    assert len(replicas) >= 2
    assert all(s["environment"].get("PAPYRUS_RUN_PROJECTIONS", "1") != "0" for s in replicas)
    runner = services["projections"]
    assert runner["command"] == ["projections", "run"]
    assert runner["profiles"] == ["projections"] and runner["restart"] == "unless-stopped"
    assert runner["depends_on"]["init"]["condition"] == "service_completed_successfully"
