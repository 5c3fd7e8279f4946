"""Accounts over the real HTTP server: logout, token rotation and account deletion on both
transports, revocation across applications and server processes, names refused with their
reasons, and a deleted player's name on no read path of a finished game that still verifies
(docs/accounts.md; ``domain.redaction``)."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import pytest

from domain import table as tables
from domain.contract import Event
from domain.redaction import DELETED_PLAYER
from service.app.application import Application
from service.app.errors import Unauthenticated
from service.store.database import open_store
from tests.client import Client, register, subscribe
from tests.conftest import Server
from tests.service.play import create_table, play_graphql
from tests.serving import ServeProcess as Process

ME = "{ me { id name } }"
ROTATE = "mutation { rotateToken { player { id name } token } }"
LOGOUT = "mutation { logout }"
DELETE = "mutation { deleteAccount }"
REGISTER = "mutation($n: String!) { registerPlayer(name: $n) { player { id name } token } }"
#: a name that appears nowhere else in any answer
SECRET_NAME = "Zelda Quux-Ostrogoth"


def code_of(client: Client, query: str, variables: dict[str, Any] | None = None) -> str | None:
    return client.error(query, variables).code


def signed_in(client: Client) -> bool:
    body = client.raw(ME)
    if body.get("errors"):
        assert body["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED", body
        return False
    return bool(body["data"]["me"])


def rest_register(base_url: str, name: str) -> Client:
    client = Client(base_url)
    response = client.rest("POST", "/players", json={"name": name})
    assert response.status_code == 201, response.text
    client.token = response.json()["token"]
    client.player_id = response.json()["player"]["id"]  # type: ignore[attr-defined]
    return client


# -- logout and rotation ------------------------------------------------------------------------


def test_logout_revokes_the_token_at_once_on_both_transports(sqlite_server: Server) -> None:
    """Logout: the token sent is UNAUTHENTICATED from the next request on, on both
    transports, whichever transport logged out."""
    over_graphql = register(sqlite_server.url, "Ana")
    assert over_graphql.gql(LOGOUT) == {"logout": True}
    assert not signed_in(over_graphql)
    refused = over_graphql.rest("GET", "/me")
    assert refused.status_code == 401 and refused.json()["code"] == "UNAUTHENTICATED"
    assert code_of(over_graphql, LOGOUT) == "UNAUTHENTICATED"  # once only

    over_rest = rest_register(sqlite_server.url, "Bo")
    assert signed_in(over_rest)
    logged_out = over_rest.rest("POST", "/me/logout")
    assert logged_out.status_code == 204, logged_out.text
    assert over_rest.rest("GET", "/me").status_code == 401
    assert not signed_in(over_rest)
    assert over_rest.rest("POST", "/me/logout").status_code == 401

    spectator = Client(sqlite_server.url)
    assert code_of(spectator, LOGOUT) == "UNAUTHENTICATED"
    assert spectator.rest("POST", "/me/logout").status_code == 401


def test_rotation_gives_a_new_token_and_revokes_the_old_one_on_both_transports(
    sqlite_server: Server,
) -> None:
    """Token rotation: a new token for the same player; the old one stops working at once."""
    ana = register(sqlite_server.url, "Ana")
    first = ana.token
    session = ana.gql(ROTATE)["rotateToken"]
    assert session["player"] == {"id": ana.player_id, "name": "Ana"}  # type: ignore[attr-defined]
    assert session["token"] != first
    old = Client(sqlite_server.url, first)
    assert not signed_in(old)
    assert code_of(old, ROTATE) == "UNAUTHENTICATED"  # a revoked token cannot rotate again
    ana.token = session["token"]
    assert ana.gql(ME)["me"]["id"] == ana.player_id  # type: ignore[attr-defined]

    second = ana.token
    rotated = ana.rest("POST", "/me/token")
    assert rotated.status_code == 200, rotated.text
    body = rotated.json()
    assert body["player"]["id"] == ana.player_id  # type: ignore[attr-defined]
    assert body["token"] not in (first, second)
    assert Client(sqlite_server.url, second).rest("GET", "/me").status_code == 401
    ana.token = body["token"]
    assert ana.rest("GET", "/me").json()["name"] == "Ana"
    # the player's games follow the player, not the token
    game = ana.rest("POST", "/games", json={"kind": "IMHOTEP", "seats": 2}).json()["id"]
    assert ana.rest("POST", f"/games/{game}/seats", json={}).status_code == 200
    ana.token = ana.gql(ROTATE)["rotateToken"]["token"]
    seen = ana.gql("query($g: ID!) { game(id: $g) { mySeat } }", {"g": game})["game"]
    assert seen["mySeat"] == 0


def test_a_token_revoked_by_one_application_is_refused_by_another_at_once(
    database_url: str,
) -> None:
    """Logout across processes: two applications on one database; the second has the token
    in its cache, and refuses it as soon as the first one revoked it (it reads the
    credential on every request)."""
    first_store, second_store = open_store(database_url), open_store(database_url)
    try:
        first, second = Application(first_store), Application(second_store)
        caller, token = first.accounts.register_player("Ana")
        bearer = f"Bearer {token}"
        assert second.accounts.authenticate(bearer).player_id == caller.player_id
        assert second.accounts.authenticate(bearer).player_id == caller.player_id  # cached

        rotated, fresh = first.accounts.rotate_token(first.accounts.authenticate(bearer))
        assert rotated.player_id == caller.player_id
        with pytest.raises(Unauthenticated):
            second.accounts.authenticate(bearer)
        assert second.accounts.authenticate(f"Bearer {fresh}").player_id == caller.player_id

        first.accounts.log_out(first.accounts.authenticate(f"Bearer {fresh}"))
        with pytest.raises(Unauthenticated):
            second.accounts.authenticate(f"Bearer {fresh}")
    finally:
        first_store.close()
        second_store.close()


def refused_soon(client: Client, seconds: float = 1.0) -> bool:
    """The client's token is refused within ``seconds`` (another process learns of a
    revocation from the store's feed: LISTEN/NOTIFY, milliseconds; the bound is generous for a
    loaded machine, and far below ``accounts.TOKEN_RECHECK_SECONDS``)."""
    deadline = time.monotonic() + seconds
    while signed_in(client):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


@pytest.mark.postgres
def test_a_token_revoked_on_one_server_process_is_refused_by_the_other_within_its_feed_bound(
    two_processes: tuple[Process, Process],
) -> None:
    """Logout, rotation and deletion across server processes on one PostgreSQL: the other
    process, which has just served the token from memory (no read of the credential), refuses
    it as soon as the store's feed tells it of the revocation (within a second here;
    docs/accounts.md "Tokens"); after a deletion it shows the player as DELETED_PLAYER as soon as
    the feed tells of it."""
    front, back = two_processes
    ana = register(front.url, "Ana")
    ana_on_back = Client(back.url, ana.token)
    assert signed_in(ana_on_back)
    assert signed_in(ana_on_back)  # now trusted from memory on the back process
    assert ana.gql(LOGOUT) == {"logout": True}
    assert refused_soon(ana_on_back)
    assert ana_on_back.rest("GET", "/me").status_code == 401

    bo = register(front.url, "Bo")
    bo_on_back = Client(back.url, bo.token)
    assert signed_in(bo_on_back)
    fresh = bo.gql(ROTATE)["rotateToken"]["token"]
    assert refused_soon(bo_on_back)
    bo_on_back.token = fresh
    assert signed_in(bo_on_back)

    assert bo_on_back.gql(DELETE) == {"deleteAccount": True}
    bo.token = fresh
    assert refused_soon(bo)
    assert bo.rest("GET", "/me").status_code == 401

    zelda, other = register(front.url, SECRET_NAME), register(front.url, "Other")
    game_id = create_table([zelda, other], "IMHOTEP")
    other.gql("mutation($g: ID!) { abandonGame(gameId: $g) { status } }", {"g": game_id})
    watcher, path = Client(back.url), f"/games/{game_id}"
    assert SECRET_NAME in watcher.rest("GET", path).text
    assert zelda.rest("DELETE", "/me").status_code == 204  # on the front process
    deadline = time.monotonic() + 10
    while SECRET_NAME in watcher.rest("GET", path).text:
        assert time.monotonic() < deadline, "the other process still shows the name"
        time.sleep(0.1)
    assert DELETED_PLAYER in watcher.rest("GET", path).text
    assert refused_soon(Client(back.url, zelda.token))


async def open_socket_then_rotate(server: Server, ana: Client, bo: Client, game_id: str) -> Any:
    """Ana's websocket (opened with her first token): a query, a live subscription; then
    she rotates her token over HTTP and the game moves on."""
    import websockets

    async with websockets.connect(server.ws_url, subprotocols=["graphql-transport-ws"]) as ws:  # type: ignore[list-item]

        async def send(kind: str, ident: str | None = None, payload: Any = None) -> None:
            message: dict[str, Any] = {"type": kind}
            if ident is not None:
                message["id"] = ident
            if payload is not None:
                message["payload"] = payload
            await ws.send(json.dumps(message))

        async def answer(ident: str) -> dict[str, Any]:
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if message.get("id") == ident and message["type"] in ("next", "error"):
                    return dict(message)

        await send("connection_init", payload={"authorization": f"Bearer {ana.token}"})
        assert json.loads(await asyncio.wait_for(ws.recv(), 30))["type"] == "connection_ack"
        await send("subscribe", "me", {"query": ME})
        assert (await answer("me"))["payload"]["data"]["me"]["name"] == "Ana"
        await send(
            "subscribe",
            "events",
            {
                "query": "subscription($g: ID!) { gameEvents(gameId: $g) { version } }",
                "variables": {"g": game_id},
            },
        )
        await asyncio.sleep(0.3)  # subscribed before the game moves
        rotated = await asyncio.to_thread(ana.gql, ROTATE)
        ana.token = rotated["rotateToken"]["token"]
        query = "query($g: ID!) { game(id: $g) { activeSeats legalActions } }"
        seat = (await asyncio.to_thread(ana.gql, query, {"g": game_id}))["game"]["activeSeats"][0]
        mover = (ana, bo)[seat]
        legal = (await asyncio.to_thread(mover.gql, query, {"g": game_id}))["game"]["legalActions"]
        await asyncio.to_thread(
            mover.gql,
            "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { version } } }",
            {"g": game_id, "a": legal[0]},
        )
        news = await answer("events")
        await send("subscribe", "me again", {"query": ME})
        return news, await answer("me again")


def test_a_websocket_opened_with_a_revoked_token_is_refused_from_then_on(
    sqlite_server: Server,
) -> None:
    """Revocation reaches open websockets too: the next operation on the connection, and a
    live subscription at its next event, are UNAUTHENTICATED (no more private views)."""
    ana, bo = register(sqlite_server.url, "Ana"), register(sqlite_server.url, "Bo")
    game_id = create_table([ana, bo], "IMHOTEP")
    news, me = asyncio.run(open_socket_then_rotate(sqlite_server, ana, bo, game_id))
    errors = news["payload"] if news["type"] == "error" else news["payload"]["errors"]
    assert errors[0]["extensions"]["code"] == "UNAUTHENTICATED", news
    me_errors = me["payload"] if me["type"] == "error" else me["payload"]["errors"]
    assert me_errors[0]["extensions"]["code"] == "UNAUTHENTICATED", me


# -- names --------------------------------------------------------------------------------------


BAD_NAMES = [
    ("", "must not be empty"),
    ("   \u3000 ", "must not be empty"),
    ("x" * 41, "at most 40 characters"),
    ("Ana\u202egnp.exe", "U+202E (RIGHT-TO-LEFT OVERRIDE) at position 4"),
    ("\u2066Ana", "U+2066 (LEFT-TO-RIGHT ISOLATE) at position 1"),
    ("Ana\u200bBo", "U+200B (ZERO WIDTH SPACE)"),
    ("Ana\x07", "U+0007"),
    ("Ana\nBo", "U+000A"),
    ("Bot (random)", "reserved for the server's bots"),
    ("bot(greedy)", "reserved for the server's bots"),
    ("\uff22\uff4f\uff54 (random)", "reserved for the server's bots"),  # full-width letters
    ("SYSTEM", "is reserved"),
    ("  Papyrus ", "is reserved"),
    ("admin", "is reserved"),
    ("Deleted   PLAYER", "is reserved"),
]


@pytest.mark.parametrize(("name", "reason"), BAD_NAMES)
def test_a_name_is_refused_with_its_reason_on_both_transports(
    sqlite_server: Server, name: str, reason: str
) -> None:
    """Names: trimmed, at most 40 characters, no control or invisible formatting characters
    (bidirectional overrides included), none that passes for a bot, the server or a deleted
    player: BAD_INPUT saying why."""
    client = Client(sqlite_server.url)
    failure = client.error(REGISTER, {"n": name})
    assert failure.code == "BAD_INPUT"
    assert reason in str(failure), str(failure)
    response = client.rest("POST", "/players", json={"name": name})
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "BAD_INPUT"
    assert reason in response.json()["detail"]


def test_a_name_is_trimmed_and_its_inner_spaces_collapsed(sqlite_server: Server) -> None:
    """Names: what is stored is the trimmed name; accents, other scripts and emoji are fine."""
    client = Client(sqlite_server.url)
    for sent, kept in (
        ("  Ana   Maria ", "Ana Maria"),
        ("Zoë", "Zoë"),
        ("Ωμέγα 🐍", "Ωμέγα 🐍"),
        ("Robot (the cat)", "Robot (the cat)"),
        ("x" * 40, "x" * 40),
    ):
        assert client.gql(REGISTER, {"n": sent})["registerPlayer"]["player"]["name"] == kept
    response = client.rest("POST", "/players", json={"name": "  Bo  "})
    assert response.json()["player"]["name"] == "Bo"


# -- deletion -----------------------------------------------------------------------------------


def test_an_account_is_not_deleted_while_it_holds_a_seat_at_a_game_that_is_not_over(
    sqlite_server: Server,
) -> None:
    """Account deletion while seated at an open or running game: FORBIDDEN naming the game
    (the player finishes or abandons it first); nothing is deleted."""
    ana, bo = register(sqlite_server.url, "Ana"), register(sqlite_server.url, "Bo")
    open_table = ana.rest("POST", "/games", json={"kind": "IMHOTEP", "seats": 3}).json()["id"]
    assert ana.rest("POST", f"/games/{open_table}/seats", json={}).status_code == 200
    failure = ana.error(DELETE)
    assert failure.code == "FORBIDDEN" and open_table in str(failure)
    running = create_table([bo, ana], "IMHOTEP")
    refused = bo.rest("DELETE", "/me")
    assert refused.status_code == 403 and refused.json()["code"] == "FORBIDDEN"
    assert running in refused.json()["detail"]
    assert signed_in(ana) and signed_in(bo)

    abandon = "mutation($g: ID!) { abandonGame(gameId: $g) { status } }"
    ana.gql(abandon, {"g": open_table})
    ana.gql(abandon, {"g": running})
    assert ana.gql(DELETE) == {"deleteAccount": True}
    assert not signed_in(ana)
    assert bo.rest("DELETE", "/me").status_code == 204
    assert bo.rest("GET", "/me").status_code == 401
    # the abandoned game names neither of them any more: not as seats, not as who abandoned
    seen = Client(sqlite_server.url).rest("GET", f"/games/{running}/events").text
    assert '"Ana"' not in seen and '"Bo"' not in seen and DELETED_PLAYER in seen


GAME_PATHS = (
    "query($g: ID!) { game(id: $g) { seats { player { id name } } "
    "events(first: 100) { nodes { type data } } stateAt(version: 3) "
    "replay(first: 20) { event { data } state } } }"
)
READ_MODEL_PATHS = (
    "query($p: ID!) { gameSummaries(player: $p) { nodes { gameId seats { playerId name } } } "
    "games(player: $p) { nodes { seats { player { name } } } } "
    "player(id: $p) { name gamesPlayed } leaderboard(kind: IMHOTEP) { nodes { playerId name } } "
    "lobby { nodes { seats { name } } } }"
)


def everything_shown(viewer: Client, game_id: str, player_id: str, ws_url: str) -> str:
    """Every answer of every read path that shows this game or this player, as text."""
    variables = {"g": game_id, "p": player_id}
    answers: list[Any] = [
        viewer.gql(GAME_PATHS, variables),
        viewer.gql(READ_MODEL_PATHS, variables),
        viewer.gql("query($g: ID!) { exportGame(gameId: $g) }", variables),
    ]
    for after in range(0, 400, 50):  # the whole replay, a page at a time
        page = viewer.gql(
            "query($g: ID!, $a: Int!) { game(id: $g) { replay(after: $a, first: 50) "
            "{ event { version data } } } }",
            {"g": game_id, "a": after},
        )["game"]["replay"]
        answers.append(page)
        if not page:
            break
    for path in (
        f"/games/{game_id}",
        f"/games/{game_id}/events?limit=200",
        f"/games/{game_id}/events?after=200&limit=200",
        f"/games/{game_id}/state?version=3",
        f"/games/{game_id}/replay?limit=200",
        f"/games/{game_id}/replay?after=200&limit=200",
        f"/games/{game_id}/export",
        f"/games?player={player_id}",
        f"/summaries?player={player_id}",
        "/lobby",
        f"/players/{player_id}/profile",
        "/leaderboards/imhotep",
    ):
        response = viewer.rest("GET", path)
        assert response.status_code == 200, (path, response.text)
        answers.append(response.json())
    events = asyncio.run(
        subscribe(
            ws_url,
            "subscription($g: ID!) { gameEvents(gameId: $g, afterVersion: 0) { type data } }",
            {"g": game_id},
            viewer.token,
            timeout=30,
        )
    )
    answers.append(events)
    return json.dumps(answers, ensure_ascii=False)


def test_a_deleted_players_name_is_on_no_read_path_of_a_finished_game_that_still_verifies(
    sqlite_server: Server,
) -> None:
    """Account deletion: the finished game keeps its log (verifyLog ok over GraphQL and REST,
    its export imports), and its deleted player shows as DELETED_PLAYER on every read path
    (seats, events, state, replay, subscriptions, summaries, profile, leaderboard, exports):
    the name is on none of them, for the other player or a spectator."""
    zelda, other = register(sqlite_server.url, SECRET_NAME), register(sqlite_server.url, "Other")
    zelda_id: str = zelda.player_id  # type: ignore[attr-defined]
    game_id = create_table([zelda, other], "IMHOTEP")
    assert play_graphql([zelda, other], game_id, random.Random(3))["status"] == "FINISHED"
    before = everything_shown(other, game_id, zelda_id, sqlite_server.ws_url)
    assert SECRET_NAME in before  # the test looks where the name was

    assert zelda.gql(DELETE) == {"deleteAccount": True}
    assert not signed_in(zelda)
    for viewer in (other, Client(sqlite_server.url)):
        shown = everything_shown(viewer, game_id, zelda_id, sqlite_server.ws_url)
        assert SECRET_NAME not in shown
        assert DELETED_PLAYER in shown
    seats = other.rest("GET", f"/games/{game_id}").json()["seats"]
    assert seats[0]["player"] == {"id": zelda_id, "name": DELETED_PLAYER}
    assert seats[1]["player"]["name"] == "Other"
    profile = other.gql("query($p: ID!) { player(id: $p) { name gamesPlayed } }", {"p": zelda_id})
    assert profile["player"] == {"name": DELETED_PLAYER, "gamesPlayed": 1}

    verify = "query($g: ID!) { verifyLog(gameId: $g) { ok checkedEvents reason } }"
    assert other.gql(verify, {"g": game_id})["verifyLog"]["ok"] is True
    assert other.rest("GET", f"/games/{game_id}/verify").json()["ok"] is True
    document = other.gql("query($g: ID!) { exportGame(gameId: $g) }", {"g": game_id})["exportGame"]
    assert "redacted" not in document  # its names were never sealed: nothing to take on trust
    imported = other.gql(
        "mutation($d: JSON!) { importGame(document: $d) { id status } }", {"d": document}
    )["importGame"]
    assert imported["status"] == "FINISHED"
    assert other.gql(verify, {"g": imported["id"]})["verifyLog"]["ok"] is True
    copy = other.rest("GET", f"/games/{imported['id']}").json()
    assert copy["seats"][0]["player"]["name"] == DELETED_PLAYER


def test_an_export_of_a_log_that_sealed_a_deleted_name_lists_it_and_still_imports(
    sqlite_url: str,
) -> None:
    """Account deletion and logs recorded before names were unsealed (their hash covers the
    name): the export redacts the name and lists the entry in ``redacted``; importGame takes
    that entry's hash as recorded and checks everything else; the copy verifies. Without the
    list, the redacted document does not verify."""
    with Server(sqlite_url) as server:
        zelda, other = register(server.url, SECRET_NAME), register(server.url, "Other")
        zelda_id: str = zelda.player_id  # type: ignore[attr-defined]
        created = zelda.rest("POST", "/games", json={"kind": "IMHOTEP", "seats": 2})
        game_id = created.json()["id"]
        store = open_store(sqlite_url)  # another application on the server's database
        try:
            old_style = Event(
                tables.SEAT_TAKEN,
                {"seat": 0, "player_id": zelda_id, "name": SECRET_NAME, "bot": None},
                0,
            )  # as seats were recorded before: the name sealed by the hash
            Application(store).tables.command(
                game_id, lambda game: game.record(old_style, actor=zelda_id)
            )
        finally:
            store.close()
        other.gql("mutation($g: ID!) { joinGame(gameId: $g) { status } }", {"g": game_id})
        assert play_graphql([zelda, other], game_id, random.Random(5))["status"] == "FINISHED"
        assert zelda.rest("DELETE", "/me").status_code == 204

        assert other.rest("GET", f"/games/{game_id}/verify").json()["ok"] is True
        exported = other.rest("GET", f"/games/{game_id}/export")
        assert SECRET_NAME not in exported.text
        document = exported.json()
        assert document["redacted"] == [2]
        assert document["events"][1]["data"]["name"] == DELETED_PLAYER

        unlisted = {k: v for k, v in document.items() if k != "redacted"}
        refused = other.rest("POST", "/games/import", json=unlisted)
        assert refused.status_code == 422
        assert "Event 2 does not hold" in refused.json()["detail"]

        imported = other.rest("POST", "/games/import", json=document)
        assert imported.status_code == 201, imported.text
        copy_id = imported.json()["id"]
        assert other.rest("GET", f"/games/{copy_id}/verify").json()["ok"] is True
        again = other.rest("GET", f"/games/{copy_id}/export").json()
        assert again["redacted"] == [2] and SECRET_NAME not in json.dumps(again)


def test_every_read_model_query_is_declared_by_the_redacting_read_models() -> None:
    """The transports query the read models through ``RedactedReadModels``, which redacts the
    rows that name players. Each public query of ``ReadModels`` is declared there, redacted or
    said to show no name: none passes through undeclared (before, ``__getattr__`` passed any
    query it did not name, so a new query returning names would have shown deleted players)."""
    import inspect

    from service.app.redaction import RedactedReadModels
    from service.readmodels import ReadModels

    queries = {n for n, v in inspect.getmembers(ReadModels) if callable(v) and n[0] != "_"}
    assert queries, "ReadModels has public queries"
    assert sorted(queries - set(vars(RedactedReadModels))) == []
    assert "__getattr__" not in vars(RedactedReadModels)
