"""Contract fixes found when trying the API as a client, each over the real HTTP server.

Capabilities: idempotent ``act`` (docs/API.md ``act``, ``Idempotency-Key``), replay ``stateAt``,
seating (``joinGame``, error code ``TABLE_FULL``), REST replay paging, acting for one of several
seats (``act(seat:)``), Relay connections and ``node(id:)``, the ``lobbyChanged`` subscription,
HTTP caching and compression of final answers, README "A first game, step by step".
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from pathlib import Path
from typing import Any

from tests.client import Client, register, subscribe, wait_game
from tests.conftest import Server
from tests.service.play import finished_against_bots

ACT = (
    "mutation($g: ID!, $a: JSON!, $k: String, $s: Int) { act(gameId: $g, action: $a, "
    "idempotencyKey: $k, seat: $s) { game { version } events { version type } } }"
)
KEYED = (
    "mutation($g: ID!, $a: JSON!, $k: String) { act(gameId: $g, action: $a, idempotencyKey: $k) "
    "{ game { version } events { version type } } }"
)
GAME = "query($g: ID!) { game(id: $g) { status version activeSeats mySeat legalActions } }"


def table(owner: Client, seats: int = 2) -> str:
    created = owner.gql(
        'mutation($n: Int!) { createGame(input: {kind: IMHOTEP, seats: $n, seed: "s"}) { id } }',
        {"n": seats},
    )
    return str(created["createGame"]["id"])


def join(player: Client, game_id: str, seat: int | None = None) -> None:
    player.gql(
        "mutation($g: ID!, $s: Int) { joinGame(gameId: $g, seat: $s) { id } }",
        {"g": game_id, "s": seat},
    )


def bot(owner: Client, game_id: str) -> None:
    owner.gql("mutation($g: ID!) { addBot(gameId: $g) { id } }", {"g": game_id})


def game_with_a_bot(base_url: str) -> tuple[Client, str]:
    """Ana at seat 0, a bot at seat 1: the game is active and it is Ana's turn (once the bot
    has played, if its seat began: it replies in its own command)."""
    ana = register(base_url, "Ana")
    game_id = table(ana)
    join(ana, game_id)
    bot(ana, game_id)
    wait_game(ana, game_id)
    return ana, game_id


def finished_game(server: Server) -> tuple[Client, str]:
    """A whole game played by a host and a bot (``finished_against_bots``), and Ana, who
    reads it."""
    return register(server.url, "Ana"), finished_against_bots(
        server.database_url, "imhotep", 2, heard_by=server.url
    )


def test_an_idempotency_key_reused_for_another_action_is_refused(server) -> None:  # type: ignore[no-untyped-def]
    """``act``: a retry with the same key answers what the first attempt did; the same key
    with a different action is BAD_INPUT (over GraphQL and REST), not the old answer."""
    ana, game_id = game_with_a_bot(server.url)
    legal = ana.gql(GAME, {"g": game_id})["game"]["legalActions"]
    first = ana.gql(KEYED, {"g": game_id, "a": legal[0], "k": "ana-1"})["act"]
    again = ana.gql(KEYED, {"g": game_id, "a": legal[0], "k": "ana-1"})["act"]
    assert again["events"] == first["events"]
    other = next(a for a in legal if a != legal[0])
    refused = ana.error(KEYED, {"g": game_id, "a": other, "k": "ana-1"})
    assert refused.code == "BAD_INPUT"
    assert "already used for another action" in str(refused)
    answer = ana.rest(
        "POST",
        f"/games/{game_id}/actions",
        json={"action": other},
        headers={"Idempotency-Key": "ana-1"},
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == "BAD_INPUT"
    assert "another action" in answer.json()["detail"]


def test_state_at_a_version_the_game_has_not_is_an_error_on_that_field_alone(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """``Game.stateAt``: a version past the game's is BAD_INPUT on ``stateAt`` only; the rest of
    the game is still answered."""
    ana, game_id = game_with_a_bot(sqlite_server.url)
    body = ana.raw(
        "query($g: ID!) { game(id: $g) { id status stateAt(version: 9999) } }", {"g": game_id}
    )
    assert body["data"]["game"]["id"] == game_id
    assert body["data"]["game"]["status"] == "ACTIVE"
    assert body["data"]["game"]["stateAt"] is None
    [error] = body["errors"]
    assert error["path"] == ["game", "stateAt"]
    assert error["extensions"]["code"] == "BAD_INPUT"


def test_joining_a_full_table_is_table_full(server) -> None:  # type: ignore[no-untyped-def]
    """Seating: a table whose seats are all taken answers TABLE_FULL (409), over GraphQL and
    REST, with a message saying so; the code is in the OpenAPI document's problem codes."""
    _, game_id = game_with_a_bot(server.url)
    late = register(server.url, "Late")
    refused = late.error("mutation($g: ID!) { joinGame(gameId: $g) { id } }", {"g": game_id})
    assert refused.code == "TABLE_FULL"
    assert "full" in str(refused)
    answer = late.rest("POST", f"/games/{game_id}/seats", json={})
    assert answer.status_code == 409
    assert answer.json()["code"] == "TABLE_FULL"
    document = late.http.get("/api/v1/openapi.json").json()
    assert (
        "TABLE_FULL" in document["components"]["schemas"]["Problem"]["properties"]["code"]["enum"]
    )


def test_rest_replay_pages_with_after_limit_and_next_after(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """REST ``replay``: ``limit`` items after ``after``, and ``nextAfter`` for the next page
    (null on the last), as ``/events`` does."""
    ana, game_id = finished_game(sqlite_server)
    version = ana.gql(GAME, {"g": game_id})["game"]["version"]
    first = ana.rest("GET", f"/games/{game_id}/replay", params={"limit": 2}).json()
    assert [s["event"]["version"] for s in first["items"]] == [1, 2]
    assert first["nextAfter"] == 2
    second = ana.rest(
        "GET", f"/games/{game_id}/replay", params={"after": first["nextAfter"], "limit": 2}
    ).json()
    assert [s["event"]["version"] for s in second["items"]] == [3, 4]
    last = ana.rest(
        "GET", f"/games/{game_id}/replay", params={"after": version - 1, "limit": 5}
    ).json()
    assert [s["event"]["version"] for s in last["items"]] == [version]
    assert last["nextAfter"] is None


def test_a_player_holding_several_seats_says_which_one_acts(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """``act(seat:)`` and REST ``seat``: the named seat acts; a seat the caller does not hold
    is FORBIDDEN."""
    ana = register(sqlite_server.url, "Ana")
    game_id = table(ana, seats=3)
    join(ana, game_id, 0)
    join(ana, game_id, 1)
    bot(ana, game_id)  # seat 2
    game = ana.gql(GAME, {"g": game_id})["game"]
    [active] = game["activeSeats"]
    idle = 1 - active if active in (0, 1) else 0
    action = game["legalActions"][0]
    waiting = ana.error(ACT, {"g": game_id, "a": action, "s": idle})
    assert waiting.code == "NOT_YOUR_TURN"  # the named seat is the one that tried
    forbidden = ana.error(ACT, {"g": game_id, "a": action, "s": 2})
    assert forbidden.code == "FORBIDDEN"
    assert "seat 2" in str(forbidden)
    answer = ana.rest("POST", f"/games/{game_id}/actions", json={"action": action, "seat": 2})
    assert answer.status_code == 403 and answer.json()["code"] == "FORBIDDEN"
    answer = ana.rest("POST", f"/games/{game_id}/actions", json={"action": action, "seat": active})
    assert answer.status_code == 200, answer.text


def test_relay_page_info_and_node(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """Relay: ``PageInfo`` has ``hasPreviousPage`` and ``startCursor`` besides
    ``hasNextPage``/``endCursor``; ``node(id:)`` finds a ``Game`` (null for an unknown id)."""
    ana, game_id = game_with_a_bot(sqlite_server.url)
    page = (
        "query($g: ID!, $a: String) { game(id: $g) { events(first: 2, after: $a) { totalCount "
        "edges { cursor } pageInfo { hasPreviousPage hasNextPage startCursor endCursor } } } }"
    )
    first = ana.gql(page, {"g": game_id})["game"]["events"]
    info = first["pageInfo"]
    assert info["hasPreviousPage"] is False and info["hasNextPage"] is True
    assert info["startCursor"] == first["edges"][0]["cursor"]
    assert info["endCursor"] == first["edges"][-1]["cursor"]
    second = ana.gql(page, {"g": game_id, "a": info["endCursor"]})["game"]["events"]["pageInfo"]
    assert second["hasPreviousPage"] is True
    games = ana.gql("{ games(first: 1) { pageInfo { hasPreviousPage startCursor } } }")
    assert games["games"]["pageInfo"]["hasPreviousPage"] is False
    node = "query($i: ID!) { node(id: $i) { id __typename ... on Game { status } } }"
    found = ana.gql(node, {"i": game_id})["node"]
    assert found == {"id": game_id, "__typename": "Game", "status": "ACTIVE"}
    assert ana.gql(node, {"i": "no-such-game"})["node"] is None


LOBBY = "subscription { lobbyChanged { gameId status freeSeats } }"


def test_lobby_changed_sends_one_message_per_change(server) -> None:  # type: ignore[no-untyped-def]
    """``lobbyChanged``: two changes of a table (created, one seat taken) are exactly two
    messages, counted up to a later change of another table that marks the end."""
    ana = register(server.url, "Ana")
    marker: list[str] = []
    box: list[list[dict[str, Any]]] = []

    def done(payloads: list[dict[str, Any]]) -> bool:
        return bool(marker) and any(p["data"]["lobbyChanged"]["gameId"] in marker for p in payloads)

    def watch() -> None:
        box.append(asyncio.run(subscribe(server.ws_url, LOBBY, {}, until=done, timeout=60)))

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    deadline = time.monotonic() + 30  # the subscriber listens before the changes are made
    while not _subscribed(server) and time.monotonic() < deadline:
        time.sleep(0.05)
    game_id = table(ana)
    join(ana, game_id)
    marker.append(table(ana))
    watcher.join(timeout=60)
    assert box, "the lobby subscription did not finish"
    seen = [p["data"]["lobbyChanged"] for p in box[0]]
    mine = [c for c in seen if c["gameId"] == game_id]
    assert len(mine) == 2, seen
    # each shows the table at least as it was after its change (the read model may be ahead)
    assert [c["freeSeats"] for c in mine][-1] == 1
    assert all(c["freeSeats"] <= most for c, most in zip(mine, [2, 1], strict=True))
    assert len([c for c in seen if c["gameId"] in marker]) == 1


def _subscribed(server: Any) -> bool:
    """Whether the server holds a live subscription (its metrics' gauge)."""
    import httpx

    text = httpx.get(server.metrics_url).text
    found = re.search(r"^papyrus_graphql_subscriptions (\d+)", text, re.MULTILINE)
    return bool(found and int(found.group(1)) > 0)


def test_final_answers_have_an_etag_and_large_ones_are_gzipped(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """HTTP caching: a finished game, its events, its export and its replay carry ``ETag`` and
    ``Cache-Control``; ``If-None-Match`` with the tag is 304 without a body. A running game's
    answers carry none. Answers over 1 KB are gzipped for clients that accept it."""
    ana, game_id = finished_game(sqlite_server)
    for path in ("", "/events", "/export", "/replay?limit=3"):
        answer = ana.rest("GET", f"/games/{game_id}{path}")
        assert answer.status_code == 200, (path, answer.text)
        tag = answer.headers["etag"]
        assert "max-age" in answer.headers["cache-control"]
        again = ana.rest("GET", f"/games/{game_id}{path}", headers={"If-None-Match": tag})
        assert again.status_code == 304, path
        assert again.content == b""
        assert again.headers["etag"] == tag
        assert ana.rest("GET", f"/games/{game_id}{path}").json() == answer.json()
    events = ana.rest("GET", f"/games/{game_id}/events", headers={"Accept-Encoding": "gzip"})
    assert events.headers["content-encoding"] == "gzip"
    assert events.json()["items"]
    running, active_id = game_with_a_bot(sqlite_server.url)
    answer = running.rest("GET", f"/games/{active_id}/events")
    assert "etag" not in answer.headers
    assert "content-encoding" not in running.http.get("/healthz").headers


def readme_steps() -> list[str]:
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## A first game, step by step", 1)[1].split("\n## ", 1)[0]
    return [block for block in re.findall(r"```graphql\n(.*?)```", section, re.DOTALL)]


def test_the_readme_first_game_works_pasted_as_it_is_in_either_seat_order(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """README "A first game, step by step": every GraphQL step, pasted with only ``<id>``
    replaced, works whether Ana takes her seat before or after the bot."""
    register_, create, seats, look, act, watch, audit = readme_steps()
    for bot_first in (False, True):
        ana = Client(sqlite_server.url)
        ana.token = ana.gql(register_)["registerPlayer"]["token"]
        game_id = ana.gql(create)["createGame"]["id"]
        join_step, bot_step = (line.strip() for line in seats.strip().splitlines())
        for step in (bot_step, join_step) if bot_first else (join_step, bot_step):
            ana.gql(step.replace("<id>", game_id))
        wait_game(ana, game_id)  # "look again until activeSeats holds your seat"
        game = ana.gql(look.replace("<id>", game_id))["game"]
        assert game["mySeat"] in game["activeSeats"], game
        played = ana.gql(act.replace("<id>", game_id))["act"]
        assert played["events"]
        assert {e["seat"] for e in played["events"]} <= {game["mySeat"], None}  # Ana's own
        payloads = asyncio.run(
            subscribe(
                sqlite_server.ws_url,
                watch.replace("<id>", game_id),
                {},
                token=ana.token,
                until=lambda p: len(p) >= 3,
            )
        )
        assert [p["data"]["gameEvents"]["version"] for p in payloads] == [1, 2, 3]
        shown = ana.gql(audit.replace("<id>", game_id))["game"]
        assert shown["events"]["nodes"] and shown["stateAt"] is not None


def test_the_readme_curl_steps_work_as_they_are(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """README "A first game, step by step", the same over REST: each curl request, as written
    (no body where it sends none), is accepted."""
    anonymous = Client(sqlite_server.url)
    token = anonymous.rest("POST", "/players", json={"name": "Ana"}).json()["token"]
    ana = Client(sqlite_server.url, token)
    game_id = ana.rest("POST", "/games", json={"kind": "IMHOTEP", "seats": 2}).json()["id"]
    assert ana.rest("POST", f"/games/{game_id}/seats").status_code == 200
    assert ana.rest("POST", f"/games/{game_id}/bots").status_code == 200
    wait_game(ana, game_id)  # "repeat until activeSeats holds your seat"
    assert ana.rest("GET", f"/games/{game_id}").json()["legalActions"]
    played = ana.rest(
        "POST",
        f"/games/{game_id}/actions",
        json={"action": {"type": "get_stones"}},
        headers={"Idempotency-Key": "ana-1"},
    )
    assert played.status_code == 200, played.text
