"""Drawing Favour cards (R7.4) and Tomb tiles (R16.1.1) as events that record every random
outcome.

``draw_event`` (decide side) takes the top cards of the draw pile; if the pile runs out and the
discard pile is not empty, the discard pile is shuffled (its face-up order, oldest first, is the
documented starting order) and the new order is stored in the event under ``reshuffle``; a draw
that finds both piles empty is lost. ``apply_draw`` (evolve side) never draws randomness.
Several draws decided by one action (Thoth's extra card after a purchase) are computed on
``Piles``: a copy of the two piles advanced past each earlier draw. Tomb tiles work the same way
with the tomb stack and the tomb discard pile (``tomb_tiles_drawn``).
"""

from __future__ import annotations

import random
from typing import Any

from domain.amun_re import data
from domain.amun_re.state import State
from domain.contract import Event


class Piles:
    """A draw pile and its discard pile (copies), advanced draw by draw."""

    def __init__(self, draw: list[str], discard: list[str]) -> None:
        self.draw = list(draw)
        self.discard = list(discard)

    def take(self, n: int, rng: random.Random) -> tuple[list[str], list[str] | None]:
        """R7.4: ``n`` items one at a time, reshuffling the discard pile once if needed."""
        items = self.draw[:n]
        reshuffle: list[str] | None = None
        if len(items) < n and self.discard:
            reshuffle = list(self.discard)
            rng.shuffle(reshuffle)
            items += reshuffle[: n - len(items)]
        advance(self.draw, self.discard, items, reshuffle)
        return items, reshuffle

    def available(self) -> int:
        return len(self.draw) + len(self.discard)


def advance(draw: list[str], discard: list[str], items: list[str],
            reshuffle: list[str] | None) -> None:
    """Remove drawn ``items`` from the piles (in place), after a reshuffle if there was one."""
    from_pile = min(len(items), len(draw))
    del draw[:from_pile]
    if reshuffle is not None:
        discard.clear()
        draw[:] = reshuffle[len(items) - from_pile:]


def card_piles(state: State) -> Piles:
    return Piles(state.draw, state.discard)


def draw_event(state: State, seat: int, n: int, reason: str, rng: random.Random,
               piles: Piles | None = None) -> Event:
    """R7.4: ``seat`` draws ``n`` cards one at a time (reshuffling once if needed)."""
    cards, reshuffle = (piles or card_piles(state)).take(n, rng)
    return Event(
        "favour_cards_drawn",
        {"cards": cards, "requested": n, "reason": reason, "reshuffle": reshuffle},
        seat,
    )


def apply_draw(state: State, event_data: dict[str, Any], seat: int) -> None:
    cards = event_data["cards"]
    advance(state.draw, state.discard, cards, event_data["reshuffle"])
    hand = state.hands[seat]
    for card in cards:
        hand[data.CARD_INDEX[card]] += 1
    if event_data["reason"] == "thoth" and cards:
        state.thoth_pending = True  # R10.5a: a discard is due


def tile_draw_event(state: State, seat: int, n: int, reason: str, rng: random.Random) -> Event:
    """R16.1.1-R16.1.3: ``seat`` draws ``n`` Tomb tiles face down into his collection."""
    tiles, reshuffle = Piles(state.tomb_stack, state.tomb_discard).take(n, rng)
    return Event("tomb_tiles_drawn",
                 {"tiles": tiles, "requested": n, "reason": reason, "reshuffle": reshuffle}, seat)


def apply_tile_draw(state: State, event_data: dict[str, Any], seat: int) -> None:
    tiles = event_data["tiles"]
    advance(state.tomb_stack, state.tomb_discard, tiles, event_data["reshuffle"])
    for tile in tiles:
        state.collection[seat][data.TOMB_INDEX[tile]] += 1
