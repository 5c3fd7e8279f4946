"""``domain.shapes.to_json``: the JSON view derived from an instance of its declared shape.

Small shapes of every kind the views use (a nested shape, lists and maps of shapes, a free JSON
object, closed ids, optional keys): the keys come in declaration order, a key whose value is
``ABSENT`` is left out and a key whose value is ``None`` is kept as ``null``; the games' views are
exactly the JSON of their ``view_of`` instances.
"""

from __future__ import annotations

import copy
import json
import pickle
from dataclasses import dataclass
from typing import Annotated, Any

import pytest

from domain.amun_re import view as amun_re_view
from domain.amun_re import view_shape as amun_re_shape
from domain.contract import JSON
from domain.imhotep import view as imhotep_view
from domain.imhotep import view_shape as imhotep_shape
from domain.registry import rules_for
from domain.shapes import ABSENT, Closed, to_json
from tests.harness import random_game, start

ALL_MODULES = {"afterlife": True, "statues": True, "pharaoh": True, "promo_favours": True}

Colour = Annotated[str, Closed("TestColour", ("red", "blue"), "A colour.")]


@dataclass(kw_only=True)
class Leaf:
    a: int
    b: str | None


@dataclass(kw_only=True)
class Inner:
    leaf: Leaf
    maybe: Leaf | None
    extra: int | None = ABSENT


@dataclass(kw_only=True)
class Outer:
    name: str
    note: str | None = ABSENT
    colour: Colour
    leaves: list[Leaf]
    holes: list[Leaf | None]
    counts: dict[Colour, int]
    by_colour: dict[Colour, Leaf | None]
    free: JSON
    rows: list[list[int | None]]
    inner: Inner | None
    tail: list[int] | None = ABSENT


@dataclass(kw_only=True, slots=True)
class SlotLeaf:
    a: int
    b: str | None = ABSENT


@dataclass(frozen=True, kw_only=True)
class FrozenLeaf:
    a: int
    b: str | None = ABSENT


def outer(**changes: Any) -> Outer:
    fields: dict[str, Any] = {
        "name": "x",
        "colour": "red",
        "leaves": [Leaf(a=1, b="one"), Leaf(b=None, a=2)],
        "holes": [None, Leaf(a=3, b=None)],
        "counts": {"blue": 2, "red": 0},
        "by_colour": {"red": Leaf(a=4, b="four"), "blue": None},
        "free": {"type": "move", "to": [1, 2]},
        "rows": [[1, None], []],
        "inner": Inner(leaf=Leaf(a=5, b=None), maybe=None),
    }
    return Outer(**{**fields, **changes})


def test_a_none_value_is_null_and_an_absent_value_no_key() -> None:
    assert "note" not in to_json(outer()) and "tail" not in to_json(outer())
    with_none = to_json(outer(note=None, tail=None))
    assert "note" in with_none and with_none["note"] is None
    assert "tail" in with_none and with_none["tail"] is None
    assert to_json(outer(note="hi"))["note"] == "hi"
    assert to_json(Inner(leaf=Leaf(a=1, b=None), maybe=None)) == {
        "leaf": {"a": 1, "b": None},
        "maybe": None,
    }
    assert to_json(Inner(leaf=Leaf(a=1, b=None), maybe=None, extra=None))["extra"] is None


def test_the_keys_come_in_declaration_order_nested_values_converted() -> None:
    derived = to_json(outer(tail=[7], note=None))
    assert json.dumps(derived) == json.dumps(
        {
            "name": "x",
            "note": None,
            "colour": "red",
            "leaves": [{"a": 1, "b": "one"}, {"a": 2, "b": None}],
            "holes": [None, {"a": 3, "b": None}],
            "counts": {"blue": 2, "red": 0},
            "by_colour": {"red": {"a": 4, "b": "four"}, "blue": None},
            "free": {"type": "move", "to": [1, 2]},
            "rows": [[1, None], []],
            "inner": {"leaf": {"a": 5, "b": None}, "maybe": None},
            "tail": [7],
        }
    )
    assert to_json(outer(inner=None))["inner"] is None


def test_a_shape_is_a_new_object_a_plain_value_the_instance_own() -> None:
    instance = outer()
    derived = to_json(instance)
    assert derived["free"] is instance.free and derived["counts"] is instance.counts
    derived["leaves"][0]["a"] = 99
    derived["inner"]["leaf"]["b"] = "changed"
    assert instance.leaves[0].a == 1 and instance.inner is not None
    assert instance.inner.leaf.b is None
    assert to_json(instance) == to_json(outer())


def test_slots_and_frozen_shapes_too() -> None:
    assert to_json(SlotLeaf(a=1)) == {"a": 1}
    assert to_json(SlotLeaf(a=1, b=None)) == {"a": 1, "b": None}
    assert to_json(FrozenLeaf(a=1)) == {"a": 1}
    assert list(to_json(FrozenLeaf(b=None, a=1)).items()) == [("a", 1), ("b", None)]
    assert list(to_json(SlotLeaf(b=None, a=1)).items()) == [("a", 1), ("b", None)]


def test_absent_is_one_value_through_copies_and_pickles() -> None:
    assert copy.copy(ABSENT) is ABSENT and copy.deepcopy(ABSENT) is ABSENT
    assert pickle.loads(pickle.dumps(ABSENT)) is ABSENT
    assert repr(ABSENT) == "ABSENT"
    assert "note" not in to_json(copy.deepcopy(outer()))


def test_only_a_shape_has_a_json() -> None:
    with pytest.raises(TypeError):
        to_json({"a": 1})


def test_a_game_view_is_the_json_of_its_declared_instance() -> None:
    imhotep, amun_re = rules_for("imhotep"), rules_for("amun_re")
    imhotep_state = start(imhotep, 3, {}, 7)[1]
    amun_re_state = start(amun_re, 3, {"afterlife": True}, 7)[1]
    for seat in (None, 0, 1, 2):
        for full in (False, True):
            instance: Any = imhotep_view.view_of(imhotep, imhotep_state, seat, full)
            assert type(instance) is imhotep_shape.VIEW
            assert json.dumps(imhotep.view(imhotep_state, seat, full)) == json.dumps(
                to_json(instance)
            )
            active = amun_re.active_seats(amun_re_state)
            instance = amun_re_view.view_of(amun_re_state, seat, full, active)
            assert type(instance) is amun_re_shape.VIEW
            assert json.dumps(amun_re.view(amun_re_state, seat, full)) == json.dumps(
                to_json(instance)
            )


def scramble(value: Any) -> None:
    """Empty every list and object in ``value``, depth first."""
    children = value.values() if isinstance(value, dict) else value
    for child in list(children):
        if isinstance(child, dict | list):
            scramble(child)
    value.clear()


@pytest.mark.parametrize(
    ("kind", "seats", "options"),
    [("imhotep", 3, {"sides": "B", "wrath_of_the_pharaoh": True}), ("amun_re", 4, ALL_MODULES)],
)
def test_a_view_shares_nothing_with_the_state(kind: str, seats: int, options: JSON) -> None:
    """The values taken as they are must be new ones: emptying every list and object of a view
    (of a whole game, scored) changes neither the state nor the next view."""
    rules = rules_for(kind)
    _, state = random_game(rules, seats, options, 11, replay_every=10**9)
    for seat in (None, *range(seats)):
        for full in (False, True):
            view = rules.view(state, seat, full)
            before = json.dumps(view)
            scramble(view)
            assert json.dumps(rules.view(state, seat, full)) == before
