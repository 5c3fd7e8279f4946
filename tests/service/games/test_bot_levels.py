"""Bot levels over the API, and every bot played off the request path (issue #15).

Bots of every level (``random``, ``greedy``, ``mcts``) are played by the bot driver
(``service/app/bots/driver.py``) in their own commands, so a human's ``act`` returns with only
its own entries and the bots' moves follow, seen on the subscriptions.
"""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any, cast

import pytest

from service.app.application import Application
from service.app.bots.driver import BotDriver
from service.store.database import open_store
from tests.client import Client, subscribe, wait_game
from tests.conftest import Server
from tests.service.play import seated

GAME = "query($g: ID!) { game(id: $g) { version status activeSeats mySeat legalActions seats { seat isBot strategy } } }"
ACT = (
    "mutation($g: ID!, $a: JSON!, $v: Int) { act(gameId: $g, action: $a, expectedVersion: $v) "
    "{ game { version activeSeats } events { version seat bySeat type } } }"
)


def wait_for(client: Client, game_id: str, check: Any, timeout: float = 60.0) -> dict[str, Any]:
    return wait_game(client, game_id, check, query=GAME, timeout=timeout)


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


@pytest.mark.parametrize("level", ["random", "mcts"])
def test_a_bot_moves_in_its_own_command_after_act_returned(sqlite_server, level: str) -> None:  # type: ignore[no-untyped-def]
    """Issue #15 "bots run off the request path", for every level (a ``random`` bot too,
    which decides in microseconds): ``act`` answers with the human's own entries, the game it
    answers having the bot due; the bot's move follows in its own command ``bot:1:<version>``,
    pushed on the ``gameEvents`` subscription after the version ``act`` answered."""
    human, game_id = human_against(sqlite_server, "IMHOTEP", level)
    game = wait_for(human, game_id, lambda g: g["activeSeats"] == [0])
    assert [(s["isBot"], s["strategy"]) for s in game["seats"]] == [(False, None), (True, level)]
    rng = random.Random(5)
    handed_over = 0
    while handed_over < 2:
        result = human.gql(
            ACT, {"g": game_id, "a": rng.choice(game["legalActions"]), "v": game["version"]}
        )["act"]
        # no bot entry in the answer: every entry is the human's or automatic (an entry may
        # concern another seat, as when a ship unloads the bot's stones: its seat, not bySeat)
        assert {e["bySeat"] for e in result["events"]} <= {0, None}, result["events"]
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
            pushed = asyncio.run(
                subscribe(
                    sqlite_server.ws_url,
                    "subscription($g: ID!, $v: Int) "
                    "{ gameEvents(gameId: $g, afterVersion: $v) { version seat bySeat } }",
                    {"g": game_id, "v": version},
                    token=human.token,
                    until=lambda p: len(p) >= 1,
                )
            )
            assert pushed[0]["data"]["gameEvents"] == {
                "version": version + 1,
                "seat": 1,
                "bySeat": 1,
            }
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


@pytest.mark.parametrize("level", ["random", "greedy"])
def test_a_bot_due_when_the_server_stopped_plays_after_the_restart(
    sqlite_url: str, level: str
) -> None:
    """The driver looks at every running game at start: a bot that was due (its table filled
    while no server ran: no driver played it) plays once a server starts."""
    app = Application(open_store(sqlite_url))
    human = app.accounts.register_player("Human")[0]
    table = app.seating.create_game(human, "imhotep", 2, {"start_player": 1}, None)
    game_id = str(table.id)
    app.seating.join_game(human, game_id, 0)
    game = app.seating.add_bot(human, game_id, 1, level)
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


@pytest.mark.parametrize("level", ["random", "greedy"])
def test_two_drivers_record_one_bot_move_per_turn(database_url: str, level: str) -> None:
    """Two processes' drivers woken for the same turn (the store's feed tells both) think on
    the same version; the version check of ``Tables.command`` lets exactly one move through,
    and the other driver finds the game moved on (nothing recorded, no failure)."""
    first = Application(open_store(database_url))
    second = Application(open_store(database_url))
    human = first.accounts.register_player("Human")[0]
    game_id = str(first.seating.create_game(human, "amun_re", 3, {"start_player": 1}, None).id)
    first.seating.join_game(human, game_id, 0)
    first.seating.add_bot(human, game_id, 1, level)
    version = first.seating.add_bot(human, game_id, 2, level).version
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


def test_act_records_only_the_humans_action_and_the_driver_plays_the_random_bot(
    tmp_path: Any,
) -> None:
    """Without a running driver nothing plays the bot: ``act``'s command holds the human's
    entries only and leaves the ``random`` bot due; ``BotDriver.step`` then records exactly one
    move, ``bot:1:<version>``, in its own command, and the same move on a second store with the
    same seed and log (a bot's move is a function of the log)."""
    moves = []
    for run in range(2):
        app = Application(open_store(f"sqlite:///{tmp_path / f'run{run}.sqlite'}"))
        human = app.accounts.register_player("Human")[0]
        table = app.seating.create_game(human, "imhotep", 2, {"start_player": 0}, "same-seed")
        game_id = str(table.id)
        app.seating.join_game(human, game_id, 0)
        app.seating.add_bot(human, game_id, 1, "random")
        game, events = app.play.act(human, game_id, {"type": "get_stones"})
        assert {e.seat for e in events} == {0} and {e.command for e in events} != {None}
        assert game.table.game.current == 1 and game.version == events[-1].version  # bot due
        assert app.tables.get(game_id).version == game.version  # nothing played it
        driver = BotDriver(app.tables)
        assert driver.step(game_id) is True
        assert driver.played == [(game_id, game.version, 1)]
        [move] = app.tables.events(game_id, after=game.version)
        assert move.seat == 1 and move.command == f"bot:1:{game.version}"
        assert driver.step(game_id) is False  # the human's turn again: no bot is due
        moves.append((move.type, move.data))
    assert moves[0] == moves[1]
