"""What a GraphQL request asked, for its log line and metrics (``service.api.observability``).

Once an operation is over, ``observe`` notes on the request's record the operation's name
(the client's, or the first root field), its root fields (only names the schema has, so that a
metric label never takes a value the client made up) and the game it concerns (a ``gameId``
argument, or ``game(id:)``), as a literal or a variable.
"""

from __future__ import annotations

from typing import Any

from graphql import (
    FieldNode,
    IntValueNode,
    OperationDefinitionNode,
    StringValueNode,
    VariableNode,
    get_operation_ast,
)

from service.api.graphql.strawberry_private import core_schema
from service.api.observability import Record, current, printable

#: the fields whose ``id`` argument is a game's id (elsewhere it is ``gameId``)
GAME_BY_ID = frozenset({"game"})
#: root fields kept per record (a websocket's record lives as long as the connection)
MAX_FIELDS = 16


def observe(context: Any) -> None:
    """Note what the finished operation of ``context`` (strawberry's execution context) asked
    on the request's record."""
    record = current()
    document = context.graphql_document
    if record is None or document is None:
        return
    try:
        operation = get_operation_ast(document, context.operation_name)
    except Exception:  # an ambiguous document: validation says what is wrong
        operation = None
    if operation is None:
        return
    note(record, operation, core_schema(context.schema), context.variables or {})
    named = printable(context.operation_name) if context.operation_name else None
    record.operation = named or (record.fields[0] if record.fields else None)


def note(
    record: Record, operation: OperationDefinitionNode, schema: Any, variables: dict[str, Any]
) -> None:
    root = schema.get_root_type(operation.operation)
    known = root.fields if root is not None else {}
    for selection in operation.selection_set.selections:
        if not isinstance(selection, FieldNode):
            continue
        name = selection.name.value
        if (name in known or name.startswith("__")) and len(record.fields) < MAX_FIELDS:
            record.fields.append(name)
        for argument in selection.arguments or ():
            if argument.name.value == "gameId" or (
                argument.name.value == "id" and name in GAME_BY_ID
            ):
                record.note_game(value_of(argument.value, variables))


def value_of(node: Any, variables: dict[str, Any]) -> Any:
    if isinstance(node, VariableNode):
        return variables.get(node.name.value)
    if isinstance(node, StringValueNode | IntValueNode):
        return node.value
    return None
