"""GraphQL request limits (service/api/graphql/limits.py): the cost of a query is computed from
its document before it runs and an over-budget query is refused without any work; aliases are
counted; a query running past its time budget is cancelled. All over a real HTTP server."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from graphql import get_introspection_query, parse

from service.api.graphql.cost import query_cost
from service.api.graphql.limits import COSTLY_NICE, Limits, check
from service.api.graphql.schema import schema
from service.settings import Settings
from tests.client import Client, register, subscribe
from tests.conftest import Server
from tests.service.play import finished_against_bots

AMPLIFICATION = "{ games(first: 200) { nodes { replay(first: 200) { state } } } }"
VERIFY = "verifyLog(gameId: $g) { ok checkedEvents }"


class LimitedServer(Server):
    """The conftest server, with settings of our own (lower limits)."""

    def __init__(self, database_url: str, **settings: Any) -> None:
        super().__init__(database_url)
        import uvicorn

        from service.asgi import create_app

        config = uvicorn.Config(
            create_app(Settings(database_url=database_url, **settings)),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws="websockets-sansio",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)


@pytest.fixture
def limited(sqlite_url: str) -> Iterator[Callable[..., Server]]:
    running: list[Server] = []

    def start(**settings: Any) -> Server:
        server = LimitedServer(sqlite_url, **settings).__enter__()
        running.append(server)
        return server

    yield start
    for server in running:
        server.__exit__(None, None, None)


#: the application's own background threads (the bot driver, the clock scheduler): they read
#: games when woken by a save, whatever requests arrive, so the spies leave them out
BACKGROUND = ("papyrus-bots", "papyrus-clocks")


class Spy:
    """Counts the calls of a real method of the running application made while serving
    requests (and makes them)."""

    def __init__(self, owner: Any, name: str) -> None:
        self.calls = 0
        real = getattr(owner, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            if not threading.current_thread().name.startswith(BACKGROUND):
                self.calls += 1
            return real(*args, **kwargs)

        setattr(owner, name, counted)


def application(server: Server) -> Any:
    return server.server.config.app.state.runtime.app


def finished_game(server: Server, kind: str = "IMHOTEP", seats: int = 2) -> str:
    """A game played to its end (a host and ``random`` bots, written into the server's
    database: ``tests.service.play.finished_against_bots``)."""
    return finished_against_bots(server.database_url, kind, seats, heard_by=server.url)


def test_the_amplification_query_is_refused_before_touching_the_store(server) -> None:  # type: ignore[no-untyped-def]
    """Cost limit: 200 games x 200 replay steps with their states is refused with BAD_INPUT
    naming its cost and the limit, and no game is read, listed or replayed; the same shape
    within the limit runs and replays."""
    owner = register(server.url, "Owner")
    for _ in range(2):
        finished_game(server)
    position = owner.gql("{ readModels { storePosition } }")["readModels"]["storePosition"]
    listed = "query($p: Int) { gameSummaries(minPosition: $p) { nodes { status } } }"
    assert len(owner.gql(listed, {"p": position})["gameSummaries"]["nodes"]) == 2
    app, models = application(server), server.server.config.app.state.runtime.readmodels
    spies = [Spy(app.tables, "get"), Spy(app.audit, "replay"), Spy(models, "summaries")]
    spectator = Client(server.url)

    body = spectator.raw(AMPLIFICATION)
    assert body["data"] is None
    [error] = body["errors"]
    assert error["extensions"]["code"] == "BAD_INPUT"
    cost = query_cost(schema._schema, parse(AMPLIFICATION))
    assert error["message"].startswith(
        f"This query costs {cost}, more than the limit of {Limits().max_cost}: ask for fewer "
        "items (first:) or fewer expensive fields (replay, stateAt"
    )
    assert [s.calls for s in spies] == [0, 0, 0]  # nothing was read before the answer

    # three aliases of it (what took 18 s and 764 MB): refused the same way
    tripled = "{ " + " ".join(f"a{n}: " + AMPLIFICATION[2:-2] for n in range(3)) + " }"
    assert spectator.error(tripled).code == "BAD_INPUT"
    assert [s.calls for s in spies] == [0, 0, 0]

    small = spectator.gql("{ games(first: 2) { nodes { replay(first: 3) { state } } } }")
    assert [len(n["replay"]) for n in small["games"]["nodes"]] == [3, 3]
    assert [s.calls for s in spies] == [2, 2, 1]


def test_aliases_over_the_limit_are_refused(limited) -> None:  # type: ignore[no-untyped-def]
    """Alias limit: at most graphql_max_aliases aliased fields in a document, counted as
    written (in fragments too)."""
    server = limited(graphql_max_aliases=3)
    spectator = Client(server.url)
    three = "{ a: __typename b: __typename ...F } fragment F on Query { c: __typename }"
    assert spectator.gql(three) == {"a": "Query", "b": "Query", "c": "Query"}
    failure = spectator.error(three.replace("...F", "d: __typename ...F"))
    assert failure.code == "BAD_INPUT"
    assert failure.errors[0]["message"].startswith(
        "This query has 4 aliased fields, more than the limit of 3"
    )


COSTED = """
query Costed($n: Int, $g: ID!) {
  games(first: $n) { nodes { ...Seen } pageInfo { hasNextPage } }
  game(id: $g) { ... on Game { replay(first: 3) { state } } ...Seen }
}
fragment Seen on Game { id state ...More }
fragment More on Game { id legalActions }
"""


def costed(n: int) -> int:
    """COSTED by hand: a game 20, state and legalActions 11 each, replay 501 + 21 a step;
    `id` asked in both fragments is one field."""
    seen = 20 + 1 + 11 + 11  # per game, the fragments merged
    games = 1 + (1 + n * seen) + (1 + 1)
    game = 1 + seen + (1 + 500 + 3 * (15 + 1 + 5))
    return games + game


def test_fragments_and_variables_are_costed_as_they_run(limited) -> None:  # type: ignore[no-untyped-def]
    """Cost limit: `first` given by a variable multiplies what its page selects, fragments and
    inline fragments count where spread, a field asked twice counts once; the same document
    runs with one value of the variable and is refused with the next (no cached verdict)."""
    limit = costed(5)
    assert query_cost(schema._schema, parse(COSTED), "Costed", {"n": 5, "g": "x"}) == limit
    server = limited(graphql_max_cost=limit)
    game_id = finished_game(server)
    finished_game(server)
    spectator = Client(server.url)
    ran = spectator.gql(COSTED, {"n": 5, "g": game_id})
    assert len(ran["game"]["replay"]) == 3 and len(ran["games"]["nodes"]) == 2
    failure = spectator.error(COSTED, {"n": 6, "g": game_id})
    assert failure.code == "BAD_INPUT"
    assert failure.errors[0]["message"].startswith(
        f"This query costs {costed(6)}, more than the limit of {limit}:"
    )
    assert spectator.gql(COSTED, {"n": 5, "g": game_id}) == ran


def test_fragment_bombs_cost_what_they_run() -> None:
    """Cost limit: fragments spreading fragments many times are flattened once (they run as one
    field); aliases are fields of their own, each costed with its page."""
    levels = [f"fragment F{i} on Query {{ {' '.join([f'...F{i + 1}'] * 8)} }}" for i in range(12)]
    bomb = "{ ...F0 } " + " ".join(levels) + " fragment F12 on Query { games { nodes { id } } }"
    assert query_cost(schema._schema, parse(bomb)) == 1 + (1 + 50 * (20 + 1))
    aliases = " ".join(
        f"a{k}: games(first: 200) {{ nodes {{ b{k}: replay {{ state }} }} }}" for k in range(30)
    )
    document = parse("{ " + aliases + " }")
    per_game = 20 + (1 + 500 + 100 * (15 + 1 + 5))  # replay's default page: 100 steps
    assert query_cost(schema._schema, document) == 30 * (1 + (1 + 200 * per_game))
    cost, [refused] = check(schema._schema, document, Limits(max_aliases=100))
    assert cost == 30 * 524202
    assert refused.extensions == {"code": "BAD_INPUT", "cost": 30 * 524202, "limit": 40_000}


def test_a_passing_check_is_remembered_only_when_the_variables_cannot_change_it() -> None:
    """``check`` with the document's text remembers a pass whose cost reads no variable (the
    same cost and no error again, without the walk), per limits: a stricter limit checks again
    and refuses; a cost read from a variable (`first: $n`) and a refusal are never remembered."""
    from service.api.graphql.limits import PASSED

    fixed = "query($g: ID!) { game(id: $g) { version legalActions replay(first: 3) { state } } }"
    document = parse(fixed)
    cost, errors = check(schema._schema, document, Limits(), None, {"g": "a"}, fixed)
    assert errors == [] and cost > 1
    key = (schema._schema, fixed, None, Limits().max_cost, Limits().max_aliases)
    assert PASSED[key] == cost
    assert check(schema._schema, document, Limits(), None, {"g": "b"}, fixed) == (cost, [])
    strict, [refused] = check(schema._schema, document, Limits(max_cost=cost - 1), None, {}, fixed)
    assert strict == cost and refused.extensions["code"] == "BAD_INPUT"
    assert (schema._schema, fixed, None, cost - 1, Limits().max_aliases) not in PASSED

    paged = "query($g: ID!, $n: Int) { game(id: $g) { replay(first: $n) { state } } }"
    small = query_cost(schema._schema, parse(paged), None, {"g": "a", "n": 1})
    tight = Limits(max_cost=small)
    passed = check(schema._schema, parse(paged), tight, None, {"g": "a", "n": 1}, paged)
    assert passed == (small, [])
    assert (schema._schema, paged, None, small, tight.max_aliases) not in PASSED
    large, [refused] = check(schema._schema, parse(paged), tight, None, {"g": "a", "n": 2}, paged)
    assert large > small and refused.extensions["cost"] == large


DOCUMENTED_QUERIES = [
    """query {
      lobby(kind: IMHOTEP) { nodes { gameId options freeSeats seats { name } } }
      gameSummaries(player: "p", status: FINISHED) { nodes { gameId scores winners } }
      player(id: "p") { gamesPlayed gamesWon averageScore recentGames { gameId won } }
      leaderboard(kind: AMUN_RE, first: 10) { nodes { rank name rating games } }
      statistics(kind: IMHOTEP) { games sources { source averagePerGame } }
      readModels { storePosition readModels { name position } }
    }""",
    "query($g: ID!) { game(id: $g) { status version activeSeats mySeat scores state legalActions } }",
    "query($g: ID!) { game(id: $g) { events(first: 20) { nodes { version type data } pageInfo { endCursor hasNextPage } } stateAt(version: 12) result { scores winners } } }",
    "query($g: ID!) { game(id: $g) { version replay(first: 200) { event { version type seat data automatic bySeat undone hash } state } } }",
    "query($g: ID!) { game(id: $g) { status state } verifyLog(gameId: $g) { ok } exportGame(gameId: $g) }",
    get_introspection_query(  # what GraphiQL sends
        descriptions=True,
        specified_by_url=True,
        directive_is_repeatable=True,
        schema_description=True,
        input_value_deprecation=True,
    ),
]


def test_queries_within_the_limits_run(server) -> None:  # type: ignore[no-untyped-def]
    """Cost limit: the queries of the README and docs/read-models.md, GraphiQL's introspection
    query and a full page of a replay with every event field and state run under the default
    limits."""
    owner = register(server.url, "Owner")
    game_id = finished_game(server)
    for query in DOCUMENTED_QUERIES:
        variables = {"g": game_id} if "$g" in query else {}
        assert query_cost(schema._schema, parse(query), None, variables) <= Limits().max_cost
        assert owner.gql(query, variables), query  # data, and no error
    replayed = owner.gql(DOCUMENTED_QUERIES[3], {"g": game_id})["game"]
    assert len(replayed["replay"]) == min(200, replayed["version"])


def test_the_time_budget_cancels_a_slow_query(limited) -> None:  # type: ignore[no-untyped-def]
    """Time budget: a query still running after graphql_time_budget seconds (here: verifying a
    long Amun-Re log sixteen times) is cancelled and answered BAD_INPUT naming the budget; the
    same query runs on a server with the default budget. (The bots play the whole game in their
    own commands, off the request path: no budget applies to them.)"""
    slow = limited(graphql_time_budget=0.05, graphql_max_cost=100_000)
    normal = limited(graphql_max_cost=100_000)
    query = "query($g: ID!) { " + " ".join(f"v{k}: {VERIFY}" for k in range(16)) + " }"
    for server in (slow, normal):
        owner = register(server.url, "Owner")
        game_id = finished_game(server, "AMUN_RE", 5)
        body = owner.raw(query, {"g": game_id})
        if server is normal:
            assert not body.get("errors") and body["data"]["v0"]["ok"] is True
            assert body["data"]["v15"]["checkedEvents"] > 300  # a long log
            continue
        assert body["data"] is None
        [error] = body["errors"]
        assert error["extensions"]["code"] == "BAD_INPUT"
        assert error["message"].startswith(
            "This query ran longer than the time budget of 0.05 seconds and was cancelled"
        )
        assert owner.gql("{ me { name } }") == {"me": {"name": "Owner"}}  # fine afterwards


async def test_the_time_budget_spares_mutations_and_subscriptions(limited) -> None:  # type: ignore[no-untyped-def]
    """Time budget: a subscription lives longer than the budget (it follows its game), and
    mutations are not cancelled (their write could not be called back)."""
    import asyncio

    server = limited(graphql_time_budget=0.05)
    players = [register(server.url, f"P{i}") for i in range(2)]
    game_id = players[0].gql("mutation { createGame(input: {kind: IMHOTEP, seats: 2}) { id } }")[
        "createGame"
    ]["id"]
    players[0].gql("mutation($g: ID!) { joinGame(gameId: $g) { status } }", {"g": game_id})
    listening = asyncio.ensure_future(
        subscribe(
            server.ws_url,
            "subscription($g: ID!) { gameEvents(gameId: $g) { version type } }",
            {"g": game_id},
            until=lambda payloads: len(payloads) >= 1,
            timeout=20,
        )
    )
    await asyncio.sleep(0.5)  # ten budgets
    assert not listening.done()
    started = await asyncio.to_thread(
        players[1].gql, "mutation($g: ID!) { joinGame(gameId: $g) { status } }", {"g": game_id}
    )
    assert started["joinGame"]["status"] == "ACTIVE"
    payloads = await listening
    assert payloads[0]["data"]["gameEvents"]["type"]


class Threads:
    """Records on which threads, and how many at once, a real method of the application runs."""

    def __init__(self, owner: Any, name: str) -> None:
        self.names: list[str] = []
        self.nice: list[int] = []  # the OS priority of each call's thread
        self.running = self.most = 0
        self.lock = threading.Lock()
        real = getattr(owner, name)

        def recorded(*args: Any, **kwargs: Any) -> Any:
            with self.lock:
                self.names.append(threading.current_thread().name)
                self.nice.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
                self.running += 1
                self.most = max(self.most, self.running)
            try:
                return real(*args, **kwargs)
            finally:
                with self.lock:
                    self.running -= 1

        setattr(owner, name, recorded)


def test_costly_operations_run_their_store_work_on_the_costly_pool(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """Costly pool: the store work of an operation costing more than a tenth of the limit runs
    on graphql_costly_workers threads (1: one call at a time, however many it asks at once), at
    a lower OS priority (Linux); a cheap operation's on the common pool."""
    owner = register(sqlite_server.url, "Owner")
    game_id = finished_game(sqlite_server)
    app = application(sqlite_server)
    past = Threads(app.tables, "past")
    costly = (
        "query($g: ID!) { "
        + " ".join(f"s{v}: game(id: $g) {{ stateAt(version: {v}) }}" for v in range(1, 10))
        + " }"
    )
    assert query_cost(schema._schema, parse(costly)) > Limits().costly
    states = owner.gql(costly, {"g": game_id})
    assert len(states) == 9
    assert len(past.names) == 9 and all(n.startswith("papyrus-costly") for n in past.names)
    assert past.most == 1
    steps = Threads(app.audit, "replay")
    cheap = "query($g: ID!) { game(id: $g) { replay(first: 2) { state } } }"
    assert query_cost(schema._schema, parse(cheap)) <= Limits().costly
    owner.gql(cheap, {"g": game_id})
    assert len(steps.names) == 1 and steps.names[0].startswith("papyrus_")
    if sys.platform.startswith("linux"):
        assert past.nice[0] == min(19, steps.nice[0] + COSTLY_NICE)
