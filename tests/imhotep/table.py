"""A test table for Imhotep: a game set up with a fixed rng, then arranged like a spec example.

Seats follow the spec's examples: 0 K (black), 1 W (white), 2 Br (brown), 3 G (gray).
"""

from __future__ import annotations

import random
from typing import Any

from domain.contract import Event
from domain.engine import Step, apply_events, play
from domain.imhotep import data
from domain.imhotep.rules import RULES
from domain.imhotep.state import Ship, State

K, W, BR, G = 0, 1, 2, 3
_ = None


def new_game(
    n: int = 4, sides: Any = "A", wrath: bool = False, start: int = 0, seed: int = 0
) -> State:
    """A game after setup (§3) and the start of round 1, with a fixed rng."""
    options = RULES.normalize_options(
        n, {"sides": sides, "wrath_of_the_pharaoh": wrath, "start_player": start}
    )
    events = RULES.setup(n, options, random.Random(seed))
    state: State = apply_events(RULES, RULES.initial(n, options), events)
    return state


def set_ships(state: State, *loads: list[int | None], sailed: dict[int, str] | None = None) -> None:
    """Replace the round's ships: each given as its slots (a seat or None), bow first."""
    state.ships = [
        Ship(len(slots), data.MIN_LOAD[len(slots)], [-1 if o is None else o for o in slots])
        for slots in loads
    ]
    state.docks = {}
    state.sails = 0
    for ship_id, site in (sailed or {}).items():
        state.ships[ship_id - 1].site = site
        state.docks[site] = ship_id
        state.sails += 1


def empty_ship_slots(state: State) -> None:
    """Remove every stone from the ships, back to the quarries (to rebalance a test table)."""
    for ship in state.ships:
        ship.slots = [-1] * ship.capacity


def act(state: State, seat: int, action: dict[str, Any], seed: int = 0) -> list[Step]:
    """Play one action through ``domain.engine.play`` (automatic steps included)."""
    steps, new = play(RULES, state, seat, action, random.Random(seed))
    assert new is state  # evolve works in place
    return steps


def types(steps: list[Step]) -> list[str]:
    return [s.event.type for s in steps]


def events_of(steps: list[Step], kind: str) -> list[Event]:
    return [s.event for s in steps if s.event.type == kind]


def legal(state: State, seat: int) -> list[dict[str, Any]]:
    return RULES.legal_actions(state, seat)


def decision(state: State) -> tuple[str, int] | None:
    """(kind, owner) of the pending decision or turn, as the view shows it."""
    pending = RULES.view(state, None)["pending"]
    return None if pending is None else (pending["kind"], pending["owner"])
