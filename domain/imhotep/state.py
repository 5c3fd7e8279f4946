"""The Imhotep game state (§4), as plain mutable dataclasses built for speed.

Seats are ints 0 … n−1 and a stone is represented by its owner's seat. A ship slot holds ``-1``
when empty. Resolution that pauses for a decision (§10.1) is kept as an explicit **stack of
frames** (tuples of primitives): the top frame is what happens next. Decision frames
(``market_take`` …) wait for their owner; the other frames (``unload``, ``red``, ``draw`` …) are
resolved by ``domain.imhotep.flow`` inside ``decide``. With an empty stack it is the current
player's turn (§5.2).

Frames (``stack`` entries):

* ``("unload", ship)`` – the ship's ``queue`` of slots is delivered one stone at a time (§7.2);
* ``("red", seat, card)`` – a received red card is played (§9.4);
* ``("discard", card)`` – a played card goes to the discard pile once resolved (R-12);
* ``("draw", seat)`` – a card bonus draws for ``seat`` (§9.1);
* ``("end_round",)``, ``("temple_a",)``, ``("temple_b", column, owner)``, ``("clear_market",)``,
  ``("next_round",)``, ``("final", step)`` – the end of a round (§12) and the final scoring (§13);
* decisions (§10.2): ``("market_take", seat)``, ``("market_keep", seat, card[, card])``,
  ``("pyramid_choice", seat)``, ``("ship_bonus", seat)``, ``("lever_order", seat, ship)``;
  ``("temple_b", …)`` is the decision ``temple_choice`` on a "point or stones" column.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.imhotep import data

Frame = tuple[Any, ...]

#: frame kinds that are decisions of their owner (frame[1]) (§10.2)
DECISION_FRAMES = frozenset(
    {"market_take", "market_keep", "pyramid_choice", "ship_bonus", "lever_order"}
)


@dataclass(slots=True)
class Ship:
    """One of the four ships of a round (§1.2): slots from the bow, ``site`` once sailed."""

    capacity: int
    minimum: int
    slots: list[int]
    site: str | None = None
    queue: list[int] = field(default_factory=list)

    def copy(self) -> Ship:
        return Ship(self.capacity, self.minimum, self.slots[:], self.site, self.queue[:])

    def load(self) -> int:
        return self.capacity - self.slots.count(-1)


@dataclass(slots=True)
class State:
    """Everything §4 asks for. ``sides`` maps each site to "A"/"B"."""

    n: int
    colours: list[str]
    sides: dict[str, str]
    wrath: bool
    start_option: int | str
    round: int = 0
    start_player: int = 0
    current: int = 0
    next_start: int = 0
    scores: list[int] = field(default_factory=list)
    sleds: list[int] = field(default_factory=list)
    quarries: list[int] = field(default_factory=list)
    transit: list[int] = field(default_factory=list)
    cards: list[list[str]] = field(default_factory=list)
    ships: list[Ship] = field(default_factory=list)
    docks: dict[str, int] = field(default_factory=dict)
    sails: int = 0
    passes: int = 0
    market: list[str | None] = field(default_factory=list)
    pair: list[str] = field(default_factory=list)
    draw: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    round_stack: list[str] = field(default_factory=list)
    removed: str | None = None
    revealed: list[str] = field(default_factory=list)
    pyramids: list[list[int]] = field(default_factory=list)
    overflow: list[int] = field(default_factory=list)
    temple: list[int] = field(default_factory=list)
    burial: list[int] = field(default_factory=list)
    heights: list[int] = field(default_factory=list)
    singles: list[int] = field(default_factory=list)
    towers: list[int] = field(default_factory=list)
    beside: list[int] = field(default_factory=list)
    stack: list[Frame] = field(default_factory=list)
    acted: bool = False
    ending: bool = False
    over: bool = False
    final: dict[str, list[int]] = field(default_factory=dict)
    ranks: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)

    def copy(self) -> State:
        """A deep copy, written out by hand because ``decide`` needs one per call."""
        return State(
            self.n, self.colours, self.sides, self.wrath, self.start_option, self.round,
            self.start_player, self.current, self.next_start, self.scores[:], self.sleds[:],
            self.quarries[:], self.transit[:], [c[:] for c in self.cards],
            [s.copy() for s in self.ships], dict(self.docks), self.sails, self.passes,
            self.market[:], self.pair[:], self.draw[:], self.discard[:], self.round_stack[:],
            self.removed, self.revealed[:], [p[:] for p in self.pyramids], self.overflow[:],
            self.temple[:], self.burial[:], self.heights[:], self.singles[:], self.towers[:],
            self.beside[:], self.stack[:], self.acted, self.ending, self.over,
            {k: v[:] for k, v in self.final.items()}, self.ranks[:], self.winners[:],
        )  # fmt: skip

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self.copy()

    def side(self, site: str) -> str:
        return self.sides[site]


def new_state(n: int, options: dict[str, Any]) -> State:
    """The empty state of §3 before the setup events: nothing dealt, nothing shuffled."""
    sides = dict(options["sides"])
    pyramids = data.PYRAMIDS[sides["pyramids"]]
    return State(
        n=n,
        colours=list(options["colours"]),
        sides=sides,
        wrath=bool(options["wrath_of_the_pharaoh"]),
        start_option=options["start_player"],
        scores=[0] * n,
        sleds=[0] * n,
        quarries=[data.STONES_PER_COLOUR - data.SCORE_MARKERS] * n,
        transit=[0] * n,
        cards=[[] for _ in range(n)],
        pyramids=[[] for _ in pyramids],
        heights=[0] * n,
        singles=[0] * n,
    )


def temple_width(state: State) -> int:
    """§8.5: 4 with two players, 5 otherwise (from the data file)."""
    return data.TEMPLE_WIDTH[state.n]


def temple_visible(state: State) -> list[tuple[int, int]]:
    """§8.5: (column index from 0, owner) of each visible stone: the last min(N, w) delivered."""
    w = temple_width(state)
    stones = state.temple
    start = max(0, len(stones) - w)
    return sorted((k % w, stones[k]) for k in range(start, len(stones)))


def pending(state: State) -> Frame | None:
    """The decision frame waiting for its owner (§10.1), or ``None``."""
    if not state.stack:
        return None
    top = state.stack[-1]
    kind = top[0]
    if kind in DECISION_FRAMES:
        return top
    if kind == "temple_b" and is_temple_choice(state, top):
        return top
    return None


def stones_bonus(state: State, seat: int, most: int) -> int:
    """E-22: as many stones as fit on the sled and are left in the quarry (0 is possible)."""
    return max(0, min(most, data.SLED_CAPACITY - state.sleds[seat], state.quarries[seat]))


def is_temple_choice(state: State, frame: Frame) -> bool:
    """§8.6: a "point or stones" column is the decision ``temple_choice``. When no stone would
    move, ``take_point`` is its only option and is applied automatically (R-17, C-1)."""
    return data.TEMPLE_B_BONUS[frame[1]] == "point_or_two_stones"


def open_slots(state: State) -> list[tuple[int, int]]:
    """§11.1 open slots: (ship id, slot) of empty slots of unsailed ships, in id/slot order."""
    if state.ending:
        return []  # C-2: after the round has ended nothing is placed on a ship
    result = []
    for i, ship in enumerate(state.ships):
        if ship.site is None:
            slots = ship.slots
            for j in range(ship.capacity):
                if slots[j] < 0:
                    result.append((i + 1, j + 1))
    return result
