"""Abuse under load, bounded: for ``DURATION`` seconds one anonymous client sends, back to back,
the costliest queries the GraphQL limits still let through (service/api/graphql/limits.py:
aliases up to the limit, the largest pages, replay, stateAt, verifyLog, exportGame), while
eight players play four 2-player Imhotep games over HTTP (each action: read the game with its
legal actions, then act). The players' p99 request latency stays under 250 ms and the server's
memory under 300 MB.

Loopback only; the server runs as a subprocess so that its memory (VmHWM, the peak resident
set, from /proc/<pid>/status) is its own and the clients do not share its interpreter. The
test stops by itself: every loop ends at the deadline and every request has a timeout.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from graphql import parse

from service.api.graphql.cost import query_cost
from service.api.graphql.limits import Limits
from service.api.graphql.schema import schema
from tests.client import register
from tests.service.play import finished_against_bots
from tests.serving import ServeProcess

ROOT = Path(__file__).resolve().parents[3]
DURATION = 16.0  # seconds of load
P99_MS = 250.0
MAX_RSS_MB = 300.0
THINK = 0.05  # seconds a player waits between two actions
TIMEOUT = 30.0  # per request: nothing hangs the test

GAME = "query($g: ID!) { game(id: $g) { version status activeSeats mySeat legalActions } }"
ACT = (
    "mutation($g: ID!, $a: JSON!, $v: Int) { act(gameId: $g, action: $a, expectedVersion: $v) "
    "{ game { version status } } }"
)
CREATE = "mutation { createGame(input: {kind: IMHOTEP, seats: 2}) { id } }"
JOIN = "mutation($g: ID!) { joinGame(gameId: $g) { status } }"


class ServerProcess(ServeProcess):
    """``papyrus serve`` on SQLite, whose memory is read from ``/proc``."""

    def memory_mb(self, field: str = "VmHWM") -> float:
        """``VmRSS`` (resident now) or ``VmHWM`` (the peak so far), in MB."""
        with open(f"/proc/{self.process.pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(f"{field}:"):
                    return int(line.split()[1]) / 1024
        raise AssertionError(f"no {field} in /proc/{self.process.pid}/status")


@pytest.fixture
def served(sqlite_url: str) -> Iterator[ServerProcess]:
    running = ServerProcess(sqlite_url)
    try:
        yield running
    finally:
        running.stop()


def finished(database_url: str, kind: str, seats: int, server_url: str) -> str:
    """A game played to its end (a host and ``random`` bots: ``finished_against_bots``), before
    the measurements, so that no bot plays during them; the server shows it finished."""
    return finished_against_bots(database_url, kind, seats, heard_by=server_url)


def filled(fields: list[str]) -> str:
    """One query asking as many of ``fields`` (in turn, each under an alias) as the limits let
    through: up to the alias limit, up to the cost limit."""
    limits, chosen = Limits(), []
    for n in range(limits.max_aliases):
        more = [*chosen, f"a{n}: {fields[n % len(fields)]}"]
        if query_cost(schema._schema, parse("{ " + " ".join(more) + " }")) > limits.max_cost:
            break
        chosen = more
    return "{ " + " ".join(chosen) + " }"


def costly_queries(long_games: list[tuple[str, int]], short_game: str) -> list[str]:
    """The heaviest shapes the default limits accept, each close to the cost limit."""
    steps = "replay(first: 200) { event { version type seat data } state }"
    log = "events(first: 200) { nodes { version type seat data } }"
    queries = [
        # full replay pages of the longest games
        filled([f'game(id: "{g}") {{ {steps} }}' for g, _ in long_games]),
        # verifications of long logs
        filled([f'verifyLog(gameId: "{g}") {{ ok checkedEvents }}' for g, _ in long_games]),
        # past states, rebuilt from the log, with the log around them
        filled(
            [
                f'game(id: "{g}") {{ stateAt(version: {v - k}) events(first: 100) '
                "{ nodes { version type data } } }"
                for k in range(7)
                for g, v in long_games
            ]
        ),
        # full pages of the log
        filled([f'game(id: "{g}") {{ {log} }}' for g, _ in long_games]),
        # the largest pages of games, each with its state and legal actions
        filled(
            [
                f"games(first: 200{where}) {{ nodes {{ id status state legalActions "
                "seats { seat isBot } } }"
                for where in ("", ", status: FINISHED", ", kind: IMHOTEP", ", kind: AMUN_RE")
            ]
        ),
        # every listed game's log at the default pages
        "{ games { edges { node { events { edges { node { version } } } } } } }",
        # the alias limit: the views and the start of the log of one game
        filled([f'game(id: "{short_game}") {{ state legalActions {log} }}']),
    ]
    for query in queries:
        cost = query_cost(schema._schema, parse(query))
        assert Limits().max_cost * 0.5 <= cost <= Limits().max_cost, (cost, query[:80])
    return queries


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


async def attack(url: str, queries: list[str], duration: float) -> list[int]:
    """One anonymous client, one request at a time, round the costly queries until the end;
    the size of each answer (not decoded)."""
    sent: list[int] = []
    deadline = time.monotonic() + duration
    async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT) as client:
        while time.monotonic() < deadline:
            query = queries[len(sent) % len(queries)]
            response = await client.post("/graphql", json={"query": query})
            assert response.status_code == 200 and b'"errors"' not in response.content, (
                response.content[:300]
            )
            sent.append(len(response.content))
    return sent


def attacker(url: str, queries: list[str], duration: float, results: Any) -> None:
    """The attack, in a process of its own: reading its megabytes of answers does not slow
    down the players' client, whose latencies are the server's."""
    try:
        results.put(asyncio.run(attack(url, queries, duration)))
    except BaseException as failure:
        results.put(repr(failure))


class Player:
    def __init__(self, url: str, token: str, latencies: list[float]) -> None:
        self.client = httpx.AsyncClient(
            base_url=url, timeout=TIMEOUT, headers={"Authorization": f"Bearer {token}"}
        )
        self.latencies = latencies

    async def gql(self, query: str, variables: dict[str, Any] | None = None) -> Any:
        started = time.perf_counter()
        response = await self.client.post(
            "/graphql", json={"query": query, "variables": variables or {}}
        )
        self.latencies.append((time.perf_counter() - started) * 1000)
        body = response.json()
        assert not body.get("errors"), body["errors"]
        return body["data"]


async def play(
    pair: list[Player], game_id: str, rng: random.Random, deadline: float, actions: list[int]
) -> None:
    """Two players play their game, a new one once it ends, until the deadline: the seat that
    must act reads the game with its legal actions and plays one."""
    while time.monotonic() < deadline:
        game = (await pair[0].gql(GAME, {"g": game_id}))["game"]
        if game["status"] != "ACTIVE":
            game_id = (await pair[0].gql(CREATE))["createGame"]["id"]
            for player in pair:
                await player.gql(JOIN, {"g": game_id})
            continue
        seat = rng.choice(game["activeSeats"])
        mine = (await pair[seat].gql(GAME, {"g": game_id}))["game"]
        if mine["version"] != game["version"] or not mine["legalActions"]:
            continue
        action = rng.choice(mine["legalActions"])
        await pair[seat].gql(ACT, {"g": game_id, "a": action, "v": mine["version"]})
        actions.append(1)
        await asyncio.sleep(THINK)


async def probe_health(url: str, deadline: float, latencies: list[float]) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT) as client:
        while time.monotonic() < deadline:
            started = time.perf_counter()
            assert (await client.get("/healthz")).status_code == 200
            latencies.append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(0.1)


async def sample_memory(server: ServerProcess, deadline: float, rss: list[float]) -> None:
    while time.monotonic() < deadline:
        rss.append(server.memory_mb("VmRSS"))
        await asyncio.sleep(0.25)


def test_players_keep_playing_while_an_anonymous_client_sends_the_costliest_queries(  # type: ignore[no-untyped-def]
    served, sqlite_url: str
) -> None:
    """Cost, alias and time limits under load: the costliest accepted queries, back to back,
    leave the players' p99 latency under 250 ms and the server's peak memory under 300 MB."""
    owner = register(served.url, "Archivist")
    long_ids = [finished(sqlite_url, "AMUN_RE", 5, served.url) for _ in range(3)]
    versions = [
        owner.gql("query($g: ID!) { game(id: $g) { version } }", {"g": g})["game"]["version"]
        for g in long_ids
    ]
    short = [finished(sqlite_url, "IMHOTEP", 2, served.url) for _ in range(12)]
    queries = costly_queries(list(zip(long_ids, versions, strict=True)), short[0])
    clients = [register(served.url, f"Player {n}") for n in range(8)]
    tables = []
    for first, second in zip(clients[::2], clients[1::2], strict=True):
        game_id = first.gql(CREATE)["createGame"]["id"]
        for player in (first, second):
            player.gql(JOIN, {"g": game_id})
        tables.append(game_id)

    latencies: list[float] = []
    health: list[float] = []
    rss: list[float] = []
    actions: list[int] = []

    spawn = multiprocessing.get_context("spawn")
    results = spawn.Queue()
    abuse = spawn.Process(target=attacker, args=(served.url, queries, DURATION, results))

    async def run() -> None:
        deadline = time.monotonic() + DURATION
        players = [Player(served.url, c.token, latencies) for c in clients]  # type: ignore[arg-type]
        try:
            await asyncio.wait_for(
                asyncio.gather(
                    *(
                        play(
                            players[2 * n : 2 * n + 2],
                            tables[n],
                            random.Random(n),
                            deadline,
                            actions,
                        )
                        for n in range(4)
                    ),
                    probe_health(served.url, deadline, health),
                    sample_memory(served, deadline, rss),
                ),
                timeout=DURATION + 4 * TIMEOUT,
            )
        finally:
            for player in players:
                await player.client.aclose()

    abuse.start()
    try:
        asyncio.run(run())
        outcome = results.get(timeout=2 * TIMEOUT)
    finally:
        abuse.join(timeout=TIMEOUT)
        if abuse.is_alive():
            abuse.kill()
    assert isinstance(outcome, list), outcome  # every costly query was answered, with data
    sent: list[int] = outcome
    peak = served.memory_mb("VmHWM")
    report = (
        f"{len(sent)} costly queries ({sum(sent) / 1e6:.1f} MB), {len(actions)} actions, "
        f"{len(latencies)} player requests: p50 {sorted(latencies)[len(latencies) // 2]:.0f} ms, "
        f"p99 {p99(latencies):.0f} ms, max {max(latencies):.0f} ms; /healthz p99 "
        f"{p99(health):.0f} ms; RSS peak {peak:.0f} MB (sampled max {max(rss):.0f} MB)"
    )
    print(report)
    assert len(sent) >= 2 * len(queries), report  # the abuse did happen, every shape of it
    assert len(actions) >= 50, report  # and so did the games
    assert p99(latencies) < P99_MS, report
    assert p99(health) < P99_MS, report
    assert peak < MAX_RSS_MB, report
