"""Typed game views (service/graphql/gameviews): the typed ``GameView`` carries exactly the
information of the JSON view, for states of seeded random games, every seat, a spectator and the
full view after the game.

Every field of the view types is selected by a query generated from the schema; the result is
normalised back (camelCase → snake_case, entry lists → maps) and both sides are flattened to sets
of (path, value) leaves: every leaf of the JSON view must be in the typed result, and the typed
result may only add nulls where the JSON view has no key (nothing invented).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
import strawberry
from graphql import (
    DocumentNode,
    GraphQLEnumType,
    GraphQLObjectType,
    GraphQLSchema,
    get_named_type,
    parse,
    validate,
)
from graphql import execute_sync as graphql_execute

from domain.registry import rules_for
from service.api.graphql.gameviews import GameView, typed_view
from tests.harness import random_game, start

MODULES = {"afterlife": True, "statues": True, "pharaoh": True, "promo_favours": True}
IMHOTEP_TABLES = [
    (seats, {"sides": sides, "wrath_of_the_pharaoh": wrath}, seed)
    for seed, (seats, sides, wrath) in enumerate(
        (s, side, w) for s in (2, 3, 4) for side in ("A", "B") for w in (False, True)
    )
]
#: seed 1000: the 4- and 5-player base games bid with a Protection card (``auction.blocked``)
AMUN_RE_TABLES = [(seats, options, 0) for seats in (3, 4, 5) for options in ({}, MODULES)]
#: take a state every this many actions, besides the first state of each decision kind
EVERY = 40
#: entry lists of the typed view that are maps (key → value) in the JSON view
MAPS = {
    "marked_for_sale": ("card", "count"),
    "collection": ("tile", "count"),
    "holders": ("statue", "seat"),
}
#: typed fields named differently from their JSON key (to keep the union's fields mergeable)
RENAMED: dict[str, str] = {}


@strawberry.type
class Query:
    @strawberry.field
    def view(self, info: strawberry.Info) -> GameView:
        kind, view = info.context["view"]
        return typed_view(kind, view)


SCHEMA = strawberry.Schema(Query)


#: fields of AmunReState (by path) whose name is also a field of ImhotepState at the same path,
#: of another enum (lists of ImhotepCard and of AmunReCard): a query selecting both aliases one
CONFLICTS = {("discardPile",), ("hidden", "drawPile")}
#: the alias suffix this test gives them
ALIAS = "AmunRe"


def selection(
    graphql_type: GraphQLObjectType,
    other: GraphQLObjectType | None = None,
    path: tuple[str, ...] = (),
    conflicts: set[tuple[str, ...]] | None = None,
) -> str:
    """Every field of ``graphql_type``; a leaf whose name ``other`` (the other member at the same
    path) has with another type is aliased (and noted in ``conflicts``)."""
    parts = []
    for name, field in graphql_type.fields.items():
        named = get_named_type(field.type)
        twin = None if other is None else other.fields.get(name)
        if isinstance(named, GraphQLObjectType):
            nested = get_named_type(twin.type) if twin is not None else None
            inner = nested if isinstance(nested, GraphQLObjectType) else None
            parts.append(f"{name} {{ {selection(named, inner, (*path, name), conflicts)} }}")
        elif twin is not None and get_named_type(twin.type) is not named:
            assert conflicts is not None
            conflicts.add((*path, name))
            parts.append(f"{name}{ALIAS}: {name}")
        else:
            parts.append(name)
    return " ".join(parts)


def object_type(name: str) -> GraphQLObjectType:
    graphql_schema: GraphQLSchema = SCHEMA._schema
    found = graphql_schema.get_type(name)
    assert isinstance(found, GraphQLObjectType)
    return found


FOUND: set[tuple[str, ...]] = set()
#: every field of both members, aliased only where the two members' types differ (GraphQL
#: validation checks that the rest can be selected in one query: same shape)
QUERY = (
    "query { view { __typename"
    f" ... on ImhotepState {{ {selection(object_type('ImhotepState'))} }}"
    " ... on AmunReState {"
    f" {selection(object_type('AmunReState'), object_type('ImhotepState'), (), FOUND)} }} }} }}"
)


@cache
def parsed(document: str) -> DocumentNode:
    """A document parsed and validated once (it is run against hundreds of views)."""
    node = parse(document)
    errors = validate(SCHEMA._schema, node)
    assert not errors, errors
    return node


def query(kind: str, view: dict[str, Any], document: str = QUERY) -> dict[str, Any]:
    result = graphql_execute(SCHEMA._schema, parsed(document), context_value={"view": (kind, view)})
    assert result.errors is None, result.errors
    assert result.data is not None
    typed: dict[str, Any] = result.data["view"]
    return typed


# --- states of random games ---------------------------------------------------------------


def decision_key(kind: str, views: list[dict[str, Any]]) -> tuple[Any, ...]:
    """What makes a state worth a sample: a decision kind, or a rare part of the view first seen
    in this game (``views``: the spectator's, then each seat's)."""
    view = views[0]
    if kind == "imhotep":
        pending = view["pending"]
        pair = any("pair" in v["market"] for v in views)
        return (None if pending is None else pending["kind"], view["market"]["side"], pair)
    auction = view["auction"] or {"cards": []}
    return (
        view["phase"],
        view["decision"],
        any(card["blocked"] is not None for card in auction["cards"]),
        bool(view["harvest"] and view["harvest"]["green"]),
        any(v["you"]["marked_for_sale"] for v in views[1:]),
        bool(view["gifts"] and "to_place" in view["gifts"]),
        bool(view["market"] and view["market"]["to_place"]),
    )


@cache
def samples(kind: str) -> tuple[tuple[str, dict[str, Any]], ...]:
    """Views (as JSON) of sampled states: each seat and a spectator; full views at the end."""
    rules = rules_for(kind)
    tables = IMHOTEP_TABLES if kind == "imhotep" else AMUN_RE_TABLES
    out: list[tuple[str, dict[str, Any]]] = []

    def snapshot(state: Any, seats: int, full: bool = False) -> None:
        for viewer in [None, *range(seats)]:
            raw = rules.view(state, viewer, full)
            view = copy(raw)
            # the server converts the view dict itself, not its JSON text: the same typed object
            assert typed_view(kind, raw) == typed_view(kind, view)
            out.append((f"viewer={viewer} full={full}", view))

    for seats, options, seed in tables:
        seen: set[tuple[Any, ...]] = set()
        count = 0

        def check(state: Any, steps: Any, seats: int = seats, seen: set[Any] = seen) -> None:
            nonlocal count
            count += 1
            key = decision_key(kind, [rules.view(state, v) for v in [None, *range(seats)]])
            if key not in seen or count % EVERY == 0:
                seen.add(key)
                snapshot(state, seats)

        snapshot(start(rules, seats, options, 1000 + seed)[1], seats)  # before any choice
        _, final = random_game(rules, seats, options, 1000 + seed, check=check, replay_every=10**9)
        snapshot(final, seats)
        snapshot(final, seats, full=True)
    return tuple(out)


def copy(view: Any) -> dict[str, Any]:
    copied: dict[str, Any] = json.loads(json.dumps(view))
    return copied


# --- comparison -----------------------------------------------------------------------------


def snake(name: str) -> str:
    return re.sub(r"[A-Z]", lambda m: "_" + m.group(0).lower(), name)


def enum_ids() -> dict[str, str]:
    """Every enum value name of the schema → its domain id (the same name never means two ids)."""
    out: dict[str, str] = {}
    for named in SCHEMA._schema.type_map.values():
        if isinstance(named, GraphQLEnumType) and not named.name.startswith("__"):
            for name, value in named.values.items():
                domain_id = getattr(value.value, "value", value.value)
                assert out.setdefault(name, domain_id) == domain_id, name
    return out


ENUM_IDS = enum_ids()


def normalise(value: Any, key: str | None = None) -> Any:
    """The typed result in the JSON view's shape: snake_case keys, entry lists back to maps,
    enum values back to domain ids."""
    if isinstance(value, str):
        return ENUM_IDS.get(value, value)
    if isinstance(value, list):
        if key in MAPS:
            k, v = MAPS[key]
            return {normalise(entry[k]): normalise(entry[v]) for entry in value}
        return [normalise(v) for v in value]
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k != "__typename":
                name = RENAMED.get(snake(k.removesuffix(ALIAS)), snake(k.removesuffix(ALIAS)))
                out[name] = normalise(v, name)
        return out
    return value


Leaf = tuple[tuple[Any, ...], str]


def leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[Leaf]:
    if isinstance(value, dict):
        yield path, "object"
        for k, v in value.items():
            yield from leaves(v, (*path, k))
    elif isinstance(value, list):
        yield path, f"list of {len(value)}"
        for i, v in enumerate(value):
            yield from leaves(v, (*path, i))
    else:
        yield path, json.dumps(value)


def compare(view: dict[str, Any], typed: dict[str, Any]) -> None:
    expected = set(leaves(view))
    got = set(leaves(normalise(typed)))
    missing = expected - got
    assert not missing, f"JSON leaves missing from the typed view: {sorted(missing, key=str)[:10]}"
    json_paths = {path for path, _ in expected}
    invented = {(p, v) for p, v in got - expected if v != "null" or p in json_paths}
    assert not invented, f"typed view adds: {sorted(invented, key=str)[:10]}"


def shapes(value: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Field paths (list indices dropped) holding a non-null value in a raw typed result."""
    if isinstance(value, dict):
        for k, v in value.items():
            if v is not None and k != "__typename":
                name = k.removesuffix(ALIAS)
                yield (*path, name)
                yield from shapes(v, (*path, name))
    elif isinstance(value, list):
        for v in value:
            yield from shapes(v, path)


def schema_shapes(graphql_type: GraphQLObjectType, path: tuple[str, ...] = ()) -> set[Any]:
    out: set[tuple[str, ...]] = set()
    for name, field in graphql_type.fields.items():
        out.add((*path, name))
        named = get_named_type(field.type)
        if isinstance(named, GraphQLObjectType):
            out |= schema_shapes(named, (*path, name))
    return out


# --- tests ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["imhotep", "amun_re"])
def test_the_typed_view_carries_exactly_the_json_view(kind: str) -> None:
    typename = "ImhotepState" if kind == "imhotep" else "AmunReState"
    covered: set[tuple[str, ...]] = set()
    for label, view in samples(kind):
        typed = query(kind, view)
        assert typed["__typename"] == typename
        try:
            compare(view, typed)
        except AssertionError as error:
            raise AssertionError(f"{kind} {label} round {view['round']}: {error}") from None
        covered |= set(shapes(typed))
    # every field of the types was non-null in some sampled view (no field the view never has)
    never = schema_shapes(object_type(typename)) - covered
    assert not never, f"fields never filled by the sampled views: {sorted(never)}"


def test_a_spectator_never_sees_gold_or_hands_in_amun_re() -> None:
    document = (
        "query { view { ... on AmunReState { viewer phase"
        " players { seat gold hand handCount collection { tile count } }"
        " you { gold } hidden { drawPile } } } }"
    )
    checked = 0
    for label, view in samples("amun_re"):
        typed = query("amun_re", view, document)
        if "full=True" in label:
            continue
        assert typed["hidden"] is None
        for player in typed["players"]:
            mine = player["seat"] == typed["viewer"]
            assert player["collection"] is None
            assert (player["hand"] is not None) == mine, label
            if mine:
                assert len(player["hand"]) == player["handCount"]
            if typed["phase"] != "OVER" and not mine:
                assert player["gold"] is None, label
        if typed["viewer"] is None:
            checked += 1
            assert typed["you"] is None
            if typed["phase"] != "OVER":
                assert all(p["gold"] is None for p in typed["players"])
        else:
            assert typed["you"]["gold"] == view["you"]["gold"]
    assert checked > 20


def test_selected_fields_agree_with_the_json_view() -> None:
    """A hand-written query in the API's camelCase names, for the main facts."""
    imhotep = (
        "query { view { ... on ImhotepState { round currentPlayer gameOver"
        " players { seat score cards } ships { id slots site }"
        " pending { kind owner options } outcome { winners } } } }"
    )
    for _, view in samples("imhotep")[::7]:
        typed = query("imhotep", view, imhotep)
        assert typed["round"] == view["round"]
        assert typed["currentPlayer"] == view["current_player"]
        assert [p["score"] for p in typed["players"]] == [p["score"] for p in view["players"]]
        assert [s["slots"] for s in typed["ships"]] == [s["slots"] for s in view["ships"]]
        pending = view["pending"] and {**view["pending"], "kind": view["pending"]["kind"].upper()}
        assert typed["pending"] == pending
        assert typed["outcome"] == (view["outcome"] and {"winners": view["outcome"]["winners"]})
    amun_re = (
        "query { view { ... on AmunReState { round phase toAct"
        " players { seat vp handCount hand pharaohTokens collectionCount } provinces { id owner pyramids upForAuction }"
        " you { markedForSale { card count } } } } }"
    )
    for _, view in samples("amun_re")[::7]:
        typed = query("amun_re", view, amun_re)
        assert typed["toAct"] == view["to_act"]
        assert [p["vp"] for p in typed["players"]] == [p["vp"] for p in view["players"]]
        counts = [p["handCount"] for p in typed["players"]]
        assert counts == [p["hand_count"] for p in view["players"]]
        hands = [p.get("hand") and [c.upper() for c in p["hand"]] for p in view["players"]]
        assert [p["hand"] for p in typed["players"]] == hands
        tokens = [p["pharaohTokens"] for p in typed["players"]]
        assert tokens == [p.get("pharaoh_tokens") for p in view["players"]]
        owners = {p["id"]: p["owner"] for p in typed["provinces"]}
        assert owners == {p["id"].upper(): p["owner"] for p in view["provinces"]}
        if view["you"] is None:
            assert typed["you"] is None
        else:
            marked = {e["card"].lower(): e["count"] for e in typed["you"]["markedForSale"]}
            assert marked == view["you"]["marked_for_sale"]


def test_only_the_known_fields_of_the_two_members_need_an_alias() -> None:
    """The two games' piles of cards are lists of two enums (ImhotepCard, AmunReCard): a query
    selecting `discardPile` (or `hidden { drawPile }`) of both members aliases one of them; every
    other field of the same name has the same type in both (one query selects it unaliased)."""
    assert FOUND == CONFLICTS
    document = (
        "query { view { ... on ImhotepState { discardPile } ... on AmunReState { discardPile } } }"
    )
    result = SCHEMA.execute_sync(document, context_value={"view": samples("imhotep")[0]})
    assert result.errors and "conflict" in result.errors[0].message


def test_enum_values_are_the_domain_ids_upper_cased() -> None:
    """The typed view's enums (phase, decision, card, province, side, colour …) carry the
    domain id upper-cased; the JSON view keeps the id itself."""
    for kind, document in (
        (
            "imhotep",
            "query { view { ... on ImhotepState { players { colour cards } options { sides { market } } ships { site } pending { kind } } } }",
        ),
        (
            "amun_re",
            "query { view { ... on AmunReState { phase decision players { provinces hand } provinces { id bank region river } } } }",
        ),
    ):
        for _, view in samples(kind)[::5]:
            typed = query(kind, view, document)
            if kind == "imhotep":
                assert [p["colour"] for p in typed["players"]] == [
                    p["colour"].upper() for p in view["players"]
                ]
                assert [p["cards"] for p in typed["players"]] == [
                    [c.upper() for c in p["cards"]] for p in view["players"]
                ]
                assert typed["options"]["sides"]["market"] == view["options"]["sides"]["market"]
                assert [s["site"] for s in typed["ships"]] == [
                    s["site"] and s["site"].upper() for s in view["ships"]
                ]
                assert typed["pending"] == (
                    view["pending"] and {"kind": view["pending"]["kind"].upper()}
                )
            else:
                assert typed["phase"] == view["phase"].upper()
                assert typed["decision"] == (view["decision"] and view["decision"].upper())
                for got, player in zip(typed["players"], view["players"], strict=True):
                    assert got["provinces"] == [p.upper() for p in player["provinces"]]
                    assert got["hand"] == (
                        None if "hand" not in player else [c.upper() for c in player["hand"]]
                    )
                for got, province in zip(typed["provinces"], view["provinces"], strict=True):
                    assert [got[k] for k in ("id", "bank", "region", "river")] == [
                        province[k].upper() for k in ("id", "bank", "region", "river")
                    ]


def test_typed_view_refuses_an_unknown_kind() -> None:
    with pytest.raises(ValueError):
        typed_view("senet", {})
