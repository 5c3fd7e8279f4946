"""Secrecy: no read path shows a caller what its seat may not see; only the
holder of a seat acts for it.

Imhotep's secrets (§14) are hidden from everyone: the draw pile order, the round stack, the
removed round card, and the face-down pair of market B (its taker alone sees it until the keep).
Every read path must return exactly what the game's allow-list view gives that caller, and the
seed stays secret until the game is over.
"""

from __future__ import annotations

import json
import random

from domain.registry import rules_for
from service.app.application import Application
from service.store.database import open_store
from tests.client import Client
from tests.service.play import create_table, seated

SEED = "a-very-secret-seed-4711"
READ = (
    "query($g: ID!, $v: Int!) { game(id: $g) { version status mySeat state legalActions "
    "stateAt(version: $v) events(first: 200) { nodes { version type seat data } } } }"
)


def secrets_of(games: Application, game_id: str) -> list[str]:
    """JSON fragments that no caller may receive while the game runs."""
    table = games.tables.get(game_id).table
    hidden = rules_for("imhotep").view(table.game, None, True)["hidden"]
    fragments = [SEED]
    for key in ("draw_pile", "round_stack"):
        if len(hidden[key]) >= 2:
            fragments.append(json.dumps(hidden[key][:3])[1:-1])
    return fragments


def test_no_read_path_shows_a_secret_to_a_seat_or_a_spectator(sqlite_server, sqlite_url) -> None:  # type: ignore[no-untyped-def]
    players = seated(sqlite_server.url, 4)
    game_id = create_table(players, "IMHOTEP", {"sides": "B"}, seed=SEED)
    spectator = Client(sqlite_server.url)
    server_side = Application(open_store(sqlite_url))
    rules = rules_for("imhotep")
    rng = random.Random(2)
    checked = 0
    while True:
        game = players[0].gql(
            "query($g: ID!) { game(id: $g) { status activeSeats version } }", {"g": game_id}
        )["game"]
        if game["status"] != "ACTIVE":
            break
        if game["version"] % 7 == 0 or checked < 3:
            checked += 1
            table = server_side.tables.get(game_id).table
            forbidden = secrets_of(server_side, game_id)
            past = max(1, game["version"] - 5)
            past_table = server_side.tables.at_version(game_id, past).table
            for seat, caller in [(None, spectator), (1, players[1])]:
                seen = caller.gql(READ, {"g": game_id, "v": past})["game"]
                assert seen["state"] == rules.view(table.game, seen["mySeat"], False)
                assert seat is None or seen["mySeat"] == seat
                if past_table.game is not None:
                    assert seen["stateAt"] == rules.view(past_table.game, seat, False)
                texts = [json.dumps(seen)]
                texts.append(caller.rest("GET", f"/games/{game_id}").text)
                texts.append(caller.rest("GET", f"/games/{game_id}/events?limit=200").text)
                texts.append(caller.rest("GET", f"/games/{game_id}/state?version={past}").text)
                for text in texts:
                    for fragment in forbidden:
                        assert fragment not in text, f"secret {fragment!r} leaked to seat {seat}"
        seat = rng.choice(game["activeSeats"])
        mine = players[seat].gql(
            "query($g: ID!) { game(id: $g) { legalActions } }", {"g": game_id}
        )["game"]
        players[seat].gql(
            "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { version } } }",
            {"g": game_id, "a": rng.choice(mine["legalActions"])},
        )
    assert checked > 5
    finished = spectator.gql(
        "query($g: ID!) { game(id: $g) { state events(first: 1) { nodes { data } } } }",
        {"g": game_id},
    )["game"]
    assert "hidden" in finished["state"], "everything is revealed once the game is over"
    assert finished["events"]["nodes"][0]["data"]["seed"] == SEED


def test_illegal_action_errors_do_not_reveal_secrets(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    players = seated(sqlite_server.url, 2)
    game_id = create_table(players, "IMHOTEP", {"sides": "B"}, seed=SEED)
    for bad in [
        {"type": "take_card", "card": "lever"},
        {"type": "keep", "card": "x"},
        {"type": "nope"},
    ]:
        for player in players:
            failure = player.error(
                "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { id } } }",
                {"g": game_id, "a": bad},
            )
            assert failure.code in ("ILLEGAL_ACTION", "NOT_YOUR_TURN", "BAD_INPUT")
            assert SEED not in str(failure.errors)


def test_acting_for_a_seat_you_do_not_hold_is_forbidden(server) -> None:  # type: ignore[no-untyped-def]
    players = seated(server.url, 3)
    game_id = create_table(players[:2], "IMHOTEP")
    act = "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { id } } }"
    failure = players[2].error(act, {"g": game_id, "a": {"type": "get_stones"}})
    assert failure.code == "FORBIDDEN"
    response = players[2].rest(
        "POST", f"/games/{game_id}/actions", json={"action": {"type": "get_stones"}}
    )
    assert response.status_code == 403 and response.json()["code"] == "FORBIDDEN"


def test_acting_without_a_token_is_unauthenticated(server) -> None:  # type: ignore[no-untyped-def]
    players = seated(server.url, 2)
    game_id = create_table(players, "IMHOTEP")
    anonymous = Client(server.url)
    act = "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { id } } }"
    assert (
        anonymous.error(act, {"g": game_id, "a": {"type": "get_stones"}}).code == "UNAUTHENTICATED"
    )
    response = anonymous.rest(
        "POST", f"/games/{game_id}/actions", json={"action": {"type": "get_stones"}}
    )
    assert response.status_code == 401 and response.json()["code"] == "UNAUTHENTICATED"


def test_the_seat_that_is_not_to_act_gets_not_your_turn(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    players = seated(sqlite_server.url, 2)
    game_id = create_table(players, "IMHOTEP", {"start_player": 0})
    failure = players[1].error(
        "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { id } } }",
        {"g": game_id, "a": {"type": "get_stones"}},
    )
    assert failure.code == "NOT_YOUR_TURN"
    assert (
        players[1].gql("query($g: ID!) { game(id: $g) { legalActions } }", {"g": game_id})["game"][
            "legalActions"
        ]
        == []
    )


def test_bad_actions_and_options_are_bad_input(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    players = seated(sqlite_server.url, 2)
    create = "mutation($i: CreateGameInput!) { createGame(input: $i) { id } }"
    bad_option = players[0].error(
        create, {"i": {"kind": "IMHOTEP", "seats": 2, "options": {"colour_blind": True}}}
    )
    assert bad_option.code == "BAD_INPUT" and "sides" in str(bad_option)
    assert players[0].error(create, {"i": {"kind": "IMHOTEP", "seats": 7}}).code == "BAD_INPUT"
    assert players[0].error(create, {"i": {"kind": "CHESS", "seats": 2}}).code == "BAD_INPUT"
    game_id = create_table(players, "IMHOTEP", {"start_player": 0})
    act = "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { id } } }"
    for bad in [
        {"type": "fly_to_the_moon"},
        {"no": "type"},
        {"type": "place_stone", "ship": "x"},
        [1, 2],
    ]:
        failure = players[0].error(act, {"g": game_id, "a": bad})
        assert failure.code == "BAD_INPUT", (bad, failure.errors)
    illegal = players[0].error(
        act, {"g": game_id, "a": {"type": "place_stone", "ship": 1, "slot": 99}}
    )
    assert illegal.code in ("ILLEGAL_ACTION", "BAD_INPUT")


def test_a_table_is_abandoned_by_a_seated_player_and_then_refuses_actions(server) -> None:  # type: ignore[no-untyped-def]
    players = seated(server.url, 3)
    game_id = create_table(players[:2], "IMHOTEP")
    abandon = (
        'mutation($g: ID!) { abandonGame(gameId: $g, reason: "late") { status result { scores } } }'
    )
    assert players[2].error(abandon, {"g": game_id}).code == "FORBIDDEN"
    closed = players[1].gql(abandon, {"g": game_id})["abandonGame"]
    assert closed == {"status": "ABANDONED", "result": None}
    act = "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { id } } }"
    assert (
        players[0].error(act, {"g": game_id, "a": {"type": "get_stones"}}).code == "GAME_NOT_ACTIVE"
    )
    assert players[0].rest("POST", f"/games/{game_id}/abandon").json()["code"] == "GAME_NOT_ACTIVE"
