"""Per-account bounds on bots: how many tables with bots, and how many searching bots, one
account may have at once (issue #20: one account's twenty all-``mcts`` tables starved every
other player's bots).

A bot counts against the account that seated it (``addBot``'s caller: the entry's ``actor``),
from the moment it sits until its game is over (finished or abandoned); an open table waiting
for players counts too, since it starts by itself when its last seat fills. The bounds:

* ``tables_per_account`` (``--bot-tables-per-account``): tables not over where the account
  seated at least one bot;
* ``searching_per_account`` (``--search-bots-per-account``): bots of a searching level
  (``levels.SEARCHING``: ``mcts``) the account seated at tables not over.

Past a bound ``addBot`` is refused with ``FORBIDDEN`` and a message naming the bound and its
setting. Not ``RATE_LIMITED``: waiting does not lift it, finishing or abandoning a table does
(like ``deleteAccount``, refused while the account holds a seat), and a client that retries
after ``Retry-After`` would only be refused again. 0 turns a bound off.

The count comes from the ``bots`` read model (``projections.bots``), brought up to the store
first, so a bot seated a moment ago by any process counts. Within a process the check and the
seat are one step per account (a lock); two processes seating bots for one account at the same
instant may each let one through (the bound is then exceeded by at most one per process).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from service.app.bots.levels import SEARCHING
from service.app.errors import Forbidden

#: (game id, level) of every bot an account seated at a table not over
Census = Callable[[str], list[tuple[str, str]]]
#: locks that make the check and the seat one step per account (accounts share them by hash)
STRIPES = 64


@dataclass(frozen=True)
class BotBounds:
    """The bounds (module docstring); 0: no bound."""

    tables_per_account: int = 0
    searching_per_account: int = 0

    @property
    def is_off(self) -> bool:
        return not (self.tables_per_account or self.searching_per_account)


class SeatedBots:
    """Checks the bounds before a bot is seated (``Seating.add_bot``)."""

    def __init__(self, bounds: BotBounds | None = None, census: Census | None = None) -> None:
        self.bounds = bounds or BotBounds()
        self.census = census
        self._locks = [threading.Lock() for _ in range(STRIPES)]

    @contextmanager
    def seating(self, account: str, game_id: str, level: str) -> Iterator[None]:
        """Hold the account's turn while its bot of ``level`` is seated at ``game_id``;
        ``Forbidden`` at once if that would pass a bound."""
        if self.bounds.is_off or self.census is None:
            yield
            return
        with self._locks[hash(account) % STRIPES]:
            self.check(self.census(account), game_id, level)
            yield

    def check(self, seated: list[tuple[str, str]], game_id: str, level: str) -> None:
        """Refuse a bot of ``level`` at ``game_id`` for an account that seated ``seated``."""
        tables = {g for g, _ in seated}
        limit = self.bounds.tables_per_account
        if limit and game_id not in tables and len(tables) >= limit:
            raise Forbidden(
                f"You have bots at {len(tables)} tables that are not over, the most one account "
                f"may have (this server's bot-tables-per-account is {limit}): finish or abandon "
                "one of them (abandonGame) before seating a bot at another table."
            )
        limit = self.bounds.searching_per_account
        searching = sum(1 for _, seated_level in seated if seated_level in SEARCHING)
        if limit and level in SEARCHING and searching >= limit:
            raise Forbidden(
                f"You have seated {searching} searching bots ({', '.join(sorted(SEARCHING))}) "
                "at tables that are not over, the most one account may have (this server's "
                f"search-bots-per-account is {limit}): choose a lighter level (random, greedy), "
                "or finish or abandon a table with such bots first."
            )
