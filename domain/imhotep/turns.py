"""Turn actions of the current player (§6, §9.6, catalogue §11.1): listing and checking them.

Action shapes (JSON): ``{"type": "get_stones"}``, ``{"type": "place_stone", "ship": 1, "slot": 2}``,
``{"type": "sail", "ship": 1, "site": "temple"}``, ``{"type": "play_lever", "ship": 1, "site": …}``,
``{"type": "play_hammer", "ship": 1, "slot": 2}``,
``{"type": "play_sail", "ship": 1, "slot": 2, "site": …}``,
``{"type": "play_chisel", "first": {"ship": 1, "slot": 2}, "second": {"ship": 3, "slot": 1}}``
(C-5: ``first`` < ``second`` in (ship, slot) order) and ``{"type": "pass"}``.
"""

from __future__ import annotations

from typing import Any

from domain.contract import JSON, Event
from domain.imhotep import data
from domain.imhotep.errors import (
    CardNotHeld,
    CardNotPlayable,
    MalformedAction,
    NoStonesToGet,
    NoSuchShipOrSlot,
    PassNotAllowed,
    ShipBelowMinimum,
    ShipHasSailed,
    SiteIsDocked,
    SledIsEmpty,
    SlotIsTaken,
)
from domain.imhotep.state import State, open_slots

SITES = data.SITES
TURN_TYPES = (
    "get_stones", "place_stone", "sail", "play_lever", "play_hammer", "play_sail", "play_chisel",
    "pass",
)  # fmt: skip


def stones_to_get(state: State, seat: int) -> int:
    """§6.1: k = min(3, 5 − sled, quarry)."""
    return min(data.GET_STONES, data.SLED_CAPACITY - state.sleds[seat], state.quarries[seat])


def legal_turn(state: State, seat: int) -> list[JSON]:
    """§11.1 in its order: get, place, sail, Lever, Hammer, Sail, Chisel, else pass."""
    sled = state.sleds[seat]
    cards = state.cards[seat]
    acts: list[JSON] = []
    if stones_to_get(state, seat) >= 1:
        acts.append({"type": "get_stones"})
    opens = open_slots(state)
    if sled >= 1:
        acts.extend({"type": "place_stone", "ship": a, "slot": b} for a, b in opens)
    docks = state.docks
    free = [site for site in SITES if site not in docks]
    ready = [
        i + 1 for i, ship in enumerate(state.ships) if ship.site is None
        and ship.capacity - ship.slots.count(-1) >= ship.minimum
    ]  # fmt: skip
    acts.extend({"type": "sail", "ship": i, "site": site} for i in ready for site in free)
    if cards:
        if data.LEVER in cards:
            acts.extend({"type": "play_lever", "ship": i, "site": s} for i in ready for s in free)
        if data.HAMMER in cards and sled < data.SLED_CAPACITY and state.quarries[seat] >= 1:
            acts.extend({"type": "play_hammer", "ship": a, "slot": b} for a, b in opens)
        if data.SAIL in cards and sled >= 1:
            ships = state.ships
            acts.extend(
                {"type": "play_sail", "ship": a, "slot": b, "site": site}
                for a, b in opens
                if ships[a - 1].capacity - ships[a - 1].slots.count(-1) + 1 >= ships[a - 1].minimum
                for site in free
            )
        if data.CHISEL in cards and sled >= 2:
            acts.extend(
                {
                    "type": "play_chisel",
                    "first": {"ship": a[0], "slot": a[1]},
                    "second": {"ship": b[0], "slot": b[1]},
                }
                for k, a in enumerate(opens)
                for b in opens[k + 1 :]
            )
    if not acts:
        acts.append({"type": "pass"})
    return acts


# --- checking one action -----------------------------------------------------------------------


def expect_keys(action: JSON, *keys: str) -> None:
    if set(action) != {"type", *keys}:
        wanted = ", ".join(keys) if keys else "no parameters"
        raise MalformedAction(f"{action['type']} takes {wanted}", rule="§11")


def whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedAction(f"{what} must be a whole number, not {value!r}", rule="§11")
    return value


def site_of(action: JSON) -> str:
    site = action["site"]
    if site not in SITES:
        raise MalformedAction(f"unknown site {site!r}; sites are {', '.join(SITES)}", rule="§0")
    return site


def open_slot(state: State, place: Any, what: str = "") -> tuple[int, int]:
    """The (ship, slot) named by ``place`` if it is an open slot (§6.2, §7.1 a)."""
    if not isinstance(place, dict) or set(place) != {"ship", "slot"}:
        raise MalformedAction(f"{what} must be {{'ship': n, 'slot': m}}", rule="§11")
    ship_id, slot = whole(place["ship"], "ship"), whole(place["slot"], "slot")
    if not 1 <= ship_id <= len(state.ships):
        raise NoSuchShipOrSlot(f"there is no ship {ship_id}; ships are 1 to 4", rule="§1.3")
    ship = state.ships[ship_id - 1]
    if not 1 <= slot <= ship.capacity:
        raise NoSuchShipOrSlot(f"ship {ship_id} has slots 1 to {ship.capacity}", rule="§1.2")
    if ship.site is not None:
        raise ShipHasSailed(f"ship {ship_id} has already sailed", rule="§7.1")
    if ship.slots[slot - 1] >= 0:
        raise SlotIsTaken(f"slot {slot} of ship {ship_id} is not empty", rule="§6.2")
    return ship_id, slot


def ready_ship(state: State, action: JSON, extra: int = 0) -> tuple[int, str]:
    """§7.1: an unsailed ship at its minimum load (``extra`` stones about to be added)."""
    ship_id = whole(action["ship"], "ship")
    site = site_of(action)
    if not 1 <= ship_id <= len(state.ships):
        raise NoSuchShipOrSlot(f"there is no ship {ship_id}; ships are 1 to 4", rule="§1.3")
    ship = state.ships[ship_id - 1]
    if ship.site is not None:
        raise ShipHasSailed(f"ship {ship_id} has already sailed", rule="§7.1")
    if ship.load() + extra < ship.minimum:
        raise ShipBelowMinimum(
            f"ship {ship_id} needs at least {ship.minimum} stones to sail", rule="§7.1"
        )
    if site in state.docks:
        raise SiteIsDocked(f"a ship has already docked at the {site} this round", rule="§7.1")
    return ship_id, site


def holding(state: State, seat: int, card: str) -> None:
    if card not in state.cards[seat]:
        raise CardNotHeld(f"you do not hold a {card} card", rule="§6.4")


def need_sled(state: State, seat: int, stones: int, rule: str) -> None:
    if state.sleds[seat] < stones:
        raise SledIsEmpty(f"you need {stones} stone(s) on your sled", rule=rule)


def decide_turn(state: State, seat: int, action: JSON) -> Event:
    """Check one turn action of §6 / §9.6 and return its event."""
    kind = action["type"]
    if kind == "get_stones":
        expect_keys(action)
        k = stones_to_get(state, seat)
        if k < 1:
            raise NoStonesToGet("your sled is full or your quarry is empty", rule="§6.1")
        return Event("stones_taken", {"count": k}, seat)
    if kind == "place_stone":
        expect_keys(action, "ship", "slot")
        need_sled(state, seat, 1, "§6.2")
        ship, slot = open_slot(state, {"ship": action["ship"], "slot": action["slot"]})
        return Event("stone_placed", {"ship": ship, "slot": slot}, seat)
    if kind in ("sail", "play_lever"):
        expect_keys(action, "ship", "site")
        if kind == "play_lever":
            holding(state, seat, data.LEVER)
        ship, site = ready_ship(state, action)
        name = "ship_sailed" if kind == "sail" else "lever_played"
        return Event(name, {"ship": ship, "site": site}, seat)
    if kind == "play_hammer":
        expect_keys(action, "ship", "slot")
        holding(state, seat, data.HAMMER)
        k = stones_to_get(state, seat)
        if k < 1:
            raise CardNotPlayable("the Hammer needs room on the sled and a quarry stone", "§9.6")
        ship, slot = open_slot(state, {"ship": action["ship"], "slot": action["slot"]})
        return Event("hammer_played", {"ship": ship, "slot": slot, "stones": k}, seat)
    if kind == "play_sail":
        expect_keys(action, "ship", "slot", "site")
        holding(state, seat, data.SAIL)
        need_sled(state, seat, 1, "§9.6")
        ship, slot = open_slot(state, {"ship": action["ship"], "slot": action["slot"]})
        ready_ship(state, action, extra=1)
        return Event("sail_played", {"ship": ship, "slot": slot, "site": action["site"]}, seat)
    if kind == "play_chisel":
        return _chisel(state, seat, action)
    expect_keys(action)
    if legal_turn(state, seat) != [{"type": "pass"}]:
        raise PassNotAllowed("you may pass only when no other action is legal", rule="§6.5")
    return Event("turn_passed", {}, seat)


def _chisel(state: State, seat: int, action: JSON) -> Event:
    expect_keys(action, "first", "second")
    holding(state, seat, data.CHISEL)
    need_sled(state, seat, 2, "§9.6")
    first = open_slot(state, action["first"], "first")
    second = open_slot(state, action["second"], "second")
    if not first < second:
        raise CardNotPlayable(
            "the Chisel's two slots must differ, the first before the second", rule="C-5"
        )
    places = [{"ship": a, "slot": b} for a, b in (first, second)]
    return Event("chisel_played", {"first": places[0], "second": places[1]}, seat)
