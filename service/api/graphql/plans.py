"""Compiled plans for subscription events: a document's selection walked once, then each event
completed by a plain walk of the pushed object (issue #22: the push path).

graphql-core executes a subscription's selection anew on every event: it collects the fields,
builds an info object and calls a wrapped resolver per field, and completes each value through
its generic machinery. On the push path that was the largest single cost (a quarter to a third
of the server's time in ``bench/api.py --shape push``). The pushed objects (``GameChange``,
``GameEvent``, the typed views) are plain data: every field of theirs is a *basic* strawberry
field (no resolver, no arguments, no extension: its value is the attribute). For such a
selection, ``plan`` compiles, once per document, operation and variables, what graphql-core
would do: the fields collected (aliases, fragments, ``@skip``/``@include``), each value read
from its attribute, leaves serialised by their GraphQL type (``serialize``, exactly as
graphql-core's ``complete_leaf_value``), lists walked, abstract types resolved by the
strawberry type of the value.

Anything else gives no plan (``None``) and graphql-core executes as before: a field with a
resolver or arguments, a directive other than ``@skip``/``@include``, fragment arguments. A
plan that meets what it cannot complete exactly as graphql-core would (a null for a non-null
field, a value its type does not serialise, an object of no known type) raises ``Fallback``
and that event is executed by graphql-core, which reports the error as it always did.
``tests/service/transport/test_plans.py`` compares plans with graphql-core on random games,
callers, selections and versions, and shows that a wrong plan is caught.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    GraphQLEnumType,
    GraphQLField,
    GraphQLIncludeDirective,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLScalarType,
    GraphQLSchema,
    GraphQLSkipDirective,
    OperationDefinitionNode,
    is_abstract_type,
)
from graphql.execution.values import get_directive_values

from service.api.graphql.selections import Selections, Unsupported

#: compiled plans kept (by document, operation and variables)
PLANS = 256
#: plans are used (tests turn them off to compare with graphql-core alone)
ENABLED = True

Complete = Callable[[Any], Any]


class Fallback(Exception):
    """This event's value cannot be completed by the plan exactly as graphql-core would."""


class Plan:
    """The compiled selection of one subscription operation: ``plan(event)`` is the response's
    ``data`` for that event."""

    def __init__(
        self,
        schema: GraphQLSchema,
        operation: OperationDefinitionNode,
        fragments: dict[str, FragmentDefinitionNode],
        variables: Any,
    ) -> None:
        self.schema = schema
        self.variables = variables
        self.selections = Selections(schema, fragments, self.included)
        root = schema.subscription_type
        if root is None or operation.operation.value != "subscription":
            raise Unsupported("not a subscription")
        fields = self.selections.collect(root, [operation.selection_set])
        if len(fields) != 1:
            raise Unsupported("one root field")
        ((key, (name, nodes)),) = fields.items()
        field = root.fields[name]  # its arguments were the subscription's: not read per event
        self.key = key
        self.complete = self.completer(field.type, nodes)

    def __call__(self, event: Any) -> dict[str, Any]:
        # strawberry resolves a subscription's root field per event to the event itself
        return {self.key: self.complete(event)}

    # -- compiling ------------------------------------------------------------------------------

    def included(self, node: Any) -> bool:
        for directive in node.directives or ():
            if directive.name.value not in ("skip", "include"):
                raise Unsupported(f"@{directive.name.value}")
        skip = get_directive_values(GraphQLSkipDirective, node, self.variables)
        if skip and skip.get("if") is True:
            return False
        include = get_directive_values(GraphQLIncludeDirective, node, self.variables)
        return not (include and include.get("if") is False)

    def completer(self, type_: GraphQLOutputType, nodes: list[FieldNode]) -> Complete:
        """How a value of ``type_`` selected by ``nodes`` is completed."""
        if isinstance(type_, GraphQLNonNull):
            inner = self.completer(type_.of_type, nodes)

            def non_null(value: Any) -> Any:
                if value is None:
                    raise Fallback("null for a non-null field")
                return inner(value)

            return non_null
        if isinstance(type_, GraphQLList):
            item = self.completer(type_.of_type, nodes)
            return lambda value: None if value is None else [item(v) for v in value]
        if isinstance(type_, GraphQLScalarType | GraphQLEnumType):
            serialize = type_.serialize

            def leaf(value: Any) -> Any:
                if value is None:
                    return None
                try:
                    serialized = serialize(value)
                except Exception as failure:  # graphql-core reports it as a field error
                    raise Fallback("a value its type does not serialise") from failure
                if serialized is None:
                    raise Fallback("a value its type does not serialise")
                return serialized

            return leaf
        if isinstance(type_, GraphQLObjectType):
            return self.object_completer(type_, nodes)
        if is_abstract_type(type_):
            return self.abstract_completer(type_, nodes)
        raise Unsupported(f"a type {type_}")  # pragma: no cover

    def object_completer(self, type_: GraphQLObjectType, nodes: list[FieldNode]) -> Complete:
        selections = [n.selection_set for n in nodes if n.selection_set]
        steps: list[tuple[str, Complete]] = []
        for key, (name, field_nodes) in self.selections.collect(type_, selections).items():
            if name == "__typename":
                steps.append((key, typename(type_.name)))
                continue
            field = type_.fields.get(name)
            if field is None:
                raise Unsupported(f"{type_.name}.{name}")
            read = basic(field, type_.name, name)
            steps.append((key, then(read, self.completer(field.type, field_nodes))))

        def complete_object(value: Any) -> Any:
            if value is None:
                return None
            return {key: step(value) for key, step in steps}

        return complete_object

    def abstract_completer(self, type_: Any, nodes: list[FieldNode]) -> Complete:
        by_type: dict[str, Complete] = {}
        lock = threading.Lock()

        def complete_abstract(value: Any) -> Any:
            if value is None:
                return None
            definition = getattr(type(value), "__strawberry_definition__", None)
            name = getattr(definition, "name", None)
            concrete = self.schema.get_type(name) if name else None
            if not isinstance(concrete, GraphQLObjectType) or not self.schema.is_sub_type(
                type_, concrete
            ):
                raise Fallback("an object of no known type")
            complete = by_type.get(name)  # type: ignore[arg-type]
            if complete is None:
                with lock:
                    complete = by_type.setdefault(
                        name,  # type: ignore[arg-type]
                        self.object_completer(concrete, nodes),
                    )
            return complete(value)

        return complete_abstract


def typename(name: str) -> Complete:
    return lambda _value: name


def then(read: Complete, complete: Complete) -> Complete:
    return lambda value: complete(read(value))


def basic(field: GraphQLField, parent: str, name: str) -> Callable[[Any], Any]:
    """The value of a basic strawberry field (its attribute: no resolver, no arguments);
    ``Unsupported`` for any other field."""
    if field.args or not getattr(field.resolve, "_is_default", False):
        raise Unsupported(f"{parent}.{name} has a resolver or arguments")
    resolve = field.resolve
    assert resolve is not None
    return lambda value: resolve(value, None)


_plans: dict[tuple[Any, ...], Plan | None] = {}
_lock = threading.Lock()


def plan_for(executor: Any) -> Plan | None:
    """The compiled plan of a per-event executor's operation (``None``: graphql-core executes
    it), compiled at its first event and kept by document, operation and variables."""
    location = executor.operation.loc
    if location is None or not ENABLED:
        return None
    variables = executor.variable_values
    key = (
        id(executor.schema),
        location.source.body,
        location.start,
        repr(sorted(variables.coerced.items())),
    )
    try:
        return _plans[key]
    except KeyError:
        pass
    try:
        made: Plan | None = Plan(
            executor.schema, executor.operation, executor.fragment_definitions, variables
        )
    except Unsupported:
        made = None
    with _lock:
        if len(_plans) >= PLANS:
            _plans.clear()
        _plans[key] = made
    return made
