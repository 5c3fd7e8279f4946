"""Drawing Favour cards (R7.4) as an event that records every random outcome.

``draw_event`` (decide side) takes the top cards of the draw pile; if the pile runs out and the
discard pile is not empty, the discard pile is shuffled (its face-up order, oldest first, is the
documented starting order) and the new order is stored in the event under ``reshuffle``; a draw
that finds both piles empty is lost. ``apply_draw`` (evolve side) never draws randomness.
"""

from __future__ import annotations

import random

from domain.amun_re import data
from domain.amun_re.state import State
from domain.contract import Event


def draw_event(state: State, seat: int, n: int, reason: str, rng: random.Random) -> Event:
    """R7.4: ``seat`` draws ``n`` cards one at a time (reshuffling once if needed)."""
    cards = state.draw[:n]
    reshuffle: list[str] | None = None
    if len(cards) < n and state.discard:
        reshuffle = list(state.discard)
        rng.shuffle(reshuffle)
        cards += reshuffle[: n - len(cards)]
    return Event(
        "favour_cards_drawn",
        {"cards": cards, "requested": n, "reason": reason, "reshuffle": reshuffle},
        seat,
    )


def apply_draw(state: State, event_data: dict[str, object], seat: int) -> None:
    cards = event_data["cards"]
    assert isinstance(cards, list)
    from_pile = min(len(cards), len(state.draw))
    del state.draw[:from_pile]
    reshuffle = event_data["reshuffle"]
    if isinstance(reshuffle, list):
        state.discard.clear()
        state.draw = list(reshuffle)
        del state.draw[: len(cards) - from_pile]
    hand = state.hands[seat]
    for card in cards:
        hand[data.CARD_INDEX[card]] += 1
