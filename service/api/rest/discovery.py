"""What a developer finds at the REST API's root: ``/api/v1/``, an index of links, and
``/api/v1/docs``, a reference page of every operation and body (docs/API.md "REST").

The reference is rendered on the server (``reference``), from the same OpenAPI document that
``/api/v1/openapi.json`` serves, so it never disagrees with it. It is plain HTML with one
stylesheet served by this server (``STYLESHEET``, at ``/api/v1/docs/reference.css``): no
script, nothing from another host (FastAPI's Swagger UI and ReDoc pages load theirs from a
CDN, which is why they are off), and it satisfies the pages' Content-Security-Policy
(``service.api.security_headers``: styles from this origin only, no inline style).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from service.api.rest.reference import ROOT, STYLESHEET, reference

router = APIRouter()


#: the index's links: name, method, path under ``ROOT`` and what is there
LINKS = (
    ("self", "GET", "/", "This index."),
    ("openapi", "GET", "/openapi.json", "The OpenAPI 3.1 document of this API."),
    ("docs", "GET", "/docs", "The reference page of every operation and body."),
    ("register", "POST", "/players", "Register a player: the answer holds your token."),
    ("me", "GET", "/me", "The caller (send your token)."),
    ("games", "GET", "/games", "Games, newest first."),
    ("createGame", "POST", "/games", "Open a new table."),
    ("game", "GET", "/games/{id}", "A game as you may see it, with your legal actions."),
    ("act", "POST", "/games/{id}/actions", "One action for your seat."),
    ("events", "GET", "/games/{id}/events", "The game's log as you may see it."),
    ("stream", "GET", "/games/{id}/stream", "The game's changes as Server-Sent Events."),
    ("export", "GET", "/games/{id}/export", "A finished game as one document."),
    ("keys", "GET", "/keys", "The public keys that sign exported games."),
    ("lobby", "GET", "/lobby", "Open tables waiting for players."),
    ("catalog", "GET", "/catalog/{kind}", "A game's static data."),
    ("actionCatalog", "GET", "/catalog/{kind}/actions", "A game's actions and their fields."),
)


def index_links() -> dict[str, Any]:
    """The index of ``/api/v1/`` (and of ``/api/v1``, served by ``service.asgi``): links that
    work, each with its method (``{id}``, ``{kind}``: fill them in)."""
    return {
        "name": "Papyrus REST API",
        "version": "1",
        "auth": "Send `Authorization: Bearer <token>` (POST /api/v1/players gives one); "
        "without it you are a spectator.",
        "links": {
            name: {"href": ROOT + path, "method": method, "title": title}
            for name, method, path, title in LINKS
        },
        "graphql": "/graphql",
    }


async def index(request: Request) -> JSONResponse:
    return JSONResponse(index_links())


router.add_api_route("/", index, methods=["GET", "HEAD"], include_in_schema=False)


async def docs(request: Request) -> HTMLResponse:
    app: FastAPI = request.app
    page = getattr(app.state, "reference_page", None)
    if page is None:
        page = app.state.reference_page = reference(app.openapi())
    return HTMLResponse(page, headers={"Cache-Control": "no-cache"})


async def stylesheet(request: Request) -> Response:
    return Response(STYLESHEET, media_type="text/css", headers={"Cache-Control": "no-cache"})


router.add_api_route("/docs", docs, methods=["GET", "HEAD"], include_in_schema=False)
router.add_api_route(
    "/docs/reference.css", stylesheet, methods=["GET", "HEAD"], include_in_schema=False
)
