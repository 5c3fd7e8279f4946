"""The bot driver's queues: tables waiting for a bot's move, and games another process changed.

``FairQueue`` serves accounts in turn: each account that has tables waiting gets one move, then
the next account does (round-robin by account), and an account's own tables are served oldest
first (round-robin by table: a table that was served and is due again goes to the back of its
account's queue). So one account's twenty tables never hold back another account's one: that
table waits for at most one move of each other account with tables waiting.

``Heard`` holds the games the store's feed says another process changed, each with the version
that change left it at, until a grace period has passed: the process that made the change plays
the bot that became due (its driver was woken by its own save), and this one looks at the game
only if it is still at that version then (that process stopped, died or is far behind).

Neither is thread-safe: the driver holds its lock around every call.
"""

from __future__ import annotations

from collections import OrderedDict


class FairQueue:
    """Tables waiting for a bot's move, by owning account (module docstring)."""

    def __init__(self) -> None:
        self._accounts: OrderedDict[str, OrderedDict[str, None]] = OrderedDict()
        self._owners: dict[str, str] = {}
        self._arrivals: OrderedDict[str, float] = OrderedDict()  # oldest first

    def __len__(self) -> int:
        return len(self._owners)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._owners

    def add(self, owner: str, game_id: str, now: float = 0.0) -> None:
        """``game_id`` waits behind ``owner``'s other tables from ``now`` on (a table already
        waiting keeps its place); a new account joins the end of the turn."""
        if game_id in self._owners:
            return
        self._owners[game_id] = owner
        self._accounts.setdefault(owner, OrderedDict())[game_id] = None
        self._arrivals[game_id] = now

    def oldest(self) -> float | None:
        """When the table waiting longest started waiting (``None``: none waits)."""
        return next(iter(self._arrivals.values()), None)

    def pop(self) -> tuple[str, str] | None:
        """The next (owner, table) to serve: the oldest table of the account whose turn it is,
        which then goes to the end of the turn; ``None`` when no table waits."""
        if not self._accounts:
            return None
        owner, games = next(iter(self._accounts.items()))
        game_id, _ = games.popitem(last=False)
        del self._owners[game_id]
        del self._arrivals[game_id]
        del self._accounts[owner]
        if games:
            self._accounts[owner] = games
        return owner, game_id

    def accounts(self) -> int:
        """How many accounts have tables waiting."""
        return len(self._accounts)


class Heard:
    """Games another process changed, held for a grace period (module docstring)."""

    def __init__(self) -> None:
        self._games: dict[str, tuple[float, int | None]] = {}

    def __len__(self) -> int:
        return len(self._games)

    def hold(self, game_id: str, version: int | None, until: float) -> None:
        """Look at ``game_id`` at ``until`` if it is still at ``version`` (``None``: whatever
        its version); a later change of the same game replaces the earlier one."""
        self._games[game_id] = (until, version)

    def due(self, now: float) -> list[tuple[str, int | None]]:
        """The games whose grace period has passed by ``now`` (removed), with their versions."""
        ready = [(g, v) for g, (t, v) in self._games.items() if t <= now]
        for game_id, _ in ready:
            del self._games[game_id]
        return ready

    def next_due(self) -> float | None:
        return min((t for t, _ in self._games.values()), default=None)
