"""The rules contract that every game implements (STYLE.md, "How that looks here").

A game is a set of pure functions over an immutable event log:

* ``normalize_options(seats, options)`` validates table options, returns them complete;
* ``setup(seats, options, rng)`` draws the setup randomness and returns the opening events;
* ``initial(seats, options)`` is the empty state the opening events are folded into;
* ``evolve(state, event)`` applies one event (total: it never raises for an event that
  ``setup``/``decide`` produced); it MAY mutate ``state`` in place and returns the new state;
* ``active_seats(state)`` names who must act now (several seats for a simultaneous step);
* ``legal_actions(state, seat)`` is the finite, stably ordered list of exactly the actions
  ``decide`` accepts from that seat;
* ``decide(state, seat, action, rng)`` validates one action and returns the events it causes,
  drawing any randomness from ``rng`` and recording the outcome in the events; it never
  mutates ``state``;
* ``view(state, seat, full)`` is what one seat (or a spectator, ``seat=None``) may see,
  written as an allow-list; ``full=True`` once the game is over reveals everything;
* ``view_event(event, seat, full)`` is the same for one event (``None``: the event is
  entirely private to somebody else);
* ``scores(state)`` is the public score track; ``outcome(state)`` is ``None`` until the end;
* ``is_irreversible(event)``: the event drew randomness or revealed a secret (undo stops there);
* ``fork(state, seats, rng)`` is the opening event of a sandbox that starts from ``state`` as
  ``seats`` see it: every item hidden from all of them is re-dealt from ``rng`` (sizes kept),
  everything they may see is kept; ``evolve(initial(...), event)`` is that position.

Replay is a fold of ``evolve`` over the events (``domain.engine.replay``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

JSON = dict[str, Any]

#: the type of the event ``Rules.fork`` returns: a sandbox's whole starting position
FORK_DEALT = "fork_dealt"


@dataclass(frozen=True, slots=True)
class Event:
    """One domain event: what happened, in primitives only.

    ``type`` is a past-tense snake_case name (``stones_taken``), ``data`` holds only JSON
    values (str, int, bool, None, lists and dicts of those), ``seat`` is the seat whose action
    caused it (``None`` for steps no seat caused, such as the start of a round).
    """

    type: str
    data: JSON = field(default_factory=dict)
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: final scores by seat, winners (several on a true tie), ranks."""

    scores: list[int]
    winners: list[int]
    ranks: list[int]


class RulesError(Exception):
    """A command the rules refuse. ``code`` is the public API error code."""

    code = "ILLEGAL_ACTION"

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message


class IllegalAction(RulesError):
    """A well-formed action the rules do not allow now; ``rule`` names the rule (``§6.2``)."""

    code = "ILLEGAL_ACTION"


class NotYourTurn(RulesError):
    """The seat is not among those that must act."""

    code = "NOT_YOUR_TURN"


class BadAction(RulesError):
    """A malformed action: unknown type, missing or wrongly typed parameters."""

    code = "BAD_INPUT"


class BadOptions(RulesError):
    """Table options that do not exist or have invalid values."""

    code = "BAD_INPUT"


S = TypeVar("S")


class Rules(Protocol[S]):
    """What the platform needs from a game. See the module docstring."""

    kind: str
    """The game's kind (``GameModule.kind``, ``domain.registry``): ``imhotep``, ``amun_re`` ..."""
    version: str
    """Rules version recorded in every event, e.g. ``imhotep-1``."""
    min_seats: int
    max_seats: int

    def normalize_options(self, seats: int, options: JSON) -> JSON: ...

    def setup(self, seats: int, options: JSON, rng: random.Random) -> list[Event]: ...

    def initial(self, seats: int, options: JSON) -> S: ...

    def evolve(self, state: S, event: Event) -> S: ...

    def active_seats(self, state: S) -> list[int]: ...

    def legal_actions(self, state: S, seat: int) -> list[JSON]: ...

    def decide(self, state: S, seat: int, action: JSON, rng: random.Random) -> list[Event]: ...

    def view(self, state: S, seat: int | None, full: bool = False) -> JSON: ...

    def view_event(self, event: Event, seat: int | None, full: bool = False) -> Event | None: ...

    def scores(self, state: S) -> list[int]: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def is_irreversible(self, event: Event) -> bool:
        """True when the event records a random outcome or reveals hidden information:
        an undo never goes back across it."""
        ...

    def fork(self, state: S, seats: list[int], rng: random.Random) -> Event:
        """The opening event of a sandbox game that starts from ``state`` as ``seats`` see it
        (forks): what they may see is kept, every item hidden from all of them is re-dealt
        from ``rng``. It must depend only on what ``seats`` may see and on ``rng``: two states
        that look the same to them give the same event for the same ``rng``."""
        ...
