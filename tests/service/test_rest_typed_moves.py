"""Typed moves over REST (issue #23, "Typed moves ... in REST too"; docs/API.md "Actions").

Every legal action a REST response shows is typed: in ``legalActions`` and ``moves[].action``
as exactly one of the named action bodies of ``openapi.json`` (checked here with a JSON Schema
validator against the served document, for every step of whole games of both kinds), and in
``moves[].typedAction`` in the typed form ``POST /games/{id}/actions`` takes as
``typedAction``: two tables of the same seed are played side by side over a real server, one
by each move's JSON ``action``, the other by its ``typedAction`` sent back as it is, and both
record the very same events. A typed action that is not exactly one member of the game's own
kind is refused with ``BAD_INPUT``, and nothing is recorded.
"""

from __future__ import annotations

import random
from typing import Any

import jsonschema
import pytest

from service.api.graphql.actioninput import MEMBERS as GRAPHQL_MEMBERS
from service.api.rest.typedactions import BY_NAME, MEMBERS
from tests.client import Client
from tests.service.play import seated
from tests.service.test_typed_moves import GAMES, Options


def held_table(player: Client, kind: str, seats: int, options: Options, seed: str) -> str:
    """A table of ``kind`` created over REST with ``seed``, every seat taken by ``player``."""
    answer = player.rest(
        "POST",
        "/games",
        json={"kind": kind.upper(), "seats": seats, "options": options, "seed": seed},
    )
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["id"]
    for seat in range(seats):
        joined = player.rest("POST", f"/games/{game_id}/seats", json={"seat": seat})
        assert joined.status_code == 200, joined.text
    return str(game_id)


def validator(player: Client, component: str) -> jsonschema.protocols.Validator:
    """A validator of one component of the served ``openapi.json`` (its references resolved in
    the document)."""
    document = player.rest("GET", "/openapi.json").json()
    schema = {"$ref": f"#/components/schemas/{component}", "components": document["components"]}
    return jsonschema.Draft202012Validator(schema)


def played_side_by_side(
    player: Client, kind: str, seats: int, options: Options, seed: str, rng: random.Random
) -> set[str]:
    tables = [held_table(player, kind, seats, options, seed) for _ in range(2)]
    game_schema = validator(player, "Game")
    met: set[str] = set()
    for _ in range(5000):
        json_game, typed_game = (player.rest("GET", f"/games/{g}").json() for g in tables)
        game_schema.validate(json_game)  # every legal action one of the named bodies
        assert json_game["moves"] == typed_game["moves"]
        if json_game["status"] != "ACTIVE":
            assert json_game["status"] == "FINISHED"
            return met
        moves = json_game["moves"]
        assert [m["action"] for m in moves] == json_game["legalActions"]
        move = rng.choice(moves)
        ((member, params),) = move["typedAction"].items()
        assert (BY_NAME[member].kind, BY_NAME[member].spec.name) == (kind, move["type"])
        assert params == {k: v for k, v in move["action"].items() if k != "type"}
        body = {"seat": json_game["mySeat"], "expectedVersion": json_game["version"]}
        by_json = player.rest(
            "POST", f"/games/{tables[0]}/actions", json={**body, "action": move["action"]}
        )
        by_typed = player.rest(
            "POST",
            f"/games/{tables[1]}/actions",
            json={**body, "typedAction": move["typedAction"]},
        )
        assert by_json.status_code == by_typed.status_code == 200, (by_json.text, by_typed.text)
        recorded = [
            [e[k] for k in ("version", "seat", "type", "data")] for e in by_json.json()["events"]
        ]
        assert recorded == [
            [e[k] for k in ("version", "seat", "type", "data")] for e in by_typed.json()["events"]
        ], move
        met.add(move["type"])
    raise AssertionError(f"the {kind} game did not end in 5000 moves")


def test_every_rest_typed_move_plays_the_same_as_its_json_action(sqlite_server: Any) -> None:
    """Whole games of both kinds over REST: each response's legal actions validate as one of
    the named action bodies, and each move's ``typedAction`` sent back records exactly the
    events its JSON ``action`` records."""
    rng = random.Random(2323)
    (player,) = seated(sqlite_server.url, 1)
    try:
        met = {kind: set[str]() for kind in ("imhotep", "amun_re")}
        for n, (kind, seats, options) in enumerate(GAMES[::3]):
            met[kind] |= played_side_by_side(player, kind, seats, options, f"rest-{n}", rng)
        assert {"get_stones", "place_stone", "sail"} <= met["imhotep"], met
        assert {"bid", "end_market_turn"} <= met["amun_re"], met
    finally:
        player.close()


def test_rest_members_are_graphqls_action_input_members() -> None:
    """One typed form, two transports: REST's ``TypedAction`` members are named as GraphQL's
    ``ActionInput`` members, for the same actions."""
    rest = {(m.kind, m.spec.name): m.name for m in MEMBERS}
    graphql = {(m.kind, m.spec.name): m.graphql for m in GRAPHQL_MEMBERS.values()}
    assert rest == graphql


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ({}, "exactly one member"),
        ({"imhotepGetStones": {}, "imhotepPass": {}}, "exactly one member"),
        ({"amunReBid": {"province": "memphis", "value": 1}}, "this game is imhotep"),
        ({"imhotepJump": {}}, "typedAction"),
        ("place_stone", "typedAction"),
        ({"imhotepPlaceStone": 3}, "typedAction"),
        # the member names the action: a ``type`` among its parameters cannot play another
        ({"imhotepPlaceStone": {"type": "get_stones"}}, "has no parameter type"),
        ({"imhotepPlaceStone": {"ship": 1, "slot": 1, "shipp": 2}}, "has no parameter shipp"),
    ],
)
def test_a_typed_action_that_is_not_one_action_of_the_game_is_refused(
    sqlite_server: Any, typed: Any, says: str
) -> None:
    """BAD_INPUT (422) with a sentence saying what to send; the game does not move."""
    (player,) = seated(sqlite_server.url, 1)
    try:
        game_id = held_table(player, "imhotep", 2, {}, "refused")
        before = player.rest("GET", f"/games/{game_id}").json()["version"]
        answer = player.rest("POST", f"/games/{game_id}/actions", json={"typedAction": typed})
        assert answer.status_code == 422, answer.text
        assert answer.json()["code"] == "BAD_INPUT"
        assert says in answer.json()["detail"], answer.json()
        assert player.rest("GET", f"/games/{game_id}").json()["version"] == before
    finally:
        player.close()


def test_action_and_typed_action_exclude_each_other(sqlite_server: Any) -> None:
    (player,) = seated(sqlite_server.url, 1)
    try:
        game_id = held_table(player, "imhotep", 2, {}, "both")
        path = f"/games/{game_id}/actions"
        both = player.rest(
            "POST",
            path,
            json={"action": {"type": "get_stones"}, "typedAction": {"imhotepGetStones": {}}},
        )
        neither = player.rest("POST", path, json={"expectedVersion": 1})
        for answer, says in ((both, "not both"), (neither, "Send an action")):
            assert answer.status_code == 422 and answer.json()["code"] == "BAD_INPUT"
            assert says in answer.json()["detail"]
    finally:
        player.close()
