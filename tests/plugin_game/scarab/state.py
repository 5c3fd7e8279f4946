"""Scarab's constants (R1, R2) and its state: plain mutable data, copied by hand.

The state holds only JSON values (ints, lists of ints, bools), so a fork can record it whole
(``fork.snapshot``) and replays compare it with ``==``. Hands are kept sorted: two copies of a
value are alike (R1), and a sorted hand says nothing about when a card came into it.

``__deepcopy__`` is not an optimisation only: the ``greedy`` bot copies positions with
``position.__deepcopy__({})`` (``service/app/bots/greedy.py``), so a game's state must define it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: the card values (R1)
VALUES = tuple(range(1, 11))
#: cards of each value (R1)
COPIES = 2
#: the deck in its documented order, the order a shuffle starts from (R1, R2)
DECK = tuple(value for value in VALUES for _ in range(COPIES))
#: cards dealt to each seat (R2)
HAND = 3
MIN_SEATS = 2
MAX_SEATS = 4


@dataclass(slots=True)
class State:
    """A Scarab game (R2-R6): ``current`` is the seat to act while ``dealt and not over``."""

    n: int
    hands: list[list[int]] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    current: int = 0
    dealt: bool = False
    over: bool = False
    winners: list[int] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)

    def copy(self) -> State:
        return State(
            self.n,
            [hand[:] for hand in self.hands],
            self.deck[:],
            self.played[:],
            self.discards[:],
            self.scores[:],
            self.current,
            self.dealt,
            self.over,
            self.winners[:],
            self.ranks[:],
        )

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self.copy()


def new_state(seats: int) -> State:
    """The empty table the deal (R2) is folded into."""
    return State(seats, hands=[[] for _ in range(seats)], scores=[0] * seats)


def top(state: State) -> int | None:
    """The play row's top card, the card to beat (R3.1); ``None`` while the row is empty."""
    return state.played[-1] if state.played else None


def next_seat(sizes: list[int], seat: int) -> int | None:
    """The seat after ``seat`` whose hand (of ``sizes[s]`` cards) is not empty (R5), ``seat``
    itself last; ``None`` when every hand is empty (R6)."""
    n = len(sizes)
    return next((s % n for s in range(seat + 1, seat + n + 1) if sizes[s % n]), None)


def ranking(scores: list[int]) -> tuple[list[int], list[int]]:
    """The winners and every seat's rank (R6): 1 + the seats with a strictly higher score."""
    best = max(scores)
    winners = [seat for seat, score in enumerate(scores) if score == best]
    ranks = [1 + sum(other > score for other in scores) for score in scores]
    return winners, ranks
