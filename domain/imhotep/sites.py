"""Delivering a stone to a site (§8) and receiving a card (§9.3), as ``evolve`` applies them.

The same delivery serves a stone unloaded from a ship (§7.2) and a stone placed from the quarry by
a red card (§9.4, R-20). Immediate effects are applied here; a delivery that needs a choice pushes
a decision frame (``market_take`` §8.1, ``pyramid_choice`` §8.4), and the stone is then in transit
(C-4) until the choice is made.
"""

from __future__ import annotations

from domain.imhotep import data
from domain.imhotep.state import State, stones_bonus


def has_market_card(state: State) -> bool:
    """§8.1 step 1 and C-7: a face-up card or a non-empty pair is "a card on the market"."""
    return bool(state.pair) or any(c is not None for c in state.market)


def deliver(state: State, seat: int, site: str) -> None:
    """Deliver one stone of ``seat`` (already taken off its ship or out of the quarry) (§8)."""
    if site == "market":
        if has_market_card(state):
            state.transit[seat] += 1
            state.stack.append(("market_take", seat))
        else:  # E-4: nothing to take, the stone goes back to the quarry
            state.quarries[seat] += 1
    elif site == "pyramids":
        _deliver_pyramids(state, seat)
    elif site == "temple":
        state.temple.append(seat)
    elif site == "burial_chamber":
        state.burial.append(seat)
    elif state.sides["obelisks"] == "A":
        state.heights[seat] += 1
    else:
        _deliver_obelisks_b(state, seat)


def _deliver_pyramids(state: State, seat: int) -> None:
    side = state.sides["pyramids"]
    layout = data.PYRAMIDS[side]
    if side == "A":
        spaces = layout[0][1]
        pyramid = state.pyramids[0]
        if len(pyramid) < len(spaces):  # §8.3: the lowest-numbered free space
            state.scores[seat] += spaces[len(pyramid)][0]
            pyramid.append(seat)
            return
    elif any(len(p) < len(layout[i][1]) for i, p in enumerate(state.pyramids)):
        state.transit[seat] += 1  # §8.4 step 1: decision pyramid_choice
        state.stack.append(("pyramid_choice", seat))
        return
    state.overflow.append(seat)  # §8.3 / §8.4 step 2: overflow, 1 point, no bonus
    state.scores[seat] += data.PYRAMID_OVERFLOW[side]


def free_pyramids(state: State) -> list[int]:
    """Indices of the Pyramids B pyramids that still have a free space (§8.4)."""
    layout = data.PYRAMIDS[state.sides["pyramids"]]
    return [i for i, p in enumerate(state.pyramids) if len(p) < len(layout[i][1])]


def place_in_pyramid(state: State, seat: int, index: int) -> None:
    """§8.4 step 1: lowest free space of the chosen pyramid; points at once, then its bonus."""
    pyramid = state.pyramids[index]
    points, bonus = data.PYRAMIDS[state.sides["pyramids"]][index][1][len(pyramid)]
    pyramid.append(seat)
    state.scores[seat] += points
    if bonus == "top_market_card":  # automatic
        state.stack.append(("draw", seat))
    elif bonus == "three_stones":  # automatic, E-22
        moved = stones_bonus(state, seat, data.GET_STONES)
        state.sleds[seat] += moved
        state.quarries[seat] -= moved
    elif bonus == "place_on_ship":  # optional; E-10, E-26, C-2: only bonus_decline
        state.stack.append(("ship_bonus", seat))


def _deliver_obelisks_b(state: State, seat: int) -> None:
    """§8.10: singles until the third stone, which forms a tower scored at once (E-20)."""
    if state.singles[seat] < data.OBELISK_SINGLES:
        state.singles[seat] += 1
        return
    state.singles[seat] = 0
    if len(state.towers) < len(data.TOWER_POINTS):
        state.scores[seat] += data.TOWER_POINTS[len(state.towers)]
        state.towers.append(seat)
    else:
        state.scores[seat] += data.OFF_BOARD_TOWER
        state.beside.append(seat)


def receive(state: State, seat: int, card: str) -> None:
    """§9.3: the card lies face up in front of its owner; a red card is played at once."""
    state.cards[seat].append(card)
    if card in data.RED_SITE:
        state.stack.append(("red", seat, card))


def stones_at(state: State, site: str) -> list[int]:
    """Count per seat of the stones at a building site (§9.5, §13 F6), towers included."""
    counts = [0] * state.n
    if site == "pyramids":
        stones = [s for p in state.pyramids for s in p] + state.overflow
    elif site == "temple":
        stones = state.temple
    elif site == "burial_chamber":
        stones = state.burial
    elif state.sides["obelisks"] == "A":
        return state.heights[:]
    else:
        stones = [s for s in state.towers + state.beside for _ in range(data.TOWER_SIZE)]
        for seat in range(state.n):
            counts[seat] += state.singles[seat]
    for s in stones:
        counts[s] += 1
    return counts
