"""The event store: replay from the store, determinism, racing writers, idempotency."""

from __future__ import annotations

import random
import threading

import pytest

from service.app import views
from service.app.application import Application
from service.app.caller import Caller
from service.app.errors import PapyrusError
from service.app.tables import replay_table
from service.store.database import open_store


def new_games(url: str) -> Application:
    return Application(open_store(url))


def seated_game(games: Application, seed: str | None = "s", kind: str = "imhotep", n: int = 4):  # type: ignore[no-untyped-def]
    players = [games.accounts.register_player(f"P{i}")[0] for i in range(n)]
    game = games.seating.create_game(players[0], kind, n, {}, seed)
    for p in players:
        games.seating.join_game(p, str(game.id), None)
    return players, str(game.id)


def play_random(
    games: Application, players: list[Caller], game_id: str, seed: int, limit: int = 10_000
) -> list[dict]:  # type: ignore[type-arg]
    rng = random.Random(seed)
    chosen = []
    for _ in range(limit):
        table = games.tables.get(game_id).table
        if table.status != "ACTIVE":
            return chosen
        seat = rng.choice(views.active_seats(table))
        action = rng.choice(views.legal_actions(table, players[seat]))
        games.play.act(players[seat], game_id, action)
        chosen.append(action)
    raise AssertionError("game did not end")


def test_replaying_the_stored_events_gives_the_live_state(database_url: str) -> None:
    games = new_games(database_url)
    players, game_id = seated_game(games)
    play_random(games, players, game_id, seed=5)
    live = games.tables.get(game_id).table
    fresh = new_games(database_url)  # another process: nothing cached
    replayed = replay_table(fresh.tables.events(game_id))
    assert replayed.game == live.game
    assert replayed.outcome == live.outcome and replayed.status == "FINISHED"
    for version in (1, 10, 50):
        past = fresh.tables.at_version(game_id, version).table
        assert past == replay_table(fresh.tables.events(game_id, limit=version))


def test_the_same_seed_and_actions_give_the_same_events(sqlite_url: str) -> None:
    games = new_games(sqlite_url)
    players, first = seated_game(games, seed="same-seed")
    actions = play_random(games, players, first, seed=9)
    players2, second = seated_game(games, seed="same-seed")
    for action in actions:
        table = games.tables.get(second).table
        seat = views.active_seats(table)[0]
        games.play.act(players2[seat], second, action)

    def log(game_id: str) -> list[tuple]:  # type: ignore[type-arg]
        return [
            (e.type, e.seat, e.automatic, e.data)
            for e in games.tables.events(game_id)
            if e.type not in ("table_created", "seat_taken")
        ]

    assert log(first) == log(second)
    assert games.tables.get(first).table.outcome == games.tables.get(second).table.outcome


def test_every_event_records_the_rules_version(sqlite_url: str) -> None:
    games = new_games(sqlite_url)
    _, game_id = seated_game(games)
    assert {e.rules_version for e in games.tables.events(game_id)} == {"imhotep-1"}


def race(
    games: list[Application], caller: Caller, game_id: str, actions: list, expected: int | None
) -> list:  # type: ignore[type-arg]
    """Two writers submit at the same moment; returns each one's result or error code."""
    outcomes: list[object] = [None, None]
    barrier = threading.Barrier(2)

    def write(i: int) -> None:
        barrier.wait()
        try:
            outcomes[i] = games[i].play.act(caller, game_id, actions[i], expected)
        except PapyrusError as refused:
            outcomes[i] = refused.code

    threads = [threading.Thread(target=write, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


@pytest.mark.postgres
def test_two_writers_race_and_exactly_one_wins(postgres_url: str) -> None:
    writers = [new_games(postgres_url), new_games(postgres_url)]  # two "processes"
    players, game_id = seated_game(writers[0])
    for round_ in range(12):
        game = writers[0].tables.get(game_id)
        seat = views.active_seats(game.table)[0]
        legal = views.legal_actions(game.table, players[seat])
        expected = game.version if round_ % 2 == 0 else None
        outcomes = race(writers, players[seat], game_id, [legal[0], legal[-1]], expected)
        codes = [o for o in outcomes if isinstance(o, str)]
        wins = [o for o in outcomes if not isinstance(o, str)]
        if len(wins) == 2:  # both accepted: only possible when the seat still had to act
            assert expected is None
        else:
            assert len(wins) == 1, outcomes
            assert codes[0] in ("CONFLICT", "NOT_YOUR_TURN", "ILLEGAL_ACTION"), codes
    versions = [e.version for e in new_games(postgres_url).tables.events(game_id)]
    assert versions == list(range(1, len(versions) + 1))  # no gap, no duplicate


def test_an_idempotent_retry_appends_nothing(database_url: str) -> None:
    games = new_games(database_url)
    players, game_id = seated_game(games)
    table = games.tables.get(game_id).table
    seat = views.active_seats(table)[0]
    action = views.legal_actions(table, players[seat])[0]
    first_game, first_events = games.play.act(players[seat], game_id, action, None, "key-1")
    again_game, again_events = games.play.act(players[seat], game_id, action, None, "key-1")
    assert again_game.version == first_game.version
    assert [e.version for e in again_events] == [e.version for e in first_events]
    other = new_games(database_url)  # a retry that reaches another process
    _, third = other.play.act(players[seat], game_id, action, None, "key-1")
    assert [e.version for e in third] == [e.version for e in first_events]
    assert other.tables.get(game_id).version == first_game.version


def test_a_stale_expected_version_is_a_conflict(sqlite_url: str) -> None:
    games = new_games(sqlite_url)
    players, game_id = seated_game(games)
    game = games.tables.get(game_id)
    seat = views.active_seats(game.table)[0]
    action = views.legal_actions(game.table, players[seat])[0]
    with pytest.raises(PapyrusError) as refused:
        games.play.act(players[seat], game_id, action, game.version - 1)
    assert refused.value.code == "CONFLICT"
    assert games.tables.get(game_id).version == game.version
