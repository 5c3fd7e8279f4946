"""Forks of a running Amun-Re game (R7.9, D-46, §17) over the API: a player who takes an open
seat of a fork learns nothing of the forking player's secrets, in particular not his gold.

Two source games are built as the fork tests build positions (``tests/amun_re/test_fork.py``):
both start from the same real position, as forks do (one ``fork_dealt`` entry), and differ in
one secret only, the gold of seat 0 (the forking player's). Seat 0's player forks each at the
same version with the same seed (the fork's own seed is the only thing ``forkGame`` would
choose at random); two other players take the open seats over the real server, which deals the
forks' starts. Every read path of the fork, as those two players and a spectator read it
(``tests.service.secrecy.reads``), must answer the same for both sources; and the forking
player keeps his own gold."""

from __future__ import annotations

import random
from typing import Any

from domain import table as tables
from domain.amun_re.fork import FORK_DEALT, snapshot
from domain.audit import FORK
from domain.contract import Event
from service.app.application import Application
from service.app.seating import new_table
from service.store.database import open_store
from tests.client import Client, register
from tests.service.play import create_table
from tests.service.secrecy.reads import assert_alike, check_times, everything, legal

ACT = "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { version } } }"
JOIN = "mutation($g: ID!, $s: Int) { joinGame(gameId: $g, seat: $s) { mySeat status } }"
MINE = "query($g: ID!) { game(id: $g) { status state } }"


def source_with_gold(app: Application, players: list[Any], position: Any, gold: int) -> str:
    """A running game whose position is ``position`` except seat 0's gold."""
    state = position.clone()
    state.ledger["start"] += gold - state.gold[0]
    state.gold[0] = gold
    game = new_table(players[0], "amun_re", 3, dict(position.options), seed="source")
    for seat, player in enumerate(players):
        game.record(
            Event(
                tables.SEAT_TAKEN,
                {"seat": seat, "player_id": player.player_id, "name": player.name, "bot": None},
                seat,
            ),
            actor=player.player_id,
        )
    game.record(Event(tables.GAME_STARTED, {"seats": 3}), command=FORK)
    game.record(Event(FORK_DEALT, {"state": snapshot(state)}), command=FORK)
    app.tables.save_new(game)
    return str(game.id)


def fork_of(app: Application, forker: Any, source_id: str) -> str:
    """``forkGame`` by seat 0's player at the source's version, with a chosen fork seed."""
    source = app.tables.get(source_id)
    forked_from = {"game_id": source_id, "version": source.version, "seats": [0]}
    fork = new_table(forker, "amun_re", 3, source.table.options, "fork", forked_from=forked_from)
    app.seating.seat(fork, 0, forker.player_id, forker.name, None)
    app.tables.save_new(fork)
    return str(fork.id)


def test_d46_a_player_who_joins_a_fork_learns_nothing_of_the_forkers_gold(  # type: ignore[no-untyped-def]
    database_url, server
) -> None:
    """R7.9 / D-46 / §17: the gold of the open seats of a fork is a function of public
    information only. Two sources that differ only in the forking player's gold give forks that
    read the same, on every read path, to the players who take the open seats and to a
    spectator — before and after the first of them acts — while the forking player keeps his
    own gold; verifyLog accepts both forks' starts."""
    url, ws = server.url, server.ws_url
    source_players = [register(url, f"Source {i}") for i in range(3)]
    joiner, other, spectator = register(url, "Joiner"), register(url, "Other"), Client(url)
    game_id = create_table(source_players, "AMUN_RE", seed="real")
    rng = random.Random(7)
    for _ in range(14):
        game = source_players[0].gql(
            "query($g: ID!) { game(id: $g) { activeSeats } }", {"g": game_id}
        )
        seat = game["game"]["activeSeats"][0]
        action = rng.choice(legal(source_players[seat], game_id))
        source_players[seat].gql(ACT, {"g": game_id, "a": action})
    app = Application(open_store(database_url))  # the server's store, as the fork tests do
    callers = [app.accounts.authenticate(f"Bearer {p.token}") for p in source_players]
    position = app.tables.get(game_id).table.game
    assert position.phase in ("auction", "market", "offering")
    seen = []
    for gold in (position.gold[0], position.gold[0] + 9):
        fork_id = fork_of(app, callers[0], source_with_gold(app, callers, position, gold))
        assert joiner.gql(JOIN, {"g": fork_id, "s": 1})["joinGame"]["mySeat"] == 1
        assert other.gql(JOIN, {"g": fork_id, "s": 2})["joinGame"]["status"] == "ACTIVE"
        forker_view = source_players[0].gql(MINE, {"g": fork_id})["game"]["state"]
        assert forker_view["you"]["gold"] == gold  # the forking player keeps his own gold
        views = {
            name: everything(caller, ws, fork_id)
            for name, caller in (("joiner", joiner), ("other", other), ("spectator", spectator))
        }
        for each in views.values():
            check_times(each)
        assert views["joiner"]["verifyLog"] == {
            "verifyLog": {
                "ok": True,
                "checkedEvents": views["joiner"]["game"]["version"],
                "badVersion": None,
                "reason": None,
            }
        }
        acted = None
        for player in (joiner, other):
            actions = legal(player, fork_id)
            if actions:
                acted = player.gql(ACT, {"g": fork_id, "a": actions[0]})
                break
        after = {
            name: everything(caller, ws, fork_id)
            for name, caller in (("joiner", joiner), ("other", other), ("spectator", spectator))
        }
        after["joiner"]["acted"] = acted
        seen.append((views, after))
    for moment in (0, 1):
        assert_alike(seen[0][moment], seen[1][moment], "the forking player's gold")
