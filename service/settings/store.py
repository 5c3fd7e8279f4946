"""The settings of the event store and the read models (pool, timeouts, batches).

``Settings`` inherits them; they are declared, read and listed in ``--help`` like the others.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from service.app.cache import GAME_CACHE
from service.readmodels.models import BATCH
from service.settings.reading import (
    BOTH,
    at_least_seconds,
    between,
    integer,
    lowercase,
    one_of,
    seconds,
    setting,
)
from service.store.database import StoreOptions

_STORE = StoreOptions()


@dataclass(frozen=True, kw_only=True)
class StoreSettings:
    projection_batch: int = setting(
        BATCH,
        env="PAPYRUS_PROJECTION_BATCH",
        flag="--projection-batch",
        help="events applied to the read models per transaction",
        parse=integer,
        check=between(1),
        commands=BOTH,
        metavar="EVENTS",
    )
    pool_size: int = setting(
        _STORE.pool_size,
        env="PAPYRUS_POOL_SIZE",
        flag="--pool-size",
        help="PostgreSQL connections of the event store per process (it may open 10 more "
        "under load)",
        parse=integer,
        check=between(1),
        commands=BOTH,
    )
    connect_timeout: int = setting(
        _STORE.connect_timeout,
        env="PAPYRUS_CONNECT_TIMEOUT",
        flag="--connect-timeout",
        help="seconds to wait for a new PostgreSQL connection (libpq waits 2 at least)",
        parse=integer,
        check=between(1),
        commands=BOTH,
        metavar="SECONDS",
    )
    statement_timeout: float = setting(
        _STORE.statement_timeout,
        env="PAPYRUS_STATEMENT_TIMEOUT",
        flag="--statement-timeout",
        help="seconds one PostgreSQL statement (of the event store or the read models) may run, "
        "lock waits included, before it is cancelled and the request answers UNAVAILABLE",
        parse=seconds,
        check=at_least_seconds(0.001),
        commands=BOTH,
        metavar="SECONDS",
    )
    pool_timeout: float = setting(
        _STORE.pool_timeout,
        env="PAPYRUS_POOL_TIMEOUT",
        flag="--pool-timeout",
        help="seconds a request waits for a connection of the event store's PostgreSQL pool "
        "(while the database is unreachable: how long the first request takes to answer "
        "UNAVAILABLE; the next ones are answered at once for a few seconds)",
        parse=seconds,
        check=at_least_seconds(0.001),
        commands=BOTH,
        metavar="SECONDS",
    )
    sqlite_lock_timeout: int = setting(
        _STORE.sqlite_lock_timeout,
        env="PAPYRUS_SQLITE_LOCK_TIMEOUT",
        flag="--sqlite-lock-timeout",
        help="seconds a writer waits for the SQLite file's write lock",
        parse=integer,
        check=between(0),
        commands=BOTH,
        metavar="SECONDS",
    )
    sqlite_synchronous: str = setting(
        _STORE.sqlite_synchronous,
        env="PAPYRUS_SQLITE_SYNCHRONOUS",
        flag="--sqlite-synchronous",
        help="SQLite's synchronous level (WAL mode): normal keeps every acknowledged action "
        "through a crash or kill -9 of the process; full also through a power loss or an "
        "operating-system crash, at one fsync per action",
        parse=lowercase,
        check=one_of(("normal", "full")),
        commands=BOTH,
        metavar="LEVEL",
    )
    game_cache: int = setting(
        GAME_CACHE,
        env="PAPYRUS_GAME_CACHE",
        flag="--game-cache",
        help="games kept in memory per process, least recently used dropped first (a read of "
        "a game nothing changed asks the database nothing); a finished 4-player game of 200 "
        "events holds about 240 KiB; 0: every read asks the database",
        parse=integer,
        check=between(0),
        metavar="GAMES",
    )

    @property
    def store_options(self) -> StoreOptions:
        """What the store takes: each of its options is the setting of the same name."""
        return StoreOptions(**{f.name: getattr(self, f.name) for f in fields(StoreOptions)})
