"""Every GraphQL error leaves with a stable ``extensions.code`` (API.md "Errors").

Expected failures (``PapyrusError``) keep their message and code; syntax, validation, depth and
size errors are ``BAD_INPUT``; anything else is a bug: its message is masked as ``INTERNAL``
and the exception is logged.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from graphql.error import GraphQLError
from strawberry.extensions import SchemaExtension

from service.app.errors import PapyrusError

log = logging.getLogger("papyrus.graphql")


def root_cause(error: GraphQLError) -> BaseException | None:
    original = error.original_error
    while isinstance(original, GraphQLError) and original.original_error is not None:
        original = original.original_error
    return original


def is_unexpected(error: GraphQLError) -> bool:
    """A bug (masked as INTERNAL), as opposed to a refused command or a bad query."""
    original = root_cause(error)
    return original is not None and not isinstance(original, (PapyrusError, GraphQLError))


def public_error(error: GraphQLError) -> GraphQLError:
    original = root_cause(error)
    if isinstance(original, PapyrusError):
        extensions: dict[str, Any] = {"code": original.code}
        if original.rule:
            extensions["rule"] = original.rule
        message = original.message
    elif original is None or isinstance(original, GraphQLError):
        if error.extensions and "code" in error.extensions:
            return error
        extensions, message = {"code": "BAD_INPUT"}, error.message
    else:
        log.error("unexpected error", exc_info=original)
        extensions, message = {"code": "INTERNAL"}, "Internal error: this is a bug on our side."
    return GraphQLError(
        message,
        nodes=error.nodes,
        positions=error.positions,
        path=error.path,
        source=error.source,
        extensions=extensions,
    )


class PublicErrors(SchemaExtension):
    def _process(self, result: Any) -> None:
        errors = getattr(result, "errors", None)
        if errors:
            result.errors = [public_error(e) for e in errors]

    def on_operation(self) -> Iterator[None]:
        yield
        result = self.execution_context.result
        if result is not None:
            self._process(result)
        if self.execution_context.pre_execution_errors:
            self.execution_context.pre_execution_errors = [
                public_error(e) for e in self.execution_context.pre_execution_errors
            ]
