"""Playing over HTTP: a complete 4-player Imhotep game through the real HTTP server."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

from tests.client import Client, subscribe, wait_game
from tests.service.play import create_table, play_graphql, play_rest, seated

SUBSCRIPTION = (
    "subscription($g: ID!, $v: Int) { gameEvents(gameId: $g, afterVersion: $v) "
    "{ version type seat data } }"
)


class Subscriber(threading.Thread):
    """A websocket client in its own thread, collecting every payload until completion."""

    def __init__(self, ws_url: str, game_id: str, token: str | None, after: int = 0) -> None:
        super().__init__(daemon=True)
        self.args = (ws_url, SUBSCRIPTION, {"g": game_id, "v": after}, token)
        self.payloads: list[dict[str, Any]] = []
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            self.payloads = asyncio.run(subscribe(*self.args, timeout=120))
        except BaseException as failure:  # reported by the test
            self.failure = failure

    def versions(self) -> list[int]:
        assert self.failure is None, self.failure
        return [p["data"]["gameEvents"]["version"] for p in self.payloads]


def test_four_players_play_imhotep_over_graphql_with_a_live_subscriber(server) -> None:  # type: ignore[no-untyped-def]
    players = seated(server.url, 4)
    game_id = create_table(players, "IMHOTEP", seed="acceptance-graphql")
    spectator = Subscriber(server.ws_url, game_id, None)
    player = Subscriber(server.ws_url, game_id, players[2].token)
    spectator.start()
    player.start()
    final = play_graphql(players, game_id, random.Random(7))
    spectator.join(timeout=120)
    player.join(timeout=120)

    assert final["status"] == "FINISHED"
    assert final["result"]["scores"] == final["scores"]
    assert final["result"]["winners"] == [
        seat for seat, rank in enumerate(final["result"]["ranks"]) if rank == 1
    ]
    every_version = list(range(1, final["version"] + 1))
    assert spectator.versions() == every_version  # every event exactly once, in order
    assert player.versions() == every_version
    last = spectator.payloads[-1]["data"]["gameEvents"]
    assert last["type"] == "game_finished"
    assert last["data"]["scores"] == final["result"]["scores"]
    state = players[0].gql(
        "query($g: ID!) { game(id: $g) { state view { __typename ... on ImhotepState "
        "{ round gameOver players { seat score } } } } }",
        {"g": game_id},
    )["game"]
    assert [p["score"] for p in state["state"]["players"]] == final["result"]["scores"]
    typed = state["view"]
    assert typed["__typename"] == "ImhotepState" and typed["gameOver"] is True
    assert [p["score"] for p in typed["players"]] == final["result"]["scores"]


def test_four_players_play_imhotep_over_rest(server) -> None:  # type: ignore[no-untyped-def]
    players = seated(server.url, 4)
    created = players[0].rest("POST", "/games", json={"kind": "IMHOTEP", "seats": 4})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    for seat, player in enumerate(players):
        joined = player.rest("POST", f"/games/{game_id}/seats", json={"seat": seat})
        assert joined.status_code == 200 and joined.json()["mySeat"] == seat
    final = play_rest(players, game_id, random.Random(11))
    assert final["status"] == "FINISHED"
    assert final["result"]["scores"] == final["scores"]
    events = Client(server.url).rest("GET", f"/games/{game_id}/events?limit=200").json()
    versions = [e["version"] for e in events["items"]]
    while events["nextAfter"] is not None:
        events = (
            Client(server.url)
            .rest("GET", f"/games/{game_id}/events?after={events['nextAfter']}&limit=200")
            .json()
        )
        versions += [e["version"] for e in events["items"]]
    assert versions == list(range(1, final["version"] + 1))


def test_a_human_plays_against_three_bots(server) -> None:  # type: ignore[no-untyped-def]
    (human,) = seated(server.url, 1)
    game_id = human.gql("mutation { createGame(input: {kind: IMHOTEP, seats: 4}) { id } }")[
        "createGame"
    ]["id"]
    human.gql("mutation($g: ID!) { joinGame(gameId: $g, seat: 0) { id } }", {"g": game_id})
    for _ in range(3):
        human.gql("mutation($g: ID!) { addBot(gameId: $g) { id } }", {"g": game_id})
    game = wait_game(human, game_id)  # the bots play, in their own commands, up to the human
    assert game["status"] == "ACTIVE"
    assert [s["isBot"] for s in game["seats"]] == [False, True, True, True]
    assert game["activeSeats"] == [0]  # the bots have played up to the human's turn
    final = play_graphql([human, human, human, human], game_id, random.Random(3), bots=True)
    assert final["status"] == "FINISHED"
