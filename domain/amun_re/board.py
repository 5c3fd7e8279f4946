"""Changes to gold, hands and provinces shared by every phase's ``evolve`` (§7 general rules).

* R3.4 / ledger: every gold movement goes through ``pay_out`` so the bank ledger stays exact;
* R7.3 / R7.5: a sold, played or discarded card goes face up on the discard pile;
* R7.7: automatic building (3 loose stones → 1 pyramid, repeated) after every stone gained.
"""

from __future__ import annotations

from domain.amun_re import data
from domain.amun_re.state import State


def pay_out(state: State, seat: int, amount: int, reason: str) -> None:
    """Move ``amount`` gold from the bank to ``seat`` (negative: from ``seat`` to the bank)."""
    state.gold[seat] += amount
    state.ledger[reason] += amount


def discard_card(state: State, seat: int, card: int) -> None:
    """R7.5: a card leaves the hand face up onto the discard pile."""
    state.hands[seat][card] -= 1
    state.discard.append(data.CARDS[card])


def add_stones(state: State, province: int, n: int) -> int:
    """R7.7: put ``n`` stones into a province and build automatically; returns pyramids built."""
    stones = state.stones[province] + n
    built = stones // data.STONES_PER_PYRAMID
    state.stones[province] = stones % data.STONES_PER_PYRAMID
    state.pyramids[province] += built
    return built


def stones_would_build(state: State, province: int, n: int) -> int:
    """The number of pyramids ``add_stones`` would build (for the event that records it)."""
    return (state.stones[province] + n) // data.STONES_PER_PYRAMID


def build_with_two(state: State, province: int) -> None:
    """R7.7 / R10.6 Architect: exactly 2 loose stones become 1 pyramid."""
    state.stones[province] -= data.ARCHITECT_STONES
    state.pyramids[province] += 1
