"""What the event store holds: the aggregates and the log entries they record.

The aggregates are defined in this module on purpose: a stored event's topic is
``module:QualName`` (``service.store:GameTable.Recorded``), so moving these classes would
orphan every log already written. The store application and its database settings are in
``service.store.database``; how a stored event holds its log entry, in ``service.store.entries``.

Three aggregates live in one application:

* ``GameTable``: one per game; every domain event (table or game) is one ``Recorded`` event,
  so the stored log is the game's event log, numbered from 1 (``table_created``);
* ``Player``: a registered player (name, hash of their one live bearer token), who may rotate
  the token, log out (no live token) or delete the account (``Deleted``: the name is shown as
  ``domain.redaction.DELETED_PLAYER`` everywhere from then on);
* ``Credential``: keyed by a UUID derived from the token hash, pointing at its player, so a
  token is resolved with one read and without storing the token itself; ``Revoked`` when the
  player rotates it, logs out or deletes the account.

Reads use the aggregate cache with fast-forward: a cached game only applies the events stored
since it was cached, so reading a long game costs about what a short one does.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import uuid
from datetime import datetime
from typing import TYPE_CHECKING, Any, cast

from eventsourcing.domain import Aggregate
from eventsourcing.utils import get_topic

from domain import table as tables
from domain.contract import JSON, Event
from domain.log import GENESIS, Entry
from domain.registry import rules_for
from service.store.entries import EntryFields, entry_of, imported_by, redacted_of, sealed, stamp

TOKEN_NAMESPACE = uuid.UUID("6c6f6e67-2d6c-6976-652d-706170797275")


class GameTable(Aggregate):
    """The event-sourced game table; ``table`` is the domain state (``domain.table.Table``).

    Each stored event is one log entry (``domain.log.Entry``): its version is the aggregate
    version, its time the event timestamp, and its hash seals it to the entry before.
    """

    class Opened(EntryFields, Aggregate.Created):
        imported_by: str | None = None
        """The player who imported this game (``importGame``); not part of the hashed entry,
        which must stay what the source server wrote. Imported games are copies: they do
        not count again in profiles, ratings and statistics."""
        redacted: list[int] | None = None
        """An imported game's entries whose sealed names the source had erased (account
        deletion, ``domain.redaction``): their hashes were taken as recorded, and ``verifyLog``
        takes them so again. Not part of the hashed entry either."""

        def apply(self, aggregate: Any) -> None:
            entry = entry_of(self)
            aggregate.table = tables.start(entry)
            aggregate.imported_by = imported_by(self)
            aggregate.redacted = redacted_of(self)
            aggregate.commands = {}
            if entry.command is not None:
                aggregate.commands[entry.command] = (1, 1)

    class Recorded(EntryFields, Aggregate.Event):

        def apply(self, aggregate: Any) -> None:
            aggregate.apply_entry(entry_of(self))

    if TYPE_CHECKING:  # set by ``Opened.apply`` (annotations here would become __init__ args)
        table: tables.Table
        imported_by: str | None
        redacted: list[int]
        commands: dict[str, tuple[int, int]]
        """Idempotency: each command id with the first and last version it recorded."""
        now_ms: int | None
        """The time of the command recording on the game (``Tables.command``), stamped on
        its entries; absent outside a command."""

    def __deepcopy__(self, memo: dict[int, Any]) -> GameTable:
        """A private copy for a command or a reader: only what events change is copied."""
        clone = copy.copy(self)
        clone.table = copy.deepcopy(self.table, memo)
        clone.commands = dict(self.commands)
        clone._pending_events = list(self._pending_events)
        return clone

    def apply_entry(self, entry: Entry) -> None:
        rules = rules_for(self.table.kind)
        self.table = tables.evolve(self.table, entry, rules)
        if entry.command is not None:
            first, _ = self.commands.get(entry.command, (entry.version, 0))
            self.commands[entry.command] = (first, entry.version)

    def record(
        self,
        event: Event,
        *,
        automatic: bool = False,
        by_seat: int | None = None,
        command: str | None = None,
        action: JSON | None = None,
        actor: str | None = None,
        at: datetime | None = None,
        recorded_hash: str | None = None,
    ) -> None:
        """Record one entry after the last, sealed to it by its hash (``recorded_hash``: the
        hash its source recorded, for an imported entry whose sealed name was erased). Its time
        is ``at``, else the time of the command recording it (``now_ms``, set by
        ``Tables.command``), else the store's."""
        now_ms = getattr(self, "now_ms", None)
        when = at or (self.Recorded.create_timestamp() if now_ms is None else stamp(now_ms))
        self.trigger_event(
            self.Recorded,
            **sealed(
                event,
                self.version + 1,
                when,
                rules_version=self.table.rules_version,
                after=(self.table.last_hash, self.table.seed, self.table.seed_salt),
                recorded_hash=recorded_hash,
                automatic=automatic,
                by_seat=by_seat,
                command=command,
                action=action,
                actor=actor,
            ),
        )


def open_table(
    opening: Event,
    *,
    rules_version: str,
    actor: str | None,
    seed: str,
    command: str | None = None,
    at: datetime | None = None,
    game_id: uuid.UUID | None = None,
    imported_by: str | None = None,
    redacted: list[int] | None = None,
) -> GameTable:
    """A new table whose first entry (version 1, ``table_created``) is ``opening``; its hash is
    salted with ``seed`` and the ``seed_salt`` the opening holds (``domain.log``)."""
    members = sealed(
        Event(opening.type, opening.data),  # the table's first entry: no seat's
        1,
        at or GameTable.Opened.create_timestamp(),
        rules_version=rules_version,
        after=(GENESIS, seed, opening.data.get("seed_salt")),
        command=command,
        actor=actor,
    )
    opened_class: Any = GameTable.Opened
    event = opened_class(
        originator_topic=get_topic(GameTable),
        originator_id=game_id or uuid.uuid4(),
        originator_version=1,
        imported_by=imported_by,
        redacted=redacted or None,
        **members,
    )
    table = cast(GameTable, event.mutate(None))
    table._pending_events.append(event)
    return table


class Player(Aggregate):
    class Registered(Aggregate.Created):
        name: str
        token_hash: str

    class TokenRotated(Aggregate.Event):
        """A new live token replaced the one before (whose ``Credential`` is revoked)."""

        token_hash: str

        def apply(self, aggregate: Any) -> None:
            aggregate.token_hash = self.token_hash

    class LoggedOut(Aggregate.Event):
        """The live token was revoked. A token is the only way to sign in, so the player has
        no session any more (their games and profile stay)."""

        def apply(self, aggregate: Any) -> None:
            aggregate.token_hash = None

    class Deleted(Aggregate.Event):
        """The account was deleted: no token, and the name is shown nowhere any more."""

        def apply(self, aggregate: Any) -> None:
            aggregate.token_hash = None
            aggregate.name = None
            aggregate.deleted = True

    def __init__(self, name: str, token_hash: str) -> None:
        self.name: str | None = name
        self.token_hash: str | None = token_hash
        self.deleted = False

    def rotate_token(self, token_hash: str) -> None:
        self.trigger_event(self.TokenRotated, token_hash=token_hash)

    def log_out(self) -> None:
        self.trigger_event(self.LoggedOut)

    def delete(self) -> None:
        self.trigger_event(self.Deleted)


class Credential(Aggregate):
    class Issued(Aggregate.Created):
        token_hash: str
        player_id: str

    @staticmethod
    def create_id(token_hash: str) -> uuid.UUID:
        return credential_id(token_hash)

    class Revoked(Aggregate.Event):
        """The token no longer signs anybody in (``reason``: rotated, logged out, deleted)."""

        reason: str

        def apply(self, aggregate: Any) -> None:
            aggregate.revoked = True

    def __init__(self, token_hash: str, player_id: str) -> None:
        self.player_id = player_id
        self.revoked = False

    def revoke(self, reason: str) -> None:
        self.trigger_event(self.Revoked, reason=reason)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@functools.lru_cache(maxsize=4096)
def credential_id(hashed: str) -> uuid.UUID:
    """The id of a token's credential (a name-based UUID of its hash): asked on every request
    with a token, so the last few thousand are remembered (it is a pure function)."""
    return uuid.uuid5(TOKEN_NAMESPACE, hashed)
