"""Every GraphQL error leaves with a stable ``extensions.code`` (docs/API.md "Errors").

Expected failures (``PapyrusError``) keep their message and code; syntax, validation, depth and
size errors are ``BAD_INPUT``; a failure of the store that escaped the breaker is
``UNAVAILABLE``; anything else is a bug: its message is masked as ``INTERNAL`` and the exception
is logged. Subscriptions get the same codes on every result they stream (``on_stream_result``):
an unknown game is ``NOT_FOUND``, a store outage ``UNAVAILABLE``.
"""

from __future__ import annotations

import logging
from typing import Any

from graphql.error import GraphQLError

from service.api.graphql.strawberry_private import (
    CannotGetOperationTypeError,
    InvalidOperationTypeError,
)
from service.api.observability import current_request_id
from service.app.breaker import MESSAGE as STORE_DOWN
from service.app.breaker import is_store_failure
from service.app.errors import PapyrusError, RateLimited

log = logging.getLogger("papyrus.graphql")


def root_cause(error: GraphQLError) -> BaseException | None:
    original = error.original_error
    while isinstance(original, GraphQLError) and original.original_error is not None:
        original = original.original_error
    return original


#: an operation of a type the transport does not run: over the older graphql-ws protocol,
#: strawberry runs subscriptions only (a query or mutation there is the client's mistake)
REFUSED_OPERATION = (InvalidOperationTypeError, CannotGetOperationTypeError)
SUBSCRIPTIONS_ONLY = (
    "{}: over a graphql-ws websocket only subscriptions run; send queries and mutations over "
    "HTTP (POST /graphql) or over a graphql-transport-ws websocket."
)


def is_unexpected(error: GraphQLError) -> bool:
    """A bug (masked as INTERNAL), as opposed to a refused command or a bad query."""
    original = root_cause(error)
    return (
        original is not None
        and not isinstance(original, (PapyrusError, GraphQLError, *REFUSED_OPERATION))
        and not is_store_failure(original)
    )


def public_error(error: GraphQLError) -> GraphQLError:
    original = root_cause(error)
    if isinstance(original, PapyrusError):
        extensions: dict[str, Any] = {"code": original.code}
        if original.rule:
            extensions["rule"] = original.rule
        if isinstance(original, RateLimited):  # seconds until the limit's window ends
            extensions["retryAfter"] = original.retry_after
        message = original.message
    elif original is None or isinstance(original, GraphQLError):
        if error.extensions and "code" in error.extensions:
            return with_request_id(error)
        extensions, message = {"code": "BAD_INPUT"}, error.message
    elif isinstance(original, InvalidOperationTypeError):
        extensions = {"code": "BAD_INPUT"}
        message = SUBSCRIPTIONS_ONLY.format(error.message.capitalize())
    elif isinstance(original, CannotGetOperationTypeError):
        extensions, message = {"code": "BAD_INPUT"}, error.message
    elif is_store_failure(original):
        extensions, message = {"code": "UNAVAILABLE"}, STORE_DOWN
    else:
        log.error("unexpected error", exc_info=original)
        extensions, message = {"code": "INTERNAL"}, "Internal error: this is a bug on our side."
    return with_request_id(remade(error, message, extensions))


def with_request_id(error: GraphQLError) -> GraphQLError:
    """The error with ``extensions.requestId``: the id of the request (or websocket) it answers,
    as in its log line and ``X-Request-Id`` header."""
    request_id = current_request_id()
    if request_id is not None and (error.extensions or {}).get("requestId") != request_id:
        # a new error: this one may be shared by requests (a cached validation's, say)
        extensions = {**(error.extensions or {}), "requestId": request_id}
        return remade(error, error.message, extensions, error.original_error)
    return error


def remade(
    error: GraphQLError,
    message: str,
    extensions: dict[str, Any],
    original: Exception | None = None,
) -> GraphQLError:
    """A new error where ``error`` was (its locations and path), saying ``message``."""
    return GraphQLError(
        message,
        nodes=error.nodes,
        source=error.source,
        positions=error.positions,
        path=error.path,
        original_error=original,
        extensions=extensions,
    )


def publish(result: Any) -> None:
    """Every error of ``result`` (an operation's, or each result a subscription sends) leaves
    with its code (``public_error``)."""
    errors = getattr(result, "errors", None)
    if errors:
        result.errors = [public_error(e) for e in errors]


def publish_operation(execution_context: Any) -> None:
    """The errors of a finished operation, its pre-execution ones too, leave with their codes."""
    result = execution_context.result
    if result is not None:
        publish(result)
    if execution_context.pre_execution_errors:
        execution_context.pre_execution_errors = [
            public_error(e) for e in execution_context.pre_execution_errors
        ]
