"""The ASGI application: GraphQL (+ GraphiQL and websockets), REST, health (API.md "Transport").

``create_app(settings)`` builds everything; resources (the event store, the read model, the
worker threads) are opened in the lifespan, nothing at import time.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from cross_web import HTTPException
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.types import Receive, Scope, Send
from strawberry.asgi import GraphQL
from strawberry.exceptions import ConnectionRejectionError
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL, GRAPHQL_WS_PROTOCOL

from domain import table as tables
from service.api.graphql.context import Context
from service.api.graphql.errors import public_error
from service.api.graphql.schema import schema
from service.api.hub import Hub
from service.api.rest import rest_app
from service.app.application import Application
from service.readmodels import ReadModels, Worker
from service.settings import Settings
from service.store.database import Database, open_store
from service.store.feed import Feed

#: entries that change what the lobby shows
LOBBY_EVENTS = frozenset(
    {
        tables.TABLE_CREATED,
        tables.SEAT_TAKEN,
        tables.GAME_STARTED,
        tables.GAME_FINISHED,
        tables.GAME_ABANDONED,
    }
)


class Runtime:
    """What the lifespan opens: the store, the application, the read model, the hub."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.database = settings.database
        self.store = open_store(self.database.url, self.database.options)
        self.readmodels = ReadModels(
            self.store,
            self.database,
            active=settings.run_projections,
            batch=settings.projection_batch,
        )
        self.app = Application(self.store, self.readmodels)
        self.worker = Worker(self.readmodels)
        self.hub = Hub()
        self.app.subscribe(self.hub.notify)
        self.feed = Feed(self.store, self.database.is_postgres)
        self.feed.subscribe(self.on_event)
        self.executor = ThreadPoolExecutor(settings.workers, thread_name_prefix="papyrus")

    def on_event(self, game_id: str, version: int, kind: str) -> None:
        """Any process recorded an event: wake this process's subscribers and read models."""
        self.hub.notify(game_id, version)
        self.worker.wake()
        if kind in LOBBY_EVENTS:
            self.hub.lobby_changed(game_id, version)

    def start(self) -> None:
        if self.settings.run_projections:
            self.readmodels.catch_up()
            self.worker.start()
        self.feed.start()

    def context(self, authorization: str | None = None, request: Any = None) -> Context:
        return Context(
            app=self.app,
            hub=self.hub,
            executor=self.executor,
            authorization=authorization,
            request=request,
        )

    def close(self) -> None:
        self.feed.stop()
        if self.settings.run_projections:
            self.worker.stop()
        self.executor.shutdown(wait=True, cancel_futures=True)
        self.readmodels.close()
        self.store.close()


def graphql_error(message: str, code: str = "BAD_INPUT", status: int = 422) -> JSONResponse:
    return JSONResponse(
        {"data": None, "errors": [{"message": message, "extensions": {"code": code}}]},
        status_code=status,
    )


class PapyrusGraphQL(GraphQL[Context, None]):
    def __init__(self, runtime_of: Any, settings: Settings) -> None:
        super().__init__(
            schema,
            subscription_protocols=(GRAPHQL_TRANSPORT_WS_PROTOCOL, GRAPHQL_WS_PROTOCOL),
            allowed_origins=settings.allowed_origins,
            keep_alive=True,
            keep_alive_interval=15,
        )
        self.runtime_of = runtime_of
        self.max_body = settings.max_body_bytes

    async def get_context(self, request: Any, response: Any) -> Context:
        runtime: Runtime = self.runtime_of()
        authorization = None
        if isinstance(request, Request):
            authorization = request.headers.get("authorization")
        context = runtime.context(authorization, request)
        context.response = response
        return context

    async def process_result(self, request: Any, result: Any) -> Any:
        """The last gate: every error leaves with a code, whatever stage raised it."""
        if result.errors:
            result.errors = [public_error(e) for e in result.errors]
        return await super().process_result(request, result)

    async def on_ws_connect(self, context: Context) -> Any:
        refused = context.check_caller()
        if refused is not None:
            raise ConnectionRejectionError({"code": refused.code, "message": refused.message})
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        request = Request(scope, receive)
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body:
            response: Response = graphql_error(
                f"The request is larger than {self.max_body} bytes.", status=413
            )
        else:
            try:
                response = await self.run(request)
            except HTTPException as refused:
                response = graphql_error(refused.reason, status=refused.status_code)
        await response(scope, receive, send)


async def healthz(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


async def readyz(request: Request) -> Response:
    """The event store answers a query within a few seconds (checked directly, without the
    library's retries, so that an orchestrator gets its answer quickly)."""
    runtime: Runtime = request.app.state.runtime
    try:
        await asyncio.wait_for(
            asyncio.get_running_loop().run_in_executor(None, probe, runtime.database), 5.0
        )
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

        with psycopg.connect(database.url, connect_timeout=3, autocommit=True) as connection:
            connection.execute("SELECT 1")
        return
    import sqlite3

    lite = sqlite3.connect(f"file:{database.sqlite_path}?mode=ro", uri=True, timeout=3)
    try:
        lite.execute("SELECT count(*) FROM sqlite_master")
    finally:
        lite.close()


async def index(request: Request) -> Response:
    return JSONResponse(
        {
            "name": "Papyrus",
            "graphql": "/graphql",
            "rest": "/api/v1",
            "openapi": "/api/v1/openapi.json",
        }
    )


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()
    holder: dict[str, Runtime] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        runtime = Runtime(settings)
        runtime.hub.bind(asyncio.get_running_loop())
        await asyncio.get_running_loop().run_in_executor(runtime.executor, runtime.start)
        holder["runtime"] = runtime
        app.state.runtime = runtime
        try:
            yield
        finally:
            runtime.close()

    graphql = PapyrusGraphQL(lambda: holder["runtime"], settings)
    routes: list[BaseRoute] = [
        Route("/", index),
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/graphql", graphql, methods=["GET", "POST"]),
        WebSocketRoute("/graphql", graphql),
        Mount("/api/v1", app=rest_app(lambda: holder["runtime"])),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    return app
