"""What one GraphQL request may ask for and how long it may run: cost, aliases, time.

Checked on the parsed document before any resolver runs (``QueryLimits.on_execute``, through
two graphql-core validation rules), so an over-budget query costs the server a walk over at
most ``MaxTokensLimiter``'s 2,000 tokens and nothing else:

* **cost**: every field costs 1; the page size of a paginated field (its ``first`` argument,
  variables resolved, else the field's default page) multiplies the cost of what is selected
  in its list (``replay``'s steps, the ``nodes`` and ``edges`` of a connection); fields that make
  the server work carry their own weight (``WEIGHTS``: loading a game, computing a view, its
  legal actions, a replay step, rebuilding a past state, verifying or exporting a log).
  Fragments and inline fragments are flattened as execution flattens them (a field asked
  twice under one key runs once; an alias runs again); on a union every branch counts.
* **aliases**: aliased fields in the document (each alias is the same work asked again).
* **time**: a query (not a mutation, whose write cannot be called back once the store has it,
  nor a subscription, which lives as long as its game) is cancelled after ``seconds``.

The weights are in units of one plain field (about 5 µs of server time here); their ratios
follow what each field took in measurements on finished games (a replay step with its state
about 15 plain fields, a verifyLog of a 2-player Imhotep game about 2,000, 5,000 for a 5-player
Amun-Re). The default limit, 40,000 (about 0.2 s of work), lets through the heaviest query the
test suite sends (the events of the default page of games, 36,652); the amplification it stops,
200 games of 200 replay steps with their states, costs 944,202.

* **costly pool**: an operation costing more than a tenth of the limit runs its store work on
  a pool of its own (``graphql_costly_workers`` threads, 1 by default, nicer to the OS), so that
  however much it fans out, and however many clients send one, the common pool and the event
  loop stay free for everybody else; the interpreter's switch interval is shortened
  (``share_the_interpreter``) so that CPU-bound store work hands the event loop its turn sooner.

The limits are settings (``Settings.graphql_*``), handed to each request's ``Context``.

Known gap: cancelling a query stops the request, not a store call already running in a
worker thread (the store and the rules are synchronous); that call finishes and its result
is dropped. The cost limit is what bounds that work.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import threading
from collections.abc import AsyncIterator, Mapping, Sequence
from concurrent.futures import Executor
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLField,
    GraphQLNamedType,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    VariableNode,
    get_named_type,
    get_nullable_type,
    get_operation_ast,
    is_list_type,
    is_object_type,
    validate,
)
from graphql.execution.values import get_variable_values
from graphql.language import DocumentNode
from graphql.type import SchemaMetaFieldDef, TypeMetaFieldDef, TypeNameMetaFieldDef
from graphql.validation import ValidationRule
from strawberry.extensions import SchemaExtension
from strawberry.types.graphql import OperationType

from service.api.graphql.types import MAX_PAGE

#: the arguments that set a page's size
PAGE_ARGUMENTS = ("first", "limit")
#: a paginated field's page when it is not given (``types.page_size``'s default, else these)
DEFAULT_PAGE = 50
DEFAULT_PAGES = {("Game", "events"): 100, ("Game", "replay"): 100}
#: what reading one game costs, wherever a field returns one (an aggregate from the store)
GAME_LOAD = 20


@dataclass(frozen=True)
class Weight:
    """A field's cost on top of 1: ``own`` once, ``each`` for every item of its page."""

    own: int = 0
    each: int = 0


WEIGHTS: dict[tuple[str, str], Weight] = {
    # the caller's view of a game: computed from the whole state, redacted for the seat
    ("Game", "state"): Weight(own=10),
    ("Game", "view"): Weight(own=10),
    ("Game", "legalActions"): Weight(own=10),
    # the log page: read from the store, each event redacted for the caller
    ("Game", "events"): Weight(own=10, each=5),
    # reads and folds the log up to the page, then one rules step and a full view per step
    ("Game", "replay"): Weight(own=500, each=15),
    ("ReplayStep", "state"): Weight(own=5),
    # rebuilds the game from its log up to that version (past versions are not cached)
    ("Game", "stateAt"): Weight(own=1000),
    # the whole log: re-hashed and replayed through the rules / read and written out
    ("Query", "verifyLog"): Weight(own=2000),
    ("Query", "exportGame"): Weight(own=500),
    ("Mutation", "importGame"): Weight(own=2000),
    ("Mutation", "forkGame"): Weight(own=1000),
}
#: a cost per item of these types, wherever a field returns them
TYPE_WEIGHTS = {"Game": GAME_LOAD}
#: the fields named in the message of a refused query
EXPENSIVE = ("replay", "stateAt", "events", "verifyLog", "exportGame", "state", "legalActions")


@dataclass(frozen=True)
class Limits:
    """One request's budget (``Settings.graphql_max_cost``, ``_max_aliases``, ``_time_budget``)
    and the threads that run costly operations' store work (``graphql_costly_workers``)."""

    max_cost: int = 40_000
    max_aliases: int = 20
    seconds: float = 10.0
    #: None: costly operations share the common pool (tests that build a Context by hand)
    costly_pool: Executor | None = field(default=None, compare=False)

    @property
    def costly(self) -> int:
        """An operation costing more is costly: its store work waits for the costly pool."""
        return self.max_cost // COSTLY_SHARE


#: an operation costing more than this share of the limit runs on the costly pool
COSTLY_SHARE = 10
#: the pool this request's store work runs on, when it is not the common one (Context.run)
COSTLY_LANE: ContextVar[Executor | None] = ContextVar("papyrus_costly_lane", default=None)


def lane() -> Executor | None:
    """The costly pool when the running operation is costly, else None."""
    return COSTLY_LANE.get()


#: seconds a thread holding the interpreter lock keeps it while another thread waits for it
#: (Python's default is 5 ms): a costly operation's CPU-bound store work then gives the event
#: loop, which answers every other request, its turn five times sooner
SWITCH_INTERVAL = 0.001


def share_the_interpreter() -> None:
    """Set ``SWITCH_INTERVAL`` (for the whole process: the server calls it when it starts)."""
    sys.setswitchinterval(SWITCH_INTERVAL)


#: how much nicer (lower in the OS's priority) the costly pool's threads run than the rest of
#: the process: on a busy machine the threads that answer everybody else get the CPU first
COSTLY_NICE = 10


def lower_priority() -> None:
    """The costly pool's thread initializer: this thread runs ``COSTLY_NICE`` nicer (Linux
    schedules threads one by one; elsewhere, or where refused, nothing changes)."""
    if not sys.platform.startswith("linux"):
        return
    thread = threading.get_native_id()
    with contextlib.suppress(OSError):
        nice = os.getpriority(os.PRIO_PROCESS, thread)
        os.setpriority(os.PRIO_PROCESS, thread, min(19, nice + COSTLY_NICE))


# -- the cost of a document ---------------------------------------------------------------------


class Costing:
    """The cost of one operation of a valid document, with its variables' values.

    Fields are collected the way execution collects them: fragments and inline fragments
    flattened, fields of one response key merged (the same field asked twice runs once; an
    alias is another key and runs again). On an abstract type each type condition's fields
    count (what every branch costs)."""

    def __init__(
        self,
        schema: GraphQLSchema,
        document: DocumentNode,
        variables: Mapping[str, Any],
    ) -> None:
        self.schema = schema
        self.variables = variables
        self.fragments = {
            d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
        }
        # a selection costed once per page however many paths lead to it (aliases of aliases)
        self.memo: dict[tuple[Any, ...], int] = {}

    def operation(self, operation: OperationDefinitionNode) -> int:
        root = self.schema.get_root_type(operation.operation)
        if root is None:
            return 0
        return self.selections((operation.selection_set,), root, None, 0)

    def selections(
        self,
        selection_sets: Sequence[SelectionSetNode],
        parent: GraphQLNamedType,
        page: int | None,
        each: int,
    ) -> int:
        """What ``selection_sets`` (merged) on ``parent`` cost; inside a paginated connection,
        ``page`` multiplies its list fields (``each`` more per item)."""
        if not selection_sets:
            return 0
        key = (tuple(id(s) for s in selection_sets), parent.name, page, each)
        if key not in self.memo:
            self.memo[key] = sum(
                self.field(nodes, on, page, each)
                for on, nodes in self.collect(selection_sets, parent).values()
            )
        return self.memo[key]

    def collect(
        self, selection_sets: Sequence[SelectionSetNode], parent: GraphQLNamedType
    ) -> dict[tuple[str, str], tuple[GraphQLNamedType, list[FieldNode]]]:
        """The fields of ``selection_sets`` by type and response key (validation has refused
        fragment cycles and conflicting fields of one key)."""
        fields: dict[tuple[str, str], tuple[GraphQLNamedType, list[FieldNode]]] = {}
        visited: set[str] = set()
        concrete = is_object_type(parent)

        def walk(selection_set: SelectionSetNode, on: GraphQLNamedType) -> None:
            for selection in selection_set.selections:
                if isinstance(selection, FieldNode):
                    owner = parent if concrete else on
                    name = (selection.alias or selection.name).value
                    fields.setdefault((owner.name, name), (owner, []))[1].append(selection)
                elif isinstance(selection, InlineFragmentNode):
                    walk(selection.selection_set, self.condition(selection, on))
                elif isinstance(selection, FragmentSpreadNode):
                    fragment = self.fragments.get(selection.name.value)
                    if fragment is not None and fragment.name.value not in visited:
                        visited.add(fragment.name.value)
                        walk(fragment.selection_set, self.condition(fragment, on))

        for selection_set in selection_sets:
            walk(selection_set, parent)
        return fields

    def condition(
        self, fragment: InlineFragmentNode | FragmentDefinitionNode, default: GraphQLNamedType
    ) -> GraphQLNamedType:
        condition = fragment.type_condition
        found = self.schema.get_type(condition.name.value) if condition else None
        return found or default

    def field(
        self, nodes: list[FieldNode], parent: GraphQLNamedType, page: int | None, each: int
    ) -> int:
        node = nodes[0]
        name = node.name.value
        definition = field_definition(self.schema, parent, name)
        if definition is None:  # validation refuses unknown fields: nothing to count
            return 1
        weight = WEIGHTS.get((parent.name, name), Weight())
        returned = get_named_type(definition.type)
        item = TYPE_WEIGHTS.get(returned.name, 0)
        is_list = is_list_type(get_nullable_type(definition.type))
        size = self.page_size(node, parent.name, definition)
        below = [n.selection_set for n in nodes if n.selection_set is not None]
        cost = 1 + weight.own
        if size is not None and not is_list:  # a connection: its nodes and edges are the page
            return cost + item + self.selections(below, returned, size, weight.each)
        inside = item + self.selections(below, returned, None, 0)
        if size is not None:  # a paginated list (replay): each step
            return cost + size * (weight.each + inside)
        if is_list and page is not None:  # the list of a paginated connection
            return cost + page * (each + inside)
        return cost + inside

    def page_size(self, node: FieldNode, parent: str, definition: GraphQLField) -> int | None:
        """The page of a paginated field (None for any other): its argument, else its default;
        an out-of-range value counts as the largest page (the resolver refuses it)."""
        names = [a for a in PAGE_ARGUMENTS if a in definition.args]
        if not names:
            return None
        value: Any = None
        for argument in node.arguments or ():
            if argument.name.value in names:
                literal = argument.value
                if isinstance(literal, IntValueNode):
                    value = int(literal.value)
                elif isinstance(literal, VariableNode):
                    value = self.variables.get(literal.name.value)
        if not isinstance(value, int) or isinstance(value, bool):
            return DEFAULT_PAGES.get((parent, node.name.value), DEFAULT_PAGE)
        return value if 0 <= value <= MAX_PAGE else MAX_PAGE


def field_definition(
    schema: GraphQLSchema, parent: GraphQLNamedType, name: str
) -> GraphQLField | None:
    if name == "__typename":
        return TypeNameMetaFieldDef
    if parent is schema.query_type and name in ("__schema", "__type"):
        return SchemaMetaFieldDef if name == "__schema" else TypeMetaFieldDef
    fields = getattr(parent, "fields", None)
    return fields.get(name) if fields else None


def variable_values(
    schema: GraphQLSchema, operation: OperationDefinitionNode, inputs: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The operation's variables as execution will see them (defaults applied); values that do
    not coerce are left out (execution refuses them before any resolver runs)."""
    coerced = get_variable_values(schema, operation.variable_definitions or (), dict(inputs or {}))
    return {} if isinstance(coerced, list) else dict(coerced.coerced)


def query_cost(
    schema: GraphQLSchema,
    document: DocumentNode,
    operation_name: str | None = None,
    variables: Mapping[str, Any] | None = None,
) -> int:
    """The cost of the operation ``operation_name`` of a valid ``document``."""
    operation = get_operation_ast(document, operation_name)
    if operation is None:
        return 0
    values = variable_values(schema, operation, variables)
    return Costing(schema, document, values).operation(operation)


def refused(message: str, node: Any = None, **extensions: Any) -> GraphQLError:
    return GraphQLError(message, node, extensions={"code": "BAD_INPUT", **extensions})


# -- the validation rules -----------------------------------------------------------------------


def cost_rule(
    limit: int,
    operation_name: str | None,
    variables: Mapping[str, Any] | None,
    costs: list[int] | None = None,
) -> type[ValidationRule]:
    """A rule refusing the operation when it costs more than ``limit`` (bound to one request:
    its cost depends on the variables, which graphql-core's validation does not see); the cost
    is appended to ``costs``."""

    class CostLimit(ValidationRule):
        def enter_document(self, node: DocumentNode, *_: Any) -> Any:
            operation = get_operation_ast(node, operation_name)
            if operation is not None:
                cost = query_cost(self.context.schema, node, operation_name, variables)
                if costs is not None:
                    costs.append(cost)
                if cost > limit:
                    self.report_error(
                        refused(
                            f"This query costs {cost}, more than the limit of {limit}: ask for "
                            "fewer items (first:) or fewer expensive fields "
                            f"({', '.join(EXPENSIVE)}).",
                            operation,
                            cost=cost,
                            limit=limit,
                        )
                    )
            return self.SKIP

    return CostLimit


def alias_rule(limit: int) -> type[ValidationRule]:
    """A rule refusing a document with more than ``limit`` aliased fields."""

    class AliasLimit(ValidationRule):
        def __init__(self, context: Any) -> None:
            super().__init__(context)
            self.aliases = 0

        def enter_field(self, node: FieldNode, *_: Any) -> None:
            if node.alias is not None:
                self.aliases += 1

        def leave_document(self, node: DocumentNode, *_: Any) -> None:
            if self.aliases > limit:
                self.report_error(
                    refused(
                        f"This query has {self.aliases} aliased fields, more than the limit of "
                        f"{limit}: ask for each thing once, or send several requests.",
                        aliases=self.aliases,
                        limit=limit,
                    )
                )

    return AliasLimit


def check(
    schema: GraphQLSchema,
    document: DocumentNode,
    limits: Limits,
    operation_name: str | None = None,
    variables: Mapping[str, Any] | None = None,
) -> tuple[int, list[GraphQLError]]:
    """The cost of ``document``'s operation and the limits it breaks (none: it may run)."""
    costs: list[int] = []
    rules = [
        alias_rule(limits.max_aliases),
        cost_rule(limits.max_cost, operation_name, variables, costs),
    ]
    errors = validate(schema, document, rules)
    return (costs[0] if costs else 0), errors


# -- the extension ------------------------------------------------------------------------------


class QueryLimits(SchemaExtension):
    """Refuses an operation over its cost or alias limit before it runs, sends a costly one's
    store work to the costly pool, and cancels a query still running after its time budget.
    The limits are the request context's ``limits``."""

    async def on_execute(self) -> AsyncIterator[None]:
        context = self.execution_context
        limits = getattr(context.context, "limits", None) or Limits()
        cost = 0
        if context.graphql_document is not None:
            cost, errors = check(
                context.schema._schema,
                context.graphql_document,
                limits,
                context.operation_name,
                context.variables,
            )
            if errors:  # raised here, the operation never starts (and answers data: null)
                raise errors[0]
        # a costly operation's store work (its resolvers' tasks inherit this) queues for a few
        # threads of its own: however many it asks at once, and however many clients ask, the
        # common pool stays free for everybody else (a subscription keeps the common pool: it
        # lives on, and it costs per event)
        costly = (
            limits.costly_pool is not None
            and cost > limits.costly
            and context.operation_type is not OperationType.SUBSCRIPTION
        )
        token = COSTLY_LANE.set(limits.costly_pool if costly else None)
        try:
            if context.operation_type is not OperationType.QUERY:
                yield
                return
            budget = asyncio.timeout(limits.seconds)
            try:
                async with budget:
                    yield
            except TimeoutError:
                if not budget.expired():
                    raise
                raise refused(
                    f"This query ran longer than the time budget of {limits.seconds:g} seconds "
                    "and was cancelled: ask for fewer items (first:) or fewer expensive fields.",
                    seconds=limits.seconds,
                ) from None
        finally:
            COSTLY_LANE.reset(token)
