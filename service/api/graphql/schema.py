"""The schema: queries, mutations and subscriptions with the limits every request passes."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from functools import lru_cache
from typing import Any

import strawberry
from graphql import parse
from strawberry.extensions import SchemaExtension
from strawberry.extensions.query_depth_limiter import create_validator
from strawberry.schema.schema import validate_document

from service.api.graphql.errors import is_unexpected, publish, publish_operation
from service.api.graphql.limits import limited
from service.api.graphql.mutations import Mutation, limit_mutations
from service.api.graphql.observed import observe
from service.api.graphql.queries import Query
from service.api.graphql.subscriptions import Subscription

MAX_DEPTH = 12
MAX_TOKENS = 2_000
DEPTH_RULE = create_validator(MAX_DEPTH, None, None)
#: documents parsed, and parsed documents validated, kept (clients send the same few documents
#: over and over: each is parsed and validated once)
DOCUMENTS = 512

parsed = lru_cache(maxsize=DOCUMENTS)(parse)
#: strawberry's own validation (the graphql-core rules with its @oneOf and Maybe rules)
validated = lru_cache(maxsize=DOCUMENTS)(validate_document)


class Gate(SchemaExtension):
    """What every operation passes, in one extension (strawberry builds the context managers
    of each hook per request and per extension: one extension, not eight, keeps that cost
    out of each request):

    * parsing: at most ``MAX_TOKENS`` tokens, each document parsed once (``parsed``);
    * validation: the schema's rules and the depth limit, each document validated once;
    * execution: the cost, alias and time limits (``limits.limited``), then the rate limits of
      mutations and a websocket's token checked again (``mutations.limit_mutations``);
    * the answer: every error leaves with its code (``errors.publish``), and the request's
      record notes what was asked (``observed.observe``), for its log line and metrics.
    """

    def on_operation(self) -> Iterator[None]:
        context = self.execution_context
        context.parse_options["max_tokens"] = MAX_TOKENS
        # one rule tuple for every request, so that validation results can be cached
        context.validation_rules = (*context.validation_rules, DEPTH_RULE)
        yield
        observe(context)
        publish_operation(context)

    def on_parse(self) -> Iterator[None]:
        context = self.execution_context
        context.graphql_document = parsed(context.query, **context.parse_options)
        yield

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        document = context.graphql_document
        if document is not None:
            errors = validated(context.schema._schema, document, context.validation_rules)
            context.pre_execution_errors = errors  # a list, empty when valid
        yield

    async def on_execute(self) -> AsyncIterator[None]:
        context = self.execution_context
        async with limited(context):
            await limit_mutations(context)
            yield

    def on_stream_result(self, result: Any) -> Iterator[None]:
        """Each result a subscription sends (its errors included) leaves with its codes."""
        publish(result)
        yield


class PapyrusSchema(strawberry.Schema):
    def process_errors(self, errors: list[Any], execution_context: Any = None) -> None:
        """Log bugs only: a refused command or a bad query is the client's business."""
        unexpected = [e for e in errors if is_unexpected(e)]
        if unexpected:
            super().process_errors(unexpected, execution_context)


schema = PapyrusSchema(
    query=Query,
    mutation=Mutation,
    subscription=Subscription,
    extensions=[Gate],
)
