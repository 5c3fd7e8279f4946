"""Scoring (§8.5–§8.11 values, §12 step 2 temple, §13 final scoring F1–F7).

Pure functions from the state (or plain lists) to points per seat; ``domain.imhotep.flow`` puts
their results into the scoring events, and ``evolve`` adds them up.
"""

from __future__ import annotations

from domain.imhotep import data
from domain.imhotep.sites import stones_at
from domain.imhotep.state import State, temple_visible


def shared_places(counts: list[int], table: tuple[int, ...]) -> list[int]:
    """§8.11: players with count ≥ 1 ranked by count; a tied group shares its places' sum."""
    points = [0] * len(counts)
    place = 0
    for value in sorted({c for c in counts if c >= 1}, reverse=True):
        group = [i for i, c in enumerate(counts) if c == value]
        total = sum(table[place + k] for k in range(len(group)) if place + k < len(table))
        for i in group:
            points[i] = total // len(group)
        place += len(group)
    return points


def temple_a(state: State) -> list[int]:
    """§8.5: each visible stone scores 1 for its owner."""
    points = [0] * state.n
    for _, owner in temple_visible(state):
        points[owner] += data.TEMPLE_A_POINTS
    return points


def burial_fields(stones: list[int], n: int) -> list[int]:
    """§8.7: every field (edge-connected stones of one colour) scores by its size."""
    rows = data.BURIAL_ROWS
    points = [0] * n
    seen = [False] * len(stones)
    for start, owner in enumerate(stones):
        if seen[start]:
            continue
        seen[start] = True
        todo, size = [start], 0
        while todo:
            k = todo.pop()
            size += 1
            row = k % rows
            neighbours = [k - rows, k + rows]
            if row > 0:
                neighbours.append(k - 1)
            if row < rows - 1:
                neighbours.append(k + 1)
            for m in neighbours:
                if 0 <= m < len(stones) and not seen[m] and stones[m] == owner:
                    seen[m] = True
                    todo.append(m)
        points[owner] += data.set_points(size, data.FIELD_POINTS, data.FIELD_INCREMENT)
    return points


def burial_rows(stones: list[int], n: int) -> list[int]:
    """§8.8: each row ranked by stones per player, places 8/4/2/1 shared (§8.11)."""
    points = [0] * n
    for row in range(data.BURIAL_ROWS):
        counts = [0] * n
        for owner in stones[row :: data.BURIAL_ROWS]:
            counts[owner] += 1
        for i, p in enumerate(shared_places(counts, data.ROW_PLACES)):
            points[i] += p
    return points


def burial_chamber(state: State) -> list[int]:
    """§13 F1."""
    if state.sides["burial_chamber"] == "A":
        return burial_fields(state.burial, state.n)
    return burial_rows(state.burial, state.n)


def obelisks(state: State) -> list[int]:
    """§13 F2: side A ranking by height (§8.9); side B 1 point per single (§8.10)."""
    if state.sides["obelisks"] == "A":
        return shared_places(state.heights, data.OBELISK_PLACES[state.n])
    return [s * data.SINGLE_POINTS for s in state.singles]


def decorations(state: State) -> list[int]:
    """§13 F3, §9.5 (R-21): each green card ⌊N/3⌋ for all stones at its site."""
    totals = {site: sum(stones_at(state, site)) for site in data.BUILDING_SITES}
    return [
        sum(
            totals[data.DECORATION_SITE[c]] // data.DECORATION_STONES
            for c in cards
            if c in data.DECORATION_SITE
        )
        for cards in state.cards
    ]


def statues(state: State) -> list[int]:
    """§13 F4, §9.5: 1/3/6/10/15, +2 per statue beyond 5."""
    return [
        data.set_points(cards.count(data.STATUE), data.STATUE_POINTS, data.STATUE_INCREMENT)
        for cards in state.cards
    ]


def blue_cards(state: State) -> list[int]:
    """§13 F5: 1 point per blue card still held."""
    return [
        data.UNUSED_BLUE_POINTS * sum(1 for c in cards if c in data.BLUE) for cards in state.cards
    ]


def wrath(state: State) -> list[int]:
    """§13 F6 (R-22): −5 once for a player missing from any of the four building sites."""
    at = {site: stones_at(state, site) for site in data.WRATH_SITES}
    return [
        -data.WRATH_PENALTY if any(at[site][seat] == 0 for site in data.WRATH_SITES) else 0
        for seat in range(state.n)
    ]


FINAL_SCORING = {
    "burial_chamber": burial_chamber,
    "obelisks": obelisks,
    "decorations": decorations,
    "statues": statues,
    "blue_cards": blue_cards,
    "wrath": wrath,
}


def ranks(scores: list[int], sleds: list[int]) -> list[int]:
    """§13 F7, R-23, C-3: by score, then sled stones; equal players share a competition rank."""
    keys = [(scores[i], sleds[i]) for i in range(len(scores))]
    return [1 + sum(1 for other in keys if other > key) for key in keys]
