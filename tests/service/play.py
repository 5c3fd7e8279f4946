"""Playing whole games through the real API, choosing among the listed legal actions."""

from __future__ import annotations

import random
from typing import Any

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
