"""Bot levels over the API, and the searching bots played off the request path (issue #15).

``random`` bots reply inside the command that made them due; ``greedy`` and ``mcts`` bots are
played by the bot driver (``service/app/bots/driver.py``) in their own commands, so a human's
``act`` returns with only its own entries.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any, cast

from service.app.application import Application
from service.app.bots.driver import BotDriver
from service.store.database import open_store
from tests.client import Client
from tests.conftest import Server
from tests.service.play import seated

GAME = "query($g: ID!) { game(id: $g) { version status activeSeats mySeat legalActions seats { seat isBot strategy } } }"
ACT = (
    "mutation($g: ID!, $a: JSON!, $v: Int) { act(gameId: $g, action: $a, expectedVersion: $v) "
    "{ game { version activeSeats } events { version seat type } } }"
)


def wait_for(client: Client, game_id: str, check: Any, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        game = client.gql(GAME, {"g": game_id})["game"]
        if check(game):
            return dict(game)
        assert time.monotonic() < deadline, f"timed out waiting; last seen {game}"
        time.sleep(0.05)


def human_against(server: Server, kind: str, level: str, seats: int = 2) -> tuple[Client, str]:
    (human,) = seated(server.url, 1)
    game_id = human.gql(
        "mutation($k: GameKind!, $n: Int!) { createGame(input: {kind: $k, seats: $n}) { id } }",
        {"k": kind, "n": seats},
    )["createGame"]["id"]
    human.gql("mutation($g: ID!) { joinGame(gameId: $g, seat: 0) { id } }", {"g": game_id})
    for _ in range(seats - 1):
        human.gql(
            "mutation($g: ID!, $s: String) { addBot(gameId: $g, strategy: $s) { id } }",
            {"g": game_id, "s": level},
        )
    return human, game_id


def test_a_searching_bot_moves_in_its_own_command_after_act_returned(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """Issue #15 "bots run off the request path": ``act`` answers with the human's own
    entries, the ``mcts`` bot being due; the bot's move follows in its own command."""
    human, game_id = human_against(sqlite_server, "IMHOTEP", "mcts")
    game = wait_for(human, game_id, lambda g: g["activeSeats"] == [0])
    assert [(s["isBot"], s["strategy"]) for s in game["seats"]] == [(False, None), (True, "mcts")]
    rng = random.Random(5)
    handed_over = 0
    while handed_over < 2:
        result = human.gql(
            ACT, {"g": game_id, "a": rng.choice(game["legalActions"]), "v": game["version"]}
        )["act"]
        assert {e["seat"] for e in result["events"]} <= {0, None}  # no bot entry in the answer
        if result["game"]["activeSeats"] == [1]:
            handed_over += 1  # the bot is due: act did not wait for it
            version = result["game"]["version"]
            game = wait_for(
                human,
                game_id,
                lambda g, v=version: g["version"] > v and 1 not in g["activeSeats"],
            )
            events = human.rest("GET", f"/games/{game_id}/events?after={version}").json()
            assert events["items"][0]["seat"] == 1  # the bot's move, right after
        else:
            game = human.gql(GAME, {"g": game_id})["game"]
        if game["status"] != "ACTIVE":
            break


def test_the_level_is_chosen_per_bot_and_shown_and_checked(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """Each bot seat has its own level, shown in the seat's public info (GraphQL and REST);
    an unknown level is ``BAD_INPUT``; no level is ``random``."""
    (human,) = seated(sqlite_server.url, 1)
    game_id = human.gql("mutation { createGame(input: {kind: AMUN_RE, seats: 4}) { id } }")[
        "createGame"
    ]["id"]
    failure = human.error(
        'mutation($g: ID!) { addBot(gameId: $g, strategy: "alphazero") { id } }', {"g": game_id}
    )
    assert failure.code == "BAD_INPUT"
    refused = human.rest("POST", f"/games/{game_id}/bots", json={"strategy": "deep"})
    assert refused.status_code == 422 and refused.json()["code"] == "BAD_INPUT"
    human.gql("mutation($g: ID!) { addBot(gameId: $g) { id } }", {"g": game_id})
    added = human.rest("POST", f"/games/{game_id}/bots", json={"strategy": "greedy"})
    assert added.status_code == 200, added.text
    human.gql('mutation($g: ID!) { addBot(gameId: $g, strategy: "mcts") { id } }', {"g": game_id})
    human.gql("mutation($g: ID!) { joinGame(gameId: $g) { id } }", {"g": game_id})
    game = human.gql(GAME, {"g": game_id})["game"]
    assert [s["strategy"] for s in game["seats"]] == ["random", "greedy", "mcts", None]
    shown = human.rest("GET", f"/games/{game_id}").json()
    assert [s["strategy"] for s in shown["seats"]] == ["random", "greedy", "mcts", None]


def test_a_bot_due_when_the_server_stopped_plays_after_the_restart(sqlite_url: str) -> None:
    """The driver looks at every running game at start: a searching bot that was due (its
    table filled while no server ran) plays once a server starts."""
    app = Application(open_store(sqlite_url))
    human = app.accounts.register_player("Human")[0]
    table = app.seating.create_game(human, "imhotep", 2, {"start_player": 1}, None)
    game_id = str(table.id)
    app.seating.join_game(human, game_id, 0)
    game = app.seating.add_bot(human, game_id, 1, "greedy")
    assert game.table.status == "ACTIVE" and game.table.game.current == 1  # due, not played
    version = game.version
    with Server(sqlite_url) as server:
        watcher = Client(server.url, None)
        after = wait_for(watcher, game_id, lambda g: g["version"] > version, timeout=30)
    assert 1 not in after["activeSeats"]
    entries = app.tables.events(game_id, after=version)
    assert entries[0].seat == 1 and entries[0].command == f"bot:1:{version}"


class Gate:
    """The tables of one process whose commands wait until both drivers have thought: both
    decide on the same version, as two processes woken by the same save would."""

    def __init__(self, tables: Any, barrier: threading.Barrier) -> None:
        self.tables = tables
        self.barrier = barrier

    def get(self, game_id: str) -> Any:
        return self.tables.get(game_id)

    def command(self, game_id: str, decide: Any) -> Any:
        self.barrier.wait(timeout=60)
        return self.tables.command(game_id, decide)


def test_two_drivers_record_one_bot_move_per_turn(database_url: str) -> None:
    """Two processes' drivers woken for the same turn (the store's feed tells both) think on
    the same version; the version check of ``Tables.command`` lets exactly one move through,
    and the other driver finds the game moved on (nothing recorded, no failure)."""
    first = Application(open_store(database_url))
    second = Application(open_store(database_url))
    human = first.accounts.register_player("Human")[0]
    game_id = str(first.seating.create_game(human, "amun_re", 3, {"start_player": 1}, None).id)
    first.seating.join_game(human, game_id, 0)
    first.seating.add_bot(human, game_id, 1, "greedy")
    version = first.seating.add_bot(human, game_id, 2, "greedy").version
    barrier = threading.Barrier(2)
    drivers = [BotDriver(cast(Any, Gate(app.tables, barrier))) for app in (first, second)]
    results: list[Any] = []

    def run(driver: BotDriver) -> None:
        try:
            results.append(driver.step(game_id))
        except Exception as failure:  # reported below
            results.append(failure)

    threads = [threading.Thread(target=run, args=(d,)) for d in drivers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert results == [True, True]  # both done: one recorded, one found the game moved on
    entries = first.tables.events(game_id, after=version)
    commands = [e.command for e in entries if (e.command or "").startswith("bot:")]
    assert set(commands) == {f"bot:1:{version}"}  # one move, not two
    assert sum(len(d.played) for d in drivers) == 1
