"""Compiled plans for the trusted documents' queries and mutations (issue #22: the hot
documents).

graphql-core executes every request's selection anew: for each field it looks the field up,
builds its path and info, checks every value's type against each kind of GraphQL type in turn,
collects the fields of each object it meets, and wraps every awaitable in its own machinery.
For a document the server knows beforehand (``trusted``: the web client's and the SDK's), all
of that is known once: ``OperationPlan`` compiles, once per document and operation, what
graphql-core would do for it, a tree of closures that call the resolvers directly:

* every field looked up once, with its resolver, its arguments' nodes and its completion;
* a *basic* strawberry field (no resolver, no arguments) read as its attribute, with no info;
* each value completed by its type, chosen once (non-null, list, leaf, object, abstract);
* errors exactly as graphql-core makes them: located at the field's nodes and path, nulls
  propagated to the nearest nullable parent, collected in the same order and with the same
  rule (graphql-core's ``CollectedErrors``), the same messages for a null in a non-null field,
  a leaf that does not coerce, a list that is not one, an object of the wrong type;
* root fields one after the other for a mutation, concurrently for a query, as graphql-core.

Arguments are still coerced per request by graphql-core's ``get_argument_values`` (they
depend on the variables), and variables by its ``get_variable_values``. A document with
anything a plan does not do has no plan and graphql-core executes it (``Unsupported``):
directives other than ``@skip``/``@include`` with literal conditions, fragment variables,
subscriptions, ``@defer``/``@stream``. Every other document, not trusted, is executed by
graphql-core as before: a plan is compiled only for a trusted text.

``tests/service/transport/test_operation_plans.py`` runs every trusted document through its
plan and through graphql-core on random games, callers and versions and compares the answers
(data, errors, codes), and shows that a wrong plan is caught.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterable
from typing import Any

from graphql import (
    DocumentNode,
    ExecutionResult,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLEnumType,
    GraphQLError,
    GraphQLField,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLResolveInfo,
    GraphQLScalarType,
    GraphQLSchema,
    InlineFragmentNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    VariableNode,
    is_abstract_type,
    located_error,
)
from graphql.execution.executor import CollectedErrors
from graphql.execution.values import get_argument_values, get_variable_values
from graphql.pyutils import Path, Undefined, inspect, is_iterable
from graphql.type.definition import GraphQLResolveInfoHelpers

from service.api.graphql.strawberry_private import optimized_is_awaitable

#: compiled plans kept (by schema, document and operation name)
PLANS = 512
#: plans are used (tests turn them off to compare with graphql-core alone)
ENABLED = True

#: ``complete(run, path, value, info)``: the completed value, or an awaitable of it
Complete = Callable[["Run", Path, Any, Any], Any]
#: ``execute(run, source, parent_path)``: one field of ``source`` completed (or awaitable)
Execute = Callable[["Run", Any, "Path | None"], Any]


class Unsupported(Exception):
    """The document asks for something a plan does not do: graphql-core executes it."""


#: graphql-core's test of an awaitable value, as strawberry gives it to graphql-core
awaitable: Any = optimized_is_awaitable


class Run:
    """One execution of a plan: what graphql-core's executor holds per request."""

    __slots__ = ("context", "errors", "helpers", "plan", "root", "tracked", "variables")

    def __init__(self, plan: OperationPlan, context: Any, root: Any, variables: Any) -> None:
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


class OperationPlan:
    """The compiled selection of one query or mutation: ``await plan.execute(context, root,
    variables)`` is graphql-core's ``ExecutionResult`` for it."""

    def __init__(
        self, schema: GraphQLSchema, document: DocumentNode, operation_name: str | None
    ) -> None:
        self.schema = schema
        operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
        self.fragments: dict[str, FragmentDefinitionNode] = {
            d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
        }
        if operation_name is None:
            if len(operations) != 1:
                raise Unsupported("not one operation")  # graphql-core says which
            operation = operations[0]
        else:
            named = [o for o in operations if o.name and o.name.value == operation_name]
            if not named:
                raise Unsupported("no such operation")
            operation = named[-1]  # graphql-core takes the last of that name
        if operation.directives:
            raise Unsupported("a directive on the operation")
        if any(f.variable_definitions for f in self.fragments.values()):
            raise Unsupported("fragment variables")
        if operation.operation is OperationType.QUERY:
            root = schema.query_type
        elif operation.operation is OperationType.MUTATION:
            root = schema.mutation_type
        else:
            raise Unsupported(operation.operation.value)
        if root is None:
            raise Unsupported("no root type")
        self.operation = operation
        self.root_type = root
        self.serially = operation.operation is OperationType.MUTATION
        self.fields = self.fields_of(root, [operation.selection_set])

    async def execute(self, context: Any, root: Any, raw_variables: Any) -> ExecutionResult:
        coerced = get_variable_values(
            self.schema,
            self.operation.variable_definitions or (),
            raw_variables or {},
            max_errors=50,
            hide_suggestions=False,
        )
        if isinstance(coerced, list):
            return ExecutionResult(None, coerced)
        run = Run(self, context, root, coerced)
        try:
            if self.serially:
                data: dict[str, Any] | None = {}
                for key, execute in self.fields:
                    value = execute(run, root, None)
                    data[key] = (await value) if awaitable(value) else value  # type: ignore[index]
            else:
                data = await settle(self.object_of(run, root, None))
        except GraphQLError as error:  # a non-null root field's error: no data at all
            run.errors.add(error, None)
            data = None
        if run.tracked:
            await asyncio.gather(*run.tracked, return_exceptions=True)
        return ExecutionResult(data, run.errors.errors or None)

    def object_of(self, run: Run, source: Any, path: Path | None) -> Any:
        """The root fields of a query, executed as graphql-core's ``execute_fields``."""
        return execute_fields(self.fields, run, source, path)

    # -- compiling ------------------------------------------------------------------------------

    def fields_of(
        self, parent: GraphQLObjectType, selections: list[SelectionSetNode]
    ) -> list[tuple[str, Execute]]:
        """Each response key of ``selections`` on ``parent``, in order, with how its field is
        executed (graphql-core's ``collect_fields`` merge: one field for a key, its nodes)."""
        found: dict[str, tuple[str, list[FieldNode]]] = {}
        for selection in selections:
            self.collect(parent, selection, found)
        executes: list[tuple[str, Execute]] = []
        for key, (name, nodes) in found.items():
            if name == "__typename":
                executes.append((key, typename(parent.name)))
                continue
            field = parent.fields.get(name)
            if field is None:  # validation refuses it first; graphql-core leaves it out
                continue
            executes.append((key, self.field(parent, key, name, field, nodes)))
        return executes

    def collect(
        self,
        parent: GraphQLObjectType,
        selection: SelectionSetNode,
        found: dict[str, tuple[str, list[FieldNode]]],
    ) -> None:
        for node in selection.selections:
            if not included(node):
                continue
            if isinstance(node, FieldNode):
                key = node.alias.value if node.alias else node.name.value
                found.setdefault(key, (node.name.value, []))[1].append(node)
            elif isinstance(node, InlineFragmentNode):
                condition = node.type_condition
                if condition is None or self.applies(condition.name.value, parent):
                    self.collect(parent, node.selection_set, found)
            elif isinstance(node, FragmentSpreadNode):
                if node.arguments:
                    raise Unsupported("fragment arguments")
                fragment = self.fragments.get(node.name.value)
                if fragment is None:
                    raise Unsupported("an unknown fragment")
                if self.applies(fragment.type_condition.name.value, parent):
                    self.collect(parent, fragment.selection_set, found)
            else:  # pragma: no cover - graphql-core has no other selection
                raise Unsupported(type(node).__name__)

    def applies(self, condition: str, parent: GraphQLObjectType) -> bool:
        conditional = self.schema.get_type(condition)
        if conditional is None:
            raise Unsupported(f"an unknown type {condition}")
        if conditional is parent:
            return True
        if is_abstract_type(conditional):
            return self.schema.is_sub_type(conditional, parent)
        return False

    def field(
        self,
        parent: GraphQLObjectType,
        key: str,
        name: str,
        field: GraphQLField,
        nodes: list[FieldNode],
    ) -> Execute:
        """How ``parent.name`` (the response key ``key``) is executed: graphql-core's
        ``execute_field`` with everything it looks up per call looked up here."""
        type_ = field.type
        node = nodes[0]
        resolve = field.resolve
        if resolve is None:
            raise Unsupported(f"{parent.name}.{name} has no resolver of strawberry's")
        basic = bool(getattr(resolve, "_is_default", False)) and not field.args
        arguments = bool(field.args or node.arguments)
        complete = self.completer(type_, nodes, parent, name)
        parent_name = parent.name

        async def completed_later(run: Run, path: Path, info: Any, value: Any) -> Any:
            try:
                result = complete(run, path, await value, info)
                return (await result) if awaitable(result) else result
            except Exception as raw:
                run.field_error(raw, type_, nodes, path)
                return None

        async def finished_later(run: Run, path: Path, completion: Any) -> Any:
            try:
                return await completion
            except Exception as raw:
                run.field_error(raw, type_, nodes, path)
                return None

        def execute(run: Run, source: Any, parent_path: Path | None) -> Any:
            path = Path(parent_path, key, parent_name)
            try:
                if basic:  # strawberry's basic field reads the attribute, info unused
                    info = None
                    value = resolve(source, None)
                else:
                    info = run.info(name, nodes, type_, parent, path)
                    args = (
                        get_argument_values(field, node, run.variables) if arguments else {}
                    )
                    value = resolve(source, info, **args)
                if awaitable(value):
                    return completed_later(run, path, info, value)
                result = complete(run, path, value, info)
                if awaitable(result):
                    return finished_later(run, path, result)
                return result
            except Exception as raw:
                run.field_error(raw, type_, nodes, path)
                return None

        return execute

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

        async def item_later(run: Run, path: Path, value: Any, info: Any) -> Any:
            try:
                if awaitable(value):
                    value = await value
                result = item(run, path, value, info)
                return (await result) if awaitable(result) else result
            except Exception as raw:
                run.field_error(raw, item_type, nodes, path)
                return None

        async def item_finished_later(run: Run, path: Path, completion: Any) -> Any:
            try:
                return await completion
            except Exception as raw:
                run.field_error(raw, item_type, nodes, path)
                return None

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
                    results.append(item_later(run, item_path, element, info))
                    later.append(index)
                    continue
                try:
                    completed = item(run, item_path, element, info)
                except Exception as raw:
                    run.field_error(raw, item_type, nodes, item_path)
                    completed = None
                if awaitable(completed):
                    results.append(item_finished_later(run, item_path, completed))
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


_plans: dict[tuple[Any, ...], OperationPlan | None] = {}
_lock = threading.Lock()


def plan_for(schema: GraphQLSchema, document: DocumentNode, query: str, name: str | None) -> Any:
    """The compiled plan of ``query`` (its parsed ``document``) and operation ``name``, or
    ``None``: graphql-core executes it. Compiled at its first request and kept."""
    if not ENABLED:
        return None
    key = (id(schema), query, name)
    try:
        return _plans[key]
    except KeyError:
        pass
    try:
        made: OperationPlan | None = OperationPlan(schema, document, name)
    except Unsupported:
        made = None
    with _lock:
        if len(_plans) >= PLANS:
            _plans.clear()
        _plans[key] = made
    return made
