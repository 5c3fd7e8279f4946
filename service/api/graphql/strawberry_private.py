"""Every use of strawberry's private API, in one place: checked against strawberry-graphql
0.341.2, the version ``pyproject.toml`` pins exactly.

Strawberry's public API (``strawberry``, ``strawberry.types``, ``strawberry.extensions``,
``strawberry.exceptions``, ``strawberry.asgi``, ``strawberry.subscriptions``, ...) does not
offer what these do, and no other module imports strawberry's internals: they import the names
from here (``tests/service/transport/test_strawberry_adapter.py`` checks it, and exercises
each name, so that an upgrade that moves or changes one fails a test named after it).

From strawberry's internal modules:

* ``create_validator`` (``extensions.query_depth_limiter``): the depth limit as a validation
  rule, so that it joins the one rule tuple whose results are cached per document
  (``schema.Gate``); the public ``QueryDepthLimiter`` is an extension that validates again.
* ``CannotGetOperationTypeError``, ``InvalidOperationTypeError`` (``schema.exceptions``): what
  strawberry's ``execute`` raises for an unknown operation name and for an operation type the
  HTTP method may not run; ``PapyrusSchema.execute`` raises them as strawberry's does, the HTTP
  view answers them as strawberry's does, ``errors`` codes them ``BAD_INPUT``.
* ``DEFAULT_ALLOWED_OPERATION_TYPES``, ``validate_document`` (``schema.schema``): strawberry's
  default operation types and its validation (graphql-core's rules with its @oneOf and Maybe
  rules), which ``PapyrusSchema.execute`` uses as strawberry's ``execute`` does.
* ``StrawberryGraphQLCoreExecutionContext`` (``schema.schema``): strawberry's graphql-core
  executor, which ``streaming.EventExecution`` extends (events executed on worker threads).
* ``TemporalResponse`` (``http.temporal_response``): the sub-response resolvers set a status and
  headers on (``Context.note_refusal``), on the HTTP view's plain path as on strawberry's.
* ``normalize_allowed_origins`` (``http.websocket_origin``): the origins as strawberry admits
  websockets from them, so that CORS admits exactly the same (``service.asgi.cross_origin``).
* ``WebSocketDisconnected`` (``http.exceptions``): what a send to a websocket that is gone
  raises in strawberry's adapter (``service.api.disconnects``).
* ``BaseGraphQLTransportWSHandler``, ``BaseGraphQLWSHandler``
  (``subscriptions.protocols.*.handlers``): the two websocket protocols, which
  ``service.api.connections`` extends with its limits (the view's ``graphql_*_handler_class``).
* ``to_camel_case`` (``utils.str_converters``): the GraphQL name strawberry gives a Python
  name, so that ``actioninput`` names its members as strawberry names fields.

Private members of public classes, wrapped below so that callers never touch them:
``Schema._create_execution_context``, ``_schema``, ``_get_execute_function``,
``_get_custom_context_kwargs``, ``_process_errors`` (with the internal ``await_maybe``,
``optimized_is_awaitable`` and ``execution_context_class_kwargs``: ``PapyrusSchema.execute``,
strawberry's ``execute`` without its extension runner) and the view's
``_get_stream_transport_from_headers`` (the HTTP view's plain path).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from graphql import GraphQLError, GraphQLSchema
from strawberry import Schema
from strawberry.asgi import GraphQL
from strawberry.execution import optimized_is_awaitable
from strawberry.extensions.query_depth_limiter import create_validator
from strawberry.http.exceptions import WebSocketDisconnected
from strawberry.http.temporal_response import TemporalResponse
from strawberry.http.websocket_origin import normalize_allowed_origins
from strawberry.schema._graphql_core import execution_context_class_kwargs
from strawberry.schema.exceptions import CannotGetOperationTypeError, InvalidOperationTypeError
from strawberry.schema.schema import (
    DEFAULT_ALLOWED_OPERATION_TYPES,
    StrawberryGraphQLCoreExecutionContext,
    validate_document,
)
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
    BaseGraphQLTransportWSHandler,
)
from strawberry.subscriptions.protocols.graphql_ws.handlers import BaseGraphQLWSHandler
from strawberry.types import ExecutionContext
from strawberry.utils.await_maybe import await_maybe
from strawberry.utils.str_converters import to_camel_case

__all__ = [
    "DEFAULT_ALLOWED_OPERATION_TYPES",
    "BaseGraphQLTransportWSHandler",
    "BaseGraphQLWSHandler",
    "CannotGetOperationTypeError",
    "InvalidOperationTypeError",
    "StrawberryGraphQLCoreExecutionContext",
    "TemporalResponse",
    "WebSocketDisconnected",
    "core_schema",
    "create_validator",
    "execute_document",
    "handle_errors",
    "new_execution_context",
    "normalize_allowed_origins",
    "stream_transport",
    "to_camel_case",
    "validate_document",
]


def new_execution_context(schema: Schema, **options: Any) -> ExecutionContext:
    """The execution context strawberry's ``execute`` builds for an operation (``query``,
    ``allowed_operation_types``, ``variable_values``, ``context_value``, ``root_value``,
    ``operation_name``, ``operation_extensions``)."""
    return schema._create_execution_context(**options)


def core_schema(schema: Schema) -> GraphQLSchema:
    """The graphql-core schema strawberry built (what documents are validated against)."""
    return schema._schema


async def execute_document(
    schema: Schema, context: ExecutionContext, operation_extensions: dict[str, Any] | None
) -> Any:
    """graphql-core's execution of the context's parsed document, called exactly as
    strawberry's ``execute`` calls it (its execute function, executor class and custom
    arguments): the result, as graphql-core returns it."""
    return await await_maybe(
        schema._get_execute_function()(
            schema._schema,
            context.graphql_document,
            root_value=context.root_value,
            variable_values=context.variables,
            operation_name=context.operation_name,
            context_value=context.context,
            is_awaitable=optimized_is_awaitable,
            **execution_context_class_kwargs(schema.execution_context_class),
            **schema._get_custom_context_kwargs(operation_extensions),
        )
    )


def handle_errors(schema: Schema, errors: list[GraphQLError], context: ExecutionContext) -> None:
    """Strawberry's handling of an operation's errors (field suggestions removed when the
    config says so, then the schema's ``process_errors``)."""
    schema._process_errors(errors, context)


def stream_transport(view: GraphQL[Any, Any], headers: Mapping[str, str]) -> Any:
    """The streaming transport (multipart, SSE) a request's ``Accept`` asks the view for, or
    None: a request that asks for one is strawberry's to answer."""
    return view._get_stream_transport_from_headers(headers)
