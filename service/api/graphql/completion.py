"""What a compiled plan of a query or mutation (``operations``) does while it runs, as
graphql-core's executor does it: ``Run`` holds one request's state (its errors, by graphql-core's
own ``CollectedErrors``), fields of an object are executed together and their awaitables awaited
together, a value completed later is guarded so that its error nulls its field as graphql-core's
would, and an abstract type's runtime type is checked with graphql-core's messages word for word.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import Any

from graphql import (
    FieldNode,
    GraphQLError,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLResolveInfo,
    GraphQLSchema,
    VariableNode,
    located_error,
)
from graphql.execution.executor import CollectedErrors
from graphql.pyutils import Path, inspect
from graphql.type.definition import GraphQLResolveInfoHelpers

from service.api.graphql.selections import Unsupported
from service.api.graphql.strawberry_private import optimized_is_awaitable

#: ``complete(run, path, value, info)``: the completed value, or an awaitable of it
Complete = Callable[["Run", Path, Any, Any], Any]
#: ``execute(run, source, parent_path)``: one field of ``source`` completed (or awaitable)
Execute = Callable[["Run", Any, "Path | None"], Any]


#: graphql-core's test of an awaitable value, as strawberry gives it to graphql-core
awaitable: Any = optimized_is_awaitable


class Run:
    """One execution of a plan: what graphql-core's executor holds per request."""

    __slots__ = ("context", "errors", "helpers", "plan", "root", "tracked", "variables")

    def __init__(self, plan: Any, context: Any, root: Any, variables: Any) -> None:
        self.plan = plan
        self.context = context
        self.root = root
        self.variables = variables
        self.errors = CollectedErrors()
        self.tracked: list[Any] = []
        self.helpers = GraphQLResolveInfoHelpers(gather=self.gather, track=self.track)

    async def gather(self, values: Iterable[Any]) -> list[Any]:
        return list(await asyncio.gather(*values))

    def track(self, values: Iterable[Any]) -> None:
        self.tracked.extend(asyncio.ensure_future(v) for v in values)

    def info(
        self,
        name: str,
        nodes: list[FieldNode],
        type_: GraphQLOutputType,
        parent: GraphQLObjectType,
        path: Path,
    ) -> GraphQLResolveInfo:
        plan = self.plan
        return GraphQLResolveInfo(
            name,
            nodes,
            type_,
            parent,
            path,
            plan.schema,
            plan.fragments,
            self.root,
            plan.operation,
            self.variables,
            self.context,
            awaitable,
            None,
            self.helpers,
        )

    def field_error(
        self, raw: Exception, type_: GraphQLOutputType, nodes: list[FieldNode], path: Path
    ) -> None:
        """graphql-core's ``handle_field_error``: located; raised on for a non-null type (its
        parent is nulled), else collected and the field is null."""
        error = located_error(raw, nodes, path.as_list())
        if isinstance(type_, GraphQLNonNull):
            raise error
        self.errors.add(error, path)


def runtime_type(
    schema: GraphQLSchema,
    runtime: Any,
    type_: Any,
    parent: GraphQLObjectType,
    name: str,
    value: Any,
    nodes: list[FieldNode],
) -> GraphQLObjectType:
    """graphql-core's ``ensure_valid_runtime_type``, its messages word for word."""
    if runtime is None:
        raise GraphQLError(
            f"Abstract type '{type_}' must resolve to an Object type at runtime"
            f" for field '{parent}.{name}'. Either the '{type_}' type should provide"
            " a 'resolve_type' function or each possible type should provide"
            " an 'is_type_of' function.",
            nodes,
        )
    if not isinstance(runtime, str):
        raise GraphQLError(
            f"Abstract type '{type_}' must resolve to an Object type at runtime"
            f" for field '{parent}.{name}' with value {inspect(value)},"
            f" received '{inspect(runtime)}', which is not a valid Object type name.",
            nodes,
        )
    concrete = schema.get_type(runtime)
    if concrete is None:
        raise GraphQLError(
            f"Abstract type '{type_}' was resolved to a type '{runtime}' that does not"
            " exist inside the schema.",
            nodes,
        )
    if not isinstance(concrete, GraphQLObjectType):
        raise GraphQLError(
            f"Abstract type '{type_}' was resolved to a non-object type '{runtime}'.", nodes
        )
    if not schema.is_sub_type(type_, concrete):
        raise GraphQLError(
            f"Runtime Object type '{concrete}' is not a possible type for '{type_}'.", nodes
        )
    return concrete


def execute_fields(
    fields: list[tuple[str, Execute]], run: Run, source: Any, path: Path | None
) -> Any:
    """graphql-core's ``execute_fields``: every field of ``source``; the awaitable ones
    awaited together (a coroutine of the whole object if any is)."""
    results: dict[str, Any] = {}
    later: list[str] = []
    for key, execute in fields:
        value = execute(run, source, path)
        results[key] = value
        if awaitable(value):
            later.append(key)
    if not later:
        return results
    return object_later(results, later)


async def object_later(results: dict[str, Any], later: list[str]) -> dict[str, Any]:
    if len(later) == 1:
        results[later[0]] = await results[later[0]]
        return results
    values = await gather_all(*(results[key] for key in later))
    results.update(zip(later, values, strict=True))
    return results


async def list_later(results: list[Any], later: list[int]) -> list[Any]:
    if len(later) == 1:
        results[later[0]] = await results[later[0]]
        return results
    values = await gather_all(*(results[index] for index in later))
    for index, value in zip(later, values, strict=True):
        results[index] = value
    return results


async def gather_all(*awaitables: Any) -> list[Any]:
    """graphql-core's ``gather_with_cancel``: all of them, the others cancelled as soon as one
    fails (its failure raised)."""
    tasks = [asyncio.ensure_future(a) for a in awaitables]
    try:
        return list(await asyncio.gather(*tasks))
    except Exception:
        for task in tasks:
            if not task.done():
                task.cancel()
        raise


async def settle(value: Any) -> Any:
    return (await value) if awaitable(value) else value


def included(node: Any) -> bool:
    """``@skip``/``@include`` with a literal condition (graphql-core's rule); any other
    directive, or a condition from a variable, is not compiled."""
    for directive in node.directives or ():
        name = directive.name.value
        if name not in ("skip", "include"):
            raise Unsupported(f"@{name}")
        (argument,) = directive.arguments
        if isinstance(argument.value, VariableNode):
            raise Unsupported(f"@{name} on a variable")
        value = getattr(argument.value, "value", None)
        if (name == "skip" and value is True) or (name == "include" and value is False):
            return False
    return True


def typename(name: str) -> Execute:
    return lambda _run, _source, _path: name


async def completed_later(
    run: Run,
    type_: GraphQLOutputType,
    nodes: list[FieldNode],
    path: Path,
    complete: Complete,
    value: Any,
    info: Any,
) -> Any:
    """A value that comes later (a resolver's awaitable, or an awaitable list item), awaited
    and completed; its error nulls its field as graphql-core's would."""
    try:
        if awaitable(value):
            value = await value
        result = complete(run, path, value, info)
        return (await result) if awaitable(result) else result
    except Exception as raw:
        run.field_error(raw, type_, nodes, path)
        return None


async def guarded(
    run: Run, type_: GraphQLOutputType, nodes: list[FieldNode], path: Path, completion: Any
) -> Any:
    """A completion that finishes later (an object's awaited fields); its error nulls its
    field as graphql-core's would."""
    try:
        return await completion
    except Exception as raw:
        run.field_error(raw, type_, nodes, path)
        return None
