"""Property suite (§15): random games for 2–4 players over side mixes and Wrath on/off.

Every game goes through ``tests.harness.random_game`` (replay equals live state, only acting seats
have actions, listed actions accepted, unlisted mutants refused, views serialisable) with the
Imhotep checks of ``tests.imhotep.invariants``: stone conservation per colour (§1.1, §15.3, C-4),
card conservation, scores changing only in scoring events, exactly 6 rounds (§5).
Set ``PAPYRUS_PROPERTY_GAMES`` for more games per configuration (default 8).
"""

from __future__ import annotations

import os
import random

import pytest

from domain.imhotep import data
from domain.imhotep.rules import RULES
from tests.harness import random_game, start
from tests.imhotep.invariants import Checker, mutants

GAMES = int(os.environ.get("PAPYRUS_PROPERTY_GAMES", "8"))
MIXED_1 = {"market": "B", "pyramids": "A", "temple": "B", "burial_chamber": "A", "obelisks": "B"}
MIXED_2 = {"market": "A", "pyramids": "B", "temple": "A", "burial_chamber": "B", "obelisks": "A"}
SIDES = {"all_a": "A", "all_b": "B", "mixed_1": MIXED_1, "mixed_2": MIXED_2}


@pytest.mark.parametrize("wrath", [False, True], ids=["plain", "wrath"])
@pytest.mark.parametrize("sides", list(SIDES))
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_15_random_games_keep_every_invariant(seats: int, sides: str, wrath: bool) -> None:
    options = RULES.normalize_options(seats, {"sides": SIDES[sides], "wrath_of_the_pharaoh": wrath})
    for game in range(GAMES):
        seed = hash((seats, sides, wrath, game)) % 1_000_000
        _, state = start(RULES, seats, options, seed)
        events, final = random_game(
            RULES, seats, options, seed,
            check=Checker(state), mutants=mutants, replay_every=1,
        )  # fmt: skip
        assert sum(e.type == "round_started" for e in events) == data.ROUNDS
        assert final.round == data.ROUNDS
        outcome = RULES.outcome(final)
        assert outcome is not None and outcome.scores == RULES.scores(final)
        assert min(outcome.ranks) == 1 and outcome.winners


def test_15_2_legal_lists_have_no_duplicates_and_stay_within_bounds() -> None:
    """§11.1 / §11.2 bounds: at most 210 turn entries; the lists never repeat an entry."""
    bounds = {"turn": 210, "market_take": 5, "market_keep": 2, "pyramid_choice": 3,
              "ship_bonus": 14, "lever_order": 24, "temple_choice": 2}  # fmt: skip
    for seed in range(6):
        options = RULES.normalize_options(4, {"sides": "B" if seed % 2 else "A"})
        rng = random.Random(seed)
        _, state = start(RULES, 4, options, seed)
        from domain.engine import play

        while RULES.outcome(state) is None:
            seat = RULES.active_seats(state)[0]
            legal = RULES.legal_actions(state, seat)
            kind = RULES.view(state, seat)["pending"]["kind"]
            assert len(legal) <= bounds[kind]
            assert len({repr(a) for a in legal}) == len(legal)
            _, state = play(RULES, state, seat, rng.choice(legal), rng)


try:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover - hypothesis is a test extra
    pass
else:

    @settings(
        max_examples=max(10, GAMES * 2),
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(
        seats=st.integers(2, 4),
        sides=st.fixed_dictionaries({site: st.sampled_from("AB") for site in data.SITES}),
        wrath=st.booleans(),
        seed=st.integers(0, 2**32 - 1),
    )
    def test_15_any_side_mix_keeps_every_invariant(
        seats: int, sides: dict[str, str], wrath: bool, seed: int
    ) -> None:
        options = RULES.normalize_options(seats, {"sides": sides, "wrath_of_the_pharaoh": wrath})
        _, state = start(RULES, seats, options, seed)
        events, final = random_game(
            RULES, seats, options, seed, check=Checker(state), mutants=mutants, replay_every=5
        )
        assert sum(e.type == "round_started" for e in events) == data.ROUNDS
        assert RULES.outcome(final) is not None
