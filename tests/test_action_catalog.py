"""The action vocabulary declared once per game (``domain.actions``, ``domain/<game>/
action_catalog.py``) against what the rules really list and accept, and its publication:
GraphQL ``actionCatalog`` / ``Game.moves``, REST ``GET /catalog/{kind}/actions`` / ``moves`` and
the OpenAPI ``oneOf`` of the ``act`` body.

The random games (tests/harness.py) cover every table option of both games: Imhotep sides A/B
and the Wrath of the Pharaoh (§2), Amun-Re's base options and Expanded Pack modules (§16)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import jsonschema
import pytest

from domain import actions
from domain.contract import JSON, RulesError
from domain.registry import kinds, rules_for
from tests.client import Client, register
from tests.harness import random_game, start
from tests.service.play import create_table

MODULES = ("afterlife", "statues", "pharaoh", "promo_favours")
Configuration = tuple[int, JSON]
CONFIGURATIONS: dict[str, list[Configuration]] = {
    "imhotep": [
        (seats, {"sides": sides, "wrath_of_the_pharaoh": wrath})
        for seats in (2, 3, 4)
        for sides, wrath in (("A", False), ("B", True), ("B", False), ("A", True))
    ],
    "amun_re": [
        (3, {}),
        (4, {"classic_bank_majority": True, "no_farmer_points": True}),
        (5, dict.fromkeys(MODULES, True)),
        (3, {"afterlife": True, "promo_favours": True}),
        (4, {"statues": True, "pharaoh": True}),
        (5, {"promo_favours": True, "statues": True}),
        (4, dict.fromkeys(MODULES, True)),
        (3, dict.fromkeys(MODULES, True)),
    ],
}
#: (configuration, seed) of extra games that reach a rare action: Amun-Re's sale to pay a bid
#: (C-3, R9.8) needs a winning bid above the payer's gold, about one random game in fifty
RARE_GAMES: dict[str, list[tuple[Configuration, int]]] = {
    "imhotep": [],
    "amun_re": [((3, {"afterlife": True, "promo_favours": True}), 99)],
}
#: actions no random game reaches: Imhotep's forced pass needs a seat with an empty quarry and
#: sled and no playable card (§6.5), which random play did not produce in 300 games
RARE = {"imhotep": {"pass"}, "amun_re": set()}


@cache
def validator(kind: str, name: str) -> jsonschema.protocols.Validator:
    spec = actions.catalog_for(kind).get(name)
    assert spec is not None, f"{kind} lists {name!r}, which its catalog does not declare"
    schema = actions.json_schema(spec)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def positions(kind: str) -> Iterator[tuple[Any, int, list[JSON]]]:
    """Every (state, seat, legal actions) of random games of ``kind`` in every configuration."""
    rules = rules_for(kind)
    seen: list[tuple[Any, int, list[JSON]]] = []

    def listed(state: Any) -> None:
        for seat in rules.active_seats(state):
            seen.append((state, seat, rules.legal_actions(state, seat)))

    games = [(c, 1000 + n) for n, c in enumerate(CONFIGURATIONS[kind])] + RARE_GAMES[kind]
    for (seats, options), seed in games:
        _, first = start(rules, seats, rules.normalize_options(seats, options), seed)
        listed(first)
        random_game(
            rules, seats, options, seed,
            check=lambda state, steps: listed(state), replay_every=1 << 30,
        )  # fmt: skip
        yield from seen
        seen.clear()


@cache
def played(kind: str) -> dict[str, list[JSON]]:
    """Every distinct legal action listed in the random games, by type, checking as it goes
    that labels are non-empty and distinct within each position."""
    catalog = actions.catalog_for(kind)
    by_type: dict[str, dict[str, JSON]] = {}
    for _, _, legal in positions(kind):
        labels = [actions.label(catalog, a) for a in legal]
        assert all(labels), f"an empty label among {legal}"
        assert len(set(labels)) == len(labels), f"two actions share a label: {labels}"
        for action in legal:
            by_type.setdefault(action["type"], {})[json.dumps(action, sort_keys=True)] = action
    return {t: list(found.values()) for t, found in by_type.items()}


@pytest.mark.parametrize("kind", kinds())
def test_every_listed_legal_action_validates_against_its_schema(kind: str) -> None:
    """Every action ``legalActions`` lists (the §11 catalogue of Imhotep, Amun-Re's §0 atomic
    decisions) is declared and valid against its JSON Schema; labels differ within a position."""
    for name, listed in played(kind).items():
        check = validator(kind, name)
        for action in listed:
            errors = [e.message for e in check.iter_errors(action)]
            assert not errors, f"{action} does not match its schema: {errors}"


@pytest.mark.parametrize("kind", kinds())
def test_the_catalog_is_exactly_the_actions_decide_accepts_and_legal_actions_lists(
    kind: str,
) -> None:
    """The declaration is the vocabulary: the same names as the rules' deciders, every one seen
    in random play except the explained rare ones (``RARE``)."""
    catalog = actions.catalog_for(kind)
    rules_module = __import__(f"domain.{kind}.rules", fromlist=["ACTION_TYPES"])
    assert sorted(catalog.names) == sorted(rules_module.ACTION_TYPES)
    seen = set(played(kind))
    assert seen <= set(catalog.names)
    assert set(catalog.names) - seen == RARE[kind]


@pytest.mark.parametrize("kind", kinds())
def test_an_action_off_its_schema_is_refused_by_the_rules(kind: str) -> None:
    """§0 / §11 malformed actions: without a parameter, or with an extra one, an action fails
    its schema and ``decide`` refuses it with a reason."""
    rules = rules_for(kind)
    rng = random.Random(7)
    checked = 0
    for state, seat, legal in positions(kind):
        if rng.random() > 0.05:
            continue
        action = rng.choice(legal)
        bad = [{**action, "extra": 1}]
        if len(action) > 1:
            key = rng.choice(sorted(set(action) - {"type"}))
            bad.append({k: v for k, v in action.items() if k != key})
        for wrong in bad:
            assert not validator(kind, action["type"]).is_valid(wrong)
            with pytest.raises(RulesError):
                rules.decide(state, seat, wrong, random.Random(0))
            checked += 1
    assert checked > 20


def test_the_act_body_documents_the_action_as_one_of_the_per_action_schemas() -> None:
    """The OpenAPI ``act`` body: ``action`` is a ``oneOf`` generated from the declaration, each
    branch a named component titled with its name (``ImhotepPlaceStone``), and every legal
    action of either game matches exactly one branch."""
    import service.api.rest as rest
    from service.api.graphql.actioninput import pascal

    doc = rest.openapi_document()
    schemas = doc["components"]["schemas"]
    refs = [b["$ref"] for b in schemas["Act"]["properties"]["action"]["oneOf"]]
    titles = [ref.removeprefix("#/components/schemas/") for ref in refs]
    assert titles == [pascal(f"{c.kind}_{a.name}") for c in actions.catalogs() for a in c.actions]
    assert [schemas[t]["title"] for t in titles] == titles
    checks = [jsonschema.Draft202012Validator(schemas[t]) for t in titles]
    for kind in kinds():
        for listed in played(kind).values():
            for action in listed[:20]:
                matched = [t for t, c in zip(titles, checks, strict=True) if c.is_valid(action)]
                assert matched == [pascal(f"{kind}_{action['type']}")]


def test_labels_name_the_concrete_action() -> None:
    """A label reads the parameters (§6.2 placing a stone; R9.6 a bid with its red cards)."""
    imhotep, amun_re = actions.catalog_for("imhotep"), actions.catalog_for("amun_re")
    assert actions.label(imhotep, {"type": "place_stone", "ship": 2, "slot": 3}) == (
        "Place a stone on ship 2, slot 3"
    )
    bid = {"type": "bid", "province": amun_re.get("bid").params[0].allowed[0],  # type: ignore[union-attr]
           "value": 5, "bribe": True, "protection": False}  # fmt: skip
    shown = actions.label(amun_re, bid)
    assert shown.startswith("Bid 5 on ") and shown.endswith("with a Bribe card"), shown


CATALOG_QUERY = """query($k: GameKind!) { actionCatalog(kind: $k) {
  name label rule schema
  parameters { name type description allowed minimum maximum schema } } }"""


@pytest.mark.parametrize("kind", ["IMHOTEP", "AMUN_RE"])
def test_graphql_and_rest_publish_the_same_catalog(sqlite_server: Any, kind: str) -> None:
    """Over the real HTTP server, ``actionCatalog`` and ``GET /catalog/{kind}/actions`` answer
    the same declaration, to a spectator."""
    client = Client(sqlite_server.url)
    try:
        graphql = client.gql(CATALOG_QUERY, {"k": kind})["actionCatalog"]
        response = client.rest("GET", f"/catalog/{kind.lower()}/actions")
        assert response.status_code == 200, response.text
        assert graphql == response.json()
        declared = actions.catalog_for(kind.lower())
        assert [a["name"] for a in graphql] == list(declared.names)
        assert [a["schema"] for a in graphql] == [actions.json_schema(a) for a in declared.actions]
        missing = client.rest("GET", "/catalog/chess/actions")
        assert missing.status_code == 404
        assert missing.json()["code"] == "NOT_FOUND"
    finally:
        client.close()


@pytest.mark.parametrize(("kind", "seats"), [("IMHOTEP", 2), ("AMUN_RE", 3)])
def test_moves_label_every_legal_action_over_http(
    sqlite_server: Any, kind: str, seats: int
) -> None:
    """``Game.moves`` / REST ``moves``: exactly ``legalActions`` in order, each with its type and
    a non-empty label, the labels distinct within the position."""
    players = [register(sqlite_server.url, f"Mover {i}") for i in range(seats)]
    try:
        game_id = create_table(players, kind, seed="moves")
        query = "query($g: ID!) { game(id: $g) { activeSeats legalActions moves { action label type } } }"
        seat = players[0].gql(query, {"g": game_id})["game"]["activeSeats"][0]
        game = players[seat].gql(query, {"g": game_id})["game"]
        moves, legal = game["moves"], game["legalActions"]
        assert legal and [m["action"] for m in moves] == legal
        assert [m["type"] for m in moves] == [a["type"] for a in legal]
        labels = [m["label"] for m in moves]
        assert all(labels) and len(set(labels)) == len(labels), labels
        rest = players[seat].rest("GET", f"/games/{game_id}").json()
        shown = [{k: v for k, v in m.items() if k != "typedAction"} for m in rest["moves"]]
        assert shown == moves and rest["legalActions"] == legal
        for move in rest["moves"]:  # REST's typed form: the parameters under a kind's member
            ((_, params),) = move["typedAction"].items()
            assert params == {k: v for k, v in move["action"].items() if k != "type"}
    finally:
        for p in players:
            p.close()
