"""The rules contract (domain/contract.py) as Amun-Re fulfils it: decide never changes the state,
states compare and deep-copy, every view and event view is JSON, replay equals the live state,
the engine's automatic steps (C-1) apply single options."""

from __future__ import annotations

import copy
import json
import random

import pytest

from domain.amun_re.rules import RULES
from domain.contract import BadAction, IllegalAction, RulesError
from domain.engine import play, replay
from domain.registry import rules_for
from tests.harness import start


def test_registry_serves_amun_re():
    rules = rules_for("amun_re")
    assert rules is RULES
    assert (rules.kind, rules.version, rules.min_seats, rules.max_seats) == (
        "amun_re",
        "amun_re-1",
        3,
        5,
    )


@pytest.mark.parametrize("seats", [3, 5])
def test_decide_never_changes_the_state_and_views_are_json(seats):
    rng = random.Random(seats)
    options = RULES.normalize_options(seats, {})
    events, state = start(RULES, seats, options, seats)
    n = 0
    while RULES.outcome(state) is None:
        seat = rng.choice(RULES.active_seats(state))
        legal = RULES.legal_actions(state, seat)
        if n % 5 == 0:
            before = copy.deepcopy(state)
            for action in legal:
                RULES.decide(state, seat, action, random.Random(0))
            assert state == before
            for viewer in (None, *range(seats)):
                json.dumps(RULES.view(state, viewer))
        steps, state = play(RULES, state, seat, rng.choice(legal), rng)
        events += [s.event for s in steps]
        n += 1
    assert replay(RULES, seats, options, events) == state
    for viewer in (None, *range(seats)):
        for event in events:
            shown = RULES.view_event(event, viewer)
            if shown is not None:
                json.dumps([shown.type, shown.data, shown.seat])
        json.dumps(RULES.view(state, viewer, full=True))
    assert all(RULES.view_event(e, 0, full=True) == e for e in events)
    assert RULES.legal_actions(state, 0) == [] and RULES.active_seats(state) == []


def test_malformed_actions_are_bad_actions():
    _, state = start(RULES, 3, RULES.normalize_options(3, {"start_player": 0}), 1)
    for bad in ({}, {"type": 3}, {"type": "dance"}, "bid", None):
        with pytest.raises(BadAction):
            RULES.decide(state, 0, bad, random.Random(0))  # type: ignore[arg-type]


def test_actions_of_another_phase_name_their_rule():
    _, state = start(RULES, 3, RULES.normalize_options(3, {"start_player": 0}), 1)
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, 0, {"type": "end_market_turn"}, random.Random(0))
    assert refused.value.rule == "R10.1"
    with pytest.raises(RulesError) as refused:
        RULES.decide(state, 0, {"type": "commit_theft", "greed": True}, random.Random(0))
    assert str(refused.value)


def test_nobody_acts_before_setup_and_options_normalize_idempotently():
    options = RULES.normalize_options(4, {"no_farmer_points": True})
    assert RULES.normalize_options(4, options) == options
    state = RULES.initial(4, options)
    assert RULES.active_seats(state) == [] and RULES.legal_actions(state, 0) == []
    assert RULES.outcome(state) is None and RULES.scores(state) == [0, 0, 0, 0]
    json.dumps(RULES.view(state, None))
