"""The web client (issue #16): static ES modules served by ``service.asgi`` at ``/app``.

No build step, no CDN: the files under ``static/`` are what the browser runs. ``/``,
``/games/<id>``, ``/leaderboards[/<kind>]``, ``/players/<id>`` and ``/my-games`` answer
``index.html`` to a browser (client-side routing in ``app.js`` and ``routes.js``).

The client names no game: it reads the games from ``gameKinds`` and draws each with its board
module, ``/app/boards/<kind>.js`` (``board_modules``): the file the game's package declares
(``GameModule.web_board``) or, for a game without one, the generic board
(``static/boards/generic.js``). Served there, a board imports ``../svg.js`` from ``/app``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Protocol

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response

STATIC = Path(__file__).parent / "static"
INDEX = STATIC / "index.html"
#: the board of a game whose package brings none
GENERIC_BOARD = STATIC / "boards" / "generic.js"
#: the path of the board modules (a route before the ``/app`` mount)
BOARD_PATH = "/app/boards/{kind}.js"


class Game(Protocol):
    """What the board route needs of a game (``domain.registry.GameModule``)."""

    @property
    def web_board(self) -> Path | None: ...


def board_modules(
    game: Callable[[str], Game],
) -> Callable[[Request], Awaitable[Response]]:
    """The endpoint of ``BOARD_PATH``: the board module of the game of ``kind`` (``game(kind)``,
    which raises ``KeyError`` for a kind no game has: a 404), as JavaScript."""

    async def board_module(request: Request) -> Response:
        try:
            own = game(request.path_params["kind"])
        except KeyError:
            raise HTTPException(404) from None
        path = own.web_board or GENERIC_BOARD
        return FileResponse(path, media_type="text/javascript")

    return board_module
