"""Playing and replaying a game on the rules contract (domain.contract).

``play`` decides one action and then applies every automatic step that follows (Imhotep C-1,
Amun-Re C-1: a seat whose list of legal actions has exactly one entry is not asked; that entry is
applied at once and recorded with ``automatic=True``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from domain.contract import JSON, Event, NotYourTurn, Rules
from domain.randomness import rng_for

#: a guard against a rules bug that would loop on automatic steps forever
MAX_AUTOMATIC_STEPS = 10_000


@dataclass(frozen=True, slots=True)
class Step:
    """One decided event, and whether nobody chose it (an automatic step)."""

    event: Event
    automatic: bool = False


def replay(rules: Rules[Any], seats: int, options: JSON, events: Iterable[Event]) -> Any:
    """Fold ``evolve`` over ``events``, starting from the empty state."""
    state = rules.initial(seats, options)
    for event in events:
        state = rules.evolve(state, event)
    return state


def apply_events(rules: Rules[Any], state: Any, events: Iterable[Event]) -> Any:
    for event in events:
        state = rules.evolve(state, event)
    return state


def play(
    rules: Rules[Any], state: Any, seat: int, action: JSON, rng: random.Random
) -> tuple[list[Step], Any]:
    """Decide ``action`` for ``seat`` on ``state`` and run the automatic steps after it.

    ``state`` must be owned by the caller: ``evolve`` may change it in place. Returns the steps
    and the state after them. Raises a ``RulesError`` (nothing applied) when refused.
    """
    if seat not in rules.active_seats(state):
        raise NotYourTurn(f"seat {seat} does not have to act now")
    events = rules.decide(state, seat, action, rng)
    steps = [Step(event) for event in events]
    state = apply_events(rules, state, events)
    more, state = run_automatic(rules, state, rng)
    return steps + more, state


def run_automatic(rules: Rules[Any], state: Any, rng: random.Random) -> tuple[list[Step], Any]:
    """Apply forced single-option steps until some seat has a real choice or the game ends."""
    steps: list[Step] = []
    for _ in range(MAX_AUTOMATIC_STEPS):
        if rules.outcome(state) is not None:
            return steps, state
        forced = next(
            (
                (seat, actions[0])
                for seat in rules.active_seats(state)
                if len(actions := rules.legal_actions(state, seat)) == 1
            ),
            None,
        )
        if forced is None:
            return steps, state
        seat, action = forced
        events = rules.decide(state, seat, action, rng)
        steps.extend(Step(event, automatic=True) for event in events)
        state = apply_events(rules, state, events)
    raise RuntimeError("automatic steps did not settle")  # a rules bug, never bad input


def deal_fork(rules: Rules[Any], position: Any, seats: list[int], seed: str, started: int) -> Event:
    """The opening position of a fork whose log starts the game at version ``started``:
    ``Rules.fork`` with the randomness the fork's seed gives there. Dealing a fork and checking
    one (``verifyLog``) both come here, so they cannot drift apart."""
    return rules.fork(position, seats, rng_for(seed, started))

