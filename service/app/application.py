"""The application: one object per job, wired over one event store (what transports call).

=============  ==========================================================================
``accounts``   registration, authentication, tokens, account deletion (``Accounts``)
``limits``     rate limits, counted in the database (``Limiter``)
``redaction``  deleted players' names, left out of everything shown (``Redaction``)
``tables``     the load-decide-save loop and the reads of games and their logs (``Tables``)
``seating``    opening, filling, starting and abandoning tables (``Seating``)
``play``       one player action (``Play``)
``undo``       taking actions back (``Undo``)
``audit``      ``verifyLog``, the audit log, replays (``Audit``)
``archive``    export and import of finished games (``Archive``)
``signing``    the signatures of finished games' chain heads (``Signing``)
``forks``      sandboxes forked from a game (``Forks``)
``clocks``     timed tables: expiries, reclaiming a seat, the clock view (``Clocks``)
=============  ==========================================================================

Queries on the read models (lobby, summaries, profiles, ratings, statistics) are answered by
``readmodels``; ``breaker`` guards every call that reaches the store.
"""

from __future__ import annotations

from typing import Any, cast

from service.app.accounts import Accounts
from service.app.archive import Archive
from service.app.audit import Audit
from service.app.bots.bounds import BotBounds, SeatedBots
from service.app.breaker import Breaker
from service.app.cache import GAME_CACHE
from service.app.clocks import Clocks
from service.app.errors import Unavailable
from service.app.forks import Forks
from service.app.limits import Limiter
from service.app.now import Clock, SystemClock
from service.app.play import Play
from service.app.redaction import RedactedReadModels, Redaction
from service.app.seating import Seating
from service.app.signing import Keyring, Signing
from service.app.tables import Listener, Observer, Tables
from service.app.undo import Undo
from service.readmodels import ReadModels
from service.store.database import Store


class Application:
    """Commands and queries on players, games and their logs, over one ``Store``."""

    def __init__(
        self,
        store: Store,
        readmodels: ReadModels | None = None,
        observer: Observer | None = None,
        limiter: Limiter | None = None,
        game_cache: int = GAME_CACHE,
        clock: Clock | None = None,
        bot_bounds: BotBounds | None = None,
        keyring: Keyring | None = None,
    ) -> None:
        """``observer``: told of store and ``act`` timings (the server's metrics);
        ``limiter``: the rate limits (none by default); ``game_cache``: games kept in memory
        (``service.app.cache``); ``clock``: the time timed tables' clocks read (the system's
        by default; tests hand in a ``FakeClock``); ``bot_bounds``: how many tables with bots
        and searching bots one account may have (``service.app.bots.bounds``; none by
        default); ``keyring``: the keys that sign finished games (``service.app.signing``;
        none by default: nothing is signed)."""
        self.store = store
        self.limiter = limiter or Limiter()
        self.redaction = Redaction(store)
        self.accounts = Accounts(store, self.limiter, self.redaction, self._seated)
        self.tables = Tables(store, observer, self.redaction, game_cache)
        self.tables.clock = clock or SystemClock()
        self.clocks = Clocks(self.tables)
        self.seating = Seating(self.tables, SeatedBots(bot_bounds, self._bot_seats))
        self.play = Play(self.tables)
        self.undo = Undo(self.tables)
        self.audit = Audit(self.tables)
        self.signing = Signing(self.tables, keyring)
        self.archive = Archive(self.tables, self.audit, self.signing)
        self.forks = Forks(self.tables, self.seating)
        self.breaker = Breaker()
        # a process that finds the store failing no longer answers from what it holds: its
        # feed may not have noticed yet, and another process may still be writing
        self.breaker.on_trip(self.tables.missed)
        self._readmodels = readmodels

    @property
    def readmodels(self) -> ReadModels:
        """The read models as callers are shown them (deleted players' names redacted)."""
        if self._readmodels is None:
            raise RuntimeError("This application was built without its read models.")
        return cast(ReadModels, RedactedReadModels(self._readmodels, self.redaction))

    def _seated(self, player_id: str) -> list[str]:
        """The games not over yet where ``player_id`` holds a seat (read models brought up to
        the store first, so that a seat taken a moment ago counts)."""
        models = self._readmodels
        if models is None:
            return []
        if not models.wait_for(models.store_position(), timeout=5.0):
            raise Unavailable("The read models are behind the store; try again in a moment.")
        return [
            row["game_id"]
            for status in ("OPEN", "ACTIVE")
            for row in models.summaries(player_id=player_id, status=status, limit=20)
        ]

    def _bot_seats(self, account: str) -> list[tuple[str, str]]:
        """(game id, level) of the bots ``account`` seated at tables not over (read models
        brought up to the store first, so that a bot seated a moment ago counts)."""
        models = self._readmodels
        if models is None:
            return []
        if not models.wait_for(models.store_position(), timeout=5.0):
            raise Unavailable("The read models are behind the store; try again in a moment.")
        return models.bot_seats(account)

    # -- the store's feed (``service.store.feed``), which a server follows ----------------------

    def follow(self) -> None:
        """The feed is running and tells ``heard_game``, ``heard_account`` and ``missed`` of
        everything any process saves: reads answer from memory what has not changed."""
        self.redaction.follow()
        self.accounts.follow()
        self.tables.follow()

    def heard_game(self, game_id: str, version: int) -> None:
        self.tables.heard(game_id, version)

    def heard_account(self, event: Any) -> None:
        self.accounts.heard(event)

    def missed(self) -> None:
        """The feed failed (it resumes from where it was): check what is cached again."""
        self.redaction.missed()
        self.accounts.missed()
        self.tables.missed()

    def subscribe(self, listener: Listener) -> None:
        """``listener(game_id, version)`` is called after each successful save here."""
        self.tables.subscribe(listener)
