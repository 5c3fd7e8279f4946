"""The rules contract for Imhotep: options (§2), refusals naming their rule (§6, §10.1), purity of
``decide``, events as JSON primitives, deep-copyable states, replay from stored events."""

from __future__ import annotations

import copy
import json
import random

import pytest

from domain.contract import BadAction, BadOptions, Event, IllegalAction, NotYourTurn
from domain.engine import play, replay
from domain.imhotep.rules import RULES
from domain.registry import rules_for
from tests.harness import start
from tests.imhotep.table import K, W, _, new_game, set_ships

RESERVED = {"table_created", "seat_taken", "game_started", "game_finished", "game_abandoned"}


def test_2_registry_and_metadata() -> None:
    assert rules_for("imhotep") is RULES
    assert (RULES.kind, RULES.version, RULES.min_seats, RULES.max_seats) == (
        "imhotep", "imhotep-1", 2, 4,
    )  # fmt: skip


def test_2_default_options_are_complete() -> None:
    assert RULES.normalize_options(3, {}) == {
        "sides": dict.fromkeys(["market", "pyramids", "temple", "burial_chamber", "obelisks"], "A"),
        "wrath_of_the_pharaoh": False,
        "start_player": "random",
        "colours": ["black", "white", "brown"],
    }
    normal = RULES.normalize_options(2, {"sides": {"temple": "B"}, "players": ["gray", "brown"]})
    assert normal["sides"]["temple"] == "B" and normal["sides"]["market"] == "A"
    assert normal["colours"] == ["gray", "brown"]
    assert RULES.normalize_options(2, normal) == normal


@pytest.mark.parametrize(
    ("seats", "options"),
    [
        (1, {}), (5, {}), (2, {"colour": "red"}), (2, {"sides": "C"}),
        (2, {"sides": {"nile": "A"}}), (2, {"sides": {"temple": "b"}}),
        (2, {"wrath_of_the_pharaoh": "yes"}), (2, {"start_player": 2}),
        (2, {"start_player": True}), (2, {"colours": ["black", "black"]}),
        (2, {"colours": ["black", "pink"]}), (3, {"colours": ["black", "white"]}),
    ],
)  # fmt: skip
def test_2_bad_options_are_refused_with_the_valid_keys(seats: int, options: dict) -> None:
    with pytest.raises(BadOptions) as refused:
        RULES.normalize_options(seats, options)
    assert "valid options" in str(refused.value) and "sides" in str(refused.value)


def test_3_start_player_option_and_random_start_recorded_in_the_event() -> None:
    state = new_game(4, start=3)
    assert state.current == 3
    events = RULES.setup(4, RULES.normalize_options(4, {}), random.Random(5))
    assert events[0].data["start_player"] in range(4)


def test_10_1_refusals_name_the_rule() -> None:
    state = new_game(2, start=K)
    set_ships(state, [W, _, _, _], [_, _, _], [_, _], [_])
    rng = random.Random(0)
    cases = [
        (W, {"type": "get_stones"}, NotYourTurn, "§10.1"),
        (K, {"type": "place_stone", "ship": 1, "slot": 1}, IllegalAction, "§6.2"),
        (K, {"type": "place_stone", "ship": 9, "slot": 1}, IllegalAction, "§1.3"),
        (K, {"type": "place_stone", "ship": 1, "slot": 5}, IllegalAction, "§1.2"),
        (K, {"type": "sail", "ship": 1, "site": "temple"}, IllegalAction, "§7.1"),
        (K, {"type": "play_lever", "ship": 1, "site": "temple"}, IllegalAction, "§6.4"),
        (K, {"type": "pass"}, IllegalAction, "§6.5"),
        (K, {"type": "take_point"}, IllegalAction, "§5.2"),
        (K, {"type": "place_stone", "ship": "1", "slot": 2}, BadAction, "§11"),
        (K, {"type": "place_stone", "ship": 1}, BadAction, "§11"),
        (K, {"type": "dance"}, BadAction, "§11"),
    ]
    for seat, action, error, rule in cases:
        with pytest.raises(error) as refused:
            RULES.decide(state, seat, action, rng)
        assert refused.value.rule == rule, action
        assert str(refused.value)


def test_decide_never_mutates_and_events_are_json_primitives() -> None:
    for seats, sides in [(2, "A"), (3, "B"), (4, "B")]:
        options = RULES.normalize_options(seats, {"sides": sides, "wrath_of_the_pharaoh": True})
        rng = random.Random(seats)
        events, state = start(RULES, seats, options, seats)
        while RULES.outcome(state) is None:
            seat = RULES.active_seats(state)[0]
            action = rng.choice(RULES.legal_actions(state, seat))
            before = copy.deepcopy(state)
            RULES.decide(state, seat, action, random.Random(1))
            assert state == before
            steps, state = play(RULES, state, seat, action, rng)
            events.extend(s.event for s in steps)
        stored = [Event(e.type, json.loads(json.dumps(e.data)), e.seat) for e in events]
        assert stored == events
        assert not RESERVED & {e.type for e in events}
        assert replay(RULES, seats, options, stored) == state
        assert copy.deepcopy(state) == state and state.copy() == state


def _universe() -> list[dict]:
    """Every well-formed action over ships 1–4, slots 1–4, all sites, cards and pyramids."""
    from domain.imhotep import data

    places = [{"ship": a, "slot": b} for a in range(1, 5) for b in range(1, 5)]
    acts: list[dict] = [{"type": t} for t in (
        "get_stones", "pass", "take_pair", "bonus_decline", "take_point", "take_stones",
    )]  # fmt: skip
    for p in places:
        acts += [{"type": t, **p} for t in ("place_stone", "play_hammer", "bonus_place")]
        acts += [{"type": "play_sail", **p, "site": s} for s in data.SITES]
        acts += [{"type": "play_chisel", "first": p, "second": q} for q in places]
    for ship in range(1, 5):
        acts += [{"type": t, "ship": ship, "site": s} for t in ("sail", "play_lever")
                 for s in data.SITES]  # fmt: skip
    acts += [{"type": t, "card": c} for t in ("take_card", "keep") for c in data.CARD_IDS]
    acts += [{"type": "choose_pyramid", "pyramid": p} for p in ("left", "middle", "right")]
    return acts


def test_11_decide_accepts_exactly_the_listed_actions() -> None:
    universe = _universe()
    for seats, sides in [(2, "B"), (4, "A"), (3, "B")]:
        options = RULES.normalize_options(seats, {"sides": sides})
        rng = random.Random(seats)
        _, state = start(RULES, seats, options, seats)
        while RULES.outcome(state) is None:
            seat = RULES.active_seats(state)[0]
            legal = RULES.legal_actions(state, seat)
            orders = [a for a in legal if a["type"] == "unload_order"]
            for action in universe + orders:
                try:
                    RULES.decide(state, seat, action, random.Random(0))
                    accepted = True
                except (IllegalAction, BadAction):
                    accepted = False
                assert accepted == (action in legal), action
            _, state = play(RULES, state, seat, rng.choice(legal), rng)
