"""The event store application over SQLite (the default) or PostgreSQL (``eventsourcing``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar
from urllib.parse import unquote, urlparse

from eventsourcing.application import Application


class Store(Application):
    """The event store application. Configure with ``env_for(database_url)``."""

    name = "papyrus"
    env: ClassVar[dict[str, str]] = {
        "AGGREGATE_CACHE_MAXSIZE": "2000",
        "AGGREGATE_CACHE_FASTFORWARD": "y",
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "y",
    }


@dataclass(frozen=True)
class Database:
    """Where the events live: ``sqlite`` with a file path, or ``postgres`` with its parameters."""

    url: str

    @property
    def is_postgres(self) -> bool:
        return self.url.startswith(("postgresql://", "postgres://"))

    def env(self) -> dict[str, str]:
        if self.is_postgres:
            parts = urlparse(self.url)
            return {
                "PERSISTENCE_MODULE": "eventsourcing.postgres",
                "POSTGRES_DBNAME": unquote(parts.path.lstrip("/")) or "postgres",
                "POSTGRES_HOST": parts.hostname or "127.0.0.1",
                "POSTGRES_PORT": str(parts.port or 5432),
                "POSTGRES_USER": unquote(parts.username or "postgres"),
                "POSTGRES_PASSWORD": unquote(parts.password or ""),
                "POSTGRES_POOL_SIZE": os.environ.get("PAPYRUS_POOL_SIZE", "10"),
                "POSTGRES_MAX_OVERFLOW": "10",
                "POSTGRES_CONNECT_TIMEOUT": os.environ.get("PAPYRUS_CONNECT_TIMEOUT", "3"),
                "POSTGRES_LOCK_TIMEOUT": "5",
                "POSTGRES_ENABLE_DB_FUNCTIONS": "y",
                "POSTGRES_PRE_PING": "y",
            }
        return {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": self.sqlite_path,
            # one writer at a time on a SQLite file: wait for it rather than fail
            "SQLITE_LOCK_TIMEOUT": os.environ.get("PAPYRUS_SQLITE_LOCK_TIMEOUT", "30"),
        }

    @property
    def sqlite_path(self) -> str:
        path = self.url.removeprefix("sqlite:///").removeprefix("sqlite://")
        if path != ":memory:" and not path.startswith("file:"):
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        return path


DEFAULT_DATABASE_URL = "sqlite:///papyrus.sqlite"


#: PostgreSQL advisory lock held while tables are created (two replicas starting together on an
#: empty database would otherwise race on CREATE TABLE)
SCHEMA_LOCK = 7_104_733


@contextmanager
def schema_lock(database: Database) -> Iterator[None]:
    if not database.is_postgres:
        yield
        return
    import psycopg

    with psycopg.connect(database.url, autocommit=True) as connection:
        connection.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK,))
        try:
            yield
        finally:
            connection.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK,))


def open_store(database_url: str) -> Store:
    database = Database(database_url)
    with schema_lock(database):
        return Store(env=database.env())
