"""The cost of a GraphQL document: what each field weighs and how list sizes multiply.

The weights and why they are what they are: ``service.api.graphql.limits``' docstring.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
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
)
from graphql.execution.values import get_variable_values
from graphql.language import DocumentNode
from graphql.type import (
    GraphQLResolveInfo,
    SchemaMetaFieldDef,
    TypeMetaFieldDef,
    TypeNameMetaFieldDef,
)

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
    ("Game", "moves"): Weight(own=10),  # the legal actions, labelled
    # the log page: read from the store, each event redacted for the caller
    ("Game", "events"): Weight(own=10, each=5),
    # reads and folds the log up to the page, then one rules step and a full view per step
    ("Game", "replay"): Weight(own=500, each=15),
    ("ReplayStep", "state"): Weight(own=5),
    ("ReplayStep", "view"): Weight(own=5),
    # rebuilds the game from its log up to that version (past versions are not cached)
    ("Game", "stateAt"): Weight(own=1000),
    ("Game", "clockAt"): Weight(own=1000),  # the same rebuild, for the clock at that version
    ("Game", "viewAt"): Weight(own=1000),  # the same rebuild, for the typed view
    # the whole log: re-hashed and replayed through the rules / read and written out
    ("Query", "verifyLog"): Weight(own=2000),
    ("Query", "exportGame"): Weight(own=500),
    ("Mutation", "importGame"): Weight(own=2000),
    ("Mutation", "forkGame"): Weight(own=1000),
    # a subscription's cost is what each event costs (``budget``: a catch-up pays it per
    # event): the entry read, numbered and redacted for the caller (and folded into the
    # table), its selection executed on a worker thread, a message sent; about 15 plain
    # fields however little is selected (measured on a 415-event catch-up)
    ("Subscription", "gameEvents"): Weight(own=10),
    ("Subscription", "gameChanged"): Weight(own=15),
    ("Subscription", "lobbyChanged"): Weight(own=10),  # and the summary read again
    # the caller's view of the table right after each event, and its legal actions
    ("GameChange", "state"): Weight(own=10),
    ("GameChange", "view"): Weight(own=10),
    ("GameChange", "legalActions"): Weight(own=10),
}
#: a cost per item of these types, wherever a field returns them
TYPE_WEIGHTS = {"Game": GAME_LOAD}
#: the fields named in the message of a refused query
EXPENSIVE = ("replay", "stateAt", "events", "verifyLog", "exportGame", "state", "legalActions")


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
        #: whether a variable's value was read (a page size): else the cost is the document's
        self.read_variables = False
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
                    self.read_variables = True
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
    return costing(schema, document, operation_name, variables)[0]


def costing(
    schema: GraphQLSchema,
    document: DocumentNode,
    operation_name: str | None = None,
    variables: Mapping[str, Any] | None = None,
) -> tuple[int, bool]:
    """``query_cost`` and whether it depends on the variables' values (False: the same
    document and operation cost the same whatever the variables)."""
    operation = get_operation_ast(document, operation_name)
    if operation is None:
        return 0, False
    values = variable_values(schema, operation, variables)
    costed = Costing(schema, document, values)
    return costed.operation(operation), costed.read_variables


def event_cost(info: GraphQLResolveInfo) -> int:
    """What one event of the subscription being resolved costs: its operation's cost (the
    selection is executed once for every event), from graphql-core's ``info`` (variables
    coerced already)."""
    document = DocumentNode(definitions=(info.operation, *info.fragments.values()))
    return Costing(info.schema, document, coerced(info)).operation(info.operation)


def selected_fields(info: GraphQLResolveInfo) -> frozenset[str]:
    """The names of the fields selected under the field being resolved (fragments flattened,
    every branch of an abstract type)."""
    document = DocumentNode(definitions=tuple(info.fragments.values()))
    below = [node.selection_set for node in info.field_nodes if node.selection_set]
    returned = get_named_type(info.return_type)
    fields = Costing(info.schema, document, coerced(info)).collect(below, returned)
    return frozenset(nodes[0].name.value for _, nodes in fields.values())


def coerced(info: GraphQLResolveInfo) -> Mapping[str, Any]:
    """The operation's variables as its resolvers see them (strawberry hands resolvers the
    coerced values; graphql-core's own ``info`` holds them in a ``VariableValues``)."""
    values: Any = info.variable_values
    return values if isinstance(values, Mapping) else values.coerced
