"""The schema: queries, mutations and subscriptions with the limits every request passes."""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.extensions import (
    AddValidationRules,
    MaxTokensLimiter,
    ParserCache,
    ValidationCache,
)
from strawberry.extensions.query_depth_limiter import create_validator

from service.api.graphql.errors import PublicErrors, is_unexpected
from service.api.graphql.limits import QueryLimits
from service.api.graphql.mutations import Mutation, MutationLimits
from service.api.graphql.observed import RequestFacts
from service.api.graphql.queries import Query
from service.api.graphql.subscriptions import Subscription

MAX_DEPTH = 12
MAX_TOKENS = 2_000
DEPTH_RULE = create_validator(MAX_DEPTH, None, None)


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
    extensions=[
        PublicErrors,
        RequestFacts,  # what was asked, for the request's log line and metrics
        # one rule class for every request, so that validation results can be cached
        lambda: AddValidationRules([DEPTH_RULE]),
        lambda: MaxTokensLimiter(max_token_count=MAX_TOKENS),
        # cost and alias limits before execution, the time budget during it (the settings)
        QueryLimits,
        # rate limits of mutations, counted before any of them runs (service/app/limits.py)
        MutationLimits,
        # clients send the same few documents over and over: parse and validate each once
        lambda: ParserCache(maxsize=512),
        lambda: ValidationCache(maxsize=512),
    ],
)
