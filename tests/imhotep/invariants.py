"""Imhotep invariants for the random-play harness (§15.3, §1.1, C-4) and unlisted actions."""

from __future__ import annotations

import random
from typing import Any

from domain.contract import JSON
from domain.engine import Step
from domain.imhotep import data
from domain.imhotep.evolve import SCORING_EVENTS, evolve
from domain.imhotep.sites import stones_at
from domain.imhotep.state import State, pending


def check_stones(state: State) -> None:
    """§1.1 / §15.3 with C-4: every stone of a colour is in exactly one place."""
    at_sites = [stones_at(state, site) for site in data.BUILDING_SITES]
    for seat in range(state.n):
        on_ships = sum(ship.slots.count(seat) for ship in state.ships)
        total = (
            state.quarries[seat] + state.sleds[seat] + on_ships + state.transit[seat]
            + sum(counts[seat] for counts in at_sites) + data.SCORE_MARKERS
        )  # fmt: skip
        assert total == data.STONES_PER_COLOUR, (seat, total)
        assert 0 <= state.sleds[seat] <= data.SLED_CAPACITY and state.quarries[seat] >= 0
        assert state.transit[seat] in (0, 1)
        assert state.singles[seat] <= data.OBELISK_SINGLES


def check_cards(state: State) -> None:
    """§15.3: draw + discard + market + hands + cards being resolved (C-4) = 34."""
    resolving = sum(
        1 if f[0] == "discard" else len(f) - 2 if f[0] == "market_keep" else 0 for f in state.stack
    )
    total = (
        len(state.draw) + len(state.discard) + sum(c is not None for c in state.market)
        + len(state.pair) + sum(len(c) for c in state.cards) + resolving
    )  # fmt: skip
    assert total == len(data.DECK), total


def check_at_rest(state: State) -> None:
    """Between commands resolution has stopped at a decision, a turn or the end (§10.1)."""
    assert len(state.docks) == state.sails <= data.SHIPS_PER_ROUND
    if state.over:
        assert state.stack == [] and state.round == data.ROUNDS
    elif state.stack:
        assert pending(state) is not None


class Checker:
    """A ``check`` callback that also follows the game event by event (scores, rounds)."""

    def __init__(self, start: State) -> None:
        self.shadow = start.copy()
        self.rounds = start.round

    def __call__(self, state: State, steps: list[Step]) -> None:
        for step in steps:
            before = self.shadow.scores[:]
            evolve(self.shadow, step.event)
            if step.event.type == "round_started":
                self.rounds += 1
                assert step.event.data["round"] == self.rounds
            if self.shadow.scores != before:
                assert step.event.type in SCORING_EVENTS, step.event
        assert self.shadow == state
        check_stones(state)
        check_cards(state)
        check_at_rest(state)


def mutants(action: JSON, rng: random.Random) -> list[JSON]:
    """Unlisted variants of a legal action: wrong ships, slots, sites, cards, types, keys."""
    out: list[dict[str, Any]] = [
        {"type": "fly"},
        {"type": action["type"], "extra": 1, **{k: v for k, v in action.items() if k != "type"}},
        {"kind": action["type"]},
        {k: v for k, v in action.items() if k != next(iter(set(action) - {"type"}), "type")},
    ]
    for wrong in (0, 5, -1, True, "1", None):
        if "ship" in action:
            out.append({**action, "ship": wrong})
    for wrong in (0, 5, -1, rng.randint(1, 4), "2", 1.0):
        if "slot" in action:
            out.append({**action, "slot": wrong})
    if "site" in action:
        out.append({**action, "site": rng.choice(["nile", "Temple", *data.SITES])})
    if "card" in action:
        out.extend({**action, "card": c} for c in ("pharaoh", None, rng.choice(data.DECK)))
    if "pyramid" in action:
        out.extend({**action, "pyramid": p} for p in ("top", "left", "right", 1))
    if "order" in action:
        order = action["order"]
        out.extend(
            {**action, "order": o} for o in (order[::-1], [*order, 0], order[1:], "abc", [True])
        )
    if "first" in action:
        out.append({**action, "first": action["second"], "second": action["first"]})
        out.append({**action, "first": action["first"], "second": action["first"]})
        out.append({**action, "first": {"ship": 1}, "second": action["second"]})
    for other in ("get_stones", "pass", "take_pair", "bonus_decline", "take_point"):
        out.append({"type": other})
    return out
