"""Resolution between decisions (§7.2, §9.1, §9.2, §10.1, §12, §13) and setup (§3).

``advance`` runs inside ``decide`` on a scratch copy of the state: it looks at the top frame of
the stack, produces the event for the next step (drawing randomness only for a reshuffle, §9.1),
applies it with ``evolve`` and goes on until a decision, a turn or the end of the game is reached.
Every random outcome is stored in its event, so ``evolve`` never draws.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from domain.contract import Event
from domain.imhotep import data, scoring
from domain.imhotep.evolve import FINAL_EVENTS, evolve
from domain.imhotep.state import DECISION_FRAMES, Frame, State, is_temple_choice

Step = Callable[[State, Frame, random.Random, int | None], Event | None]


def advance(state: State, rng: random.Random, out: list[Event], actor: int | None) -> None:
    """Apply every step that needs no decision, appending its events to ``out``."""
    stack = state.stack
    while stack and not state.over:
        top = stack[-1]
        if top[0] in DECISION_FRAMES:
            return
        event = STEPS[top[0]](state, top, rng, actor)
        if event is None:
            return
        out.append(event)
        evolve(state, event)


def setup_events(state: State, rng: random.Random) -> list[Event]:
    """§3: shuffle the deck (step 1), the round cards (step 2), pick the start player (step 3)."""
    deck = list(data.DECK)
    rng.shuffle(deck)
    cards = [cid for cid, _ in data.ROUND_CARDS[state.n]]
    rng.shuffle(cards)
    start = state.start_option
    if not isinstance(start, int):
        start = rng.randrange(state.n)
    prepared = Event(
        "game_prepared",
        {
            "deck": deck,
            "round_cards": cards[: data.ROUNDS],
            "removed": cards[-1],  # the last card of the shuffled order, unseen
            "start_player": start,
            "colours": list(state.colours),
        },
    )
    out = [prepared]
    evolve(state, prepared)
    advance(state, rng, out, None)
    return out


def _unload(s: State, top: Frame, rng: random.Random, actor: int | None) -> Event:
    ship = s.ships[top[1] - 1]
    slot = ship.queue[0]
    return Event(
        "stone_delivered",
        {"player": ship.slots[slot], "site": ship.site, "ship": top[1], "slot": slot + 1},
        actor,
    )


def _red(s: State, top: Frame, rng: random.Random, actor: int | None) -> Event:
    _, owner, card = top
    data_ = {"player": owner, "card": card, "site": data.RED_SITE[card]}
    data_["stone"] = s.quarries[owner] >= 1
    return Event("red_card_played", data_, actor)


def _discard(s: State, top: Frame, rng: random.Random, actor: int | None) -> Event:
    return Event("card_discarded", {"card": top[1]}, actor)


def _draw(s: State, top: Frame, rng: random.Random, actor: int | None) -> Event:
    """§9.1: reshuffle the discard pile only when the draw pile is empty; a draw may fail."""
    if not s.draw and s.discard:
        order = list(s.discard)
        rng.shuffle(order)
        return Event("discard_reshuffled", {"order": order}, actor)
    card = s.draw[0] if s.draw else None
    return Event("card_drawn", {"player": top[1], "card": card}, actor)


def _end_round(s: State, top: Frame, rng: random.Random, actor: int | None) -> Event:
    stalled = s.sails < data.SHIPS_PER_ROUND
    returned = [
        [i + 1, j + 1, owner]
        for i, ship in enumerate(s.ships)
        if ship.site is None
        for j, owner in enumerate(ship.slots)
        if owner >= 0
    ]
    return Event(
        "round_ended",
        {"round": s.round, "stalled": stalled, "returned": returned, "next_start": s.next_start},
    )


def _temple_a(s: State, top: Frame, rng: random.Random, actor: int | None) -> Event:
    return Event("temple_scored", {"points": scoring.temple_a(s)})


def _temple_b(s: State, top: Frame, rng: random.Random, actor: int | None) -> Event | None:
    """§8.6: one column's bonus; a "point or stones" column waits for its owner's choice."""
    if is_temple_choice(s, top):
        return None
    return temple_bonus(top, None, 0, None)


def temple_bonus(top: Frame, choice: str | None, stones: int, seat: int | None) -> Event:
    """The event of one Temple B column (§8.6); ``choice`` is ``point``/``stones`` or None."""
    _, column, owner = top
    bonus = data.TEMPLE_B_BONUS[column]
    points = 2 if bonus == "two_points" else 1 if choice == "point" else 0
    return Event(
        "temple_bonus",
        {
            "player": owner,
            "column": column + 1,
            "bonus": bonus,
            "choice": choice,
            "points": points,
            "stones": stones,
        },
        seat,
    )


def _clear_market(s: State, top: Frame, rng: random.Random, actor: int | None) -> Event:
    cards = [c for c in s.market if c is not None] + s.pair
    return Event("market_cleared", {"cards": cards})


def _next_round(s: State, top: Frame, rng: random.Random, actor: int | None) -> Event:
    """§5.1 and §9.2: reveal the next round card and deal the market (E-12, W-10, W-11)."""
    side = s.sides["market"]
    face_up = data.MARKET_FACE_UP[side]
    pile = list(s.draw)
    dealt: list[str] = []
    reshuffle: list[str] | None = None
    after = 0
    for i in range(face_up + data.MARKET_PAIR[side]):
        if not pile:
            if reshuffle is not None or not s.discard:
                break
            reshuffle = list(s.discard)
            rng.shuffle(reshuffle)
            pile = list(reshuffle)
            after = i
        dealt.append(pile.pop(0))
    card = s.round_stack[0]
    return Event(
        "round_started",
        {
            "round": s.round + 1,
            "card": card,
            "ships": list(data.ROUND_CARD_SHIPS[card]),
            "market": dealt[:face_up],
            "pair": dealt[face_up:],
            "reshuffle": reshuffle,
            "reshuffled_after": after,
            "start_player": s.next_start,
        },
    )


def _final(s: State, top: Frame, rng: random.Random, actor: int | None) -> Event:
    return Event(FINAL_EVENTS[top[1]], {"points": scoring.FINAL_SCORING[top[1]](s)})


def _rank(s: State, top: Frame, rng: random.Random, actor: int | None) -> Event:
    ranks = scoring.ranks(s.scores, s.sleds)
    winners = [i for i, r in enumerate(ranks) if r == 1]
    return Event("players_ranked", {"scores": list(s.scores), "ranks": ranks, "winners": winners})


STEPS: dict[str, Any] = {
    "unload": _unload,
    "red": _red,
    "discard": _discard,
    "draw": _draw,
    "end_round": _end_round,
    "temple_a": _temple_a,
    "temple_b": _temple_b,
    "clear_market": _clear_market,
    "next_round": _next_round,
    "final": _final,
    "rank": _rank,
}
