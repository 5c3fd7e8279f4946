"""Scarab, the plug-in game (``tests/plugin_game/scarab``), played over every surface a client
touches, by a real ``papyrus serve`` that finds it only through the entry-point group
``papyrus.games`` (this folder on the process's ``PYTHONPATH``): GraphQL and its typed view and
typed actions, a subscription, undo, replay, export and import, the read models, bots of every
level and REST. Nothing outside the game's package names it; what the server shows of it comes
from its ``GameModule``.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.client import Client, GraphQLFailure, events_of, register, subscribe, wait_game
from tests.serving import ServeProcess

FOLDER = Path(__file__).resolve().parent
GAME = """query($g: ID!) { game(id: $g) {
  status version activeSeats mySeat legalActions scores kind rulesVersion
  view { __typename ... on ScarabState { viewer top drawPileCount
    players { seat score handCount hand } } }
} }"""
ACT = """mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) {
  game { version status } events { version seat type data } } }"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """A server on its own SQLite file whose path holds the plug-in's distribution."""
    folder = tmp_path_factory.mktemp("scarab")
    environment = {**os.environ, "PYTHONPATH": str(FOLDER)}
    served = ServeProcess(f"sqlite:///{folder / 'papyrus.sqlite'}", environment=environment)
    try:
        yield served
    finally:
        served.stop()


def table(players: list[Client], *, bots: tuple[str, ...] = ()) -> str:
    """A Scarab table, the players seated in order, then a bot per level in ``bots``."""
    host = players[0]
    game_id = str(
        host.gql(
            "mutation($s: Int!) { createGame(input: {kind: SCARAB, seats: $s}) { id } }",
            {"s": len(players) + len(bots)},
        )["createGame"]["id"]
    )
    for seat, player in enumerate(players):
        player.gql("mutation($g: ID!, $s: Int) { joinGame(gameId: $g, seat: $s) { id } }",
                   {"g": game_id, "s": seat})
    for level in bots:
        host.gql("mutation($g: ID!, $l: String) { addBot(gameId: $g, strategy: $l) { id } }",
                 {"g": game_id, "l": level})
    return game_id


def play_out(players: list[Client], game_id: str, rng: random.Random) -> dict[str, Any]:
    """Each human seat plays a listed legal action when it must, until the game is over."""
    while True:
        wait_game(players[0], game_id)  # until no bot must act
        game = players[0].gql(GAME, {"g": game_id})["game"]
        if game["status"] != "ACTIVE":
            return game
        for seat in game["activeSeats"]:
            if seat < len(players):
                mine = players[seat].gql(GAME, {"g": game_id})["game"]
                players[seat].gql(ACT, {"g": game_id, "a": rng.choice(mine["legalActions"])})


def test_the_registry_shows_the_plug_in(server: ServeProcess) -> None:
    """``gameKinds`` and ``GameKind`` come from the registry: Scarab after the shipped games,
    with its name, seat range and the generic web board (it has none of its own)."""
    kinds = Client(server.url).gql(
        "{ gameKinds { kind name minSeats maxSeats rulesVersion boardModule hasOwnBoard } }"
    )["gameKinds"]
    assert [k["kind"] for k in kinds] == ["IMHOTEP", "AMUN_RE", "SCARAB"]
    assert kinds[2] == {
        "kind": "SCARAB", "name": "Scarab", "minSeats": 2, "maxSeats": 4,
        "rulesVersion": "scarab-1", "boardModule": "/app/boards/scarab.js", "hasOwnBoard": False,
    }
    catalog = Client(server.url).gql("{ actionCatalog(kind: SCARAB) { name } }")["actionCatalog"]
    assert [a["name"] for a in catalog] == ["play", "discard"]


def test_a_game_over_graphql_hides_each_hand_and_draw_from_the_other_seat(
    server: ServeProcess,
) -> None:
    """Two players play a whole game over GraphQL; each sees its own hand and only the other's
    count, in the typed view; a subscriber at seat 1 hears seat 0's draws without the card;
    the game ends with scores, and its replay starts from the deal."""
    alice, bob = register(server.url, "Alice"), register(server.url, "Bob")
    game_id = table([alice, bob])
    first = alice.gql(GAME, {"g": game_id})["game"]
    assert first["kind"] == "SCARAB" and first["view"]["__typename"] == "ScarabState"
    hands = {p["seat"]: p for p in first["view"]["players"]}
    assert len(hands[0]["hand"]) == 3 and hands[1]["hand"] is None and hands[1]["handCount"] == 3

    async def watch_and_play() -> list[dict[str, Any]]:
        listening = asyncio.create_task(
            subscribe(
                server.ws_url,
                "subscription($g: ID!) { gameEvents(gameId: $g, afterVersion: 0) "
                "{ seat type data } }",
                {"g": game_id},
                bob.token,
            )
        )
        await asyncio.sleep(0.5)
        await asyncio.to_thread(play_out, [alice, bob], game_id, random.Random(3))
        return await asyncio.wait_for(listening, 60)

    heard = [p["data"]["gameEvents"] for p in asyncio.run(watch_and_play())]
    alices_draws = [e for e in heard if e["type"] == "card_drawn" and e["seat"] == 0]
    bobs_draws = [e for e in heard if e["type"] == "card_drawn" and e["seat"] == 1]
    assert alices_draws and all(e["data"] == {} for e in alices_draws)
    assert bobs_draws and all(isinstance(e["data"].get("card"), int) for e in bobs_draws)
    over = alice.gql(GAME, {"g": game_id})["game"]
    assert over["status"] == "FINISHED" and len(over["scores"]) == 2
    dealt = next(e["version"] for e in events_of(alice, game_id) if e["type"] == "cards_dealt")
    after_deal = alice.gql(
        "query($g: ID!, $v: Int!) { game(id: $g) { stateAt(version: $v) } }",
        {"g": game_id, "v": dealt},
    )["game"]["stateAt"]
    assert after_deal["draw_pile_count"] == 14 and after_deal["played"] == []


def test_undo_never_crosses_a_draw_and_takes_back_a_move_once_the_deck_is_out(
    server: ServeProcess,
) -> None:
    """R8: a move followed by a draw cannot be taken back; once the deck is empty a seat's own
    last move is taken back at once."""
    alice, bob = register(server.url, "Ann"), register(server.url, "Ben")
    game_id = table([alice, bob])
    rng = random.Random(5)
    undo = "mutation($g: ID!) { requestUndo(gameId: $g) { version } }"
    alice.gql(ACT, {"g": game_id, "a": alice.gql(GAME, {"g": game_id})["game"]["legalActions"][0]})
    refused = alice.error(undo, {"g": game_id})
    assert refused.errors[0]["extensions"]["code"] in {"ILLEGAL_ACTION", "CONFLICT"}, refused.errors
    players = [alice, bob]
    while True:
        game = alice.gql(GAME, {"g": game_id})["game"]
        if game["view"]["drawPileCount"] == 0 and game["status"] == "ACTIVE":
            break
        seat = game["activeSeats"][0]
        mine = players[seat].gql(GAME, {"g": game_id})["game"]
        players[seat].gql(ACT, {"g": game_id, "a": rng.choice(mine["legalActions"])})
    seat = game["activeSeats"][0]
    before = players[seat].gql(GAME, {"g": game_id})["game"]
    players[seat].gql(ACT, {"g": game_id, "a": before["legalActions"][0]})
    taken_back = players[seat].gql(undo, {"g": game_id})["requestUndo"]["version"]
    again = players[seat].gql(GAME, {"g": game_id})["game"]
    assert again["activeSeats"] == [seat] and again["view"] == before["view"]
    assert taken_back > before["version"]  # the undo is an entry of the log


def test_export_import_verify_and_the_read_models(server: ServeProcess) -> None:
    """A finished game exports, verifies, imports as a new finished game, and is listed by
    the read models under its kind."""
    alice, bob = register(server.url, "Cleo"), register(server.url, "Dan")
    game_id = table([alice, bob])
    play_out([alice, bob], game_id, random.Random(8))
    verified = alice.gql(
        "query($g: ID!) { verifyLog(gameId: $g) { ok } }", {"g": game_id}
    )["verifyLog"]
    assert verified["ok"] is True
    document = alice.gql("query($g: ID!) { exportGame(gameId: $g) }", {"g": game_id})["exportGame"]
    assert document["kind"] == "scarab"
    imported = alice.gql(
        "mutation($d: JSON!) { importGame(document: $d) { id status kind scores } }", {"d": document}
    )["importGame"]
    assert imported["status"] == "FINISHED" and imported["kind"] == "SCARAB"
    assert imported["scores"] == alice.gql(GAME, {"g": game_id})["game"]["scores"]
    listing = (
        "{ gameSummaries(kind: SCARAB, status: FINISHED, first: 50) "
        "{ nodes { gameId kind status } } }"
    )
    deadline = time.monotonic() + 30
    while True:
        nodes = alice.gql(listing)["gameSummaries"]["nodes"]
        if game_id in [n["gameId"] for n in nodes]:
            break
        assert time.monotonic() < deadline, "the read models never listed the game"
        time.sleep(0.1)
    listed = next(n for n in nodes if n["gameId"] == game_id)
    assert listed["kind"] == "SCARAB" and listed["status"] == "FINISHED"


def test_bots_of_every_level_finish_a_game(server: ServeProcess) -> None:
    """A player and one bot of each level (random, greedy, mcts) play a game to its end."""
    host = register(server.url, "Eve")
    game_id = table([host], bots=("random", "greedy", "mcts"))
    over = play_out([host], game_id, random.Random(1))
    assert over["status"] == "FINISHED" and len(over["scores"]) == 4
    levels = host.gql(
        "query($g: ID!) { game(id: $g) { seats { seat isBot strategy } } }", {"g": game_id}
    )["game"]["seats"]
    assert [s["strategy"] for s in levels[1:]] == ["random", "greedy", "mcts"]


def test_a_typed_action_of_the_plug_in(server: ServeProcess) -> None:
    """``typedAction`` has a member per plug-in action (``scarabPlay { card }``)."""
    alice, bob = register(server.url, "Fay"), register(server.url, "Gus")
    game_id = table([alice, bob])
    card = alice.gql(GAME, {"g": game_id})["game"]["view"]["players"][0]["hand"][0]
    played = alice.gql(
        "mutation($g: ID!, $c: Int!) { act(gameId: $g, typedAction: {scarabPlay: {card: $c}}) "
        "{ events { type data } } }",
        {"g": game_id, "c": card},
    )["act"]["events"]
    assert played[0]["type"] == "card_played" and played[0]["data"]["card"] == card
    with pytest.raises(GraphQLFailure):
        alice.gql(
            "mutation($g: ID!) { act(gameId: $g, typedAction: {scarabPlay: {card: 99}}) "
            "{ events { type } } }",
            {"g": game_id},
        )


def test_the_log_shows_each_seat_its_own_deal_and_a_spectator_none(server: ServeProcess) -> None:
    """R7 on the event log: the deal shows each seat its own hand and the counts, a spectator
    only the counts; the deck's order is never shown while the game runs."""
    alice, bob = register(server.url, "Hal"), register(server.url, "Ida")
    game_id = table([alice, bob])
    spectator = Client(server.url)
    deals = {
        name: next(e for e in events_of(client, game_id, "type data") if e["type"] == "cards_dealt")
        for name, client in (("alice", alice), ("bob", bob), ("spectator", spectator))
    }
    for seat, (name, client) in enumerate((("alice", alice), ("bob", bob))):
        hand = client.gql(GAME, {"g": game_id})["game"]["view"]["players"][seat]["hand"]
        assert sorted(deals[name]["data"]["hand"]) == sorted(hand)
    assert deals["spectator"]["data"] == {"hand_counts": [3, 3], "draw_pile_count": 14}
    for deal in deals.values():
        assert "deck" not in deal["data"] and "hands" not in deal["data"]


def test_a_game_over_rest(server: ServeProcess) -> None:
    """The REST mirror: the kind is accepted in any case and listed in the OpenAPI document;
    the board and action catalogs, a table made, joined and played to its end, the state as
    each seat may see it, the listings by kind; an unknown kind is refused with its choices."""
    alice, bob = register(server.url, "Jo"), register(server.url, "Kim")
    document = alice.rest("GET", "/openapi.json").json()
    kinds = document["components"]["schemas"]["CreateGame"]["properties"]["kind"]["enum"]
    assert kinds == ["IMHOTEP", "AMUN_RE", "SCARAB"]
    board = alice.rest("GET", "/catalog/scarab").json()
    assert board["game"] == "scarab" and board["rulesVersion"] == "scarab-1"
    assert [a["name"] for a in alice.rest("GET", "/catalog/scarab/actions").json()] == [
        "play", "discard"
    ]
    refused = alice.rest("POST", "/games", json={"kind": "chess", "seats": 2})
    assert refused.status_code == 422
    assert '"IMHOTEP", "AMUN_RE" or "SCARAB"' in refused.json()["detail"]
    created = alice.rest("POST", "/games", json={"kind": "scarab", "seats": 2})
    assert created.status_code in (200, 201), created.text
    game_id = created.json()["id"]
    for seat, player in enumerate((alice, bob)):
        joined = player.rest("POST", f"/games/{game_id}/seats", json={"seat": seat})
        assert joined.status_code == 200, joined.text
    rng = random.Random(13)
    players = (alice, bob)
    while True:
        game = alice.rest("GET", f"/games/{game_id}").json()
        if game["status"] != "ACTIVE":
            break
        seat = game["activeSeats"][0]
        mine = players[seat].rest("GET", f"/games/{game_id}").json()
        theirs = players[1 - seat].rest("GET", f"/games/{game_id}/state").json()
        assert theirs["players"][seat].get("hand") is None  # the other seat's hand is hidden
        played = players[seat].rest(
            "POST", f"/games/{game_id}/actions", json={"action": rng.choice(mine["legalActions"])}
        )
        assert played.status_code == 200, played.text
    assert game["status"] == "FINISHED" and game["kind"] == "SCARAB"
    deadline = time.monotonic() + 30
    while True:
        listed = alice.rest("GET", "/summaries", params={"kind": "SCARAB", "status": "FINISHED"})
        if game_id in [item["gameId"] for item in listed.json()["items"]]:
            break
        assert time.monotonic() < deadline, listed.text
        time.sleep(0.1)
    assert alice.rest("GET", "/statistics/scarab").status_code == 200
