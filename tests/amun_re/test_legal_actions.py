"""``legal_actions`` lists exactly what ``decide`` accepts (contract; §0 Atomic decisions): at
sampled positions of random games every candidate action built from the parameter domains is
accepted if and only if it is listed, and no list grows beyond a few hundred entries."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from domain.amun_re import data
from domain.amun_re.rules import ACTION_TYPES, RULES
from domain.amun_re.state import State
from domain.contract import JSON, IllegalAction, RulesError
from domain.engine import play
from tests.harness import start

PARAMS = {
    "bid": ("province", "value", "bribe", "protection"),
    "sell": ("card",),
    "sell_for_payment": ("card",),
    "mark_for_sale": ("card",),
    "buy_favour_cards": ("count",),
    "buy_farmers": ("count",),
    "buy_stones": ("count",),
    "place_farmer": ("province",),
    "place_stone": ("province",),
    "play_architect": ("province",),
    "play_extra_farmer": ("province",),
    "take_farmer": ("province",),
    "take_stone": ("province",),
    "play_exceptional_harvest": ("province",),
    "play_fixed_income": ("province",),
    "set_adjustment": ("sign",),
    "commit_gold": ("gold",),
    "commit_theft": ("greed",),
}


def candidates(state: State, seat: int) -> Iterator[JSON]:
    domains = {
        "province": data.PROVINCES,
        "card": data.CARDS,
        "bribe": (False, True),
        "protection": (False, True),
        "greed": (False, True),
        "sign": (-3, 0, 3),
        "value": (*data.BID_TRACK, 2, 37),
        "count": range(0, 14),
        "gold": range(0, state.gold[seat] + sum(state.hands[seat]) + 3),
    }
    for kind in ACTION_TYPES:
        names = PARAMS.get(kind, ())
        combos: list[JSON] = [{"type": kind}]
        for name in names:
            combos = [{**c, name: v} for c in combos for v in domains[name]]
        yield from combos


@pytest.mark.parametrize(("seats", "seed"), [(3, 21), (4, 22), (5, 23)])
def test_legal_actions_are_exactly_the_accepted_actions(seats, seed):
    rng = random.Random(seed)
    _, state = start(RULES, seats, RULES.normalize_options(seats, {}), seed)
    n = 0
    while RULES.outcome(state) is None:
        seat = rng.choice(RULES.active_seats(state))
        legal = RULES.legal_actions(state, seat)
        assert len(legal) <= 300 and len({str(a) for a in legal}) == len(legal)
        if n % 9 == 0:
            for action in candidates(state, seat):
                try:
                    RULES.decide(state, seat, action, random.Random(0))
                except RulesError as refused:
                    assert action not in legal, f"{action} is listed but refused: {refused}"
                    if isinstance(refused, IllegalAction):
                        assert refused.rule, f"{action}: an illegal action names its rule"
                else:
                    assert action in legal, f"{action} is accepted but not listed"
        _, state = play(RULES, state, seat, rng.choice(legal), rng)
        n += 1
