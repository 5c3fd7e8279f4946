"""The ASGI application: GraphQL (+ GraphiQL, websockets), REST, health (docs/API.md "Transport").

``create_app(settings)`` assembles everything: the GraphQL view (``service.api.graphql.http``),
the REST mount, the web client's files and pages, and the middleware around them; resources (the
event store, the read model, the worker threads) are opened in the lifespan, nothing at import
time.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.exceptions import HTTPException as RoutingError
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Scope

from domain import registry
from service.api.bodies import BodyLimit
from service.api.forwarded import ForwardedClient, Proxies
from service.api.graphql import console, operations, plans, trusted
from service.api.graphql.answers import graphql_error
from service.api.graphql.dispatch import Dispatch
from service.api.graphql.http import PapyrusGraphQL
from service.api.graphql.strawberry_private import normalize_allowed_origins
from service.api.metrics import Metrics
from service.api.metrics_port import serving_metrics
from service.api.observability import RequestLog
from service.api.rest import problem, rest_app
from service.api.rest.discovery import index_links
from service.api.rest.problems import http_error
from service.api.security_headers import SecurityHeaders
from service.api.web import BOARD_PATH, board_modules
from service.api.web import INDEX as WEB_INDEX
from service.api.web import STATIC as WEB_STATIC
from service.app.errors import BadInput, Unavailable
from service.health import healthz, readyz
from service.runtime import Runtime
from service.settings import Settings


def wants_html(request: Request) -> bool:
    """A browser navigating asks for ``text/html`` first; API clients ask for JSON (or ``*/*``)."""
    return "text/html" in request.headers.get("accept", "")


def web_page() -> Response:
    """The web client's one page (client-side routing in ``app.js``)."""
    return FileResponse(WEB_INDEX, media_type="text/html", headers={"Cache-Control": "no-cache"})


async def game_page(request: Request) -> Response:
    return web_page()


async def rest_index(request: Request) -> Response:
    """``/api/v1``: the REST API's index of links, as ``/api/v1/`` answers it."""
    return JSONResponse(index_links())


async def index(request: Request) -> Response:
    """The web client for a browser (``Accept: text/html``), the API's index otherwise."""
    if wants_html(request):
        return web_page()
    return JSONResponse(
        {
            "name": "Papyrus",
            "graphql": "/graphql",
            "rest": "/api/v1/",
            "openapi": "/api/v1/openapi.json",
            "restDocs": "/api/v1/docs",
        }
    )


#: request headers a browser page may send cross-origin (beyond the CORS-safelisted ones)
CORS_REQUEST_HEADERS = ("Authorization", "Content-Type", "Idempotency-Key", "X-Request-Id")
#: response headers a cross-origin page may read
CORS_EXPOSED_HEADERS = ("X-Request-Id", "Retry-After", "ETag")


def cross_origin(origins: tuple[str, ...]) -> Middleware:
    """CORS for ``/graphql`` and ``/api/v1`` (preflight included) from ``allowed_origins``, the
    same setting that admits cross-origin websockets (``PapyrusGraphQL``); none by default:
    same origin only. Bearer tokens, not cookies: no credentials are allowed."""
    return Middleware(
        CORSMiddleware,
        allow_origins=sorted(normalize_allowed_origins(origins)),
        allow_methods=("GET", "POST", "DELETE"),
        allow_headers=CORS_REQUEST_HEADERS,
        expose_headers=CORS_EXPOSED_HEADERS,
        allow_credentials=False,
        max_age=600,
    )


def create_app(settings: Settings | None = None) -> Dispatch:
    settings = settings or Settings()
    # one switch for the process's compiled plans (graphql-core answers the same without them)
    plans.ENABLED = operations.ENABLED = settings.compiled_plans
    if settings.trusted_documents:
        trusted.add(settings.trusted_documents)
    holder: dict[str, Runtime] = {}
    observed = Metrics()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # the operator's port first: a port in use stops the start at once
        with serving_metrics(observed, settings.metrics_host, settings.metrics_port):
            runtime = Runtime(settings, observed)
            runtime.hub.bind(asyncio.get_running_loop())
            await asyncio.get_running_loop().run_in_executor(runtime.executor, runtime.start)
            holder["runtime"] = runtime
            app.state.runtime = runtime
            try:
                yield
            finally:
                runtime.close()

    graphql = PapyrusGraphQL(
        lambda: holder["runtime"],
        allowed_origins=settings.allowed_origins,
        max_body_bytes=settings.max_body_bytes,
        max_websockets_per_client=settings.max_websockets_per_client,
        max_subscriptions_per_connection=settings.max_subscriptions_per_connection,
    )
    routes: list[BaseRoute] = [
        Route("/", index),
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/graphql", graphql, methods=["GET", "POST"]),
        Mount("/graphql/assets", app=StaticFiles(directory=console.STATIC), name="graphiql"),
        Mount("/graphql/page", app=StaticFiles(directory=console.PAGE_FILES), name="console"),
        WebSocketRoute("/graphql", graphql),
        # the REST index without its slash too (the mount alone would redirect to it)
        Route("/api/v1", rest_index, methods=["GET", "HEAD"]),
        Mount("/api/v1", app=rest_app(lambda: holder["runtime"])),
        # the web client (service/api/web): each game's board module, its files, and its pages
        # routed in the browser
        Route(BOARD_PATH, board_modules(registry.game)),
        Mount("/app", app=StaticFiles(directory=WEB_STATIC), name="web"),
        Route("/games/{game_id}", game_page),
        Route("/leaderboards", game_page),
        Route("/leaderboards/{kind}", game_page),
        Route("/players/{player_id}", game_page),
        Route("/my-games", game_page),
    ]

    def too_large(scope: Scope, limit: int) -> Response:
        if scope.get("path") == "/graphql":
            return graphql.too_large()
        return problem(BadInput("The request body is too large."), status=413)

    def stopping(scope: Scope) -> Response:
        """The answer to a request the server cancelled as it stopped (--shutdown-timeout)."""
        message = (
            "The server is stopping and cancelled this request before answering it; what it "
            "asked may or may not have been done: send it again (an action sent again with "
            "the same idempotency key is played once)."
        )
        if scope.get("path") == "/graphql":
            return graphql_error(message, code=Unavailable.code, status=503)
        return problem(Unavailable(message))

    # outermost: every answer (a refused or failed one too) gets its request id and log line
    logged = Middleware(
        RequestLog, finished=observed.finished, opened=observed.opened, cancelled=stopping
    )

    # no body is read past the largest limit, whoever reads it (each reader stops at its own)
    largest = max(settings.max_body_bytes, settings.max_import_bytes)
    bodies = Middleware(BodyLimit, limit=largest, refuse=too_large)
    # browsers on the origins allowed to open websockets may call GraphQL and REST too
    cors = cross_origin(settings.allowed_origins)
    compressed = Middleware(GZipMiddleware, minimum_size=1024, compresslevel=1)
    # HTTP answers over 1 KB gzipped for clients that accept it (websockets pass through);
    # level 1: it runs on the event loop, and large answers are mostly repeated JSON keys
    # CSP, nosniff, framing and referrer on every answer (service.api.security_headers)
    secure = Middleware(SecurityHeaders)
    middleware = [secure, logged, cors, compressed, bodies]
    proxies = Proxies(settings.forwarded_allow_ips)
    if proxies:  # first of all: the client's address, as the trusted proxies forwarded it
        middleware.insert(0, Middleware(ForwardedClient, proxies=proxies))
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=middleware,
        # unknown paths and wrong methods outside /api/v1 are problems too
        exception_handlers={RoutingError: http_error},
    )
    chain: ASGIApp = graphql
    for layer in reversed(middleware):  # the same layers, in the same order, around the view
        chain = layer.cls(chain, *layer.args, **layer.kwargs)
    return Dispatch(app, chain)
