"""Persistence with ``eventsourcing``: a SQLite file by default, PostgreSQL when configured.

Three aggregates live in one application:

* ``GameTable``: one per game; every domain event (table or game) is one ``Recorded`` event,
  so the stored log is the game's event log, numbered from 1 (``table_created``);
* ``Player``: a registered player (name, hash of the bearer token);
* ``Credential``: keyed by a UUID derived from the token hash, pointing at its player, so a
  token is resolved with one read and without storing the token itself.

Reads use the aggregate cache with fast-forward: a cached game only applies the events stored
since it was cached, so reading a long game costs about what a short one does.
"""

from __future__ import annotations

import hashlib
import os
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import unquote, urlparse

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate

from domain import table as tables
from domain.contract import Event
from domain.registry import rules_for

TOKEN_NAMESPACE = uuid.UUID("6c6f6e67-2d6c-6976-652d-706170797275")


class GameTable(Aggregate):
    """The event-sourced game table; ``table`` is the domain state (``domain.table.Table``)."""

    class Opened(Aggregate.Created):
        type: str
        data: dict[str, Any]
        seat: int | None
        automatic: bool
        actor: str | None
        command: str | None
        rules_version: str

    class Recorded(Aggregate.Event):
        type: str
        data: dict[str, Any]
        seat: int | None
        automatic: bool
        actor: str | None
        command: str | None
        rules_version: str

        def apply(self, aggregate: Any) -> None:
            aggregate.apply_recorded(self)

    def __init__(
        self,
        type: str,
        data: dict[str, Any],
        seat: int | None,
        automatic: bool,
        actor: str | None,
        command: str | None,
        rules_version: str,
    ) -> None:
        self.table = tables.start(Event(type, data, seat))
        self.commands: dict[str, tuple[int, int]] = {}
        if command is not None:
            self.commands[command] = (1, 1)

    def apply_recorded(self, event: GameTable.Recorded) -> None:
        rules = rules_for(self.table.kind)
        self.table = tables.evolve(self.table, Event(event.type, event.data, event.seat), rules)
        if event.command is not None:
            first, _ = self.commands.get(event.command, (event.originator_version, 0))
            self.commands[event.command] = (first, event.originator_version)

    def record(
        self,
        event: Event,
        *,
        automatic: bool = False,
        actor: str | None = None,
        command: str | None = None,
    ) -> None:
        self.trigger_event(
            self.Recorded,
            type=event.type,
            data=event.data,
            seat=event.seat,
            automatic=automatic,
            actor=actor,
            command=command,
            rules_version=self.table.rules_version,
        )


class Player(Aggregate):
    class Registered(Aggregate.Created):
        name: str
        token_hash: str

    def __init__(self, name: str, token_hash: str) -> None:
        self.name = name
        self.token_hash = token_hash


class Credential(Aggregate):
    class Issued(Aggregate.Created):
        token_hash: str
        player_id: str

    @staticmethod
    def create_id(token_hash: str) -> uuid.UUID:
        return credential_id(token_hash)

    def __init__(self, token_hash: str, player_id: str) -> None:
        self.player_id = player_id


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def credential_id(hashed: str) -> uuid.UUID:
    return uuid.uuid5(TOKEN_NAMESPACE, hashed)


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
                "POSTGRES_CONNECT_TIMEOUT": "5",
                "POSTGRES_LOCK_TIMEOUT": "5",
                "POSTGRES_ENABLE_DB_FUNCTIONS": "y",
                "POSTGRES_PRE_PING": "y",
            }
        return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": self.sqlite_path}

    @property
    def sqlite_path(self) -> str:
        path = self.url.removeprefix("sqlite:///").removeprefix("sqlite://")
        if path != ":memory:" and not path.startswith("file:"):
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        return path


DEFAULT_DATABASE_URL = "sqlite:///papyrus.sqlite"


def open_store(database_url: str) -> Store:
    return Store(env=Database(database_url).env())
