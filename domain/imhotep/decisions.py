"""Decisions (§10.2, options §11.2): listing the options of the pending decision and checking one.

Option shapes (JSON): ``{"type": "take_card", "card": "statue"}``, ``{"type": "take_pair"}``,
``{"type": "keep", "card": "hammer"}``, ``{"type": "choose_pyramid", "pyramid": "left"}``,
``{"type": "bonus_place", "ship": 2, "slot": 3}``, ``{"type": "bonus_decline"}``,
``{"type": "unload_order", "order": [2, 0, 0]}`` (C-6: the seats of the stones in unloading
order), ``{"type": "take_point"}``, ``{"type": "take_stones"}``.
"""

from __future__ import annotations

from itertools import permutations

from domain.contract import JSON, Event
from domain.imhotep import data
from domain.imhotep.errors import DecisionPending, MalformedAction, NotAnOption
from domain.imhotep.flow import temple_bonus
from domain.imhotep.sites import free_pyramids
from domain.imhotep.state import Frame, State, open_slots, stones_bonus
from domain.imhotep.turns import expect_keys, need_sled, open_slot

#: decision kind (§10.2) of each frame kind
KIND = {
    "market_take": "market_take",
    "market_keep": "market_keep",
    "pyramid_choice": "pyramid_choice",
    "ship_bonus": "ship_bonus",
    "lever_order": "lever_order",
    "temple_b": "temple_choice",
}
OPTION_TYPES = {
    "market_take": ("take_card", "take_pair"),
    "market_keep": ("keep",),
    "pyramid_choice": ("choose_pyramid",),
    "ship_bonus": ("bonus_place", "bonus_decline"),
    "lever_order": ("unload_order",),
    "temple_b": ("take_point", "take_stones"),
}


def owner(frame: Frame) -> int:
    return int(frame[2] if frame[0] == "temple_b" else frame[1])


def distinct(cards: list[str]) -> list[str]:
    return list(dict.fromkeys(cards))


def lever_orders(state: State, ship_id: int) -> list[list[int]]:
    """C-6, R-26: one option per distinct sequence of the seats on board."""
    stones = [o for o in state.ships[ship_id - 1].slots if o >= 0]
    return [list(p) for p in sorted(set(permutations(stones)))]


def options(state: State, frame: Frame) -> list[JSON]:
    """§10.2 options of the decision ``frame`` in a stable order."""
    kind = frame[0]
    if kind == "market_take":
        opts: list[JSON] = [
            {"type": "take_card", "card": c}
            for c in distinct([c for c in state.market if c is not None])
        ]
        if state.pair:
            opts.append({"type": "take_pair"})
        return opts
    if kind == "market_keep":
        return [{"type": "keep", "card": c} for c in distinct(list(frame[2:]))]
    if kind == "pyramid_choice":
        names = data.PYRAMIDS[state.sides["pyramids"]]
        return [{"type": "choose_pyramid", "pyramid": names[i][0]} for i in free_pyramids(state)]
    if kind == "ship_bonus":  # E-10, E-26, C-2: with an empty sled or no open slot, decline only
        slots = open_slots(state) if state.sleds[frame[1]] >= 1 else []
        opts = [{"type": "bonus_place", "ship": a, "slot": b} for a, b in slots]
        return [*opts, {"type": "bonus_decline"}]
    if kind == "lever_order":
        return [{"type": "unload_order", "order": o} for o in lever_orders(state, frame[2])]
    if stones_bonus(state, frame[2], 2) >= 1:  # stones only if at least 1 would move
        return [{"type": "take_point"}, {"type": "take_stones"}]
    return [{"type": "take_point"}]


def decide_option(state: State, seat: int, frame: Frame, action: JSON) -> Event:
    """Check one option of the pending decision ``frame`` and return its event."""
    kind, choice = frame[0], action["type"]
    if choice not in OPTION_TYPES[kind]:
        listed = ", ".join(OPTION_TYPES[kind])
        raise DecisionPending(
            f"decision {KIND[kind]} is pending; choose one of: {listed}", rule="§10.1"
        )
    if choice in ("take_card", "keep"):
        expect_keys(action, "card")
        cards = [c for c in state.market] if choice == "take_card" else list(frame[2:])
        card = action["card"]
        if not isinstance(card, str) or card not in cards:
            raise NotAnOption(f"{card!r} is not among the cards to choose from", rule="§10.2")
        if choice == "keep":
            other = list(frame[2:])
            other.remove(card)
            discarded = other[0] if other else None
            return Event("card_kept", {"card": card, "discarded": discarded}, seat)
        return Event("card_taken", {"card": card, "slot": cards.index(card) + 1}, seat)
    if choice == "take_pair":
        expect_keys(action)
        if not state.pair:
            raise NotAnOption("there is no pair on the market", rule="§8.2")
        return Event("pair_taken", {"cards": list(state.pair)}, seat)
    if choice == "choose_pyramid":
        return _pyramid(state, seat, action)
    if choice == "bonus_place":
        expect_keys(action, "ship", "slot")
        need_sled(state, seat, 1, "§8.4")
        if state.ending:
            raise NotAnOption("after the round has ended nothing is placed on a ship", rule="C-2")
        ship, slot = open_slot(state, {"ship": action["ship"], "slot": action["slot"]})
        return Event("bonus_stone_placed", {"ship": ship, "slot": slot}, seat)
    if choice == "unload_order":
        expect_keys(action, "order")
        order = action["order"]
        if (
            not isinstance(order, list)
            or any(isinstance(o, bool) for o in order)
            or order not in lever_orders(state, frame[2])
        ):
            raise NotAnOption(
                "the order must list the seat of every stone on board exactly once", rule="C-6"
            )
        return Event("unload_ordered", {"ship": frame[2], "order": list(order)}, seat)
    expect_keys(action)
    if choice == "take_point":
        return temple_bonus(frame, "point", 0, seat)
    if choice == "take_stones":
        stones = stones_bonus(state, seat, 2)
        if stones < 1:
            raise NotAnOption("no stone would move: your sled is full or quarry empty", "R-17")
        return temple_bonus(frame, "stones", stones, seat)
    return Event("bonus_declined", {}, seat)


def _pyramid(state: State, seat: int, action: JSON) -> Event:
    expect_keys(action, "pyramid")
    names = [name for name, _ in data.PYRAMIDS[state.sides["pyramids"]]]
    name = action["pyramid"]
    if name not in names:
        raise MalformedAction(f"pyramids are {', '.join(names)}, not {name!r}", rule="§8.4")
    index = names.index(name)
    if index not in free_pyramids(state):
        raise NotAnOption(f"the {name} pyramid is complete", rule="§8.4")
    return Event("pyramid_chosen", {"pyramid": name, "index": index}, seat)
