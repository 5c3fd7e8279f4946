"""``Dispatch``, which hands ``POST /graphql`` to the GraphQL view (``service.api.graphql.http``)
without Starlette's router, and ``is_json``, the rule by which a ``POST``'s body takes the
view's plain JSON path.
"""

from __future__ import annotations

from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.api.bodies import dumps_bytes


def is_json(content_type: str | None) -> bool:
    """A JSON body's content type, by strawberry's own rule (the media type, parameters such as
    a charset aside, names ``application/json``): every body strawberry would read as JSON
    takes the plain path, so each is checked there."""
    return content_type is not None and (
        "application/json" in content_type.partition(";")[0].strip().lower()
    )


class Dispatch:
    """``POST /graphql``, nearly every request a client sends, goes straight to the same
    middleware and the GraphQL view; everything else (and lifespan) through Starlette.

    Starlette's own layers around its routes (its error and exception middleware, the router
    trying each route in turn) do nothing for that one route that the view and ``RequestLog``
    do not: a bug still answers 500 (uvicorn's answer when nothing was sent) and is logged."""

    def __init__(self, app: Starlette, graphql: ASGIApp) -> None:
        self.app = app
        self.graphql = graphql
        self.state = app.state  # what tests and tools read (``app.state.runtime``)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == "/graphql" and scope["method"] == "POST":
            scope["app"] = self.app
            await self.graphql(scope, receive, send)
            return
        await self.app(scope, receive, send)


def with_body(request: Request, data: dict[str, Any] | None) -> Request:
    """``request`` for strawberry's view (``run``), its body ``data`` if the plain path
    rewrote it (a trusted document's text in place of its id); serialised only when handed
    over, not on the plain path."""
    if data is None:
        return request
    body = dumps_bytes(data)

    async def receive() -> Message:
        return {"type": "http.request", "body": body, "more_body": False}

    return Request(request.scope, receive)
