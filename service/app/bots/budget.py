"""How long a searching bot may think for one move on a server (the bot driver's search lane).

A move of the ``mcts`` level is its iterations (``levels.Budget``: 200, so that on a server
with time to spare the move is a function of the log), bounded in wall time twice over:

* ``move_seconds`` (``--bot-think-seconds``, 2 s): no move thinks longer, however idle the
  server (200 iterations take 0.2-0.5 s of CPU on an idle core, so the bound only bites when
  the machine is busy);
* ``round_seconds`` (``--bot-reply-seconds``, 10 s): the tables waiting in the search lane
  should all have had their move within ``round_seconds`` of the moment the one waiting
  longest arrived, so each move thinks at most an equal share of what is left of that:
  ``(round_seconds - waited) / waiting``, never less than ``FLOOR_SECONDS``. A burst of tables
  (twenty timed tables taken over by ``mcts`` bots at once) is thought through in about
  ``round_seconds`` while fewer than ``round_seconds / FLOOR_SECONDS`` tables wait (200 with
  the defaults), each bot playing a little weaker for it, instead of the last table waiting
  for twenty full searches; a table alone thinks up to ``move_seconds``.

A move cut short by either bound is recorded in the log like any other: replays and
``verifyLog`` read it there and never think again.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.app.bots.levels import DEFAULT_BUDGET, Budget

#: the least time a move may think, however many tables wait (``mcts`` always runs at least
#: one iteration, whatever its bound)
FLOOR_SECONDS = 0.05


@dataclass(frozen=True)
class ThinkLimits:
    """The search lane's bounds on think time (module docstring)."""

    move_seconds: float = 2.0
    round_seconds: float = 10.0
    iterations: int = DEFAULT_BUDGET.iterations

    def bound(self, waiting: int, waited: float = 0.0) -> float:
        """The most seconds one move may think while ``waiting`` tables wait (it included),
        the longest of them for ``waited`` seconds."""
        share = (self.round_seconds - waited) / max(1, waiting)
        return max(FLOOR_SECONDS, min(self.move_seconds, share))

    def budget(self, waiting: int, waited: float = 0.0) -> Budget:
        return Budget(iterations=self.iterations, bound=self.bound(waiting, waited))
