"""Game tables: the one load-decide-save loop every command writes through, and the reads.

Every command takes a private copy of the game table (from this process's ``GameCache`` when
it is known to be current, else fast-forwarded from the store), decides with the pure domain
(``domain.engine``), records the resulting entries on the aggregate and saves them in one
transaction. A concurrent writer makes the save fail on the version key; the command is then
decided again on the fresh game (or answered with ``CONFLICT`` when the client named the version
it expected). Idempotency keys are recorded in the entries themselves, so a retried command
finds its original result in the game it already changed.

What a command records besides its own decision (the steps of an action, the end of the game,
the clock's entries) and the replay of a table from its entries are in
``service.app.recording``; ``record_steps``, ``finish_if_over`` and ``replay_table`` are still
importable from here.
"""

from __future__ import annotations

import copy
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

from eventsourcing.application import AggregateNotFoundError, project_aggregate
from eventsourcing.persistence import IntegrityError

from domain.log import Entry
from service.app.cache import GAME_CACHE, TIMELINES, GameCache, Memo
from service.app.errors import BadInput, Conflict, NotFound
from service.app.now import Clock, SystemClock
from service.app.recording import begin_command, settle_clock
from service.app.recording import finish_if_over as finish_if_over
from service.app.recording import record_steps as record_steps
from service.app.recording import replay_table as replay_table
from service.app.tails import KEEP, Tails
from service.store import GameTable
from service.store.database import Store
from service.store.entries import entry_of

if TYPE_CHECKING:
    from service.app.redaction import Redaction

MAX_RETRIES = 8

Recorded = Entry  # a stored event, as read back from the log
Listener = Callable[[str, int], None]


class Observer(Protocol):
    """Whoever watches the application work (the server's metrics and request logs); the
    application only reports what it did and how long it took."""

    def stored(self, operation: str, seconds: float) -> None:
        """The store answered ``operation`` (``load``, ``events`` or ``save``)."""

    def acted(self, kind: str, seat: int | None, code: str, seconds: float) -> None:
        """An ``act`` command ended with ``code`` (``OK`` or an error code) on a game of
        ``kind`` (``unknown`` when it failed before the game was loaded)."""


class Unobserved:
    """The observer of an application nobody watches."""

    def stored(self, operation: str, seconds: float) -> None:
        pass

    def acted(self, kind: str, seat: int | None, code: str, seconds: float) -> None:
        pass


class AlreadyDone(Exception):
    """The command's idempotency key is already in the game: answer with what it did."""

    game: GameTable


class Tables:
    """Loading, deciding on and saving game tables, over one ``Store``."""

    clock: Clock = SystemClock()
    """The time handed to timed tables' clocks (``domain.clock``); the application's."""

    def __init__(
        self,
        store: Store,
        observer: Observer | None = None,
        redaction: Redaction | None = None,
        cache_size: int = GAME_CACHE,
    ) -> None:
        """``redaction``: deleted players' names are shown by no read of a game here;
        ``cache_size``: games kept in memory (``GameCache``)."""
        self.store = store
        self.observer: Observer = observer or Unobserved()
        self.redaction = redaction
        self.cache = GameCache(cache_size)
        #: what is computed from a game at one version (``service.app.numbering``)
        self.memo = Memo(TIMELINES)
        #: whether a game's log hides entries from some seats, and up to which version
        self.hiding = Memo(cache_size or 1)
        self.tails = Tails(cache_size)  # the last entries saved or read here (``recent``)
        self._listeners: list[Listener] = []

    def follow(self) -> None:
        """The store's feed now tells ``heard`` of every new event, whichever process
        recorded it: a read of a game known to be current asks the store nothing."""
        self.cache.follow()

    def heard(self, game_id: str, version: int) -> None:
        """Some process recorded ``version`` of ``game_id`` (the store's feed)."""
        self.cache.heard(uuid.UUID(game_id), version)

    def missed(self) -> None:
        """The feed may have missed events (it failed and resumes): check every game again."""
        self.cache.doubt_all()

    def subscribe(self, listener: Listener) -> None:
        """``listener(game_id, version)`` is called after each successful save."""
        self._listeners.append(listener)

    # -- reads --------------------------------------------------------------------------------

    def get(self, game_id: str) -> GameTable:
        """The current game, as a private copy that later events cannot change under a reader."""
        try:
            game: Any = self._copy_of(uuid.UUID(str(game_id)))
        except (AggregateNotFoundError, ValueError):
            raise missing(game_id) from None
        if not isinstance(game, GameTable):
            raise missing(game_id)
        return self._shown(game)

    def current(self, game_id: str) -> GameTable:
        """``get``, asking the store for anything newer even where this process believes its
        game current: a caller's own write through another process (its ``minVersion``) is
        read before the store's feed brings the news here."""
        try:
            self.cache.doubt(uuid.UUID(str(game_id)))
        except ValueError:
            raise missing(game_id) from None
        return self.get(game_id)

    def peek(self, game_id: str) -> GameTable | None:
        """The current game when this process knows it is current and shows it unchanged (no
        SQL, no copy): ``None`` when ``get`` must be asked (on a worker). The game is the
        cache's own: read it, never change it (the cache never changes it in place either)."""
        try:
            game = self.cache.get(uuid.UUID(game_id))
        except (KeyError, ValueError):
            return None
        if self.redaction is not None:
            deleted = self.redaction.known_deleted()
            if deleted is None or self.redaction.names_deleted(game.table, deleted):
                return None
        return game

    def events(self, game_id: str, after: int = 0, limit: int | None = None) -> list[Recorded]:
        """Stored events after version ``after`` as they are shown (one query; the game is not
        loaded): an entry that names a deleted player names ``DELETED_PLAYER``."""
        return self.shown(self.stored_events(game_id, after, limit))

    def recent(self, game_id: str, after: int, upto: int, limit: int) -> list[Recorded]:
        """``events`` after ``after`` up to ``upto`` (``limit`` at most): from the entries
        saved or read here last (``Tails``) when they reach back that far, else the store's."""
        found = self.tails.after(game_id, after, upto, limit)
        if found is None:
            found = [e for e in self.stored_events(game_id, after, limit) if e.version <= upto]
        return self.shown(found)

    def shown(self, entries: list[Recorded]) -> list[Recorded]:
        """Stored entries as they are shown (deleted players' names redacted)."""
        return entries if self.redaction is None else self.redaction.entries(entries)

    def stored_events(
        self, game_id: str, after: int = 0, limit: int | None = None
    ) -> list[Recorded]:
        """Stored events after version ``after``, exactly as recorded (audits: the hashes)."""
        try:
            ident = uuid.UUID(str(game_id))
        except ValueError:
            raise missing(game_id) from None
        with self._timed("events"):
            stored = list(self.store.events.get(ident, gt=after, limit=limit))
        if (not stored and after == 0) or not all(
            isinstance(e, GameTable.Opened | GameTable.Recorded) for e in stored
        ):  # the id of a player, say, is not the id of a game
            raise missing(game_id)
        return [entry_of(e) for e in stored]

    def span(self, game_id: str, first: int, last: int) -> list[Recorded]:
        """The stored events from version ``first`` to ``last``."""
        return self.events(game_id, after=first - 1, limit=last - first + 1)

    def at_version(self, game_id: str, version: int) -> GameTable:
        return self.past(self.get(game_id), version)

    def past(self, game: GameTable, version: int) -> GameTable:
        """``game`` as it was at ``version`` (``BAD_INPUT`` for a version it does not have)."""
        if not 1 <= version <= game.version:
            raise BadInput(f"Version must be between 1 and {game.version}, not {version}.")
        with self._timed("load"):
            past: GameTable = self.store.repository.get(game.id, version=version)
        return self._shown(past)

    def _shown(self, game: GameTable) -> GameTable:
        """A private copy of a game with deleted players' names redacted from its seats."""
        return game if self.redaction is None else self.redaction.game(game)

    # -- writes -------------------------------------------------------------------------------

    def command(
        self, game_id: str, decide: Callable[[GameTable], None]
    ) -> tuple[GameTable, list[Entry]]:
        """Load, decide, save (the shape of every command). ``decide`` records the entries on
        the game or raises; when another writer saved first, the command is decided again on
        the fresh game (whose own checks tell a real conflict from a harmless one). The game
        returned is the one the cache keeps from then on (no copy is taken): read it, never
        change it."""
        for _ in range(MAX_RETRIES):  # the command's one time: ``begin_command``
            game = begin_command(self.get(game_id), self.clock.now_ms())
            before = game.version
            try:
                decide(game)
            except AlreadyDone as done:
                done.game = game
                raise
            if game.version != before:  # the clock follows whatever the command changed
                settle_clock(game, self.clock.now_ms())
            saved = self._try_save(game)
            if saved is not None:
                return game, saved
            self.cache.doubt(game.id)  # another writer saved first: ask the store next time
        raise Conflict("The game changed too often while deciding; try again.")

    def save_new(self, game: GameTable) -> None:
        """Store a table made by a command that creates one, and tell the subscribers."""
        with self._timed("save"):
            self.store.save(game)
        self.cache.saved(game, new=True)  # the caller only reads it from now on
        self._saved(game)

    def _try_save(self, game: GameTable) -> list[Recorded] | None:
        """The saved events, or ``None`` when another writer got there first."""
        try:
            with self._timed("save"):
                recordings = self.store.save(game)
        except IntegrityError:
            return None
        except BaseException:  # it may have committed (a connection lost at the end)
            self.cache.doubt(game.id)
            raise
        self.cache.saved(game)  # the caller only reads it from now on
        entries = [entry_of(r.domain_event) for r in recordings]
        self.tails.add(str(game.id), entries)
        self._saved(game)
        return entries

    def _saved(self, game: GameTable) -> None:
        for listener in self._listeners:
            listener(str(game.id), game.version)

    def _copy_of(self, ident: uuid.UUID) -> Any:
        """A private copy of the game: the cached one when it is known to be current (no SQL),
        else the cached one fast-forwarded with the events stored since (one query), else the
        game rebuilt from the store. Cached games are never changed in place."""
        try:
            return copy.deepcopy(self.cache.get(ident))
        except KeyError:
            pass
        base = self.cache.base(ident)  # a load in flight from here to ``offer``/``abandon``
        try:
            with self._timed("load"):
                events = list(self.store.events.get(ident, gt=base.version if base else None))
            if not events and base is not None:
                game: Any = base  # the store has nothing newer: fresh again
            else:
                game = project_aggregate(copy.deepcopy(base) if base else None, events)
        except BaseException:
            self.cache.abandon(ident)
            raise
        if not isinstance(game, GameTable):  # not found, or not a game (a player's id)
            self.cache.abandon(ident)
            raise AggregateNotFoundError(ident)
        self.tails.add(str(ident), [entry_of(e) for e in events[-KEEP:]])
        self.cache.offer(game)
        return copy.deepcopy(game)

    @contextmanager
    def _timed(self, operation: str) -> Iterator[None]:
        """Tell the observer how long the store took (failures included)."""
        started = time.perf_counter()
        try:
            yield
        finally:
            self.observer.stored(operation, time.perf_counter() - started)


def missing(game_id: str) -> NotFound:
    return NotFound(f"There is no game with id {game_id!r}.")
