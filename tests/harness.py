"""One random-play harness for every game (STYLE.md: the property suite).

``random_game`` plays a whole game with uniformly random legal actions and checks, after every
action, the contract invariants that hold for every game:

* only seats that must act have legal actions, and every seat that must act has at least one;
* the chosen legal action is accepted; a sample of unlisted actions is rejected with a reason;
* ``evolve`` never raises, and replaying the events from scratch equals the live state;
* views are JSON-serialisable.

Game-specific invariants go in ``check(state, steps)``, called after every action.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from domain.contract import JSON, Event, Rules, RulesError
from domain.engine import Step, apply_events, play, replay, run_automatic

Check = Callable[[Any, list[Step]], None]


def start(rules: Rules[Any], seats: int, options: JSON, seed: int) -> tuple[list[Event], Any]:
    options = rules.normalize_options(seats, options)
    rng = random.Random(seed)
    events = rules.setup(seats, options, rng)
    state = apply_events(rules, rules.initial(seats, options), events)
    steps, state = run_automatic(rules, state, rng)
    return events + [s.event for s in steps], state


def random_game(
    rules: Rules[Any],
    seats: int,
    options: JSON,
    seed: int,
    *,
    check: Check | None = None,
    mutants: Callable[[JSON, random.Random], list[JSON]] | None = None,
    replay_every: int = 1,
    max_actions: int = 20_000,
) -> tuple[list[Event], Any]:
    """Play one random game to its end; returns all events and the final state."""
    options = rules.normalize_options(seats, options)
    rng = random.Random(seed)
    events, state = start(rules, seats, options, seed)
    for n in range(max_actions):
        if rules.outcome(state) is not None:
            break
        active = rules.active_seats(state)
        assert active, "a game that is not over must have someone to act"
        for seat in range(seats):
            legal = rules.legal_actions(state, seat)
            if seat in active:
                assert legal, f"seat {seat} must act but has no legal action"
            else:
                assert legal == [], f"seat {seat} need not act but has legal actions"
        seat = rng.choice(active)
        legal = rules.legal_actions(state, seat)
        if mutants is not None:
            for bad in mutants(rng.choice(legal), rng):
                if bad in legal:
                    continue
                try:
                    rules.decide(state, seat, bad, rng)
                except RulesError as refused:
                    assert str(refused), "a refusal must say why"
                else:
                    raise AssertionError(f"unlisted action {bad} was accepted")
        action = rng.choice(legal)
        steps, state = play(rules, state, seat, action, rng)
        events.extend(s.event for s in steps)
        if check is not None:
            check(state, steps)
        if n % replay_every == 0:
            assert replay(rules, seats, options, events) == state, "replay differs from live state"
        for viewer in [None, *range(seats)]:
            json.dumps(rules.view(state, viewer))
    else:
        raise AssertionError("game did not end")
    assert replay(rules, seats, options, events) == state
    assert rules.outcome(state) is not None
    return events, state


def some_seats(rng: random.Random, n: int) -> list[int]:
    """A random non-empty set of seats, ascending (who forks a game)."""
    return sorted(rng.sample(range(n), rng.randint(1, n)))


def play_fork_out(
    rules: Rules[Any], seats: int, options: JSON, event: Event, rng: random.Random
) -> Any:
    """Start a sandbox from its ``fork_dealt`` event, play it to its end with random legal
    actions, check that replaying its events from the empty state gives the live state, and
    return that final state."""
    live: Any = rules.evolve(rules.initial(seats, options), event)
    steps, live = run_automatic(rules, live, rng)
    events = [event, *(s.event for s in steps)]
    while rules.outcome(live) is None:
        seat = rng.choice(rules.active_seats(live))
        steps, live = play(rules, live, seat, rng.choice(rules.legal_actions(live, seat)), rng)
        events.extend(s.event for s in steps)
    assert replay(rules, seats, options, events) == live
    return live
