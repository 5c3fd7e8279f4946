"""The application: one object per job, wired over one event store (what transports call).

=============  ==========================================================================
``accounts``   registration and authentication (``Accounts``)
``tables``     the load-decide-save loop and the reads of games and their logs (``Tables``)
``seating``    opening, filling, starting and abandoning tables (``Seating``)
``play``       one player action (``Play``)
``undo``       taking actions back (``Undo``)
``audit``      ``verifyLog``, the audit log, replays (``Audit``)
``archive``    export and import of finished games (``Archive``)
``forks``      sandboxes forked from a game (``Forks``)
=============  ==========================================================================

Queries on the read models (lobby, summaries, profiles, ratings, statistics) are answered by
``readmodels``; ``breaker`` guards every call that reaches the store.
"""

from __future__ import annotations

from service.app.accounts import Accounts
from service.app.archive import Archive
from service.app.audit import Audit
from service.app.breaker import Breaker
from service.app.forks import Forks
from service.app.play import Play
from service.app.seating import Seating
from service.app.tables import Listener, Tables
from service.app.undo import Undo
from service.readmodels import ReadModels
from service.store.database import Store


class Application:
    """Commands and queries on players, games and their logs, over one ``Store``."""

    def __init__(self, store: Store, readmodels: ReadModels | None = None) -> None:
        self.store = store
        self.accounts = Accounts(store)
        self.tables = Tables(store)
        self.seating = Seating(self.tables)
        self.play = Play(self.tables)
        self.undo = Undo(self.tables)
        self.audit = Audit(self.tables)
        self.archive = Archive(self.tables, self.audit)
        self.forks = Forks(self.tables, self.seating)
        self.breaker = Breaker()
        self._readmodels = readmodels

    @property
    def readmodels(self) -> ReadModels:
        if self._readmodels is None:
            raise RuntimeError("This application was built without its read models.")
        return self._readmodels

    def subscribe(self, listener: Listener) -> None:
        """``listener(game_id, version)`` is called after each successful save here."""
        self.tables.subscribe(listener)
