"""The event store application over SQLite (the default) or PostgreSQL (``eventsourcing``)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar
from urllib.parse import unquote, urlparse, urlsplit, urlunsplit

from eventsourcing.application import Application


class Store(Application):
    """The event store application, configured with ``Database.env()`` (see ``open_store``)."""

    name = "papyrus"
    env: ClassVar[dict[str, str]] = {
        "AGGREGATE_CACHE_MAXSIZE": "2000",
        "AGGREGATE_CACHE_FASTFORWARD": "y",
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "y",
    }


#: what a database URL may start with
SCHEMES = ("sqlite://", "postgresql://", "postgres://")


@dataclass(frozen=True)
class StoreOptions:
    """How the store talks to its database (``papyrus serve --help`` lists where they come
    from; these defaults serve tests and scripts)."""

    #: PostgreSQL connections of the event store per process (it may open 10 more under load)
    pool_size: int = 10
    #: seconds to wait for a new PostgreSQL connection (libpq's ``connect_timeout``: 2 at least)
    connect_timeout: int = 2
    #: seconds a writer waits for the SQLite file's write lock
    sqlite_lock_timeout: int = 30
    #: SQLite's ``synchronous`` level in WAL mode (``service.store.sqlite``): ``normal`` keeps
    #: every commit through a crash of the process, ``full`` through a power loss too
    sqlite_synchronous: str = "normal"
    #: seconds one PostgreSQL statement may run (lock waits included) before it is cancelled
    statement_timeout: float = 2.0
    #: seconds a store call waits for a connection of the event store's pool (while the
    #: database is unreachable this is how long a call takes to fail)
    pool_timeout: float = 1.0

    def postgres_options(self) -> str:
        """libpq ``options`` for every PostgreSQL connection of the store and read models."""
        return session_options(self.statement_timeout)


def session_options(statement_timeout: float) -> str:
    """libpq ``options`` that cancel a statement after ``statement_timeout`` seconds."""
    return f"-c statement_timeout={max(1, round(statement_timeout * 1000))}"


def check_url(url: str) -> None:
    """Refuse a URL that is neither SQLite nor PostgreSQL (it would become a file name)."""
    if not url.startswith(SCHEMES):
        scheme = url.split("://", 1)[0] if "://" in url else None
        what = f"unknown database URL scheme {scheme!r}" if scheme else "not a database URL"
        raise ValueError(
            f"{what} ({masked(url)}): use sqlite:///path/to/file.sqlite or "
            "postgresql://user:password@host:port/dbname"
        )


def masked(url: str) -> str:
    """The URL with its password replaced by ``***`` (for logs and banners)."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:  # not parseable as a URL (a bad port...): show only the scheme
        return url.split("://", 1)[0] + "://***" if "://" in url else "***"
    if not password:
        return url
    user = parts.username or ""
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


@dataclass(frozen=True)
class Database:
    """Where the events live: ``sqlite`` with a file path, or ``postgres`` with its parameters."""

    url: str
    options: StoreOptions = field(default_factory=StoreOptions)

    def __post_init__(self) -> None:
        check_url(self.url)

    @property
    def is_postgres(self) -> bool:
        return self.url.startswith(("postgresql://", "postgres://"))

    def env(self) -> dict[str, str]:
        if self.is_postgres:
            parts = urlparse(self.url)
            options = self.options
            return {
                # the library's factory with bounded waits (``service.store.postgres``)
                "PERSISTENCE_MODULE": "service.store.postgres:Factory",
                "POSTGRES_DBNAME": unquote(parts.path.lstrip("/")) or "postgres",
                "POSTGRES_HOST": parts.hostname or "127.0.0.1",
                "POSTGRES_PORT": str(parts.port or 5432),
                "POSTGRES_USER": unquote(parts.username or "postgres"),
                "POSTGRES_PASSWORD": unquote(parts.password or ""),
                "POSTGRES_POOL_SIZE": str(options.pool_size),
                "POSTGRES_MAX_OVERFLOW": "10",
                "POSTGRES_CONNECT_TIMEOUT": str(options.connect_timeout),
                "POSTGRES_POOL_TIMEOUT": str(options.pool_timeout),
                "POSTGRES_STATEMENT_TIMEOUT": str(options.statement_timeout),
                # whole seconds (the library's unit); the statement timeout bounds it anyway
                "POSTGRES_LOCK_TIMEOUT": str(max(1, math.ceil(options.statement_timeout))),
                "POSTGRES_ENABLE_DB_FUNCTIONS": "y",
                "POSTGRES_PRE_PING": "y",
            }
        return {
            # the library's factory, its connections at ``sqlite_synchronous``
            "PERSISTENCE_MODULE": "service.store.sqlite:Factory",
            "SQLITE_DBNAME": self.sqlite_path,
            "SQLITE_SYNCHRONOUS": self.options.sqlite_synchronous,
            # one writer at a time on a SQLite file: wait for it rather than fail
            "SQLITE_LOCK_TIMEOUT": str(self.options.sqlite_lock_timeout),
        }

    @property
    def sqlite_path(self) -> str:
        path = self.url.removeprefix("sqlite:///").removeprefix("sqlite://")
        if path != ":memory:" and not path.startswith("file:"):
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        return path


#: PostgreSQL advisory lock held while tables are created (two replicas starting together on an
#: empty database would otherwise race on CREATE TABLE)
SCHEMA_LOCK = 7_104_733


@contextmanager
def schema_lock(database: Database) -> Iterator[None]:
    if not database.is_postgres:
        yield
        return
    import psycopg

    # no statement timeout here: waiting for another process to create the tables is expected
    timeout = database.options.connect_timeout
    with psycopg.connect(database.url, autocommit=True, connect_timeout=timeout) as connection:
        connection.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK,))
        try:
            yield
        finally:
            connection.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK,))


def open_store(database_url: str, options: StoreOptions | None = None) -> Store:
    """The event store on ``database_url`` (its tables created if missing)."""
    database = Database(database_url, options or StoreOptions())
    with schema_lock(database):
        return Store(env=database.env())
