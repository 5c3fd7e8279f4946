"""Rate limits over the real HTTP server (docs/API.md "Errors": RATE_LIMITED; docs/accounts.md "Rate limits"):
mutations per player and per address, registrations per address, failed authentications per
address; 429 with ``Retry-After`` on REST, ``extensions.code``/``retryAfter`` (and 429 with
``Retry-After``) on GraphQL; allowed again once the window is over; shared by every server
process on one PostgreSQL. The test servers lower the limits; the defaults are generous."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from service.settings import Settings
from tests.client import Client, register
from tests.conftest import Server, free_port
from tests.serving import ServeProcess as Process
from tests.serving import processes

CREATE = "mutation { createGame(input: {kind: IMHOTEP, seats: 2}) { id } }"
TWO_CREATES = (
    "mutation { a: createGame(input: {kind: IMHOTEP, seats: 2}) { id } "
    "b: createGame(input: {kind: AMUN_RE, seats: 3}) { id } }"
)
REGISTER = "mutation($n: String!) { registerPlayer(name: $n) { token } }"
WINDOW = 2


class LimitedServer(Server):
    """The real server in a thread, with some settings of its own (lower limits)."""

    def __init__(self, database_url: str, **settings: Any) -> None:
        import uvicorn

        from service.asgi import create_app

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/graphql"
        config = uvicorn.Config(
            create_app(Settings(database_url=database_url, **settings)),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws="websockets-sansio",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)


def limited(database_url: str, **settings: Any) -> LimitedServer:
    return LimitedServer(database_url, rate_window=WINDOW, **settings)


def start_of_a_window(seconds: int = WINDOW, room: float = 1.5) -> None:
    """Wait until at least ``room`` seconds of the current fixed window are left (windows are
    aligned on Unix time), so that a test's requests fall in one window."""
    left = seconds - time.time() % seconds
    if left < room:
        time.sleep(left + 0.02)


def retry_after(response: httpx.Response) -> int:
    value = int(response.headers["Retry-After"])
    assert 1 <= value <= WINDOW
    return value


def test_mutations_past_the_limit_are_refused_until_the_window_ends(sqlite_url: str) -> None:
    """RATE_LIMITED per player: past the limit REST answers 429 problem+json with
    Retry-After, GraphQL RATE_LIMITED with retryAfter (and 429 with Retry-After); the
    count is the player's on both transports; queries are not counted; once the window is
    over the player may go on."""
    with limited(sqlite_url, rate_mutations_per_player=3) as server:
        ana = register(server.url, "Ana")
        start_of_a_window()
        for _ in range(2):
            assert (
                ana.rest("POST", "/games", json={"kind": "IMHOTEP", "seats": 2}).status_code == 201
            )
        assert ana.gql(CREATE)["createGame"]["id"]
        refused = ana.rest("POST", "/games", json={"kind": "IMHOTEP", "seats": 2})
        assert refused.status_code == 429
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert refused.json()["code"] == "RATE_LIMITED"
        assert "at most 3 every 2 seconds" in refused.json()["detail"]
        wait = retry_after(refused)

        answer = ana.http.post("/graphql", json={"query": CREATE}, headers=ana.headers())
        assert answer.status_code == 429
        retry_after(answer)
        body = answer.json()
        assert body["data"] is None
        assert body["errors"][0]["extensions"]["code"] == "RATE_LIMITED"
        assert 1 <= body["errors"][0]["extensions"]["retryAfter"] <= WINDOW
        # reading is not limited
        assert ana.gql("{ me { name } }") == {"me": {"name": "Ana"}}
        assert ana.rest("GET", "/games").status_code == 200
        assert len(ana.gql("{ games { nodes { id } } }")["games"]["nodes"]) == 3

        time.sleep(wait)
        assert ana.rest("POST", "/games", json={"kind": "IMHOTEP", "seats": 2}).status_code == 201
        assert ana.gql(CREATE)["createGame"]["id"]


def test_graphql_counts_every_mutation_of_a_document_and_runs_none_past_the_limit(
    sqlite_url: str,
) -> None:
    """RATE_LIMITED per player on GraphQL: each mutation field counts (aliases too); a
    document that would go past the limit is refused as a whole before any of it runs."""
    with limited(sqlite_url, rate_mutations_per_player=3) as server:
        ana = register(server.url, "Ana")
        start_of_a_window()
        assert set(ana.gql(TWO_CREATES)) == {"a", "b"}
        failure = ana.error(TWO_CREATES)
        assert failure.code == "RATE_LIMITED"
        assert len(ana.gql("{ games { nodes { id } } }")["games"]["nodes"]) == 2
        # what was refused counted too (retrying at once does not help)
        assert ana.error(CREATE).code == "RATE_LIMITED"


def test_mutations_are_limited_per_client_address_whoever_sends_them(sqlite_url: str) -> None:
    """RATE_LIMITED per client address: players and spectators from one address share the
    address's count."""
    with limited(sqlite_url, rate_mutations_per_address=4) as server:
        start_of_a_window()
        ana, bo = register(server.url, "Ana"), register(server.url, "Bo")  # 2 mutations
        assert ana.gql(CREATE)["createGame"]["id"]
        assert bo.rest("POST", "/games", json={"kind": "IMHOTEP", "seats": 2}).status_code == 201
        refused = bo.rest("POST", "/games", json={"kind": "IMHOTEP", "seats": 2})
        assert refused.status_code == 429 and refused.json()["code"] == "RATE_LIMITED"
        assert "from this address" in refused.json()["detail"]
        assert ana.error(CREATE).code == "RATE_LIMITED"


def test_registrations_are_limited_per_client_address_on_both_transports(
    sqlite_url: str,
) -> None:
    """RATE_LIMITED for registrations per address, counted together on both transports."""
    with limited(sqlite_url, rate_registrations_per_address=2) as server:
        start_of_a_window()
        client = Client(server.url)
        assert client.gql(REGISTER, {"n": "Ana"})["registerPlayer"]["token"]
        assert client.rest("POST", "/players", json={"name": "Bo"}).status_code == 201
        failure = client.error(REGISTER, {"n": "Cy"})
        assert failure.code == "RATE_LIMITED"
        assert "registrations from this address" in str(failure)
        refused = client.rest("POST", "/players", json={"name": "Cy"})
        assert refused.status_code == 429
        retry_after(refused)


def test_bad_tokens_past_the_limit_are_refused_until_the_window_ends_but_valid_ones_are_not(
    sqlite_url: str,
) -> None:
    """RATE_LIMITED for failed authentication per address: past the limit every bad token
    from that address is answered RATE_LIMITED (429, Retry-After) until the window ends, on
    both transports; a valid token from the same address is still served throughout (bad
    tokens throttle bad tokens, never the address's players: issue #20)."""
    with limited(sqlite_url, rate_failed_authentications_per_address=3) as server:
        ana = register(server.url, "Ana")
        start_of_a_window()
        bad = Client(server.url, token="not-a-token")
        well_shaped = Client(server.url, token="A" * 43)  # the shape of a real token: looked up
        assert bad.rest("GET", "/me").status_code == 401
        assert well_shaped.error("{ me { name } }").code == "UNAUTHENTICATED"
        assert bad.rest("POST", "/games", json={"kind": "IMHOTEP", "seats": 2}).status_code == 401
        refused = bad.rest("GET", "/me")
        assert refused.status_code == 429 and refused.json()["code"] == "RATE_LIMITED"
        wait = retry_after(refused)
        answer = well_shaped.http.post(
            "/graphql", json={"query": "{ me { name } }"}, headers=well_shaped.headers()
        )
        assert answer.status_code == 429 and int(answer.headers["Retry-After"]) >= 1
        assert answer.json()["errors"][0]["extensions"]["code"] == "RATE_LIMITED"

        # the address's valid token is served meanwhile, on both transports, reads and writes
        assert ana.rest("GET", "/me").json()["name"] == "Ana"
        mine = ana.http.post("/graphql", json={"query": "{ me { name } }"}, headers=ana.headers())
        assert mine.status_code == 200 and mine.json() == {"data": {"me": {"name": "Ana"}}}
        assert ana.gql(CREATE)["createGame"]["id"]
        bo = register(server.url, "Bo")  # a player who signs in from there now is served too
        assert bo.rest("GET", "/me").json()["name"] == "Bo"
        assert Client(server.url).gql("{ me { name } }") == {"me": None}  # no token: no check
        assert bad.rest("GET", "/me").status_code == 429  # and bad tokens stay refused

        time.sleep(wait)
        assert bad.rest("GET", "/me").status_code == 401


def test_an_operation_that_never_asks_for_the_caller_is_answered_whatever_the_token(
    sqlite_url: str,
) -> None:
    """A bad token counts as a failed authentication wherever it is sent, but only an operation
    that needs the caller is refused for it: ``{ __typename }`` is answered 200 with its data
    and no error each time, even once the address is locked out (docs/API.md "Errors":
    RATE_LIMITED 429 answers a refused request, never one that was served)."""
    with limited(sqlite_url, rate_failed_authentications_per_address=2) as server:
        start_of_a_window()
        bad = Client(server.url, token="not-a-token")
        for _ in range(4):
            answer = bad.http.post(
                "/graphql", json={"query": "{ __typename }"}, headers=bad.headers()
            )
            assert answer.status_code == 200, answer.text
            assert answer.json() == {"data": {"__typename": "Query"}}
            assert "Retry-After" not in answer.headers
        refused = bad.http.post(
            "/graphql", json={"query": "{ me { name } }"}, headers=bad.headers()
        )
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
        assert refused.json()["errors"][0]["extensions"]["code"] == "RATE_LIMITED"


SHARED_WINDOW = 30


@pytest.fixture
def two_limited_processes(postgres_url: str) -> Iterator[tuple[Process, Process]]:
    options = ("--rate-window", str(SHARED_WINDOW), "--rate-mutations-per-player", "4")
    with processes(postgres_url, *options) as (front, back):
        yield front, back


@pytest.mark.postgres
def test_the_limits_are_shared_by_every_server_process_on_one_postgresql(
    two_limited_processes: tuple[Process, Process],
) -> None:
    """RATE_LIMITED across processes: the count lives in the database, so a player who
    spreads mutations over two server processes meets one limit."""
    front, back = two_limited_processes
    ana = register(front.url, "Ana")
    ana_on_back = Client(back.url, ana.token)
    start_of_a_window(SHARED_WINDOW, room=10)
    for client in (ana, ana_on_back, ana, ana_on_back):
        assert (
            client.rest("POST", "/games", json={"kind": "IMHOTEP", "seats": 2}).status_code == 201
        )
    for client in (ana, ana_on_back):
        refused = client.rest("POST", "/games", json={"kind": "IMHOTEP", "seats": 2})
        assert refused.status_code == 429 and refused.json()["code"] == "RATE_LIMITED"
        assert 1 <= int(refused.headers["Retry-After"]) <= SHARED_WINDOW
        assert client.error(CREATE).code == "RATE_LIMITED"


def test_the_default_limits_are_generous() -> None:
    """The defaults leave room for real play and for this suite (which registers many players
    from one address), and can be lowered per server."""
    limits = Settings().rate_limits
    assert limits.window_seconds == 60
    assert limits.mutations_per_player >= 600
    assert limits.mutations_per_address >= 5000
    assert limits.registrations_per_address >= 100
    assert limits.failed_authentications_per_address >= 100
    lowered = Settings.from_environment(
        {"PAPYRUS_RATE_MUTATIONS_PER_PLAYER": "5"}, ["--rate-window", "10"]
    ).rate_limits
    assert (lowered.mutations_per_player, lowered.window_seconds) == (5, 10)
