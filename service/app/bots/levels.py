"""Bot levels: how a server-side bot picks its action for one seat (pure: the domain only).

``choose_action(level, rules, state, seat, seed, version)`` is the one entry point (the seating,
play and take-over commands and ``bench/bots.py`` all come here). Levels:

* ``random`` (``uniform.py``): uniform among the legal actions, exactly as the first bots did
  (``random.Random(f"bot:{seed}:{version}")``), so older logs replay to the same moves. Weakest.
* ``greedy`` (``greedy.py``): the action with the best immediate gain under the game's evaluation
  (``evaluation.py``), looking through the automatic steps it triggers. Beats ``random`` nearly
  always; blind to anything beyond the move.
* ``mcts`` (``mcts.py``): information-set Monte Carlo tree search over the pure engine (one tree
  over determinizations, SO-ISMCTS), an iteration budget by default (reproducible moves), a time
  budget on request. The strongest level (figures: docs/bots.md "Strength", ``bench/bots.py``).

**Secrecy.** A bot never reads hidden information from the true state: ``greedy`` and ``mcts``
look only at determinizations, positions drawn by ``Rules.fork(state, [seat], rng)`` (what the
seat may see kept, everything hidden from it re-dealt from ``rng``), and the legal actions they
rank are the determinization's. ``Rules.fork`` depends only on the seat's view and ``rng``, so
two true states the seat cannot tell apart give the same choice (``tests/test_bots.py``).

**Reproducibility.** Each decision draws from ``bot_rng(level, seed, version, seat)``; a move is
a function of the log (the table's seed and version) unless a time budget is asked for, or the
wall-time ``bound`` of a busy server cuts the iterations short (``Budget``).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.contract import JSON, Rules

#: the levels, weakest first (the order the API documents)
LEVELS = ("random", "greedy", "mcts")
DEFAULT_LEVEL = "random"


#: the levels whose move is a search (hundreds of milliseconds of CPU: docs/bots.md "Bot levels"):
#: the bot driver thinks for them in its search lane, with a bounded time, and an account may
#: seat only so many of them (``service.app.bots.bounds``); ``greedy`` looks one move ahead
#: (1-2 ms a move, as cheap as the command that records it) and plays in the quick lane
SEARCHING = frozenset({"mcts"})


@dataclass(frozen=True, slots=True)
class Budget:
    """How much search ``mcts`` may spend on one move: ``iterations`` (reproducible), or
    ``seconds`` of wall time when given (bench; not reproducible). ``bound``: seconds of wall
    time after which the iterations stop early (the server's bound on think time: a move cut
    short is no longer a function of the log alone, but it is recorded in the log, so replays
    and verification never think again)."""

    iterations: int = 200
    seconds: float | None = None
    bound: float | None = None


DEFAULT_BUDGET = Budget()


class UnknownLevel(ValueError):
    """A level name that is not one of ``LEVELS``."""


def check_level(level: str | None) -> str:
    """The level a new bot plays (``random`` when none is named); ``UnknownLevel`` otherwise."""
    level = level or DEFAULT_LEVEL
    if level not in LEVELS:
        raise UnknownLevel(f"Unknown bot level {level!r}; choose one of {', '.join(LEVELS)}.")
    return level


def bot_rng(level: str, seed: str, version: int, seat: int) -> random.Random:
    """The bot's own randomness for one decision: from the table's seed, the version the move
    is decided at and the seat (string seeds hash with SHA-512: stable across processes)."""
    return random.Random(f"papyrus-bot/{level}:{seed}:{version}:{seat}")


def determinize(rules: Rules[Any], state: Any, seat: int, rng: random.Random) -> Any:
    """A position as ``seat`` may see it with every hidden item re-dealt from ``rng``: the
    ``fork_dealt`` event of ``Rules.fork`` folded into a private copy (the event sets every
    field of the state, so nothing of the true state's hidden parts survives)."""
    event = rules.fork(state, [seat], rng)
    return rules.evolve(copy.deepcopy(state), event)


Chooser = Callable[[Rules[Any], Any, int, str, int, Budget], JSON]


def choose_action(
    level: str,
    rules: Rules[Any],
    state: Any,
    seat: int,
    seed: str,
    version: int,
    budget: Budget | None = None,
) -> JSON:
    """The action the bot of ``level`` plays for ``seat`` (which must be active) on ``state``,
    decided at ``version`` of a table with ``seed``. ``state`` is never changed."""
    from service.app.bots import greedy, mcts, uniform

    choosers: dict[str, Chooser] = {
        "random": uniform.choose,
        "greedy": greedy.choose,
        "mcts": mcts.choose,
    }
    action = choosers[check_level(level)](
        rules, state, seat, seed, version, budget or DEFAULT_BUDGET
    )
    legal = rules.legal_actions(state, seat)  # what the seat is shown it may do (its view)
    if action not in legal:  # a determinization that disagrees with the view: a rules bug
        return uniform.choose(rules, state, seat, seed, version, DEFAULT_BUDGET)
    return action
