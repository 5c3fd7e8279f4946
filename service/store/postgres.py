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
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

from eventsourcing.persistence import InterfaceError, OperationalError
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresFactory
from eventsourcing.utils import Environment, EnvType

from service.store.database import session_options

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
    """A read: tried again once if the first try failed at once (a dead connection)."""
    inner = unretried(method)

    @functools.wraps(method)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        started = time.monotonic()
        try:
            return inner(*args, **kwargs)
        except (InterfaceError, OperationalError):
            if time.monotonic() - started > QUICK_FAILURE:
                raise
        return inner(*args, **kwargs)

    return bounded


class Recorder(PostgresApplicationRecorder):
    """The library's application recorder, without its long retries."""

    insert_events = once(PostgresApplicationRecorder.insert_events)
    select_events = read_again_if_quick(PostgresApplicationRecorder.select_events)
    select_notifications = read_again_if_quick(PostgresApplicationRecorder.select_notifications)
    max_notification_id = read_again_if_quick(PostgresApplicationRecorder.max_notification_id)


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
