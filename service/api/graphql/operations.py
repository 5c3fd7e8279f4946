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

The plan is compiled here; how it completes each type of value is ``completers``, what it
holds and does while it runs is ``completion``, and how it collects a selection's fields (the
same as the subscription plans', ``plans``) is ``selections``.

``tests/service/transport/test_operation_plans.py`` runs every trusted document through its
plan and through graphql-core on random games, callers and versions and compares the answers
(data, errors, codes), and shows that a wrong plan is caught.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from graphql import (
    DocumentNode,
    ExecutionResult,
    FieldNode,
    FragmentDefinitionNode,
    GraphQLError,
    GraphQLField,
    GraphQLObjectType,
    GraphQLSchema,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
)
from graphql.execution.values import get_argument_values, get_variable_values
from graphql.pyutils import Path

from service.api.graphql.completers import Completers
from service.api.graphql.completion import (
    Execute,
    Run,
    awaitable,
    completed_later,
    execute_fields,
    guarded,
    included,
    settle,
    typename,
)
from service.api.graphql.selections import Selections, Unsupported

#: compiled plans kept (by schema, document and operation name)
PLANS = 512
#: plans are used (tests turn them off to compare with graphql-core alone)
ENABLED = True

class OperationPlan(Completers):
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
        self.selections = Selections(schema, self.fragments, included)
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
        found = self.selections.collect(parent, selections)
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
                    return completed_later(run, type_, nodes, path, complete, value, info)
                result = complete(run, path, value, info)
                if awaitable(result):
                    return guarded(run, type_, nodes, path, result)
                return result
            except Exception as raw:
                run.field_error(raw, type_, nodes, path)
                return None

        return execute


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
