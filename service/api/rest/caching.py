"""Answers that can no longer change (a finished game, its events, its export, its replay) carry
an ``ETag`` and ``Cache-Control``; a client sending the tag back in ``If-None-Match`` gets
``304 Not Modified`` without a body.

The tag is a hash of the answer's bytes: an answer that does change after all (a deleted
player's name redacted, a different caller's view: ``Vary: Authorization``) gets a new tag, so a
cache only ever saves a download, never serves something stale after revalidation.
"""

from __future__ import annotations

import hashlib
from typing import Any

from fastapi import Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from domain import table as tables

#: kept for a day, revalidated after that with the ETag
CACHE_CONTROL = "private, max-age=86400"

#: statuses after which a game's answers no longer change
FINAL = frozenset({tables.FINISHED, tables.ABANDONED})


def game_answer(request: Request, game: Any, model: type[BaseModel], content: Any) -> Any:
    """``content`` about ``game``: as it is while the game may still change, as
    ``final_answer`` (tagged, or 304) once it is over."""
    return final_answer(request, model, content) if game.table.status in FINAL else content


def final_answer(request: Request, model: type[BaseModel] | None, content: Any) -> Response:
    """``content`` (shaped by ``model``, as the route's ``response_model`` would) with its tag,
    or 304 when the client already holds it."""
    if model is not None:
        content = model.model_validate(content).model_dump(mode="json", by_alias=True)
    answer = JSONResponse(content)
    tag = '"' + hashlib.sha256(bytes(answer.body)).hexdigest()[:32] + '"'
    headers = {"ETag": tag, "Cache-Control": CACHE_CONTROL, "Vary": "Authorization"}
    held = _tags(request.headers.get("if-none-match"))
    if tag in held or "*" in held:
        return Response(status_code=304, headers=headers)
    answer.headers.update(headers)
    return answer


def _tags(header: str | None) -> set[str]:
    """The entity tags of an ``If-None-Match`` header (weak ones compare as strong: RFC 9110
    §13.1.2 uses the weak comparison for it); ``*`` matches any."""
    if not header:
        return set()
    return {t.strip().removeprefix("W/") for t in header.split(",")}
