"""The schema: queries, mutations and subscriptions with the limits every request passes."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from contextlib import asynccontextmanager
from functools import lru_cache, partial
from typing import Any

import strawberry
from graphql import DocumentNode, GraphQLError, GraphQLSchema, parse
from strawberry.exceptions import MissingQueryError
from strawberry.extensions import SchemaExtension
from strawberry.types import ExecutionContext, ExecutionResult
from strawberry.types.graphql import OperationType

from service.api.graphql import operations, trusted
from service.api.graphql.context import Context
from service.api.graphql.errors import is_unexpected, publish, publish_operation
from service.api.graphql.limits import limited
from service.api.graphql.mutations import Mutation, limit_mutations
from service.api.graphql.numbers import refuse_long_numbers
from service.api.graphql.observed import observe
from service.api.graphql.queries import Query
from service.api.graphql.strawberry_private import (
    DEFAULT_ALLOWED_OPERATION_TYPES,
    CannotGetOperationTypeError,
    InvalidOperationTypeError,
    core_schema,
    create_validator,
    execute_document,
    handle_errors,
    new_execution_context,
    validate_document,
)
from service.api.graphql.streaming import EventExecution
from service.api.graphql.subscriptions import Subscription

MAX_DEPTH = 12
MAX_TOKENS = 2_000
DEPTH_RULE = create_validator(MAX_DEPTH, None, None)
#: documents parsed, and parsed documents validated, kept (clients send the same few documents
#: over and over: each is parsed and validated once)
DOCUMENTS = 512


@lru_cache(maxsize=DOCUMENTS)
def parsed(query: str, **options: Any) -> DocumentNode:
    """The document of ``query`` (graphql-core's ``parse``), its number literals bounded
    (``numbers.refuse_long_numbers``); a refusal raises ``GraphQLError``, like a syntax error."""
    document = parse(query, **options)
    refuse_long_numbers(query, document)
    return document


@lru_cache(maxsize=DOCUMENTS)
def validated_text(
    schema: Any, query: str, options: tuple[tuple[str, Any], ...], rules: tuple[Any, ...]
) -> list[GraphQLError]:
    """Strawberry's own validation (the graphql-core rules with its @oneOf and Maybe rules) of
    the document ``parsed`` from ``query``, remembered by the text: a document's own hash
    walks its whole tree on every call (graphql-core's nodes are frozen dataclasses that do not
    keep their hash), a text's is computed once."""
    return validate_document(schema, parsed(query, **dict(options)), rules)


class Gate(SchemaExtension):
    """What every operation passes, in one extension (strawberry builds the context managers
    of each hook per request and per extension: one extension, not eight, keeps that cost
    out of each request):

    * parsing: at most ``MAX_TOKENS`` tokens, each document parsed once (``parsed``);
    * validation: the schema's rules and the depth limit, each document validated once;
    * execution: the cost, alias and time limits (``limits.limited``), then the rate limits of
      mutations and a websocket's token checked again (``mutations.limit_mutations``); a
      trusted document's query or mutation by its compiled plan (``operations``);
    * the answer: every error leaves with its code (``errors.publish``), and the request's
      record notes what was asked (``observed.observe``), for its log line and metrics.
    """

    # the steps, shared by the hooks below and by ``PapyrusSchema.execute``

    @staticmethod
    def begin(context: ExecutionContext) -> None:
        context.parse_options["max_tokens"] = MAX_TOKENS
        # one rule tuple for every request, so that validation results can be cached
        context.validation_rules = (*context.validation_rules, DEPTH_RULE)

    @staticmethod
    def parse(context: ExecutionContext) -> None:
        context.graphql_document = parsed(context.query, **context.parse_options)

    @staticmethod
    def validate(context: ExecutionContext) -> list[GraphQLError]:
        # the document is ``parsed`` from the query (``Gate.parse``): validated by its text
        assert context.graphql_document is not None and context.query is not None
        options = tuple(sorted(context.parse_options.items()))
        errors: list[GraphQLError] = validated_text(
            core_schema(context.schema), context.query, options, tuple(context.validation_rules)
        )
        context.pre_execution_errors = errors  # a list, empty when valid
        return errors

    @staticmethod
    @asynccontextmanager
    async def executing(context: ExecutionContext) -> AsyncIterator[None]:
        """Around the execution: the limits, the caller resolved, the mutations counted."""
        async with limited(context):
            await settled(context)
            await limit_mutations(context)
            yield

    @staticmethod
    def end(context: ExecutionContext) -> None:
        observe(context)
        publish_operation(context)

    # the hooks (subscriptions)

    def on_operation(self) -> Iterator[None]:
        self.begin(self.execution_context)
        yield
        self.end(self.execution_context)

    def on_parse(self) -> Iterator[None]:
        # an error raised in a hook escapes strawberry's handling (the subscription ended with
        # a logged traceback and no error): strawberry parses a document we refuse again and
        # answers its syntax error itself; a refused number is answered at validation
        with contextlib.suppress(GraphQLError):
            self.parse(self.execution_context)
        yield

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        if context.graphql_document is not None:
            try:
                self.validate(context)
            except GraphQLError as refused:  # ``parsed`` refused it (numbers.py)
                context.pre_execution_errors = [refused]
        yield

    async def on_execute(self) -> AsyncIterator[None]:
        async with self.executing(self.execution_context):
            yield

    def on_stream_result(self, result: Any) -> Iterator[None]:
        """Each result a subscription sends (its errors included) leaves with its codes."""
        publish(result)
        yield


class PapyrusSchema(strawberry.Schema):
    def _get_execute_function(self) -> Callable[..., Any]:
        """strawberry's one source of graphql-core's ``execute``, for every query and mutation
        over HTTP (``execute``) and over a websocket (strawberry's ``stream``): a trusted
        document's runs by its compiled plan (``planned_execute``)."""
        return partial(planned_execute, super()._get_execute_function())

    def process_errors(self, errors: list[Any], execution_context: Any = None) -> None:
        """Log bugs only: a refused command or a bad query is the client's business."""
        unexpected = [e for e in errors if is_unexpected(e)]
        if unexpected:
            super().process_errors(unexpected, execution_context)

    async def execute(
        self,
        query: str | None,
        variable_values: dict[str, Any] | None = None,
        context_value: Any | None = None,
        root_value: Any | None = None,
        operation_name: str | None = None,
        allowed_operation_types: Iterable[OperationType] | None = None,
        operation_extensions: dict[str, Any] | None = None,
    ) -> ExecutionResult:
        """A query or mutation: strawberry's ``execute`` with ``Gate``'s steps called directly.

        Strawberry's own runs every extension through its runner, which builds the context
        managers of each hook (operation, parsing, validation, execution) per request: with
        ``Gate`` alone that was still about a tenth of the server's CPU per ``act``. The steps
        and their errors are strawberry's (a document that does not parse or validate, an
        operation type not allowed, an error raised before execution); subscriptions still go
        through the runner and ``Gate`` (``subscribe``)."""
        context = new_execution_context(
            self,
            query=query,
            allowed_operation_types=allowed_operation_types or DEFAULT_ALLOWED_OPERATION_TYPES,
            variable_values=variable_values,
            context_value=context_value,
            root_value=root_value,
            operation_name=operation_name,
            operation_extensions=operation_extensions,
        )
        Gate.begin(context)
        try:
            return await self._gated(context, operation_extensions)
        finally:
            Gate.end(context)

    async def _gated(
        self, context: ExecutionContext, operation_extensions: dict[str, Any] | None
    ) -> ExecutionResult:
        if not context.query:
            raise MissingQueryError
        try:
            Gate.parse(context)
        except Exception as error:
            return self._refused(context, coerced(error))
        try:
            operation_type = context.operation_type
        except RuntimeError as error:
            raise CannotGetOperationTypeError(context.operation_name) from error
        if operation_type not in context.allowed_operations:
            raise InvalidOperationTypeError(operation_type)
        try:
            errors = Gate.validate(context)
            if errors:
                return self._refused(context, *errors)
            async with Gate.executing(context):
                if context.result is None:
                    context.result = await execute_document(self, context, operation_extensions)
        except Exception as error:
            return self._refused(context, coerced(error))
        result: Any = context.result
        if result.errors:
            context.pre_execution_errors = result.errors
            handle_errors(self, result.errors, context)
        if not isinstance(result, ExecutionResult):
            result = ExecutionResult(data=result.data, errors=result.errors, extensions={})
        else:
            result.extensions = {}
        context.result = result
        return result

    def _refused(self, context: ExecutionContext, *errors: GraphQLError) -> ExecutionResult:
        """The answer to an operation stopped before or around its execution."""
        context.pre_execution_errors = list(errors)
        handle_errors(self, list(errors), context)
        context.result = ExecutionResult(data=None, errors=list(errors), extensions={})
        return context.result


async def settled(context: ExecutionContext) -> None:
    """The request's caller resolved before the resolvers run (``Context.settle_caller``)."""
    if isinstance(context.context, Context):
        await context.context.settle_caller()


def planned_execute(
    plain: Callable[..., Any],
    schema: GraphQLSchema,
    document: DocumentNode,
    root_value: Any = None,
    context_value: Any = None,
    variable_values: dict[str, Any] | None = None,
    operation_name: str | None = None,
    middleware: Any = None,
    **options: Any,
) -> Any:
    """graphql-core's ``execute`` as strawberry calls it (``plain``), except for a trusted
    document's query or mutation: its compiled plan (``operations``) runs it. The document's
    text is its source's (``parsed`` keeps it); a document with resolver middleware, or one a
    plan does not do, is graphql-core's."""
    source = document.loc.source.body if document.loc is not None else None
    compiled = None
    if (
        source is not None
        and not getattr(middleware, "middlewares", None)
        and trusted.is_trusted(source)
    ):
        compiled = operations.plan_for(schema, document, source, operation_name)
    if compiled is None:
        return plain(
            schema,
            document,
            root_value=root_value,
            context_value=context_value,
            variable_values=variable_values,
            operation_name=operation_name,
            middleware=middleware,
            **options,
        )
    return compiled.execute(context_value, root_value, variable_values)


def coerced(error: Exception) -> GraphQLError:
    """An error raised before or around execution, as the GraphQL error it answers with."""
    if isinstance(error, GraphQLError):
        return error
    return GraphQLError(str(error), original_error=error)


schema = PapyrusSchema(
    query=Query,
    mutation=Mutation,
    subscription=Subscription,
    extensions=[Gate],
    # a subscription's events are executed on worker threads (``streaming``)
    execution_context_class=EventExecution,
)
