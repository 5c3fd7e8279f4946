"""A sandbox that starts from a running game as some seats see it (``Rules.fork``, R9).

Hidden in a running game (R7): the other seats' hands and the draw pile. ``fork_event`` keeps
what the forking seats see (their own hands, every public item) and re-deals the rest: the cards
none of them can see are pooled, sorted (value order), shuffled with ``rng`` and dealt back into
the same places in the same numbers (the other hands in seat order, then the draw pile). The pool
is the deck minus what the seats see, and sorting it forgets where each card was, so the event
depends only on what they see and on ``rng``: two states they cannot tell apart give the same
event (``tests/plugin_game/test_scarab_rules.py`` checks it).

The event ``fork_dealt`` records the whole starting position, so replays never re-roll;
``restore`` is its inverse and ``load`` its ``evolve``.
"""

from __future__ import annotations

import random
from dataclasses import fields

from scarab.state import State

from domain.contract import FORK_DEALT, JSON, Event

_FIELDS = tuple(f.name for f in fields(State))


def snapshot(state: State) -> JSON:
    """The whole state as JSON values (a copy: nothing shared with ``state``)."""
    copied = state.copy()
    return {name: getattr(copied, name) for name in _FIELDS}


def restore(d: JSON) -> State:
    """The state a ``snapshot`` describes (a fresh object, nothing shared with ``d``)."""
    return State(**{name: d[name] for name in _FIELDS}).copy()


def load(state: State, d: JSON) -> None:
    """``evolve`` of ``fork_dealt``: every field becomes the recorded position's (in place, so
    nothing of the state it is folded into survives: ``levels.determinize`` relies on it)."""
    position = restore(d["state"])
    for name in _FIELDS:
        setattr(state, name, getattr(position, name))


def fork_event(state: State, seats: list[int], rng: random.Random) -> Event:
    """Keep what ``seats`` see, re-deal every card none of them sees (R9, module docstring)."""
    s = state.copy()
    others = [seat for seat in range(s.n) if seat not in seats]
    pool = sorted([card for seat in others for card in s.hands[seat]] + s.deck)
    rng.shuffle(pool)
    for seat in others:
        size = len(s.hands[seat])
        s.hands[seat], pool = sorted(pool[:size]), pool[size:]
    s.deck = pool
    return Event(FORK_DEALT, {"state": snapshot(s)})
