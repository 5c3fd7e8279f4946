"""The orchestrator's routes on the public port: ``/healthz`` (alive), ``/readyz`` (the event
store answers). The metrics are on the operator's port (``service.api.metrics_port``)."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from service.runtime import Runtime
from service.store.database import Database


async def healthz(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


async def readyz(request: Request) -> Response:
    """The event store answers a query within a few seconds (checked directly, without the
    library's retries, so that an orchestrator gets its answer quickly)."""
    runtime: Runtime = request.app.state.runtime
    try:
        async with asyncio.timeout(5.0):  # not wait_for, which can drop a cancellation (3.11)
            await asyncio.get_running_loop().run_in_executor(None, probe, runtime.database)
    except Exception as failure:  # the store is what we check: any failure means not ready
        runtime.app.breaker.trip()
        return JSONResponse(
            {"status": "unavailable", "code": "UNAVAILABLE", "detail": str(failure)[:200]},
            status_code=503,
        )
    return JSONResponse({"status": "ok"})


def probe(database: Database) -> None:
    if database.is_postgres:
        import psycopg

        options = database.options
        with psycopg.connect(
            database.url,
            connect_timeout=options.connect_timeout,
            options=options.postgres_options(),
            autocommit=True,
        ) as connection:
            connection.execute("SELECT 1")
        return
    import sqlite3

    lite = sqlite3.connect(f"file:{database.sqlite_path}?mode=ro", uri=True, timeout=3)
    try:
        lite.execute("SELECT count(*) FROM sqlite_master")
    finally:
        lite.close()
