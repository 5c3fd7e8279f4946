"""The JSON views are the shapes the domain declares for them (domain/<game>/view_shape.py).

``view`` builds an instance of the declared shape and derives the JSON from it
(``domain.shapes.to_json``), so the keys are the declaration's by construction; what the
instance holds is only type-checked statically. Seeded random games of both games, over option
sets that turn every option on somewhere: after every action the view of every seat and of a
spectator, and the full view at the end, must match the declaration exactly: no undeclared key,
no missing required key, the keys in declaration order, every value of its declared type (a
string of a closed set, ``Annotated[str, Closed(...)]``, one of its ids). Over all views every
declared key must be filled somewhere, and every key declared as optional (a default, which is
``ABSENT``) must be left out somewhere. The typed view derived from the same declarations
(service/api/graphql/gameviews) refuses a view that does not match.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterator
from functools import cache, partial
from typing import Any

import pytest

from domain.amun_re import view_shape as amun_re_shape
from domain.imhotep import view_shape as imhotep_shape
from domain.registry import rules_for
from domain.shapes import ABSENT, Closed
from service.api.graphql.gameviews import ViewShapeError, typed_view
from tests.harness import random_game, start

MIXED = {"market": "B", "pyramids": "A", "temple": "B", "burial_chamber": "A", "obelisks": "B"}
OTHER_MIX = {site: "B" if side == "A" else "A" for site, side in MIXED.items()}
#: (seats, options): every side of every site, with and without the Wrath of the Pharaoh
IMHOTEP_TABLES: list[tuple[int, dict[str, Any]]] = [
    (2, {"sides": "A", "wrath_of_the_pharaoh": False}),
    (3, {"sides": "B", "wrath_of_the_pharaoh": True}),
    (4, {"sides": MIXED, "wrath_of_the_pharaoh": True}),
    (2, {"sides": OTHER_MIX, "wrath_of_the_pharaoh": False}),
]
MODULES = ("afterlife", "statues", "pharaoh", "promo_favours")
#: every module alone and all together, each scoring variant, and everything at once
AMUN_RE_TABLES: list[tuple[int, dict[str, Any]]] = [
    (3, {}),
    *((3 + i % 3, {module: True}) for i, module in enumerate(MODULES)),
    (5, dict.fromkeys(MODULES, True)),
    (4, {"classic_bank_majority": True}),
    (3, {"no_farmer_points": True}),
    (4, {"classic_bank_majority": True, "no_farmer_points": True, **dict.fromkeys(MODULES, True)}),
]
SHAPES: dict[str, type] = {"imhotep": imhotep_shape.VIEW, "amun_re": amun_re_shape.VIEW}
TABLES = {"imhotep": IMHOTEP_TABLES, "amun_re": AMUN_RE_TABLES}


# --- a view against its declaration -------------------------------------------------------------


class Coverage:
    """Which declared keys (shape name, key) were filled, and which were left out, so far."""

    def __init__(self) -> None:
        self.filled: set[tuple[str, str]] = set()
        self.absent: set[tuple[str, str]] = set()


#: ``check(value, path, seen, wrong)`` appends to ``wrong`` what in ``value`` does not match
Check = Callable[[Any, str, Coverage, list[str]], None]


@cache
def checker(hint: Any) -> Check:
    """The check of a value against the declared type ``hint`` (compiled once per type)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Annotated:  # a closed set of domain ids (an enum in the typed view)
        (closed,) = (a for a in hint.__metadata__ if isinstance(a, Closed))

        def check_closed(value: Any, path: str, seen: Coverage, wrong: list[str]) -> None:
            if type(value) is not str or value not in closed.ids:
                wrong.append(f"{path}: {value!r} is not a {closed.name} id")

        return check_closed
    if origin in (typing.Union, types.UnionType):
        (inner,) = (checker(a) for a in args if a is not type(None))
        return lambda value, path, seen, wrong: (
            None if value is None else inner(value, path, seen, wrong)
        )
    if hint is Any:
        return lambda value, path, seen, wrong: None  # a free JSON value (action parameters)
    if dataclasses.is_dataclass(hint):
        return shape_checker(typing.cast(type, hint))
    if origin is list:
        item = checker(args[0])

        def check_list(value: Any, path: str, seen: Coverage, wrong: list[str]) -> None:
            if type(value) is not list:
                wrong.append(f"{path}: {value!r} is not a list")
                return
            for i, v in enumerate(value):
                item(v, f"{path}[{i}]", seen, wrong)

        return check_list
    if origin is dict:
        key, item = checker(args[0]), checker(args[1])

        def check_map(value: Any, path: str, seen: Coverage, wrong: list[str]) -> None:
            if type(value) is not dict:
                wrong.append(f"{path}: {value!r} is not an object")
                return
            for k, v in value.items():
                key(k, f"{path} key {k!r}", seen, wrong)
                item(v, f"{path}[{k!r}]", seen, wrong)

        return check_map

    def check_scalar(value: Any, path: str, seen: Coverage, wrong: list[str]) -> None:
        if type(value) is not hint:  # type(), not isinstance(): a bool is no int, nor the reverse
            wrong.append(f"{path}: {value!r} is not of type {hint.__name__}")

    return check_scalar


def shape_checker(shape: type) -> Check:
    hints, declared = declaration(shape)
    name = shape.__name__
    keys = [
        (key, f.default is dataclasses.MISSING, checker(hints[key])) for key, f in declared.items()
    ]

    def check(value: Any, path: str, seen: Coverage, wrong: list[str]) -> None:
        if type(value) is not dict:
            wrong.append(f"{path}: {value!r} is not an object ({name})")
            return
        wrong += [f"{path}: key {k!r} is not declared in {name}" for k in value.keys() - declared]
        keys_in_order = [key for key in declared if key in value]
        if [key for key in value if key in declared] != keys_in_order:
            wrong.append(f"{path}: keys not in the declared order of {name} {keys_in_order}")
        for key, required, check_value in keys:
            if key not in value:
                if required:
                    wrong.append(f"{path}: required key {key!r} of {name} is missing")
                seen.absent.add((name, key))
                continue
            if value[key] is not None:
                seen.filled.add((name, key))
            check_value(value[key], f"{path}.{key}", seen, wrong)

    return check


@cache
def declaration(shape: type) -> tuple[dict[str, Any], dict[str, dataclasses.Field[Any]]]:
    """The resolved field types and the fields of a shape, by key."""
    return typing.get_type_hints(shape, include_extras=True), {
        f.name: f for f in dataclasses.fields(shape)
    }


def declared_keys(shape: type) -> Iterator[tuple[str, str, bool]]:
    """(shape name, key, optional) of every key declared in ``shape`` and the shapes it nests."""
    done: set[type] = set()
    todo = [shape]
    while todo:
        cls = todo.pop()
        if cls in done:
            continue
        done.add(cls)
        hints, declared = declaration(cls)
        for key, f in declared.items():
            yield cls.__name__, key, f.default is not dataclasses.MISSING
            todo += nested(hints[key])  # a map's entry shape is the typed view's concern


def nested(hint: Any) -> list[type]:
    if isinstance(hint, Closed):
        return []
    if dataclasses.is_dataclass(hint):
        return [typing.cast(type, hint)]
    return [cls for arg in typing.get_args(hint) for cls in nested(arg)]


# --- views of random games ----------------------------------------------------------------------


def checked(kind: str) -> tuple[Coverage, int]:
    """Every view of the random games of ``kind`` checked; the coverage and the view count."""
    rules, check, seen = rules_for(kind), checker(SHAPES[kind]), Coverage()
    count = 0

    def check_views(
        state: Any, _steps: object = None, *, seats: int, label: str, full: bool = False
    ) -> None:
        nonlocal count
        for viewer in [None, *range(seats)]:
            path = f"{label} viewer={viewer} full={full}: view"
            wrong: list[str] = []
            check(rules.view(state, viewer, full), path, seen, wrong)
            assert not wrong, "\n".join(wrong[:10])
            count += 1

    for seed, (seats, options) in enumerate(TABLES[kind], start=1000):
        label = f"{kind} {seats} seats {options} seed {seed}"
        check_views(start(rules, seats, options, seed)[1], seats=seats, label=label)
        each_action = partial(check_views, seats=seats, label=label)
        _, final = random_game(rules, seats, options, seed, check=each_action, replay_every=10**9)
        check_views(final, seats=seats, label=label, full=True)
    return seen, count


@pytest.mark.parametrize("kind", ["imhotep", "amun_re"])
def test_every_view_of_random_games_matches_its_declared_shape(kind: str) -> None:
    seen, count = checked(kind)
    assert count > 1000
    keys = list(declared_keys(SHAPES[kind]))
    never_filled = {(cls, key) for cls, key, _ in keys} - seen.filled
    assert not never_filled, f"declared keys no view ever filled: {sorted(never_filled)}"
    optional = {(cls, key) for cls, key, is_optional in keys if is_optional}
    always_there = optional - seen.absent
    assert not always_there, f"optional keys that every view had: {sorted(always_there)}"


@pytest.mark.parametrize("kind", ["imhotep", "amun_re"])
def test_an_optional_key_defaults_to_absent(kind: str) -> None:
    """A default is ``ABSENT`` (the key left out of the JSON), never ``None`` (a ``null`` the
    JSON would carry although the declaration says the key may be missing)."""
    done: set[type] = set()
    todo = [SHAPES[kind]]
    while todo:
        cls = todo.pop()
        if cls in done:
            continue
        done.add(cls)
        hints, declared = declaration(cls)
        for key, f in declared.items():
            assert f.default is dataclasses.MISSING or f.default is ABSENT, f"{cls.__name__}.{key}"
            assert f.default_factory is dataclasses.MISSING, f"{cls.__name__}.{key}"
            todo += nested(hints[key])


def test_the_check_finds_an_undeclared_key_a_missing_key_and_a_wrong_type() -> None:
    view = opening_view("amun_re")
    view["players"][1]["mood"] = "calm"
    del view["round"]
    view["you"]["marked_for_sale"]["bribe"] = "two"
    view["options"]["statues"] = 0
    view["players"][0]["provinces"] = ["atlantis"]
    view["you"]["marked_for_sale"]["joker"] = 1
    view["provinces"][0] = {"owner": view["provinces"][0]["owner"], **view["provinces"][0]}
    wrong: list[str] = []
    checker(amun_re_shape.VIEW)(view, "view", Coverage(), wrong)
    assert sorted(wrong) == [
        "view.options.statues: 0 is not of type bool",
        "view.players[0].provinces[0]: 'atlantis' is not a AmunReProvinceId id",
        "view.players[1]: key 'mood' is not declared in AmunRePlayer",
        "view.provinces[0]: keys not in the declared order of AmunReProvince ['id', 'name', "
        "'bank', 'region', 'river', 'fields', 'card_limit', 'temples', 'mine', 'caravan', "
        "'bonus', 'owner', 'farmers', 'stones', 'pyramids', 'up_for_auction']",
        "view.you.marked_for_sale key 'joker': 'joker' is not a AmunReCard id",
        "view.you.marked_for_sale['bribe']: 'two' is not of type int",
        "view: required key 'round' of AmunReState is missing",
    ]


# --- the typed view refuses a view that does not match ------------------------------------------


def opening_view(kind: str, viewer: int | None = 0) -> dict[str, Any]:
    rules = rules_for(kind)
    seats = 3
    options = {"afterlife": True} if kind == "amun_re" else {}
    view: dict[str, Any] = rules.view(start(rules, seats, options, 7)[1], viewer)
    return view


@pytest.mark.parametrize("kind", ["imhotep", "amun_re"])
def test_the_typed_view_refuses_an_undeclared_key(kind: str) -> None:
    view = opening_view(kind)
    typed_view(kind, view)
    with pytest.raises(ViewShapeError, match="secret_plans"):
        typed_view(kind, {**view, "secret_plans": 1})
    players = [{**view["players"][0], "mood": "calm"}, *view["players"][1:]]
    with pytest.raises(ViewShapeError, match=r"view\.players\[0\].*mood"):
        typed_view(kind, {**view, "players": players})


@pytest.mark.parametrize("kind", ["imhotep", "amun_re"])
def test_the_typed_view_refuses_a_missing_required_key(kind: str) -> None:
    view = opening_view(kind)
    del view["round"]
    with pytest.raises(ViewShapeError, match="round"):
        typed_view(kind, view)
    view = opening_view(kind)
    del view["options"][next(iter(view["options"]))]
    with pytest.raises(ViewShapeError, match=r"view\.options"):
        typed_view(kind, view)


def test_the_typed_view_refuses_a_value_of_another_type() -> None:
    view = opening_view("imhotep")
    with pytest.raises(ViewShapeError, match=r"view\.round: expected int"):
        typed_view("imhotep", {**view, "round": "1"})
    with pytest.raises(ViewShapeError, match=r"view\.game_over: expected bool"):
        typed_view("imhotep", {**view, "game_over": 0})
    view = opening_view("amun_re")
    marked = {**view["you"]["marked_for_sale"], "bribe": "two"}
    with pytest.raises(
        ViewShapeError, match=r"view\.you\.marked_for_sale\['bribe'\]\.count: expected int"
    ):
        typed_view("amun_re", {**view, "you": {**view["you"], "marked_for_sale": marked}})


def test_an_optional_key_may_be_left_out_but_not_a_required_nullable_one() -> None:
    view = opening_view("amun_re", viewer=None)
    assert "hidden" not in view and view["you"] is None
    assert typed_view("amun_re", view).hidden is None
    del view["you"]
    with pytest.raises(ViewShapeError, match="you"):
        typed_view("amun_re", view)


def test_the_typed_view_refuses_an_id_outside_its_closed_set() -> None:
    """A closed set (a card, a colour, a phase) is an enum in the typed view: an id the domain
    does not have is refused, wherever it is (a list, a map key, a nullable field)."""
    view = opening_view("imhotep")
    players = [{**view["players"][0], "colour": "pink"}, *view["players"][1:]]
    with pytest.raises(ViewShapeError, match=r"view\.players\[0\]\.colour: 'pink' is not a"):
        typed_view("imhotep", {**view, "players": players})
    with pytest.raises(ViewShapeError, match=r"view\.discard_pile\[0\]: 'joker' is not a"):
        typed_view("imhotep", {**view, "discard_pile": ["joker"]})
    with pytest.raises(ViewShapeError, match=r"view\.options\.sides\.temple: 'C' is not a"):
        sides = {**view["options"]["sides"], "temple": "C"}
        typed_view("imhotep", {**view, "options": {**view["options"], "sides": sides}})
    view = opening_view("amun_re")
    with pytest.raises(ViewShapeError, match=r"view\.phase: 'siesta' is not a AmunRePhase id"):
        typed_view("amun_re", {**view, "phase": "siesta"})
    with pytest.raises(ViewShapeError, match=r"view\.decision: 'dance' is not a AmunReDecision"):
        typed_view("amun_re", {**view, "decision": "dance"})
    marked = {"joker": 1}
    with pytest.raises(ViewShapeError, match=r"marked_for_sale\['joker'\]\.card: 'joker' is not"):
        typed_view("amun_re", {**view, "you": {**view["you"], "marked_for_sale": marked}})
    # the domain's own ids are read as the enum members named by the id upper-cased
    typed = typed_view("amun_re", {**view, "phase": "final_sale", "decision": "place_tomb_tile"})
    assert (typed.phase.name, typed.phase.value) == ("FINAL_SALE", "final_sale")
    assert typed.decision.name == "PLACE_TOMB_TILE"


def test_a_closed_set_must_make_valid_distinct_enum_values() -> None:
    """An id that is no GraphQL enum name once upper-cased ("2p-1"), or two ids that upper-case
    alike, cannot be a closed set: such ids stay strings in the typed view."""
    for ids in (("2p-1",), ("a", "A"), ("a", "a"), ()):
        with pytest.raises(ValueError):
            Closed("Bad", ids, "ids that make no enum")
    assert Closed("Good", ("paved_path",), "fine").label(0) == 'The domain id "paved_path".'
