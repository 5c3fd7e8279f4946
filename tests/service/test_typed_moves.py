"""Typed moves (docs/API.md "Actions"): every legal action in its typed form too.

GraphQL's ``moves { typedAction }`` holds exactly the value ``act(typedAction:)`` takes: two
tables with the same seed and the same seats are played side by side over a real server, one
with each move's JSON ``action``, the other with the same move's ``typedAction`` sent back as
it is; both record the very same events after every move, for every action type random play
of both games meets. REST's action bodies are typed by name in ``openapi.json``: one titled
component per game kind and action (``ImhotepPlaceStone``), so that code generators make one
named class per action instead of ``Action1`` ... ``Action51``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from domain import actions
from service.api.graphql.actioninput import pascal
from tests.client import Client
from tests.service.play import seated
from tests.test_action_catalog import MODULES

ROOT = Path(__file__).resolve().parents[2]
Options = dict[str, Any]
#: (kind, seats, table options) of the games played: both games, with their optional rules
GAMES: list[tuple[str, int, Options]] = [
    ("imhotep", 2, {}),
    ("imhotep", 3, {"sides": "B", "wrath_of_the_pharaoh": True}),
    ("amun_re", 3, {}),
    ("amun_re", 4, dict.fromkeys(MODULES, True)),
]

MOVES = """query($g: ID!) { game(id: $g) {
  status version mySeat legalActions moves { action label type typedAction } } }"""
ACT = """mutation($g: ID!, $s: Int, $a: JSON, $t: ActionInput) {
  act(gameId: $g, seat: $s, action: $a, typedAction: $t) {
    game { version status } events { version seat type data } } }"""


def held_table(player: Client, kind: str, seats: int, options: Options, seed: str) -> str:
    """A table of ``kind`` created with ``seed``, every seat taken by ``player``."""
    game_id = player.gql(
        "mutation($i: CreateGameInput!) { createGame(input: $i) { id } }",
        {"i": {"kind": kind.upper(), "seats": seats, "options": options, "seed": seed}},
    )["createGame"]["id"]
    for seat in range(seats):
        player.gql(
            "mutation($g: ID!, $s: Int) { joinGame(gameId: $g, seat: $s) { id } }",
            {"g": game_id, "s": seat},
        )
    return str(game_id)


def played_side_by_side(
    player: Client, kind: str, seats: int, options: Options, seed: str, rng: random.Random
) -> set[str]:
    """One player holding every seat of two tables of the same seed: each step, the same move
    is played at both, as JSON at the first and typed at the second; the types met."""
    tables = [held_table(player, kind, seats, options, seed) for _ in range(2)]
    met: set[str] = set()
    for _ in range(5000):
        json_game, typed_game = (player.gql(MOVES, {"g": g})["game"] for g in tables)
        assert json_game["moves"] == typed_game["moves"]
        if json_game["status"] != "ACTIVE":
            assert json_game["status"] == "FINISHED"
            return met
        seat = json_game["mySeat"]  # the held seat that must act now: the moves are its
        moves = json_game["moves"]
        assert [m["action"] for m in moves] == json_game["legalActions"]
        move = rng.choice(moves)
        (member,) = move["typedAction"]  # one member of ActionInput, named kind and action
        named = pascal(f"{kind}_{move['type']}")
        assert member == named[:1].lower() + named[1:]
        by_json = player.gql(ACT, {"g": tables[0], "s": seat, "a": move["action"]})["act"]
        by_typed = player.gql(ACT, {"g": tables[1], "s": seat, "t": move["typedAction"]})["act"]
        assert by_json == by_typed, move
        met.add(move["type"])
    raise AssertionError(f"the {kind} game did not end in 5000 moves")


def test_every_typed_move_plays_the_same_as_its_json_action(sqlite_server: Any) -> None:
    """Whole games of both kinds: the typed form of each legal move, sent back unchanged to
    ``act(typedAction:)``, records exactly the events its JSON form records."""
    rng = random.Random(23)
    (player,) = seated(sqlite_server.url, 1)
    try:
        met = {kind: set[str]() for kind in ("imhotep", "amun_re")}
        for n, (kind, seats, options) in enumerate(GAMES):
            met[kind] |= played_side_by_side(player, kind, seats, options, f"typed-{n}", rng)
        assert {"get_stones", "place_stone", "sail", "take_card"} <= met["imhotep"], met
        assert {"bid", "end_market_turn", "commit_gold", "sell"} <= met["amun_re"], met
        print(f"action types played both ways: {met}")
    finally:
        player.close()


def test_every_action_schema_is_a_named_titled_component() -> None:
    """``openapi.json``: the ``action`` of ``Act`` is one of the named components, one per
    game kind and action, each titled with its name; no anonymous action schema is left."""
    document = json.loads((ROOT / "openapi.json").read_text())
    schemas = document["components"]["schemas"]
    action = schemas["Act"]["properties"]["action"]
    refs = [choice["$ref"] for choice in action["oneOf"]]
    declared = [
        pascal(f"{catalog.kind}_{spec.name}")
        for catalog in actions.catalogs()
        for spec in catalog.actions
    ]
    assert refs == [f"#/components/schemas/{name}" for name in declared]
    for catalog in actions.catalogs():
        for spec in catalog.actions:
            name = pascal(f"{catalog.kind}_{spec.name}")
            schema = schemas[name]
            assert schema["title"] == name
            assert schema["properties"]["type"] == {"const": spec.name}
            assert schema["description"]
    titles = json.dumps(document)
    assert '"title": "imhotep.' not in titles and '"title": "amun_re.' not in titles
    assert not any(name.startswith("Action") and name[6:].isdigit() for name in schemas)
