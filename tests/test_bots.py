"""Bot levels (issue #15): secrecy, reproducibility, strength, and the purity of the bot modules.

The bots live in ``service/app/bots/``; ``levels.choose_action`` is the one entry point.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest

from domain.contract import JSON, Rules
from domain.engine import apply_events, play, run_automatic
from domain.randomness import rng_for
from domain.registry import rules_for
from service.app.bots import evaluation, greedy, mcts
from service.app.bots.levels import (
    LEVELS,
    Budget,
    UnknownLevel,
    check_level,
    choose_action,
    determinize,
)
from tests.test_layers import imports_of

ROOT = Path(__file__).resolve().parent.parent
#: a small search keeps these tests fast; the bench measures the real budget
SMALL = Budget(iterations=24)
GAMES = [("imhotep", 2), ("imhotep", 3), ("amun_re", 3), ("amun_re", 4)]


def opening(kind: str, seats: int, seed: str) -> tuple[Rules[Any], Any]:
    rules = rules_for(kind)
    options = rules.normalize_options(seats, {})
    state = apply_events(
        rules, rules.initial(seats, options), rules.setup(seats, options, rng_for(seed, 1))
    )
    _, state = run_automatic(rules, state, rng_for(seed, 2))
    return rules, state


def positions(kind: str, seats: int, seed: str, every: int, count: int) -> list[Any]:
    """``count`` positions of one random game, ``every`` actions apart."""
    rules, state = opening(kind, seats, seed)
    rng = random.Random(seed)
    out: list[Any] = []
    played = 0
    while rules.outcome(state) is None and len(out) < count:
        seat = rng.choice(rules.active_seats(state))
        _, state = play(rules, state, seat, rng.choice(rules.legal_actions(state, seat)), rng)
        played += 1
        if played % every == 0 and rules.outcome(state) is None:
            out.append(copy.deepcopy(state))
    return out


def twins(rules: Rules[Any], state: Any, seat: int, salt: str) -> tuple[Any, Any]:
    """Two true states ``seat`` cannot tell apart: ``state`` with everything hidden from it
    re-dealt twice, with two different generators (``Rules.fork`` from the seat's side)."""
    one = determinize(rules, state, seat, random.Random(f"{salt}:one"))
    two = determinize(rules, state, seat, random.Random(f"{salt}:two"))
    return one, two


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("kind", "seats"), GAMES)
def test_a_bot_chooses_the_same_for_two_states_its_seat_cannot_tell_apart(
    level: str, kind: str, seats: int
) -> None:
    """Issue #15 acceptance 3; Imhotep §14 and Amun-Re §17 (what a seat may see): two true
    states that differ only in what the bot's seat cannot see (the draw piles, the other hands,
    Amun-Re's other seats' gold, the round cards) give the same action, for every level."""
    rules = rules_for(kind)
    differing = 0
    # the searching level is costly: a few positions; the others: most of a game
    every, count = (7, 5) if level == "mcts" else (2, 50)
    for number, state in enumerate(positions(kind, seats, f"secrecy:{kind}:{seats}", every, count)):
        seat = rules.active_seats(state)[0]
        one, two = twins(rules, state, seat, f"{kind}:{number}")
        assert rules.view(one, seat) == rules.view(two, seat)
        assert rules.legal_actions(one, seat) == rules.legal_actions(two, seat)
        differing += rules.view(one, None, True) != rules.view(two, None, True)
        version = 40 + number
        chosen = choose_action(level, rules, one, seat, "secret-seed", version, SMALL)
        assert choose_action(level, rules, two, seat, "secret-seed", version, SMALL) == chosen
        assert chosen in rules.legal_actions(one, seat)
    assert differing >= 3  # the twins really differ in hidden information


def offering(seed: str) -> tuple[Rules[Any], Any]:
    """An Amun-Re position in the Offering (§11.1) where seat 0 must still commit."""
    rules, state = opening("amun_re", 3, seed)
    rng = random.Random(seed)
    while state.phase != "offering" or 0 not in rules.active_seats(state):
        seat = rng.choice(rules.active_seats(state))
        if state.phase == "offering" and seat == 0:
            seat = next(s for s in rules.active_seats(state) if s != 0)
        _, state = play(rules, state, seat, rng.choice(rules.legal_actions(state, seat)), rng)
    return rules, state


@pytest.mark.parametrize("level", LEVELS)
def test_an_amun_re_bot_does_not_read_another_seats_secret_offering(level: str) -> None:
    """Amun-Re R11.1, §17: another seat's Offering commitment is secret until the reveal; the
    bot of seat 0 chooses the same whatever seat 1 committed."""
    for attempt in range(6):
        rules, state = offering(f"offering:{attempt}")
        if 1 in rules.active_seats(state) and len(rules.legal_actions(state, 1)) >= 2:
            break
    else:
        pytest.fail("no Offering where seat 1 has a choice")
    commits = rules.legal_actions(state, 1)
    first, last = commits[0], commits[-1]
    one = rules.evolve(copy.deepcopy(state), rules.decide(state, 1, first, random.Random(1))[0])
    two = rules.evolve(copy.deepcopy(state), rules.decide(state, 1, last, random.Random(1))[0])
    assert rules.view(one, 0) == rules.view(two, 0)
    assert rules.view(one, 1) != rules.view(two, 1)  # they do differ, for seat 1
    assert choose_action(level, rules, one, 0, "s", 99, SMALL) == choose_action(
        level, rules, two, 0, "s", 99, SMALL
    )


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("kind", "seats"), [("imhotep", 2), ("amun_re", 3)])
def test_a_move_is_reproducible_and_leaves_the_state_alone(
    level: str, kind: str, seats: int
) -> None:
    rules = rules_for(kind)
    state = positions(kind, seats, f"repro:{kind}", 5, 2)[-1]
    seat = rules.active_seats(state)[0]
    before = rules.view(state, None, True)
    chosen = choose_action(level, rules, state, seat, "seed", 17, SMALL)
    assert rules.view(state, None, True) == before
    assert choose_action(level, rules, copy.deepcopy(state), seat, "seed", 17, SMALL) == chosen


def test_the_random_level_is_the_first_bots_choice() -> None:
    """Logs written before the levels replay unchanged: ``random`` draws exactly as before."""
    rules, state = opening("imhotep", 2, "old")
    seat = rules.active_seats(state)[0]
    legal = rules.legal_actions(state, seat)
    for version in range(5, 30):
        expected = random.Random(f"bot:old:{version}").choice(legal)
        assert choose_action("random", rules, state, seat, "old", version) == expected


def test_unknown_levels_are_refused() -> None:
    assert check_level(None) == "random"
    assert [check_level(level) for level in LEVELS] == ["random", "greedy", "mcts"]
    with pytest.raises(UnknownLevel):
        check_level("alphazero")


def test_greedy_takes_the_immediate_gain() -> None:
    """Imhotep §8.3 (pyramids, side A): a full ship that can sail to the pyramids scores at
    once; greedy's chosen action has the best value among all legal actions."""
    rules = rules_for("imhotep")
    for state in positions("imhotep", 2, "greedy", 3, 6):
        seat = rules.active_seats(state)[0]
        chosen = choose_action("greedy", rules, state, seat, "g", 3)
        rng = random.Random(0)
        position = determinize(rules, state, seat, rng)
        legal = rules.legal_actions(position, seat)
        scored = greedy.ranked(rules, position, seat, legal, rng)
        best = max(v for v, _ in scored)
        assert dict(scored)  # every action valued
        assert max(v for v, i in scored if legal[i] == chosen) >= best - 1e-9


def test_the_evaluation_is_the_projected_lead() -> None:
    """Imhotep §13 (final scoring) and Amun-Re §13 (kingdom scoring) count in the projection."""
    rules, state = opening("imhotep", 2, "eval")
    points = evaluation.projected(rules, state)
    assert evaluation.value(rules, state, 0) == pytest.approx(points[0] - points[1])
    state.scores[0] += 10
    assert evaluation.value(rules, state, 0) == pytest.approx(points[0] + 10 - points[1])
    amun, position = opening("amun_re", 3, "eval")
    before = evaluation.value(amun, position, 1)
    position.vp[1] += 5
    assert evaluation.value(amun, position, 1) == pytest.approx(before + 5)


def play_out(kind: str, levels: list[str], seed: str, budget: Budget) -> list[int]:
    """One bot game; the winners."""
    rules = rules_for(kind)
    seats = len(levels)
    options = rules.normalize_options(seats, {})
    state = apply_events(
        rules, rules.initial(seats, options), rules.setup(seats, options, rng_for(seed, 1))
    )
    _, state = run_automatic(rules, state, rng_for(seed, 1))
    version = 2
    while (outcome := rules.outcome(state)) is None:
        seat = rules.active_seats(state)[0]
        action: JSON = choose_action(levels[seat], rules, state, seat, seed, version, budget)
        steps, state = play(rules, state, seat, action, rng_for(seed, version))
        version += len(steps)
    return list(outcome.winners)


@pytest.mark.parametrize(("kind", "seats", "games"), [("imhotep", 2, 3), ("amun_re", 3, 3)])
def test_mcts_beats_random_clearly(kind: str, seats: int, games: int) -> None:
    """Issue #15 acceptance 4 (the modest seeded version; bench/bots.py measures the table):
    a small-budget mcts seat wins every one of a few seeded games against random seats."""
    budget = Budget(iterations=12)
    wins = 0
    for g in range(games):
        at = g % seats
        levels = ["mcts" if s == at else "random" for s in range(seats)]
        wins += at in play_out(kind, levels, f"strength:{kind}:{g}", budget)
    assert wins == games


def test_the_bot_levels_import_the_domain_only() -> None:
    """The levels are pure: standard library, the domain and each other; never the store, the
    tables or a transport (so the bench and the take-over run them anywhere)."""
    pure = ("levels", "uniform", "greedy", "mcts", "evaluation")
    for name in pure:
        module = f"service.app.bots.{name}"
        source = (ROOT / "service" / "app" / "bots" / f"{name}.py").read_text(encoding="utf-8")
        for imported in imports_of(source, module):
            top = imported.split(".")[0]
            assert (
                top in ("__future__", "domain", "copy", "json", "math", "random", "time")
                or top in ("collections", "dataclasses", "typing")
                or any(imported.startswith(f"service.app.bots.{p}") for p in pure)
                or imported == "service.app.bots"
            ), f"{module} imports {imported}"


def test_mcts_spends_its_time_budget() -> None:
    rules, state = opening("imhotep", 2, "time")
    seat = rules.active_seats(state)[0]
    import time

    start = time.perf_counter()
    choose_action("mcts", rules, state, seat, "t", 3, Budget(seconds=0.2))
    assert 0.15 < time.perf_counter() - start < 1.5
    assert mcts.squash(0, 10) == 0.5
