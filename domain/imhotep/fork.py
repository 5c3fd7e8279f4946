"""A sandbox that starts from a running game as some seats see it (``Rules.fork``).

Hidden in a running Imhotep game (§14): the order and content of the draw pile, the face-down
pair on the market, the round stack and the removed round card. A taken pair waiting for
``market_keep`` is seen by its taker only. Everything else (cards in hand, the discard pile, the
board) is public.

``fork_event`` keeps what the forking seats may see and re-deals the rest: the market cards none
of them can see (draw pile + face-down pair + a pair held by another seat) are pooled, put in
their documented order and shuffled with ``rng``, then dealt back into the same places in the
same numbers; the round cards (round stack + removed card) likewise. The pools are sorted before
shuffling, so the result depends only on what the seats may see and on ``rng`` — never on where
the hidden cards really were. Deductions from the history (card counting across a reshuffle)
are not taken into account: the hidden cards are re-dealt uniformly.

The event ``fork_dealt`` records the whole starting position (``snapshot``), so replays never
re-roll; ``restore`` is its inverse.
"""

from __future__ import annotations

import copy
import random
from dataclasses import asdict, fields

from domain.contract import FORK_DEALT, JSON, Event
from domain.imhotep.state import Ship, State, pending

_FIELDS = tuple(f.name for f in fields(State))


def snapshot(state: State) -> JSON:
    """The whole state as JSON values: a deep copy with the ships as objects and the stack
    frames as lists (every other field already is JSON)."""
    out: JSON = {name: copy.deepcopy(getattr(state, name)) for name in _FIELDS}
    out["ships"] = [asdict(ship) for ship in state.ships]
    out["stack"] = [list(frame) for frame in state.stack]
    return out


def restore(d: JSON) -> State:
    """The state a ``snapshot`` describes (a fresh object, nothing shared with ``d``)."""
    values = copy.deepcopy({name: d[name] for name in _FIELDS})
    values["ships"] = [Ship(**ship) for ship in values["ships"]]
    values["stack"] = [tuple(frame) for frame in values["stack"]]
    return State(**values)


def load(state: State, d: JSON) -> None:
    """``evolve`` of ``fork_dealt``: the state becomes the recorded position (in place)."""
    position = restore(d["state"])
    for name in _FIELDS:
        setattr(state, name, getattr(position, name))


def fork_event(state: State, seats: list[int], rng: random.Random) -> Event:
    """Keep what ``seats`` may see, re-deal every card none of them can see (module docstring)."""
    s = state.copy()
    frame = pending(s)
    foreign_pair = frame is not None and frame[0] == "market_keep" and frame[1] not in seats
    held = list(frame[2:]) if foreign_pair else []  # type: ignore[index]
    cards = sorted(s.draw + s.pair + held)
    rng.shuffle(cards)
    s.draw, rest = cards[: len(s.draw)], cards[len(s.draw) :]
    s.pair, rest = rest[: len(s.pair)], rest[len(s.pair) :]
    if foreign_pair:
        assert frame is not None
        s.stack[-1] = (*frame[:2], *rest)
    if s.removed is not None:
        rounds = sorted([*s.round_stack, s.removed])
        rng.shuffle(rounds)
        s.round_stack, s.removed = rounds[:-1], rounds[-1]
    return Event(FORK_DEALT, {"state": snapshot(s)})
