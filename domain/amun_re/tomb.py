"""Afterlife module (§16.1): the tomb, placing a tile and its chained rewards (R16.1.4), extra
placements paid with two discards (R16.1.5, C-6) and tomb scoring (R16.1.6).

A tomb is a list of 15 positions (``data.TOMB_POSITIONS``: row 1 = base, 5 positions … row 5,
1 position) holding a tile type index or NONE. Tiles of one type are indistinguishable, so an
action names a tile by its type (``"stone"``) and a position by ``row`` and ``col`` (1-based).

Rewards of a tile placed at p are collected (1 + m) times, m = the tiles of the same type reached
by a downward search from p through supporting tiles of that type only (D-34). VP and gold are paid
in ``tomb_tile_placed``; Favour cards are drawn (``favour_cards_drawn``, reason ``tomb``); farmers
(only as many as his empty fields, the rest are lost, R7.6 / D-36) and stones become
``place_farmer`` / ``place_stone`` sub-decisions of the same player.
"""

from __future__ import annotations

import random
from typing import Any

from domain.amun_re import actions, data
from domain.amun_re.board import pay_out
from domain.amun_re.drawing import draw_event
from domain.amun_re.state import (
    FARMERS_KIND,
    NONE,
    STONES_KIND,
    State,
    available_cards,
    collection_size,
    empty_fields,
)
from domain.contract import JSON, BadAction, Event, IllegalAction


def free_positions(tomb: list[int]) -> list[int]:
    """R16.1.4: empty positions whose two supporting positions hold tiles (base row: any)."""
    return [k for k, t in enumerate(tomb)
            if t == NONE and all(tomb[s] != NONE for s in data.TOMB_SUPPORTS[k])]


def matching_below(tomb: list[int], position: int, tile: int) -> int:
    """R16.1.4 / D-34: tiles of type ``tile`` reached downward from ``position`` through tiles of
    that type only (each counted once)."""
    seen: set[int] = set()
    todo = [position]
    while todo:
        k = todo.pop()
        for s in data.TOMB_SUPPORTS[k]:
            if s not in seen and tomb[s] == tile:
                seen.add(s)
                todo.append(s)
    return len(seen)


def complete_rows(tomb: list[int]) -> int:
    """R16.1.6: rows whose every position holds a tile."""
    rows = 0
    k = 0
    for n in data.TOMB_ROWS:
        if all(t != NONE for t in tomb[k:k + n]):
            rows += 1
        k += n
    return rows


def tomb_vp(tomb: list[int]) -> int:
    """R15.3: 3 VP per complete row."""
    return data.TOMB_ROW_VP * complete_rows(tomb)


def place_actions(state: State, seat: int) -> list[JSON]:
    """``place_tomb_tile`` for each tile type in his collection × each legal position."""
    held = [t for t, n in enumerate(state.collection[seat]) if n]
    if not held:
        return []
    out: list[JSON] = []
    for k in free_positions(state.tomb[seat]):
        row, col = data.TOMB_POSITIONS[k]
        out += [{"type": "place_tomb_tile", "tile": data.TOMB_TILES[t], "row": row, "col": col}
                for t in held]
    return out


def read_placement(state: State, seat: int, action: JSON) -> tuple[int, int]:
    """The tile type and position of a ``place_tomb_tile``-shaped action, checked (R16.1.4)."""
    p = actions.read(action, tile=str, row=int, col=int)
    tile = data.TOMB_INDEX.get(p["tile"])
    if tile is None:
        raise BadAction(f"unknown Tomb tile {p['tile']!r}; tiles are {', '.join(data.TOMB_TILES)}")
    position = data.TOMB_POS_INDEX.get((p["row"], p["col"]))
    if position is None:
        raise IllegalAction(f"the tomb has no position ({p['row']}, {p['col']})", rule="R16.1.4")
    if not state.collection[seat][tile]:
        raise IllegalAction(f"you have no {p['tile']} tile in your collection", rule="R16.1.4")
    if state.tomb[seat][position] != NONE:
        raise IllegalAction("that position of your tomb already holds a tile", rule="R16.1.4")
    if position not in free_positions(state.tomb[seat]):
        raise IllegalAction("a tile above the base row needs both supporting tiles",
                            rule="R16.1.4")
    return tile, position


def placement_events(state: State, seat: int, tile: int, position: int, via: str,
                     rng: random.Random) -> list[Event]:
    """R16.1.4: place the tile face up and collect its reward (1 + m) times."""
    times = 1 + matching_below(state.tomb[seat], position, tile)
    amount = times * data.TOMB_AMOUNT[tile]
    row, col = data.TOMB_POSITIONS[position]
    d: dict[str, Any] = {"tile": data.TOMB_TILES[tile], "row": row, "col": col, "via": via,
                         "times": times, "vp": 0, "gold": 0, "farmers": 0, "farmers_lost": 0,
                         "stones": 0, "cards": 0}
    if tile == data.T_VP:
        d["vp"] = amount
    elif tile == data.T_GOLD:
        d["gold"] = amount
    elif tile == data.T_STONE:
        d["stones"] = amount
    elif tile == data.T_FARMER:
        room = sum(empty_fields(state, p) for p in state.owned[seat])
        d["farmers"] = min(amount, room)
        d["farmers_lost"] = amount - d["farmers"]
    else:
        d["cards"] = amount
    events = [Event("tomb_tile_placed", d, seat)]
    if d["cards"] and available_cards(state):
        events.append(draw_event(state, seat, amount, "tomb", rng))
    return events


def apply_placed(state: State, d: dict[str, Any], seat: int) -> None:
    tile = data.TOMB_INDEX[d["tile"]]
    state.collection[seat][tile] -= 1
    state.tomb[seat][data.TOMB_POS_INDEX[(d["row"], d["col"])]] = tile
    state.vp[seat] += d["vp"]
    if d["gold"]:
        pay_out(state, seat, d["gold"], "tomb")
    if d["farmers"]:
        state.pending_kind, state.pending = FARMERS_KIND, d["farmers"]
    elif d["stones"]:
        state.pending_kind, state.pending = STONES_KIND, d["stones"]
    if d["via"] == "extra":
        state.tomb_paid = 0


# ---- extra placements in gift collection (R16.1.5, C-6): discard, discard, place ----

def payment_possible(state: State, seat: int, hand: int, tiles: int) -> bool:
    """Whether the discards still due can be made and a tile kept for the placement."""
    due = 2 - state.tomb_paid
    return tiles >= 1 and hand + tiles - 1 >= due


def discard_actions(state: State, seat: int) -> list[JSON]:
    out: list[JSON] = [{"type": "discard_card_for_tomb", "card": data.CARDS[c]}
                       for c, n in enumerate(state.hands[seat]) if n]
    if collection_size(state, seat) >= 2:
        out += [{"type": "discard_tile_for_tomb", "tile": data.TOMB_TILES[t]}
                for t, n in enumerate(state.collection[seat]) if n]
    return out


def apply_tile_discarded(state: State, d: dict[str, Any], seat: int) -> None:
    tile = d["tile"]
    state.collection[seat][data.TOMB_INDEX[tile]] -= 1
    state.tomb_discard.append(tile)
    state.tomb_paid += 1
