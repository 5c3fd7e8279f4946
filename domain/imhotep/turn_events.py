"""Events of the turn actions (§6, §9.6): what ``evolve`` changes for each.

Every turn action sets ``acted`` and resets the pass counter (§6.5); a pass adds 1 to it.
"""

from __future__ import annotations

from typing import Any

from domain.imhotep import data
from domain.imhotep.state import Ship, State


def _turn(s: State, pass_: bool = False) -> None:
    s.acted = True
    s.passes = s.passes + 1 if pass_ else 0


def place(s: State, seat: int, ship: int, slot: int) -> None:
    s.sleds[seat] -= 1
    s.ships[ship - 1].slots[slot - 1] = seat


def sail(s: State, ship_id: int, site: str, lever: bool = False) -> Ship:
    """§7.2 step 1; the bow-first unloading order of step 2 unless a Lever chooses it."""
    ship = s.ships[ship_id - 1]
    ship.site = site
    s.docks[site] = ship_id
    s.sails += 1
    if not lever:
        ship.queue = [j for j, owner in enumerate(ship.slots) if owner >= 0]
        s.stack.append(("unload", ship_id))
    return ship


def play_card(s: State, seat: int, card: str, discard_now: bool) -> None:
    s.cards[seat].remove(card)
    if discard_now:
        s.discard.append(card)
    else:  # discarded only once the sail is completely resolved
        s.stack.append(("discard", card))


def stones_taken(s: State, d: dict[str, Any], seat: Any) -> None:
    _turn(s)
    s.sleds[seat] += d["count"]
    s.quarries[seat] -= d["count"]


def stone_placed(s: State, d: dict[str, Any], seat: Any) -> None:
    _turn(s)
    place(s, seat, d["ship"], d["slot"])


def ship_sailed(s: State, d: dict[str, Any], seat: Any) -> None:
    _turn(s)
    sail(s, d["ship"], d["site"])


def lever_played(s: State, d: dict[str, Any], seat: Any) -> None:
    _turn(s)
    play_card(s, seat, data.LEVER, False)
    sail(s, d["ship"], d["site"], lever=True)
    s.stack.append(("lever_order", seat, d["ship"]))


def hammer_played(s: State, d: dict[str, Any], seat: Any) -> None:
    _turn(s)
    play_card(s, seat, data.HAMMER, True)
    s.sleds[seat] += d["stones"]
    s.quarries[seat] -= d["stones"]
    place(s, seat, d["ship"], d["slot"])


def sail_played(s: State, d: dict[str, Any], seat: Any) -> None:
    _turn(s)
    play_card(s, seat, data.SAIL, False)
    place(s, seat, d["ship"], d["slot"])
    sail(s, d["ship"], d["site"])


def chisel_played(s: State, d: dict[str, Any], seat: Any) -> None:
    _turn(s)
    play_card(s, seat, data.CHISEL, True)
    place(s, seat, d["first"]["ship"], d["first"]["slot"])
    place(s, seat, d["second"]["ship"], d["second"]["slot"])


def turn_passed(s: State, d: dict[str, Any], seat: Any) -> None:
    _turn(s, pass_=True)
