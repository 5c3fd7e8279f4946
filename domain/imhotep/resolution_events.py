"""Events of resolution steps and decisions (§7.2, §8, §9, §10.2): what ``evolve`` changes.

A decision event pops its decision frame; a stone in transit (C-4) returns or arrives.
"""

from __future__ import annotations

from typing import Any

from domain.imhotep.sites import deliver, place_in_pyramid, receive
from domain.imhotep.state import State
from domain.imhotep.turn_events import place, play_card


def stone_delivered(s: State, d: dict[str, Any], seat: Any) -> None:
    ship = s.ships[d["ship"] - 1]
    ship.slots[d["slot"] - 1] = -1
    ship.queue.pop(0)
    if not ship.queue:
        s.stack.pop()
    deliver(s, d["player"], d["site"])


def red_card_played(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    owner = d["player"]
    play_card(s, owner, d["card"], False)
    if d["stone"]:  # without a quarry stone the card has no effect
        s.quarries[owner] -= 1
        deliver(s, owner, d["site"])


def card_discarded(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    s.discard.append(d["card"])


def discard_reshuffled(s: State, d: dict[str, Any], seat: Any) -> None:
    s.draw = list(d["order"])
    s.discard = []


def card_drawn(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    if d["card"] is not None:  # E-11: a failed draw gives nothing
        s.draw.pop(0)
        receive(s, d["player"], d["card"])


def _stone_returned(s: State, seat: int) -> None:
    s.transit[seat] -= 1
    s.quarries[seat] += 1


def card_taken(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    s.market[d["slot"] - 1] = None
    _stone_returned(s, seat)  # card received, stone back, then the red card is played
    receive(s, seat, d["card"])


def pair_taken(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    s.pair = []
    s.stack.append(("market_keep", seat, *d["cards"]))  # E-23, C-1: one card, automatic keep


def card_kept(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    if d["discarded"] is not None:
        s.discard.append(d["discarded"])  # face up
    _stone_returned(s, seat)
    receive(s, seat, d["card"])


def pyramid_chosen(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    s.transit[seat] -= 1
    place_in_pyramid(s, seat, d["index"])


def bonus_stone_placed(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    place(s, seat, d["ship"], d["slot"])


def bonus_declined(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()


def unload_ordered(s: State, d: dict[str, Any], seat: Any) -> None:
    """C-6: seats in unloading order; each takes that colour's next stone from the bow."""
    s.stack.pop()
    ship = s.ships[d["ship"] - 1]
    taken: set[int] = set()
    queue = []
    for owner in d["order"]:
        slot = next(j for j, o in enumerate(ship.slots) if o == owner and j not in taken)
        taken.add(slot)
        queue.append(slot)
    ship.queue = queue
    s.stack.append(("unload", d["ship"]))
