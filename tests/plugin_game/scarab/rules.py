"""Scarab on the rules contract (``domain.contract.Rules``): ``RULES``. Spec: ``RULES.md``.

Pure: no I/O, no clock, and no randomness but the ``rng`` handed to ``setup`` (the one shuffle,
R2) and to ``fork`` (R9). ``decide`` works out everything a turn causes (the score, the card
drawn, the next seat, the end) and records it in the events; ``evolve`` applies an event from its
data alone, so a replay never re-rolls and never re-decides. Events::

    cards_dealt     {"hands": [[values] per seat], "deck": [values, top first]}     R2
    card_played     {"card", "scored", "next": seat | None}        (seat: the player) R3.1, R5
    card_discarded  {"card", "next": seat | None}                                   R3.2, R5
    card_drawn      {"card"}                                       (seat: the drawer) R4
    game_ended      {"scores", "winners", "ranks"}                                  R6
    fork_dealt      {"state": the whole position}                                   R9

``next`` is the seat to act after the turn, worked out with the draw that follows counted (R5);
``None`` when the turn emptied the last hand, and ``game_ended`` follows. No action is ever the
only legal one (a card can always be played or discarded), so the engine's automatic steps never
apply to Scarab.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable

from scarab import fork, view
from scarab.action_catalog import CATALOG
from scarab.state import (
    DECK,
    HAND,
    MAX_SEATS,
    MIN_SEATS,
    VALUES,
    State,
    new_state,
    next_seat,
    ranking,
    top,
)

from domain.contract import (
    FORK_DEALT,
    JSON,
    BadAction,
    BadOptions,
    Event,
    IllegalAction,
    NotYourTurn,
    Outcome,
    Rules,
)

#: events that put a hidden card into a hand, or reveal every hand (R8): undo stops there
IRREVERSIBLE = frozenset({"cards_dealt", "card_drawn", "game_ended", FORK_DEALT})


class ScarabRules:
    """The Scarab rules object (spec ``RULES.md``)."""

    kind = "scarab"
    version = "scarab-1"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS

    def normalize_options(self, seats: int, options: JSON) -> JSON:
        """No options (R1); the seat count must be 2-4."""
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise BadOptions(f"seats must be a number, not {seats!r}", rule="R1")
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise BadOptions(f"Scarab is for {MIN_SEATS} to {MAX_SEATS} seats", rule="R1")
        if options:
            raise BadOptions(f"Scarab has no table options: {sorted(options)}", rule="R1")
        return {}

    def setup(self, seats: int, options: JSON, rng: random.Random) -> list[Event]:
        """The one shuffle (R2), recorded in the deal: the hands and the draw pile's order."""
        deck = list(DECK)
        rng.shuffle(deck)
        hands = [sorted(deck[HAND * s : HAND * (s + 1)]) for s in range(seats)]
        return [Event("cards_dealt", {"hands": hands, "deck": deck[HAND * seats :]})]

    def initial(self, seats: int, options: JSON) -> State:
        return new_state(seats)

    def evolve(self, state: State, event: Event) -> State:
        apply = _EVOLVE.get(event.type)
        if apply is None:
            raise ValueError(f"not a Scarab event: {event.type!r}")
        apply(state, event)
        return state

    def active_seats(self, state: State) -> list[int]:
        return [state.current] if state.dealt and not state.over else []

    def legal_actions(self, state: State, seat: int) -> list[JSON]:
        """A play and a discard per value in hand (R3, R1: values, not copies), by value."""
        if seat not in self.active_seats(state):
            return []
        values = sorted(set(state.hands[seat]))
        return [{"type": spec.name, "card": v} for spec in CATALOG.actions for v in values]

    def decide(self, state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
        if state.over:
            raise IllegalAction("the game is over", rule="R6")
        if not state.dealt:
            raise NotYourTurn("the cards have not been dealt yet", rule="R2")
        if seat != state.current:
            raise NotYourTurn(f"it is seat {state.current}'s turn", rule="R3")
        kind, card = _parse(action)
        if card not in state.hands[seat]:
            raise IllegalAction(f"seat {seat} holds no {card}", rule="R3")
        drawn = state.deck[0] if state.deck else None  # R4: the recorded order, never a re-roll
        sizes = [len(hand) for hand in state.hands]
        if drawn is None:  # the card leaves the hand and none comes in
            sizes[seat] -= 1
        after = next_seat(sizes, seat)
        scores = list(state.scores)
        if kind == "play":
            beaten = top(state)
            scored = card if beaten is None or card > beaten else 0  # R3.1
            scores[seat] += scored
            events = [Event("card_played", {"card": card, "scored": scored, "next": after}, seat)]
        else:
            events = [Event("card_discarded", {"card": card, "next": after}, seat)]
        if drawn is not None:
            events.append(Event("card_drawn", {"card": drawn}, seat))
        if after is None:  # R6: the last hand is empty
            winners, ranks = ranking(scores)
            events.append(
                Event("game_ended", {"scores": scores, "winners": winners, "ranks": ranks})
            )
        return events

    def view(self, state: State, seat: int | None, full: bool = False) -> JSON:
        return view.view(self, state, seat, full)

    def view_event(self, event: Event, seat: int | None, full: bool = False) -> Event | None:
        if event.type == FORK_DEALT and not full:  # the position as this seat sees it
            position = fork.restore(event.data["state"])
            return Event(event.type, {"state": self.view(position, seat)}, event.seat)
        return view.view_event(event, seat, full)

    def fork(self, state: State, seats: list[int], rng: random.Random) -> Event:
        return fork.fork_event(state, seats, rng)

    def is_irreversible(self, event: Event) -> bool:
        """The deal, the draws, the end's reveal and a fork's deal (R8)."""
        return event.type in IRREVERSIBLE

    def scores(self, state: State) -> list[int]:
        return list(state.scores)

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        return Outcome(list(state.scores), list(state.winners), list(state.ranks))


def _parse(action: JSON) -> tuple[str, int]:
    """The action's type and card, or ``BadAction`` (the catalog's shape: R3)."""
    if not isinstance(action, dict) or action.get("type") not in CATALOG.names:
        raise BadAction(f"unknown action; actions are {', '.join(CATALOG.names)}", rule="R3")
    card = action.get("card")
    if set(action) != {"type", "card"} or type(card) is not int or card not in VALUES:
        raise BadAction(
            f"{action['type']} takes exactly one card value from {VALUES[0]} to {VALUES[-1]}",
            rule="R3",
        )
    return action["type"], card


def _dealt(state: State, event: Event) -> None:
    state.hands = [sorted(hand) for hand in event.data["hands"]]
    state.deck = list(event.data["deck"])
    state.current = 0
    state.dealt = True


def _turn(state: State, event: Event) -> None:
    """The turn's action (R3): the card leaves the hand; the turn passes (R5) unless it ends."""
    state.hands[event.seat].remove(event.data["card"])  # type: ignore[index]
    if event.type == "card_played":
        state.played.append(event.data["card"])
        state.scores[event.seat] += event.data["scored"]  # type: ignore[index]
    else:
        state.discards.append(event.data["card"])
    if event.data["next"] is not None:
        state.current = event.data["next"]


def _drawn(state: State, event: Event) -> None:
    del state.deck[0]  # R4: the top card, the one the event names
    bisect.insort(state.hands[event.seat], event.data["card"])  # type: ignore[index]


def _ended(state: State, event: Event) -> None:
    state.scores = list(event.data["scores"])
    state.winners = list(event.data["winners"])
    state.ranks = list(event.data["ranks"])
    state.over = True


_EVOLVE: dict[str, Callable[[State, Event], None]] = {
    "cards_dealt": _dealt,
    "card_played": _turn,
    "card_discarded": _turn,
    "card_drawn": _drawn,
    "game_ended": _ended,
    FORK_DEALT: lambda state, event: fork.load(state, event.data),
}

RULES: Rules[State] = ScarabRules()
