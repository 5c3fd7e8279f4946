"""The mutations: players (and their tokens), tables, play, undo, import and forks (docs/API.md),
and the rate limits every mutation request passes (``limit_mutations``).

The fields are declared by area, each in its own module: ``PlayerMutations`` (players and
tokens, ``service.api.graphql.playermutations``) and ``TableMutations`` (tables, play, undo,
import and forks, ``service.api.graphql.tablemutations``). ``Mutation`` is the one root type of
the schema that inherits both (strawberry takes the fields of every ``@strawberry.type`` base),
in the order the schema has always listed them: players first.
"""

from __future__ import annotations

from typing import Any

import strawberry
from graphql import (
    DocumentNode,
    ExecutionResult,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    OperationType,
    get_operation_ast,
)

from service.api.graphql.context import Context
from service.api.graphql.playermutations import PlayerMutations
from service.api.graphql.tablemutations import TableMutations
from service.app.errors import PapyrusError


@strawberry.type(description="The write operations: players, tables, play, undo, import, forks.")
class Mutation(PlayerMutations, TableMutations):
    """Every mutation field: those of ``PlayerMutations``, then those of ``TableMutations``
    (strawberry lists the fields of its bases in the order they are named)."""


async def limit_mutations(execution: Any) -> None:
    """The rate limits of mutations (``service.app.limits``), counted once per request before
    any of its mutations runs: one per mutation field, against the caller and the client
    address (``registerPlayer`` also as a registration). Over a limit, nothing runs: the
    answer is ``RATE_LIMITED`` with ``retryAfter``, and over HTTP status 429 with a
    ``Retry-After`` header.

    On a websocket, whose context lives as long as the connection, every query or mutation
    first checks the connection's token again (``Context.recheck``): one revoked since the
    connection opened is refused (subscriptions check it whenever they have news)."""
    document = execution.graphql_document
    operation = get_operation_ast(document, execution.operation_name) if document else None
    context: Context = execution.context
    try:
        if (
            operation is not None
            and operation.operation is not OperationType.SUBSCRIPTION
            and context.is_connection
        ):
            await context.run(context.recheck)
        if operation is not None and operation.operation is OperationType.MUTATION:
            fields = root_fields(document, execution.operation_name)
            await context.limit_mutations(len(fields), fields.count("registerPlayer"))
    except PapyrusError as refused:
        execution.result = ExecutionResult(
            data=None, errors=[GraphQLError(refused.message, original_error=refused)]
        )


def root_fields(document: DocumentNode | None, operation_name: str | None) -> list[str]:
    """The names of the root fields an operation selects (through its fragments too)."""
    operation = get_operation_ast(document, operation_name) if document is not None else None
    if operation is None or document is None:
        return []
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    names: list[str] = []

    def walk(selections: Any, seen: frozenset[str]) -> None:
        for selection in selections:
            if isinstance(selection, FieldNode):
                if selection.name.value != "__typename":
                    names.append(selection.name.value)
            elif isinstance(selection, InlineFragmentNode):
                walk(selection.selection_set.selections, seen)
            elif isinstance(selection, FragmentSpreadNode):
                name = selection.name.value
                if name in fragments and name not in seen:
                    walk(fragments[name].selection_set.selections, seen | {name})

    walk(operation.selection_set.selections, frozenset())
    return names
