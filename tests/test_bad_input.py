"""Bad input never reaches a 500: any JSON as an action or as options is either accepted or
refused with a rules error (BAD_INPUT / ILLEGAL_ACTION / NOT_YOUR_TURN), for both games."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.contract import RulesError
from domain.registry import rules_for
from tests.harness import start

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 40) | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)

GAMES = {
    "imhotep": (4, {"sides": "B", "wrath_of_the_pharaoh": True}),
    "amun_re": (4, {"afterlife": True, "statues": True, "pharaoh": True, "promo_favours": True}),
}


def positions(kind: str, count: int = 12) -> list[tuple[Any, int, list[dict[str, Any]]]]:
    """States from a seeded random game, with the seat to act and its legal actions."""
    from domain.engine import play

    rules = rules_for(kind)
    seats, options = GAMES[kind]
    rng = random.Random(7)
    _, state = start(rules, seats, options, 7)
    found = []
    for n in range(2000):
        if rules.outcome(state) is not None:
            break
        seat = rng.choice(rules.active_seats(state))
        legal = rules.legal_actions(state, seat)
        if n % 15 == 0:
            found.append((copy.deepcopy(state), seat, legal))
        _, state = play(rules, state, seat, rng.choice(legal), rng)
    return found[:count]


POSITIONS = {kind: positions(kind) for kind in GAMES}


@pytest.mark.parametrize("kind", sorted(GAMES))
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_json_action_is_accepted_or_refused_with_a_reason(
    kind: str, data: st.DataObject
) -> None:
    rules = rules_for(kind)
    state, seat, legal = data.draw(st.sampled_from(POSITIONS[kind]))
    template = data.draw(st.sampled_from(legal))
    action = dict(template)
    for key in data.draw(st.lists(st.sampled_from([*sorted(template), "extra"]), max_size=3)):
        action[key] = data.draw(json_values)
    if data.draw(st.booleans()):
        action = data.draw(json_values)
    other = data.draw(st.integers(-1, 5))
    before = copy.deepcopy(state)
    try:
        rules.decide(state, seat if data.draw(st.booleans()) else other, action, random.Random(1))
    except RulesError as refused:
        assert str(refused)
    assert state == before, "decide never changes the state"


@pytest.mark.parametrize("kind", sorted(GAMES))
@settings(max_examples=300, deadline=None)
@given(options=json_values, seats=st.integers(-1, 7))
def test_any_json_options_are_accepted_or_refused_with_a_reason(
    kind: str, options: Any, seats: int
) -> None:
    rules = rules_for(kind)
    try:
        normalized = rules.normalize_options(seats, options)
    except RulesError as refused:
        assert str(refused)
    else:
        assert isinstance(normalized, dict)



def test_a_document_sent_again_is_validated_once_and_refused_alike(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """``schema.Gate``: each document text is validated once (``validated_text``); sent
    again over HTTP, the same document answers the same: a valid one its data, an invalid one
    its BAD_INPUT errors (docs/API.md "Errors")."""
    from service.api.graphql.schema import validated_text
    from tests.client import Client

    client = Client(sqlite_server.url)
    good, bad = "{ __typename first: __typename }", "{ __typename nothingHere }"
    before = validated_text.cache_info()
    assert client.gql(good) == client.gql(good) == {"__typename": "Query", "first": "Query"}
    refused, again = client.error(bad), client.error(bad)
    assert refused.code == again.code == "BAD_INPUT"
    assert "nothingHere" in str(refused) and str(refused) == str(again)
    after = validated_text.cache_info()
    assert after.misses - before.misses == 2 and after.hits - before.hits == 2
