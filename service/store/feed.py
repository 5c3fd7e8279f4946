"""Follows the store's notification log and tells this process about every new game event,
whichever process recorded it (live updates, with one server process or many).

On PostgreSQL it listens (LISTEN/NOTIFY, one connection per process) and reads the notification
log up to its sealed horizon (``service.store.horizon``: never past an id whose row may still
commit), looking again soon while ids are taken that are not sealed yet (a writer that rolls
back sends no notification) and every second in any case; on SQLite, where one writer at a time
commits ids in order, it polls the notification log.

Listeners get ``(game_id, version, type)``; they must be quick (they only wake subscribers and
the read-model worker, who then read the store themselves, and mark cached games stale).
Revoked credentials and deleted players are told to ``subscribe_accounts`` listeners (the stored
event), and a failure of the feed (after which it resumes from its last position) to
``subscribe_gaps`` listeners: caches that must check what they hold again.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from service.store import Credential, Player
from service.store.database import Store
from service.store.failures import is_store_failure

log = logging.getLogger("papyrus.feed")
GAME_TOPICS = ("service.store:GameTable.Opened", "service.store:GameTable.Recorded")
ACCOUNT_TOPICS = ("service.store:Credential.Revoked", "service.store:Player.Deleted")
TOPICS = (*GAME_TOPICS, *ACCOUNT_TOPICS)
Listener = Callable[[str, int, str], None]


class Feed:
    #: seconds between two reads of the log on PostgreSQL when no notification came (a lost
    #: one, or ids that were not sealed yet at the last read: ``UNSEALED_SECONDS``)
    QUIET_SECONDS = 1.0
    UNSEALED_SECONDS = 0.02

    def __init__(self, store: Store, postgres: bool, poll_seconds: float = 0.05) -> None:
        self.store = store
        self.postgres = postgres
        self.poll_seconds = poll_seconds
        self.listeners: list[Listener] = []
        self.account_listeners: list[Callable[[Any], None]] = []
        self.gap_listeners: list[Callable[[], None]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="papyrus-feed", daemon=True)

    def subscribe(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def subscribe_accounts(self, listener: Callable[[Any], None]) -> None:
        """``listener(event)`` is called when any process revokes a credential
        (``Credential.Revoked``) or deletes a player (``Player.Deleted``)."""
        self.account_listeners.append(listener)

    def subscribe_gaps(self, listener: Callable[[], None]) -> None:
        """``listener()`` is called when the feed fails (it resumes from where it was, but
        what was read from the store meanwhile may have missed a notification)."""
        self.gap_listeners.append(listener)

    def start(self) -> None:
        self._position = int(self.store.recorder.max_notification_id() or 0)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _dispatch(self, game_id: str, version: int, kind: str) -> None:
        for listener in self.listeners:
            try:
                listener(game_id, version, kind)
            except Exception:  # one listener's bug must not stop the feed for the others
                log.exception("feed listener failed")

    def _dispatch_event(self, event: Any) -> None:
        if isinstance(event, Credential.Revoked | Player.Deleted):
            for listener in self.account_listeners:
                try:
                    listener(event)
                except Exception:
                    log.exception("feed listener failed")
            return
        self._dispatch(str(event.originator_id), event.originator_version, event.type)

    def _gap(self) -> None:
        for listener in self.gap_listeners:
            try:
                listener()
            except Exception:
                log.exception("feed listener failed")

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                if self.postgres:
                    self._listen()
                else:
                    self._poll()
            except Exception as failure:
                if self._stop.is_set():
                    return
                self._gap()
                if is_store_failure(failure):  # the database is down: no traceback each time
                    log.warning(
                        "event feed failed: the store is unavailable (%s); resuming from %d",
                        str(failure).strip()[:200],
                        self._position,
                    )
                else:
                    log.exception("event feed failed; resuming from %d", self._position)
                self._stop.wait(1.0)

    def _listen(self) -> None:
        recorder: Any = self.store.recorder
        with recorder.datastore.get_connection() as connection:
            connection.execute(f'LISTEN "{recorder.channel_name}"')
            while not self._stop.is_set():
                self._read()  # after LISTEN: a commit from now on wakes the wait below
                quiet = self.UNSEALED_SECONDS if recorder.horizon.is_behind else self.QUIET_SECONDS
                for _ in connection.notifies(timeout=quiet, stop_after=1):
                    pass

    def _poll(self) -> None:
        while not self._stop.is_set():
            if not self._read():
                self._stop.wait(self.poll_seconds)

    def _read(self) -> int:
        """Dispatch every notification after the position (up to the sealed horizon on
        PostgreSQL): how many there were."""
        read = 0
        while not self._stop.is_set():
            notes = self.store.recorder.select_notifications(self._position + 1, 500, topics=TOPICS)
            for note in notes:
                event: Any = self.store.mapper.to_domain_event(note)
                self._position = note.id
                self._dispatch_event(event)
            read += len(notes)
            if len(notes) < 500:
                return read
        return read
