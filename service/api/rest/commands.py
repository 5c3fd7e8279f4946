"""The command routes: each reads a body, runs one command of the application with it and
answers the game as the caller sees it then (``Game``).

Opening, joining, adding a bot, abandoning, reclaiming a seat, asking for an undo and answering
it, forking and importing differ only in their path, their body, the command they run and what
the document says of them; ``command`` declares such a route from just those, so that reading,
running and answering are written once.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Body
from pydantic import BaseModel

from service.api.rest.params import GameId
from service.api.rest.presenters import presented
from service.api.rest.responses import Game
from service.api.rest.routing import Caller, Runtime, body_limit, run


def omissible(model: type[BaseModel]) -> Any:
    """A body that may be left out: it is then ``model()``, every member at its default."""
    return Annotated[model, Body(default_factory=model)]


def command(
    router: APIRouter,
    path: str,
    body: Any,
    call: Callable[..., Any],
    *,
    operation_id: str,
    limit: str | None = None,
    **route: Any,
) -> None:
    """``POST path`` on ``router``: ``call(app, caller, game_id, body)`` (no ``game_id`` on a
    path without ``{id}``) runs on the workers and the game it gives is the answer.

    ``body`` is the body parameter's type as FastAPI reads it (``omissible`` when it may be
    left out); ``limit`` the ``Settings`` member that bounds the body, when it is not
    ``max_body_bytes``; ``route`` the rest of the route (tags, summary, status code...)."""
    on_game = "{id}" in path

    # no docstring: FastAPI would show it as the route's description
    async def endpoint(rt: Any, caller: Any, body: Any, game_id: str | None = None) -> Any:
        ids = (game_id,) if on_game else ()
        game = await run(rt, call, rt.app, caller, *ids, body)
        return await presented(rt, game, caller)

    # FastAPI reads the route's parameters from the signature: the caller's (solved first, so a
    # wrong token is refused before a bad body), the game's id where the path has one, the body
    declared = [("rt", Runtime), ("caller", Caller), ("game_id", GameId), ("body", body)]
    endpoint.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=kind)
            for name, kind in declared
            if on_game or name != "game_id"
        ]
    )
    endpoint.__name__ = endpoint.__qualname__ = operation_id
    if limit is not None:
        body_limit(limit)(endpoint)
    router.post(path, operation_id=operation_id, response_model=Game, **route)(endpoint)
