"""The state of one game of Amun-Re (§3 conventions, §6 setup) and the queries every phase uses.

The state is a mutable dataclass of ints and lists of ints (fast to evolve and to ``clone``).
Provinces and Favour cards are addressed by their index in ``data`` (ids appear only in events,
actions and views). A hand is a list of counts by card index; the draw pile is a list of card ids,
top first; the province deck is a list of province indices, top first.

Phases (``phase``): ``setup`` → per round ``auction`` → ``resolution`` → ``market`` →
``offering`` → ``gifts`` → ``harvest`` (→ ``scored`` after rounds 3 and 6) … → ``final_sale`` →
``over``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from domain.amun_re import data

NONE = -1
#: every value of ``State.phase`` (the docstring's order); ``scored`` and ``between`` pass within
#: the command that reaches them
PHASES = ("setup", "auction", "resolution", "market", "offering", "gifts", "harvest", "scored",
          "between", "final_sale", "over")
#: purchase kinds of R10.2, in the order they must be bought (0 = nothing bought yet);
#: Tomb tiles (Afterlife) come first
TOMB_KIND, CARDS_KIND, FARMERS_KIND, STONES_KIND = 1, 2, 3, 4
#: ``offer`` values: 0 not committed, THEFT, or the gold amount (≥ 1)
THEFT = -1
#: ledger keys (gold paid by the bank to players, negative when paid to the bank)
LEDGER_KEYS = ("start", "bid", "bonus", "sale", "purchase", "offering", "theft", "harvest",
               "statue", "glory", "tomb")


@dataclass(slots=True)
class State:
    seats: int
    options: dict[str, Any]
    phase: str = "setup"
    round: int = 0
    start: int = 0
    gold: list[int] = field(default_factory=list)
    vp: list[int] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)
    draw: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)
    province_set: list[int] = field(default_factory=list)
    seen: list[bool] = field(default_factory=list)
    owner: list[int] = field(default_factory=list)
    farmers: list[int] = field(default_factory=list)
    stones: list[int] = field(default_factory=list)
    pyramids: list[int] = field(default_factory=list)
    owned: list[list[int]] = field(default_factory=list)
    tile: int = 0
    # auction (§9): revealed cards, one bidding scribe per seat
    revealed: list[int] = field(default_factory=list)
    bid_on: list[int] = field(default_factory=list)
    bid_value: list[int] = field(default_factory=list)
    standing: list[int] = field(default_factory=list)
    protected: list[bool] = field(default_factory=list)
    # whose turn in a sequential phase, and the position in turn order / collection order
    turn: int = NONE
    cursor: int = 0
    # market turn (§10)
    last_kind: int = 0
    cards_bought: int = 0
    pending_kind: int = 0
    pending: int = 0
    # offering (§11) and final sale (R15.1): secret until the reveal
    committed: list[bool] = field(default_factory=list)
    marked: list[list[int]] = field(default_factory=list)
    adjust: list[int] = field(default_factory=list)
    offer: list[int] = field(default_factory=list)
    gift_order: list[int] = field(default_factory=list)
    gifts: list[int] = field(default_factory=list)
    gifts_left: int = 0
    # harvest (§12): green card played on each province this Harvest (card index or NONE)
    green: list[int] = field(default_factory=list)
    # the bank ledger: gold paid by the bank to the players, by reason (R3.4: the bank is unlimited)
    ledger: dict[str, int] = field(default_factory=dict)
    # Expanded Pack modules (§16); empty / NONE while a module is off
    # statues (§16.2): statue deck (ids, top first, secret), statue index on each province,
    # holder seat of each Statue card
    statue_deck: list[str] = field(default_factory=list)
    statue_at: list[int] = field(default_factory=list)
    statue_holder: list[int] = field(default_factory=list)
    # pharaoh (§16.3): the figure's province, tokens per seat
    pharaoh: int = NONE
    tokens: list[int] = field(default_factory=list)
    # afterlife (§16.1): tomb stack (ids, top first, secret), tomb discard pile (face up),
    # collection per seat (counts by tile type), tomb per seat (tile type per position or NONE)
    tomb_stack: list[str] = field(default_factory=list)
    tomb_discard: list[str] = field(default_factory=list)
    collection: list[list[int]] = field(default_factory=list)
    tomb: list[list[int]] = field(default_factory=list)
    # items discarded so far for an extra tomb placement (R16.1.5, C-6)
    tomb_paid: int = 0
    # market-turn flags: Ptah's second purchase used, Glory / Afterlife played, Thoth discard due
    ptah_used: bool = False
    glory_played: bool = False
    afterlife_played: bool = False
    thoth_pending: bool = False
    # Greed committed with the Theft card (R16.4.2), per seat, secret until the reveal
    greed: list[bool] = field(default_factory=list)
    # public results
    last_scoring: list[dict[str, Any]] | None = None
    final: dict[str, Any] | None = None
    winners: list[int] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)

    def clone(self) -> State:
        """A copy deep enough for ``evolve`` to change without touching ``self``."""
        new = object.__new__(State)
        for name in _FIELD_NAMES:
            value = getattr(self, name)
            if type(value) is list:
                value = [list(v) for v in value] if value and type(value[0]) is list else value[:]
            elif type(value) is dict and name == "ledger":
                value = dict(value)
            setattr(new, name, value)
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        """Copies are what ``evolve`` may change; ``clone`` is exactly that deep."""
        return self.clone()


_FIELD_NAMES = tuple(f.name for f in fields(State))


def new_state(seats: int, options: dict[str, Any]) -> State:
    """The empty state before the opening events (R6.6: an empty board)."""
    n = len(data.PROVINCES)
    c = len(data.CARDS)
    return State(
        seats=seats,
        options=dict(options),
        gold=[0] * seats,
        vp=[0] * seats,
        hands=[[0] * c for _ in range(seats)],
        seen=[False] * n,
        owner=[NONE] * n,
        farmers=[0] * n,
        stones=[0] * n,
        pyramids=[0] * n,
        owned=[[] for _ in range(seats)],
        bid_on=[NONE] * seats,
        bid_value=[0] * seats,
        committed=[False] * seats,
        marked=[[0] * c for _ in range(seats)],
        adjust=[0] * seats,
        offer=[0] * seats,
        gifts=[0] * seats,
        green=[NONE] * n,
        ledger=dict.fromkeys(LEDGER_KEYS, 0),
        statue_at=[NONE] * n,
        statue_holder=[NONE] * len(data.STATUES),
        tokens=[0] * seats,
        collection=[[0] * len(data.TOMB_TILES) for _ in range(seats)],
        tomb=[[NONE] * len(data.TOMB_POSITIONS) for _ in range(seats)],
        greed=[False] * seats,
    )


def turn_order(state: State) -> list[int]:
    """R3.2: seats by increasing distance from the start player."""
    p = state.seats
    return [(state.start + i) % p for i in range(p)]


def distance(state: State, seat: int) -> int:
    """R3.2: (seat − start player) mod P."""
    return (seat - state.start) % state.seats


def hand_size(state: State, seat: int) -> int:
    """R3.6: the number of Favour cards in a hand (the Theft card is not one)."""
    return sum(state.hands[seat])


def available_cards(state: State) -> int:
    """R7.4: how many Favour cards can still be drawn (draw pile + discard pile)."""
    return len(state.draw) + len(state.discard)


def card_limit(state: State, seat: int) -> int:
    """R10.4: the highest card limit among the provinces he controls (not the sum)."""
    return max((data.CARD_LIMIT[p] for p in state.owned[seat]), default=0)


def empty_fields(state: State, province: int) -> int:
    """R3.9: max(0, fields − farmers)."""
    return max(0, data.FIELDS[province] - state.farmers[province])


def module_on(state: State, module: str) -> bool:
    """§2: whether an Expanded Pack module is on."""
    return bool(state.options.get(module, False))


def has_statue(state: State, seat: int, statue: int) -> bool:
    """R16.2.3: ``seat`` holds this Statue card (and its power) now."""
    return bool(state.statue_holder) and state.statue_holder[statue] == seat


def available_tiles(state: State) -> int:
    """R16.1.1 / R10.4: how many Tomb tiles can still be drawn (stack + discard pile)."""
    return len(state.tomb_stack) + len(state.tomb_discard)


def collection_size(state: State, seat: int) -> int:
    return sum(state.collection[seat])


def tomb_full(state: State, seat: int) -> bool:
    return NONE not in state.tomb[seat]


def can_extra_place(state: State, seat: int, hand: int | None = None) -> bool:
    """R16.1.5: a tile to place, two other items to discard, and a free legal position (the
    lowest row with a gap always has one, R16.1.4)."""
    if not module_on(state, "afterlife"):
        return False
    tiles = collection_size(state, seat)
    cards = hand_size(state, seat) if hand is None else hand
    return tiles >= 1 and cards + tiles - 1 >= 2 and not tomb_full(state, seat)


def clear_commitment(state: State, seat: int) -> None:
    """R11.1 / R15.1: ``seat`` has committed nothing yet: no card marked for sale, no adjustment,
    and in the Offering no offer and no Greed (in the final sale ``offer`` still holds the
    round-6 Offering, public since its reveal)."""
    state.committed[seat] = False
    state.marked[seat] = [0] * len(data.CARDS)
    state.adjust[seat] = 0
    if state.phase == "offering":
        state.offer[seat] = 0
        state.greed[seat] = False

