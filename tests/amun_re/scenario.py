"""Building Amun-Re positions for rule tests: a real game set up with a fixed start player, then
the board, hands, gold and phase arranged the way a worked example (§18) describes."""

from __future__ import annotations

import random
from typing import Any

from domain.amun_re import data
from domain.amun_re.evolve import evolve
from domain.amun_re.rules import RULES
from domain.amun_re.state import NONE, State
from domain.contract import JSON, Event
from domain.engine import Step, apply_events, play, run_automatic

P = data.PROVINCE_INDEX
C = data.CARD_INDEX


def new_game(seats: int, start: int = 0, seed: int = 0, **options: Any) -> State:
    """A game right after setup (round 1 revealed), start player fixed."""
    opts = RULES.normalize_options(seats, {"start_player": start, **options})
    rng = random.Random(seed)
    state = apply_events(RULES, RULES.initial(seats, opts), RULES.setup(seats, opts, rng))
    return state


def set_hand(state: State, seat: int, *cards: str) -> None:
    """Give ``seat`` exactly these Favour cards (taken from / returned to the draw pile)."""
    for c, n in enumerate(state.hands[seat]):
        state.draw += [data.CARDS[c]] * n
    state.hands[seat] = [0] * len(data.CARDS)
    for card in cards:
        if card in state.draw:
            state.draw.remove(card)
        state.hands[seat][C[card]] += 1


def set_gold(state: State, seat: int, gold: int) -> None:
    """Change a seat's gold through the ledger (a test-only bank payment)."""
    state.ledger["start"] += gold - state.gold[seat]
    state.gold[seat] = gold


def give_province(
    state: State, seat: int, province: str, farmers: int = 0, stones: int = 0, pyramids: int = 0
) -> None:
    p = P[province]
    if state.owner[p] != NONE:
        state.owned[state.owner[p]].remove(p)
    state.owner[p] = seat
    state.owned[seat].append(p)
    state.seen[p] = True
    state.farmers[p], state.stones[p], state.pyramids[p] = farmers, stones, pyramids


def clear_provinces(state: State) -> None:
    for s in range(state.seats):
        state.owned[s] = []
    for p in range(len(data.PROVINCES)):
        state.owner[p] = NONE
        state.farmers[p] = state.stones[p] = state.pyramids[p] = 0


def reveal(state: State, *provinces: str, round_number: int = 1) -> State:
    """Restart the Auction of ``round_number`` with these cards revealed in this order."""
    for province in provinces:
        if P[province] in state.deck:
            state.deck.remove(P[province])
    return evolve(
        state, Event("round_started", {"round": round_number, "revealed": list(provinces)})
    )


def enter(state: State, event_type: str, **event_data: Any) -> State:
    """Apply a system event that starts a phase (``market_started``, ``offering_started`` …)."""
    return evolve(state, Event(event_type, event_data))


def act(state: State, seat: int, action: JSON, seed: int = 0) -> tuple[list[Step], State]:
    """Decide and apply one action (plus the automatic steps after it) on ``state`` in place."""
    return play(RULES, state, seat, action, random.Random(seed))


def settle(state: State) -> tuple[list[Step], State]:
    return run_automatic(RULES, state, random.Random(0))


def bid(province: str, value: int, bribe: bool = False, protection: bool = False) -> JSON:
    return {
        "type": "bid",
        "province": province,
        "value": value,
        "bribe": bribe,
        "protection": protection,
    }


def types(steps: list[Step]) -> list[str]:
    return [s.event.type for s in steps]
