"""The event store on PostgreSQL: the library's factory with every wait bounded.

``eventsourcing.postgres`` waits long when the database is down: each recorder call is retried
ten times, and each try waits for a pooled connection as long as the connect timeout. Here
(``PERSISTENCE_MODULE=service.store.postgres:Factory``, set by ``Database.env``):

* a call waits ``POSTGRES_POOL_TIMEOUT`` seconds at most for a pooled connection;
* every connection is opened with libpq's ``connect_timeout`` and a server-side
  ``statement_timeout`` (``POSTGRES_STATEMENT_TIMEOUT`` seconds; lock waits count);
* writes are never retried (a retried insert whose first try committed would be refused on the
  version key anyway, and the caller could not tell), and a read is retried once only when its
  first try failed at once (a connection that died between the pool's check and its use).

So a call fails within about ``pool timeout`` or ``statement timeout`` seconds, and the
application's breaker answers ``UNAVAILABLE`` at once for the calls that follow.

Inserts go through the library's database function (one round trip, writers concurrent), which
here also holds ``INSERT_LOCK`` (a shared advisory lock) until it commits; the notification log
is read only up to the sealed horizon (``service.store.horizon``), so no reader ever passes an
id whose row may still commit: ``select_notifications`` stops there and
``max_notification_id`` is the horizon itself.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

from eventsourcing.persistence import InterfaceError, Notification, OperationalError
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore, PostgresFactory
from eventsourcing.utils import Environment, EnvType
from psycopg.sql import SQL, Identifier, Literal

from service.store.database import session_options
from service.store.failures import is_store_failure
from service.store.horizon import Horizon

F = TypeVar("F", bound=Callable[..., Any])

POOL_TIMEOUT = "POSTGRES_POOL_TIMEOUT"
STATEMENT_TIMEOUT = "POSTGRES_STATEMENT_TIMEOUT"
#: a failed read is tried again only if it failed faster than this (seconds)
QUICK_FAILURE = 0.2


def unretried(method: Any) -> Callable[..., Any]:
    """The library's method without its retry decorator."""
    return cast(Callable[..., Any], method.__wrapped__)


def once(method: Any) -> Any:
    """A write: one try."""
    return functools.wraps(method)(unretried(method))


def read_again_if_quick(method: Any) -> Any:
    """A read of the library's: tried again once if the first try failed at once."""
    return functools.wraps(method)(again_if_quick(unretried(method)))


def again_if_quick(inner: F) -> F:
    """A read: tried again once if the first try failed at once (a dead connection)."""

    @functools.wraps(inner)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        started = time.monotonic()
        try:
            return inner(*args, **kwargs)
        except (InterfaceError, OperationalError):
            if time.monotonic() - started > QUICK_FAILURE:
                raise
        return inner(*args, **kwargs)

    return cast(F, bounded)


#: the advisory lock (two int4 keys) every insert holds, shared, from before it takes its
#: notification ids until its commit is visible (``service.store.horizon``)
INSERT_LOCK = (7_104_733, 1)
#: visible ids a look reads past the horizon (it seals up to the first missing one)
LOOK_IDS = 2000


class Recorder(PostgresApplicationRecorder):
    """The library's application recorder, without its long retries, whose notification log
    is read up to the sealed horizon only (module docstring)."""

    insert_events = once(PostgresApplicationRecorder.insert_events)
    select_events = read_again_if_quick(PostgresApplicationRecorder.select_events)
    _select_notifications = read_again_if_quick(PostgresApplicationRecorder.select_notifications)

    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.horizon = Horizon()
        self._looking = threading.Lock()
        self._begun = 0  # looks begun (counted under ``_looking``, before their statements)
        self._last: tuple[int, int | BaseException] = (0, 0)  # the last look: index, outcome
        pool_timeout = float(datastore.pool.timeout or 1.0)
        #: how long a call waits for the look in progress (which is bounded by the pool's wait,
        #: the statement timeout and one quick retry) before it gives up
        self._look_wait = pool_timeout + 2 * float(self.datastore.lock_timeout or 2) + 1.0
        self.sql_create_statements[self.create_insert_function_statement_index] = (
            self._insert_function()
        )
        sequence = f"{self.events_table_name}_notification_id_seq"  # the bigserial's
        self._look_statements = (
            SQL("SELECT last_value, is_called FROM {0}").format(
                Identifier(self.datastore.schema, sequence)
            ),
            SQL(
                "SELECT virtualtransaction FROM pg_locks WHERE locktype = 'advisory'"
                " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                " AND classid = {0} AND objid = {1} AND objsubid = 2"
            ).format(Literal(INSERT_LOCK[0]), Literal(INSERT_LOCK[1])),
            SQL(
                "SELECT notification_id FROM {0} WHERE notification_id > %s"
                " ORDER BY notification_id LIMIT {1}"
            ).format(Identifier(self.datastore.schema, self.events_table_name), Literal(LOOK_IDS)),
        )

    def _insert_function(self) -> Any:
        """The library's insert function, holding ``INSERT_LOCK`` (shared) first."""
        return SQL(
            "CREATE OR REPLACE FUNCTION "
            "{schema}.{insert_events}(events {schema}.{event}[]) "
            "RETURNS SETOF bigint "
            "LANGUAGE plpgsql "
            "AS "
            "$BODY$"
            "BEGIN"
            "    SET LOCAL lock_timeout = '{lock_timeout}s';"
            "    PERFORM pg_advisory_xact_lock_shared({key1}, {key2});"
            "    NOTIFY {channel};"
            "    RETURN QUERY"
            "    INSERT INTO {schema}.{table} AS t ("
            "    originator_id, originator_version, topic, state)"
            "    SELECT originator_id, originator_version, topic, state"
            "    FROM unnest(events)"
            "    RETURNING notification_id;"
            "END;"
            "$BODY$"
        ).format(
            insert_events=Identifier(self.pg_function_name_insert_events),
            lock_timeout=self.datastore.lock_timeout,
            key1=Literal(INSERT_LOCK[0]),
            key2=Literal(INSERT_LOCK[1]),
            channel=Identifier(self.channel_name),
            event=Identifier(self.stored_event_type_name),
            schema=Identifier(self.datastore.schema),
            table=Identifier(self.events_table_name),
        )

    def sealed(self) -> int:
        """The sealed horizon, from a look begun after this call was made.

        One look at a time, each told to the horizon before the next starts (a look's writers
        judge only the looks made before it: ``Horizon.advance``). Calls that arrive while a
        look is in progress wait for it and then share the next one: a look that *began* after
        a call arrived saw every write committed before it, so its outcome answers every call
        that was waiting — its horizon, or its failure. While the database is down, the calls
        in flight thus fail together after one pool wait instead of one after another (a
        request waited four pool timeouts in a queue of looks; ``tests/service/fleet/
        test_notification_order.py``)."""
        arrived = self._begun
        if not self._looking.acquire(timeout=self._look_wait):
            raise OperationalError("the horizon could not be looked at in time")
        try:
            index, outcome = self._last
            if index > arrived:  # a look that began after this call arrived has ended
                if not isinstance(outcome, BaseException):
                    return outcome
                if is_store_failure(outcome):  # a bug's failure is not shared: look again
                    raise OperationalError(f"the horizon's look failed: {outcome}") from outcome
            self._begun += 1
            mine = self._begun
            try:
                sealed = self._look()
            except BaseException as failure:
                self._last = (mine, failure)
                raise
            self._last = (mine, sealed)
            return sealed
        finally:
            self._looking.release()

    @again_if_quick
    def _look(self) -> int:
        """Look again at the sequence and the writers in flight (under ``_looking``)."""
        last_id, writers, visible = self._look_statements
        # the three statements in this order, in one round trip
        with self.datastore.get_connection() as conn, conn.pipeline():
            last, flying, seen = conn.cursor(), conn.cursor(), conn.cursor()
            last.execute(last_id, prepare=True)
            flying.execute(writers, prepare=True)
            seen.execute(visible, (self.horizon.sealed,), prepare=True)
            row = last.fetchone()  # the first fetch sends all three
            in_flight = {str(r["virtualtransaction"]) for r in flying.fetchall()}
            ids = [int(r["notification_id"]) for r in seen.fetchall()]
            assert row is not None
            taken = int(row["last_value"]) if row["is_called"] else 0
            return self.horizon.advance(taken, in_flight, ids)

    def _create_table(self, curs: Any) -> None:
        """The library's statements, less its ``CREATE UNIQUE INDEX IF NOT EXISTS`` when the
        index is there. PostgreSQL takes the table's SHARE lock before it looks for the index:
        on a live table the statement waits for every write in flight (under the statement
        timeout) while every new write queues behind it. A replica restarted under load failed
        its start on that wait, and its fleet stood still while it waited."""
        index = f"{self.datastore.schema}.{self.notification_id_index_name}"
        present = curs.execute("SELECT to_regclass(%s) IS NOT NULL AS present", (index,))
        skip_index = bool(present.fetchone()["present"])
        for statement in self.sql_create_statements:
            text = statement.as_string()
            if "CREATE TYPE" in text or (skip_index and "CREATE UNIQUE INDEX" in text):
                continue
            curs.execute(statement, prepare=False)

    def select_notifications(
        self,
        start: int | None,
        limit: int,
        stop: int | None = None,
        topics: Sequence[str] = (),
        *,
        inclusive_of_start: bool = True,
    ) -> Sequence[Notification]:
        """The library's read, never past the sealed horizon."""
        sealed = self.sealed()
        stop = sealed if stop is None else min(stop, sealed)
        first = (start or 0) if inclusive_of_start else (start or 0) + 1
        if first > stop:
            return []
        return cast(
            Sequence[Notification],
            self._select_notifications(
                start, limit, stop, topics, inclusive_of_start=inclusive_of_start
            ),
        )

    def max_notification_id(self) -> int | None:
        """The sealed horizon: the last position a reader can reach and keep (0: none)."""
        return self.sealed()


class Factory(PostgresFactory):
    """The library's factory: its recorder is ``Recorder``, its pool's waits are bounded."""

    application_recorder_class = Recorder

    def __init__(self, env: Environment | EnvType | None) -> None:
        super().__init__(env)
        pool_timeout = float(self.env.get(POOL_TIMEOUT) or 1.0)
        statement_timeout = float(self.env.get(STATEMENT_TIMEOUT) or 2.0)
        connect_timeout = int(self.env.get(self.POSTGRES_CONNECT_TIMEOUT) or 2)
        pool: Any = self.datastore.pool
        pool.timeout = pool_timeout
        pool.kwargs = {
            **pool.kwargs,
            "connect_timeout": connect_timeout,
            "options": session_options(statement_timeout),
        }
