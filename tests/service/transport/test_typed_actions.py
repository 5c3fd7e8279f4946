"""Typed action input (``act(typedAction: ActionInput)``), generated from the one declaration
of each game's actions (``domain.actions``), next to the JSON ``action`` (docs/API.md ``act``).

Every action ``legalActions`` lists in random games of both kinds (Imhotep's §11 catalogue,
Amun-Re's §0 atomic decisions, every table option) goes to its typed form and back through the
real schema's input coercion to exactly the same dict; whole games are played over HTTP through
``typedAction`` alone; the bad combinations are refused with ``BAD_INPUT``."""

from __future__ import annotations

import random
from typing import Any

import pytest
import strawberry
from strawberry.scalars import JSON

from domain import actions
from domain.registry import kinds
from service.api.graphql.actioninput import MEMBERS, ActionInput, action_of, typed_of
from service.api.graphql.schema import schema
from tests.client import Client
from tests.service.play import create_table, seated
from tests.test_action_catalog import played


@strawberry.type
class Echo:
    @strawberry.field
    def echo(self, typed: ActionInput) -> JSON:  # type: ignore[valid-type]
        kind, action = action_of(typed)
        return JSON({"kind": kind, "action": action})


ECHO = strawberry.Schema(query=Echo)


def test_every_declared_action_has_one_typed_member_in_the_real_schema() -> None:
    """One member per (kind, action) of the catalogs, no second list: the real schema's
    ``ActionInput`` is ``@oneOf`` and its members are exactly the catalogs' actions."""
    declared = [(c.kind, a.name) for c in actions.catalogs() for a in c.actions]
    assert [(m.kind, m.spec.name) for m in MEMBERS.values()] == declared
    action_input = schema._schema.get_type("ActionInput")
    assert action_input is not None and "input ActionInput @oneOf {" in schema.as_str()
    fields = action_input.fields  # type: ignore[attr-defined]
    assert list(fields) == [m.graphql for m in MEMBERS.values()]
    assert "imhotepPlaceStone" in fields and "amunReBid" in fields
    site = schema._schema.get_type("ImhotepSite")  # the typed views' enum: one per closed set
    assert set(site.values) == {"MARKET", "PYRAMIDS", "TEMPLE", "BURIAL_CHAMBER", "OBELISKS"}  # type: ignore[union-attr]
    args = schema._schema.get_type("Mutation").fields["act"].args  # type: ignore[union-attr]
    assert str(args["typedAction"].type) == "ActionInput"
    assert str(args["action"].type) == "JSON"


def test_every_generated_type_field_and_value_is_described() -> None:
    """GraphiQL documents the typed input: each generated input type, enum, member, field and
    enum value carries a description (from the catalog's labels, rules and parameters)."""
    from graphql import GraphQLEnumType, GraphQLInputObjectType

    from service.api.graphql.actioninput import GENERATION

    names = {"ActionInput", *GENERATION.names}
    assert len(names) > len(MEMBERS) / 2
    for name in names:
        named = schema._schema.get_type(name)
        assert named is not None and named.description, name
        if isinstance(named, GraphQLInputObjectType):
            assert all(f.description for f in named.fields.values()), name
        else:
            assert isinstance(named, GraphQLEnumType)
            assert all(v.description for v in named.values.values()), name
    act = schema._schema.get_type("Mutation").fields["act"]  # type: ignore[union-attr]
    assert (
        act.description and act.args["typedAction"].description and act.args["action"].description
    )


@pytest.mark.parametrize("kind", kinds())
def test_every_listed_legal_action_roundtrips_through_the_typed_input(kind: str) -> None:
    """§11 / §0: each distinct action listed in random games of every configuration, sent as
    ``typedAction`` variables, is coerced by GraphQL and turned back into the very same dict
    (Imhotep's forced ``pass``, §6.5, which random play does not reach, is added)."""
    listed = [a for found in played(kind).values() for a in found]
    if kind == "imhotep":
        listed.append({"type": "pass"})
    query = "query($t: ActionInput!) { echo(typed: $t) }"
    for action in listed:
        result = ECHO.execute_sync(query, {"t": typed_of(kind, action)})
        assert result.errors is None, (action, result.errors)
        assert result.data == {"echo": {"kind": kind, "action": action}}
    assert {a["type"] for a in listed} == set(actions.catalog_for(kind).names)


ACT_TYPED = """mutation($g: ID!, $t: ActionInput, $a: JSON, $v: Int) {
  act(gameId: $g, typedAction: $t, action: $a, expectedVersion: $v) {
    game { version status } events { version type } } }"""
GAME = "query($g: ID!) { game(id: $g) { version status activeSeats mySeat legalActions moves { label type } } }"


def play_typed(
    players: list[Client], kind: str, game_id: str, rng: random.Random, max_actions: int
) -> tuple[dict[str, Any], set[str]]:
    """Play through ``typedAction`` only, each active seat choosing a listed legal action."""
    types: set[str] = set()
    for _ in range(max_actions):
        game = players[0].gql(GAME, {"g": game_id})["game"]
        if game["status"] != "ACTIVE":
            return game, types
        seat = rng.choice(game["activeSeats"])
        mine = players[seat].gql(GAME, {"g": game_id})["game"]
        assert all(m["label"] for m in mine["moves"]), "legalActions entries carry labels"
        assert [m["type"] for m in mine["moves"]] == [a["type"] for a in mine["legalActions"]]
        action = rng.choice(mine["legalActions"])
        typed = typed_of(kind, action)
        result = players[seat].gql(ACT_TYPED, {"g": game_id, "t": typed, "v": mine["version"]})
        assert result["act"]["events"], "an accepted action records at least one event"
        types.add(action["type"])
    return players[0].gql(GAME, {"g": game_id})["game"], types


def test_whole_games_of_both_kinds_played_through_typed_actions(sqlite_server: Any) -> None:
    """Over a real server, a whole 2-seat Imhotep game (§6 to §10) and a whole 3-seat Amun-Re
    game (R7 to R15) are played with ``typedAction`` alone, every listed action converted."""
    rng = random.Random(13)
    players = seated(sqlite_server.url, 3)
    try:
        imhotep = create_table(players[:2], "IMHOTEP", seed="typed-1")
        finished, types = play_typed(players[:2], "imhotep", imhotep, rng, 2000)
        assert finished["status"] == "FINISHED"
        assert {"get_stones", "place_stone", "sail"} <= types
        amun_re = create_table(players, "AMUN_RE", seed="typed-2")
        running, types = play_typed(players, "amun_re", amun_re, rng, 3000)
        assert running["status"] == "FINISHED"
        assert {"bid", "end_market_turn", "commit_gold"} <= types
    finally:
        for p in players:
            p.close()


def test_bad_combinations_of_action_and_typed_action_are_refused(sqlite_server: Any) -> None:
    """``act`` takes exactly one of ``action`` and ``typedAction``, a typed action of the
    game's own kind, one member, and ``true`` for an action without parameters; each refusal is
    BAD_INPUT and plays nothing, and the JSON ``action`` still plays."""
    players = seated(sqlite_server.url, 2)
    try:
        game_id = create_table(players, "IMHOTEP", seed="typed-bad")
        game = players[0].gql(GAME, {"g": game_id})["game"]
        seat = game["activeSeats"][0]
        me = players[seat]
        version = game["version"]
        refusals: dict[str, dict[str, Any]] = {
            "both": {"t": {"imhotepGetStones": True}, "a": {"type": "get_stones"}},
            "neither": {},
            "null action": {"a": None},
            "other kind": {"t": {"amunReEndMarketTurn": True}},
            "false": {"t": {"imhotepGetStones": False}},
            "two members": {"t": {"imhotepGetStones": True, "imhotepTakePoint": True}},
            "no member": {"t": {}},
            "unknown value": {"t": {"imhotepSail": {"ship": 1, "site": "MOON"}}},
        }
        for why, variables in refusals.items():
            failure = me.error(ACT_TYPED, {"g": game_id, **variables})
            assert failure.code == "BAD_INPUT", (why, failure.errors)
        assert (
            "not both"
            in me.error(ACT_TYPED, {"g": game_id, **refusals["both"]}).errors[0]["message"]
        )
        assert "this game is imhotep" in str(
            me.error(ACT_TYPED, {"g": game_id, **refusals["other kind"]})
        )
        assert players[0].gql(GAME, {"g": game_id})["game"]["version"] == version
        played_json = me.gql(ACT_TYPED, {"g": game_id, "a": {"type": "get_stones"}})["act"]
        assert played_json["game"]["version"] > version
        missing = me.error(ACT_TYPED, {"g": "00000000-0000-0000-0000-000000000000", "t": {
            "imhotepGetStones": True}})  # fmt: skip
        assert missing.code == "NOT_FOUND"
    finally:
        for p in players:
            p.close()
