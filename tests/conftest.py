"""Shared fixtures: databases (SQLite file, real PostgreSQL) and a real HTTP server.

PostgreSQL tests use ``PAPYRUS_TEST_POSTGRES_URL`` (default: the local server's ``test``
database) to create a fresh database per test. In CI (``CI=true``) an unreachable PostgreSQL
fails those tests; elsewhere they are skipped with the reason printed.
"""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
import traceback
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse, urlunparse

import pytest

POSTGRES_URL = os.environ.get(
    "PAPYRUS_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
)
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def postgres_problem() -> str | None:
    try:
        import psycopg

        with psycopg.connect(POSTGRES_URL, connect_timeout=3) as connection:
            connection.execute("SELECT 1")
    except Exception as failure:  # any failure means: not reachable
        return f"PostgreSQL at {POSTGRES_URL} is not reachable: {failure}"
    return None


_POSTGRES_PROBLEM: list[str | None] = []


def require_postgres() -> None:
    if not _POSTGRES_PROBLEM:
        _POSTGRES_PROBLEM.append(postgres_problem())
    problem = _POSTGRES_PROBLEM[0]
    if problem is not None:
        if IN_CI:
            pytest.fail(f"{problem} (CI=true: the PostgreSQL tests must run)")
        pytest.skip(problem)


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database for one test (dropped afterwards)."""
    require_postgres()
    import psycopg

    name = f"papyrus_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    parts = urlparse(POSTGRES_URL)
    url = urlunparse(parts._replace(path=f"/{name}"))
    try:
        yield url
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def sqlite_url(tmp_path) -> str:  # type: ignore[no-untyped-def]
    return f"sqlite:///{tmp_path / 'papyrus.sqlite'}"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest) -> str:
    """Each test using this runs once on SQLite and once on PostgreSQL."""
    if request.param == "sqlite":
        return str(request.getfixturevalue("sqlite_url"))
    return str(request.getfixturevalue("postgres_url"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A real uvicorn server on a free loopback port, in a thread."""

    def __init__(self, database_url: str, **settings: Any) -> None:
        """``settings``: more ``Settings`` than the database (e.g. ``clock_offset_file``)."""
        import uvicorn

        from service.asgi import create_app
        from service.cli import websocket_options
        from service.settings import Settings

        self.database_url = database_url
        # bound here and handed to uvicorn: a port picked free and bound later could be taken
        # in between by another process of a busy machine (the start then fails)
        self.socket = socket.socket()
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind(("127.0.0.1", 0))
        self.port = int(self.socket.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/graphql"
        settings.setdefault("metrics_port", free_port())  # the operator's port, of its own
        self.metrics_url = f"http://127.0.0.1:{settings['metrics_port']}/metrics"
        chosen = Settings(database_url=database_url, **settings)
        config = uvicorn.Config(
            create_app(chosen),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            proxy_headers=False,  # as `papyrus serve`: the app reads X-Forwarded-For itself
            **websocket_options(chosen),  # the websockets ``papyrus serve`` runs
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True
        )

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        if (bound := getattr(self, "socket", None)) is not None:  # a subclass may bind its own
            bound.close()
        if self.thread.is_alive():  # a server that does not stop: say what it waits for
            state = self.server.server_state
            stacks = "".join(
                f"\n{thread.name}:\n" + "".join(traceback.format_stack(frame))
                for thread in threading.enumerate()
                if (frame := sys._current_frames().get(thread.ident or -1)) is not None
            )
            raise AssertionError(
                f"the server did not stop within 30 s: {len(state.connections)} connections, "
                f"{len(state.tasks)} tasks still running{stacks}"
            )


@pytest.fixture
def server(database_url: str) -> Iterator[Server]:
    with Server(database_url) as running:
        yield running


@pytest.fixture
def two_processes(postgres_url: str) -> Iterator[tuple[Any, Any]]:
    """Two ``papyrus serve`` processes on one PostgreSQL (``tests.serving``)."""
    from tests.serving import processes  # it imports this module

    with processes(postgres_url) as (first, second):
        yield first, second


@pytest.fixture
def sqlite_server(sqlite_url: str) -> Iterator[Server]:
    with Server(sqlite_url) as running:
        yield running


def settle_bots(app: Any, game_id: str) -> int:
    """Play the bots of one game of an ``Application`` built without a runtime (so without a
    running bot driver) until none must act, on this thread: deterministic, as the driver plays
    them (``BotDriver.step``, one command per move). The number of bot moves recorded."""
    from service.app.bots.driver import BotDriver

    return BotDriver(app.tables).settle(game_id)
