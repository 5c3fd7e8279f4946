"""Players, health, and bad input over the real HTTP server (docs/API.md "Players", "Errors")."""

from __future__ import annotations

from pathlib import Path

from tests.client import Client, register


def test_health_and_readiness(server) -> None:  # type: ignore[no-untyped-def]
    client = Client(server.url)
    assert client.http.get("/healthz").json() == {"status": "ok"}
    assert client.http.get("/readyz").json() == {"status": "ok"}


def test_graphiql_loads_in_a_browser(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    page = Client(sqlite_server.url).http.get("/graphql", headers={"Accept": "text/html"})
    assert page.status_code == 200
    assert "graphiql" in page.text.lower()


def test_a_registered_player_is_known_by_its_token(server) -> None:  # type: ignore[no-untyped-def]
    alice = register(server.url, "Alice")
    me = alice.gql("{ me { id name } }")["me"]
    assert me == {"id": alice.player_id, "name": "Alice"}  # type: ignore[attr-defined]
    assert Client(server.url).gql("{ me { id } }")["me"] is None
    rest = alice.rest("GET", "/me").json()
    assert rest == {"id": alice.player_id, "name": "Alice"}  # type: ignore[attr-defined]


def test_the_token_is_stored_only_as_a_hash(sqlite_server, sqlite_url) -> None:  # type: ignore[no-untyped-def]
    alice = register(sqlite_server.url, "Alice")
    raw = Path(sqlite_url.removeprefix("sqlite:///")).read_bytes()
    assert alice.token is not None and alice.token.encode() not in raw


def test_a_wrong_token_is_unauthenticated_not_a_spectator(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    client = Client(sqlite_server.url, token="not-a-token")
    assert client.error("{ me { id } }").code == "UNAUTHENTICATED"
    response = client.rest("GET", "/me")
    assert response.status_code == 401
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == "UNAUTHENTICATED"


def test_an_empty_name_is_bad_input(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    failure = Client(sqlite_server.url).error('mutation { registerPlayer(name: "  ") { token } }')
    assert failure.code == "BAD_INPUT"
    assert "name" in str(failure)


def test_malformed_json_is_bad_input_on_both_transports(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    client = Client(sqlite_server.url)
    response = client.http.post(
        "/graphql", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code in (400, 422)
    assert response.json()["errors"][0]["extensions"]["code"] == "BAD_INPUT"
    response = client.rest(
        "POST", "/players", content=b"{nope", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422 and response.json()["code"] == "BAD_INPUT"


def test_syntax_errors_and_unknown_fields_are_bad_input(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    client = Client(sqlite_server.url)
    assert client.error("{ me { id ").code == "BAD_INPUT"
    assert client.error("{ nothing }").code == "BAD_INPUT"


def test_oversized_queries_are_refused(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    client = Client(sqlite_server.url)
    deepest = "{ games { edges { node { events { edges { node { version } } } } } } }"
    assert "errors" not in client.raw(deepest)
    many_tokens = "{ " + " ".join(f"a{i}: me {{ id }}" for i in range(1500)) + " }"
    failure = client.error(many_tokens)
    assert failure.code == "BAD_INPUT" and "token" in str(failure).lower()
    response = client.http.post("/graphql", json={"query": "{ me { id } }" + " " * 3_000_000})
    assert response.status_code == 413
    assert response.json()["errors"][0]["extensions"]["code"] == "BAD_INPUT"


def test_depth_is_limited() -> None:
    """The schema has no cycles today; the depth rule guards the day it gets one."""
    from graphql import parse, validate

    from service.api.graphql.schema import DEPTH_RULE, MAX_DEPTH, schema
    from service.api.graphql.strawberry_private import create_validator

    deepest = parse("{ games { edges { node { events { edges { node { version } } } } } } }")
    assert MAX_DEPTH >= 7  # the deepest meaningful query (events of listed games) passes
    assert validate(schema._schema, deepest, [DEPTH_RULE]) == []
    errors = validate(schema._schema, deepest, [create_validator(5, None, None)])
    assert errors and "exceeds maximum operation depth" in errors[0].message


def test_an_unknown_game_is_null_in_graphql_and_not_found_elsewhere(server) -> None:  # type: ignore[no-untyped-def]
    alice = register(server.url, "Alice")
    missing = "7d5c6a3e-0000-4000-8000-000000000000"
    assert alice.gql("query($id: ID!) { game(id: $id) { id } }", {"id": missing})["game"] is None
    assert alice.gql('{ game(id: "not-a-uuid") { id } }')["game"] is None
    failure = alice.error(
        'mutation($id: ID!) { act(gameId: $id, action: {type: "pass"}) { game { id } } }',
        {"id": missing},
    )
    assert failure.code == "NOT_FOUND"
    response = alice.rest("GET", f"/games/{missing}")
    assert response.status_code == 404 and response.json()["code"] == "NOT_FOUND"


def test_a_lost_database_is_unavailable_not_internal(postgres_url: str) -> None:
    """docs/API.md: UNAVAILABLE 503 when the event store cannot be reached; never a 500."""
    import psycopg

    from tests.conftest import POSTGRES_URL, Server

    with Server(postgres_url) as running:
        client = Client(running.url)
        assert client.http.get("/readyz").status_code == 200
        name = postgres_url.rsplit("/", 1)[1]
        with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        ready = client.http.get("/readyz")
        assert ready.status_code == 503 and ready.json()["code"] == "UNAVAILABLE"
        failure = client.error('mutation { registerPlayer(name: "Ana") { token } }')
        assert failure.code == "UNAVAILABLE"
        response = client.rest("POST", "/players", json={"name": "Ana"})
        assert response.status_code == 503 and response.json()["code"] == "UNAVAILABLE"


def test_the_id_of_a_player_is_not_the_id_of_a_game(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """Found by schemathesis: every aggregate shares the store; only games are games."""
    alice = register(sqlite_server.url, "Alice")
    pid = alice.player_id  # type: ignore[attr-defined]
    for path in ("", "/events", "/state", "/verify", "/replay", "/export"):
        response = alice.rest("GET", f"/games/{pid}{path}")
        assert response.status_code == 404, (path, response.text)
        assert response.json()["code"] == "NOT_FOUND"
    failure = alice.error("query($g: ID!) { verifyLog(gameId: $g) { ok } }", {"g": pid})
    assert failure.code == "NOT_FOUND"
    assert alice.gql("query($g: ID!) { game(id: $g) { id } }", {"g": pid})["game"] is None


def test_huge_numbers_are_bad_input(server) -> None:  # type: ignore[no-untyped-def]
    alice = register(server.url, "Alice")
    game = alice.rest("POST", "/games", json={"kind": "IMHOTEP", "seats": 2}).json()["id"]
    for path in (
        f"/games/{game}/events?after=99999999999999999999999",
        f"/games/{game}/state?version=99999999999999999999999",
        "/games?cursor=99999999999999999999999",
        "/summaries?minPosition=-1",
    ):
        response = alice.rest("GET", path)
        assert response.status_code == 422, (path, response.text)
        assert response.json()["code"] == "BAD_INPUT"
    big = alice.rest("POST", f"/games/{game}/actions", json={"action": {"type": "pass"}, "expectedVersion": 10**30})
    assert big.status_code == 422


def test_forged_cursors_are_bad_input(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    import base64

    alice = register(sqlite_server.url, "Alice")
    game = alice.rest("POST", "/games", json={"kind": "IMHOTEP", "seats": 2}).json()["id"]
    for raw in ("event:abc", "event:99999999999999999999999", "game:1", "nonsense"):
        cursor = base64.urlsafe_b64encode(raw.encode()).decode()
        failure = alice.error(
            "query($g: ID!, $a: String) { game(id: $g) { events(after: $a) { nodes { version } } } }",
            {"g": game, "a": cursor},
        )
        assert failure.code == "BAD_INPUT", raw
    assert alice.error('{ leaderboard(kind: IMHOTEP, after: "@@") { nodes { rank } } }').code == "BAD_INPUT"
