"""How a compiled plan of a query or mutation (``operations.OperationPlan``) completes a value
of each GraphQL type, the type's kind decided once when the plan is compiled: graphql-core's
``complete_value`` (non-null, list, leaf, object, abstract), with its errors and messages."""

from __future__ import annotations

from typing import Any

from graphql import (
    FieldNode,
    GraphQLEnumType,
    GraphQLError,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLScalarType,
    GraphQLSchema,
    SelectionSetNode,
    is_abstract_type,
)
from graphql.pyutils import Path, Undefined, inspect, is_iterable

from service.api.graphql.completion import (
    Complete,
    Execute,
    Run,
    awaitable,
    completed_later,
    execute_fields,
    guarded,
    list_later,
    runtime_type,
)
from service.api.graphql.selections import Unsupported


class Completers:
    """The completion of values by type; ``fields_of`` (how an object's selected fields are
    executed) is the plan's."""

    schema: GraphQLSchema

    def fields_of(
        self, parent: GraphQLObjectType, selections: list[SelectionSetNode]
    ) -> list[tuple[str, Execute]]:
        raise NotImplementedError  # pragma: no cover - OperationPlan's

    def completer(
        self,
        type_: GraphQLOutputType,
        nodes: list[FieldNode],
        parent: GraphQLObjectType,
        name: str,
    ) -> Complete:
        """graphql-core's ``complete_value`` for values of ``type_``, the type's kind decided
        here: ``complete(run, path, value, info)`` (``info`` ``None`` for a basic field's
        value, made when an object or abstract type needs it)."""
        if isinstance(type_, GraphQLNonNull):
            inner = self.completer(type_.of_type, nodes, parent, name)
            null = f"Cannot return null for non-nullable field {parent.name}.{name}."

            def non_null(run: Run, path: Path, value: Any, info: Any) -> Any:
                if isinstance(value, Exception):
                    raise value
                completed = inner(run, path, value, info)
                if completed is None:  # an awaitable (an object's fields) is no null
                    raise TypeError(null)
                return completed

            return non_null
        if isinstance(type_, GraphQLList):
            return self.list_completer(type_, nodes, parent, name)
        if isinstance(type_, GraphQLScalarType | GraphQLEnumType):
            coerce = type_.coerce_output_value

            def leaf(run: Run, path: Path, value: Any, info: Any) -> Any:
                if isinstance(value, Exception):
                    raise value
                if value is None or value is Undefined:
                    return None
                coerced = coerce(value)
                if coerced is Undefined or coerced is None:
                    raise TypeError(
                        f"Expected `{inspect(type_)}.coerce_output_value("
                        f"{inspect(value)})` to return non-nullable value, returned:"
                        f" {inspect(coerced)}"
                    )
                return coerced

            return leaf
        if isinstance(type_, GraphQLObjectType):
            return self.object_completer(type_, nodes, parent, name)
        if is_abstract_type(type_):
            return self.abstract_completer(type_, nodes, parent, name)
        raise Unsupported(f"a type {type_}")  # pragma: no cover

    def list_completer(
        self,
        type_: GraphQLList[Any],
        nodes: list[FieldNode],
        parent: GraphQLObjectType,
        name: str,
    ) -> Complete:
        item_type = type_.of_type
        item = self.completer(item_type, nodes, parent, name)
        not_a_list = f"Expected Iterable, but did not find one for field '{parent.name}.{name}'."

        def complete_list(run: Run, path: Path, value: Any, info: Any) -> Any:
            if isinstance(value, Exception):
                raise value
            if value is None or value is Undefined:
                return None
            if hasattr(value, "__aiter__") or not is_iterable(value):
                if hasattr(value, "__aiter__"):
                    raise Unsupported("an async iterable")  # pragma: no cover - none here
                raise GraphQLError(not_a_list)
            results: list[Any] = []
            later: list[int] = []
            for index, element in enumerate(value):
                item_path = path.add_key(index, None)
                if awaitable(element):
                    results.append(
                        completed_later(run, item_type, nodes, item_path, item, element, info)
                    )
                    later.append(index)
                    continue
                try:
                    completed = item(run, item_path, element, info)
                except Exception as raw:
                    run.field_error(raw, item_type, nodes, item_path)
                    completed = None
                if awaitable(completed):
                    results.append(guarded(run, item_type, nodes, item_path, completed))
                    later.append(index)
                else:
                    results.append(completed)
            if not later:
                return results
            return list_later(results, later)

        return complete_list

    def object_completer(
        self,
        type_: GraphQLObjectType,
        nodes: list[FieldNode],
        parent: GraphQLObjectType,
        name: str,
    ) -> Complete:
        selections = [n.selection_set for n in nodes if n.selection_set]
        fields = self.fields_of(type_, selections)
        is_type_of = type_.is_type_of

        def complete_object(run: Run, path: Path, value: Any, info: Any) -> Any:
            if isinstance(value, Exception):
                raise value
            if value is None or value is Undefined:
                return None
            if is_type_of is not None:
                if info is None:
                    info = run.info(name, nodes, parent.fields[name].type, parent, path)
                checked = is_type_of(value, info)
                if awaitable(checked):
                    raise Unsupported("an awaitable is_type_of")  # pragma: no cover
                if not checked:
                    raise GraphQLError(
                        f"Expected value of type '{type_}' but got: {inspect(value)}.", nodes
                    )
            return execute_fields(fields, run, value, path)

        return complete_object

    def abstract_completer(
        self,
        type_: Any,
        nodes: list[FieldNode],
        parent: GraphQLObjectType,
        name: str,
    ) -> Complete:
        schema = self.schema
        # every possible type compiled now: nothing unsupported is met while executing
        by_type = {
            possible.name: self.object_completer(possible, nodes, parent, name)
            for possible in schema.get_possible_types(type_)
        }

        def complete_abstract(run: Run, path: Path, value: Any, info: Any) -> Any:
            if isinstance(value, Exception):
                raise value
            if value is None or value is Undefined:
                return None
            if info is None:
                info = run.info(name, nodes, parent.fields[name].type, parent, path)
            resolve_type = type_.resolve_type
            if resolve_type is None:
                raise Unsupported("no resolve_type")  # pragma: no cover - strawberry sets one
            runtime = resolve_type(value, info, type_)
            if awaitable(runtime):
                raise Unsupported("an awaitable resolve_type")  # pragma: no cover
            concrete = runtime_type(schema, runtime, type_, parent, name, value, nodes)
            return by_type[concrete.name](run, path, value, info)

        return complete_abstract
