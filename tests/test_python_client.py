"""The Python SDK (clients/python/papyrus_client.py) and its example bot
(clients/python/example_bot.py), against a real HTTP server: the bot plays whole games of each
kind over the public API only (GraphQL over HTTP, the gameChanged subscription over one
websocket), reading the game once and then acting on the pushes alone, choosing among
legalActions, sending them typed with expectedVersion and an idempotency key, and letting a
CONFLICT go (the change that moved the game on is the next push), until the game is FINISHED.
More of the SDK (asyncio, resuming, errors, pip): tests/test_python_sdk.py."""

from __future__ import annotations

import ast
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

CLIENTS = Path(__file__).resolve().parent.parent / "clients" / "python"
sys.path.insert(0, str(CLIENTS))

from example_bot import ExampleBot, Played  # noqa: E402
from papyrus_client import Game, PapyrusClient, PapyrusError  # noqa: E402


def client_for(server: Any, name: str) -> PapyrusClient:
    client = PapyrusClient(server.url)
    client.register(name)
    return client


def play_in_threads(bots: list[tuple[ExampleBot, str]]) -> list[Played]:
    results: list[Played | BaseException | None] = [None] * len(bots)

    def run(index: int, bot: ExampleBot, game_id: str) -> None:
        try:
            results[index] = bot.play(game_id)
        except BaseException as failure:
            results[index] = failure

    threads = [
        threading.Thread(target=run, args=(i, bot, game_id), daemon=True)
        for i, (bot, game_id) in enumerate(bots)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    for result in results:
        if isinstance(result, BaseException):
            raise result
        assert result is not None, "a bot did not finish"
    return [r for r in results if isinstance(r, Played)]


def test_two_example_bots_finish_a_game_of_imhotep(server: Any) -> None:
    """Imhotep, 2 players: two example-bot instances, each with its own account, play every
    turn over the API until the game is FINISHED; the result has a score per seat."""
    alice, bob = client_for(server, "alice"), client_for(server, "bob")
    game = alice.create_game("IMHOTEP", 2, seed="client-imhotep")
    assert game.status == "OPEN" and game.my_seat is None
    alice.join(game.id)
    started = bob.join(game.id)
    assert started.status == "ACTIVE"
    played = play_in_threads(
        [(ExampleBot(alice, seed=1), game.id), (ExampleBot(bob, seed=2), game.id)]
    )
    for mine in played:
        assert mine.game.status == "FINISHED"
        assert mine.actions > 0
        assert mine.game.result is not None and len(mine.game.result.scores) == 2
        assert mine.game.legal_actions == [] and mine.game.active_seats == []
    final = alice.game(game.id)
    assert final.status == "FINISHED" and final.result == played[0].game.result
    events = alice.events(game.id)
    assert [e.version for e in events] == list(range(1, final.version + 1))
    assert events[-1].type == "game_finished"


def test_the_example_bot_finishes_a_game_of_amun_re_with_server_bots(server: Any) -> None:
    """Amun-Re, 3 players: one example bot and two server-side bots (addBot)."""
    carol = client_for(server, "carol")
    game = carol.create_game("AMUN_RE", 3, seed="client-amun-re")
    carol.join(game.id)
    carol.add_bot(game.id)
    started = carol.add_bot(game.id)
    assert started.status == "ACTIVE"
    assert [s.is_bot for s in started.seats].count(True) == 2
    played = ExampleBot(carol, seed=3).play(game.id)
    assert played.game.status == "FINISHED" and played.actions > 0
    assert played.game.result is not None and len(played.game.result.scores) == 3


def my_turn(client: PapyrusClient, game_id: str) -> Game:
    """The game once the caller must act (or it is over): the bots reply in their own commands,
    after the action that made them due, so the client waits on the subscription for them."""
    game = client.game(game_id)
    while not game.over and game.my_seat not in game.active_seats:
        client.wait_for_change(game_id, game.version, 60)
        game = client.game(game_id)
    return game


def test_act_refuses_a_stale_version_and_the_bot_lets_it_go(sqlite_server: Any) -> None:
    """expectedVersion: a stale version is CONFLICT (the game is unchanged); the bot's step
    answers None on it instead of failing (its loop then waits for the next push). A retried
    idempotency key gives the first result and acts once."""
    dave = client_for(sqlite_server, "dave")
    game = dave.create_game("IMHOTEP", 2, seed="client-conflict")
    dave.join(game.id)
    dave.add_bot(game.id)
    game = my_turn(dave, game.id)  # the bot's seat may begin
    assert game.legal_actions and game.my_seat in game.active_seats
    first = dave.act(game.id, game.legal_actions[0], game.version, idempotency_key="k-1")
    again = dave.act(game.id, game.legal_actions[0], game.version, idempotency_key="k-1")
    assert [e.version for e in again.events] == [e.version for e in first.events]
    # the command holds dave's own entries only; the bot's reply follows in its own command
    assert {e.seat for e in first.events} <= {game.my_seat, None}
    assert first.game.version == game.version + len(first.events)
    after = my_turn(dave, game.id)
    logged = dave.events(game.id, after=game.version)
    assert logged[: len(first.events)] == first.events
    assert game.my_seat not in {e.seat for e in logged[len(first.events) :]}  # acted once
    with pytest.raises(PapyrusError) as refused:
        dave.act(game.id, game.legal_actions[0], expected_version=game.version)
    assert refused.value.code == "CONFLICT"
    assert dave.game(game.id).version == after.version
    assert ExampleBot(dave, seed=4).step(game, game.kind, game.id) is None


def test_a_server_error_carries_its_code(sqlite_server: Any) -> None:
    """The client raises PapyrusError with the API's stable code."""
    erin = client_for(sqlite_server, "erin")
    with pytest.raises(PapyrusError) as missing:
        erin.game("00000000-0000-4000-8000-000000000000")
    assert missing.value.code == "NOT_FOUND"
    with pytest.raises(PapyrusError) as bad:
        erin.create_game("IMHOTEP", 9)
    assert bad.value.code == "BAD_INPUT"


def test_the_client_imports_nothing_of_the_server() -> None:
    """The client and the bot know the server only through HTTP and websockets."""
    for path in CLIENTS.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for name in names:
                assert name.split(".")[0] not in ("service", "domain", "projections"), (path, name)
