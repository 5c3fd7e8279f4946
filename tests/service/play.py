"""Playing whole games through the real API, choosing among the listed legal actions."""

from __future__ import annotations

import random
from typing import Any

from domain import table as tables
from domain.registry import rules_for
from service.app.application import Application
from service.app.bots.driver import BotDriver
from service.store.database import open_store
from tests.client import Client, register, wait_game

GAME_FIELDS = "id version status activeSeats mySeat scores result { scores winners ranks }"


def create_table(
    players: list[Client], kind: str, options: dict[str, Any] | None = None, seed: str | None = None
) -> str:
    created = players[0].gql(
        "mutation($i: CreateGameInput!) { createGame(input: $i) { id status } }",
        {"i": {"kind": kind, "seats": len(players), "options": options, "seed": seed}},
    )["createGame"]
    assert created["status"] == "OPEN"
    for seat, player in enumerate(players):
        joined = player.gql(
            "mutation($g: ID!, $s: Int) { joinGame(gameId: $g, seat: $s) { mySeat status } }",
            {"g": created["id"], "s": seat},
        )["joinGame"]
        assert joined["mySeat"] == seat
    return str(created["id"])


def seated(base_url: str, n: int) -> list[Client]:
    return [register(base_url, f"Player {i}") for i in range(n)]


def play_graphql(
    players: list[Client],
    game_id: str,
    rng: random.Random,
    max_actions: int = 5000,
    bots: bool = False,
) -> dict[str, Any]:
    """Play to the end over GraphQL: each active seat's holder picks a listed legal action.
    ``bots``: some seats are bots, which reply in their own commands: wait for them first."""
    query = f"query($g: ID!) {{ game(id: $g) {{ {GAME_FIELDS} legalActions }} }}"
    for _ in range(max_actions):
        if bots:
            wait_game(players[0], game_id)
        game = players[0].gql(query, {"g": game_id})["game"]
        if game["status"] != "ACTIVE":
            return dict(game)
        seat = rng.choice(game["activeSeats"])
        mine = players[seat].gql(query, {"g": game_id})["game"]
        assert mine["mySeat"] == seat
        assert mine["legalActions"], "a seat that must act has legal actions"
        action = rng.choice(mine["legalActions"])
        result = players[seat].gql(
            "mutation($g: ID!, $a: JSON!, $v: Int) { act(gameId: $g, action: $a, "
            "expectedVersion: $v) { game { version status } events { version type } } }",
            {"g": game_id, "a": action, "v": mine["version"]},
        )["act"]
        assert result["events"], "an accepted action records at least one event"
        first = result["events"][0]["version"]
        # numbers of the caller's log; once the game is over that is the whole log, other
        # seats' private steps included (Amun-Re's Offering), so the numbers may jump then
        assert first == mine["version"] + 1 or (
            result["game"]["status"] == "FINISHED" and first > mine["version"]
        )
    raise AssertionError("the game did not end")


def play_rest(
    players: list[Client], game_id: str, rng: random.Random, max_actions: int = 5000
) -> dict[str, Any]:
    for _ in range(max_actions):
        game = players[0].rest("GET", f"/games/{game_id}").json()
        if game["status"] != "ACTIVE":
            return dict(game)
        seat = rng.choice(game["activeSeats"])
        mine = players[seat].rest("GET", f"/games/{game_id}").json()
        action = rng.choice(mine["legalActions"])
        response = players[seat].rest(
            "POST",
            f"/games/{game_id}/actions",
            json={"action": action, "expectedVersion": mine["version"]},
        )
        assert response.status_code == 200, response.text
    raise AssertionError("the game did not end")


def finished_against_bots(
    database_url: str,
    kind: str,
    seats: int,
    seed: str | None = None,
    *,
    heard_by: str | None = None,
) -> str:
    """A game played to its end, written straight into the database a server runs on (the
    server hears of it through the store's feed): a host at seat 0 plays listed legal actions
    drawn from a seeded generator, ``random`` bots the other seats (a table needs a person:
    bots alone are refused), played here by a bot driver of its own. Fast: no HTTP round trip
    per move. ``kind`` as GraphQL spells it (``IMHOTEP``) or as the domain does.

    ``heard_by``: the base URL of the server, which is asked until it shows the game finished:
    it may have read the game while it was being written here (its bot driver looks at every
    game with bots) and shows that version until its feed brings the rest."""
    kind = kind.lower()
    store = open_store(database_url)
    try:
        app = Application(store)
        host = app.accounts.register_player("Host")[0]
        game_id = str(app.seating.create_game(host, kind, seats, None, seed).id)
        app.seating.join_game(host, game_id, 0)
        for _ in range(seats - 1):
            app.seating.add_bot(host, game_id, None, "random")
        driver, rng, rules = BotDriver(app.tables), random.Random(seed or kind), rules_for(kind)
        while True:
            driver.settle(game_id)
            table = app.tables.get(game_id).table
            if table.status != tables.ACTIVE:
                break
            app.play.act(host, game_id, rng.choice(rules.legal_actions(table.game, 0)))
        assert table.status == tables.FINISHED, table.status
    finally:
        store.close()
    if heard_by is not None:
        spectator = Client(heard_by)
        try:
            shown = wait_game(spectator, game_id, lambda game: game["status"] == "FINISHED")
            assert shown["status"] == "FINISHED", shown
        finally:
            spectator.close()
    return game_id
