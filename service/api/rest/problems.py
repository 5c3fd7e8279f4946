"""Failures as ``application/problem+json`` (RFC 9457) with the stable ``code`` of docs/API.md.

Every way a REST request can fail ends here: the application's ``PapyrusError``, FastAPI's
request validation (``BAD_INPUT``, worded for a person by ``in_words``), unknown paths
(``NOT_FOUND``), wrong methods (405, ``BAD_INPUT``) and bugs (``INTERNAL``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine, Mapping
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError, ResponseValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.responses import Response

from service.api.observability import current
from service.api.rest.models import Problem, Unreadable
from service.app.errors import BadInput, NotFound, PapyrusError, RateLimited

log = logging.getLogger("papyrus.rest")

MEDIA_TYPE = "application/problem+json"


def problem(
    error: PapyrusError, *, status: int | None = None, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    status = status or error.status
    record = current()  # the request answered: its log line carries the code too
    if record is not None:
        record.note_code(error.code)
    body = Problem(
        type=f"https://papyrus.example/errors/{error.code.lower()}",
        title=error.code.replace("_", " ").capitalize(),
        status=status,
        detail=error.message,
        code=error.code,
        rule=error.rule or None,
        requestId=record.request_id if record is not None else None,
    )
    return JSONResponse(
        body.model_dump(exclude_none=True),
        status_code=status,
        media_type=MEDIA_TYPE,
        headers=headers,
    )


#: where a request value came from (the first part of its ``loc``, not part of its name)
SOURCES = ("body", "query", "path", "header", "cookie")
#: messages (of ``params``' validators) that follow the value's name
FOLLOW_THE_NAME = {"required", "integer", "range", "choice"}
BY_TYPE = {
    "missing": "is required.",
    "string_type": "must be a string.",
    "bool_type": "must be true or false.",
    "dict_type": "must be a JSON object.",
    "model_type": "must be a JSON object.",
    "model_attributes_type": "must be a JSON object.",
    "int_type": "must be an integer.",
    "int_parsing": "must be an integer.",
}


def in_words(error: dict[str, Any]) -> str:
    """One validation error as a sentence that names the value ("seats is required.")."""
    if isinstance(error.get("input"), Unreadable):
        return str(error["input"].message)
    kind = error.get("type", "")
    if kind == "sentence":
        return str(error["msg"])
    loc = tuple(error.get("loc", ()))
    names = [str(part) for part in (loc[1:] if loc and loc[0] in SOURCES else loc)]
    if not names:
        if kind in ("dict_type", "model_type", "model_attributes_type"):
            return "The request body must be a JSON object."
        return f"The request body is not what this operation takes: {error.get('msg')}."
    name = ".".join(names)
    if kind in FOLLOW_THE_NAME:
        return f"{name} {error['msg']}"
    if kind in BY_TYPE:
        return f"{name} {BY_TYPE[kind]}"
    return f"{name}: {error.get('msg')}."


async def refused(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, PapyrusError)
    if isinstance(error, RateLimited):  # when the limit's window ends (RFC 9110 §10.2.3)
        return problem(error, headers={"Retry-After": str(error.retry_after)})
    return problem(error)


async def invalid(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    errors = list(error.errors())
    return problem(BadInput(in_words(errors[0]) if errors else "The request is not valid."))


async def http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, HTTPException)
    if error.status_code == 404:
        return problem(NotFound(f"There is no resource at {request.url.path}."))
    if error.status_code == 405:
        text = f"{request.method} is not allowed on {request.url.path}."
        return problem(BadInput(text), status=405, headers=error.headers)
    code = "BAD_INPUT" if error.status_code < 500 else "INTERNAL"
    return problem(
        PapyrusError(str(error.detail), code=code), status=error.status_code, headers=error.headers
    )


async def internal(request: Request, error: Exception) -> JSONResponse:
    """A bug (never bad input), answered without its traceback. Starlette raises any other
    exception again once this answer is sent, for the server to log; a response that its model
    refuses (a presenter and its model disagree) is logged here."""
    if isinstance(error, ResponseValidationError):
        log.error("%s %s answered %s", request.method, request.url.path, error.errors())
    return problem(PapyrusError("Something went wrong on the server.", code="INTERNAL"))


Handler = Callable[[Request, Any], Coroutine[Any, Any, Response]]
HANDLERS: dict[int | type[Exception], Handler] = {
    PapyrusError: refused,
    RequestValidationError: invalid,
    HTTPException: http_error,
    ResponseValidationError: internal,
    Exception: internal,
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of these failures (as ``application/problem+json``: see
    ``service.api.rest.openapi_document``), with those every operation of that kind can give:
    503 (``UNAVAILABLE``) always, as every operation reads the store; 429 (``RATE_LIMITED``)
    wherever 401 can be, as failed authentications are rate limited."""
    implied = {503} | ({429} if 401 in statuses else set())
    return {
        status: {"model": Problem, "description": "A problem (RFC 9457) with a stable `code`."}
        for status in sorted({*statuses, *implied})
    }
