"""Websocket messages as a hostile client sends them: whatever JSON a text frame holds
(``null``, a number, an array, an object whose fields have the wrong types).

strawberry's handlers index each message as the protocol shapes it (``message["type"]``,
``message["payload"]["query"]``...): a message of another shape raised ``TypeError`` in the
connection's handler, which dropped the connection without a close frame (1006) and logged
a traceback, or reached the schema and failed there (a ``query`` that is not text). Each
message is checked against its protocol's shape first (``transport_ws_problem``,
``legacy_ws_problem``): one that does not fit closes the connection with code 4400 and a
reason saying what is wrong, as graphql-transport-ws requires for "a message of a type or
format which is not specified" (the older graphql-ws says nothing: it gets the same).

An operation's payload names its document by its text (``query``) or, for a trusted document
(docs/API.md "Trusted documents"), by its id (``documentId``): exactly one of the two, a string;
``service.api.connections`` puts the trusted text in place of the id before strawberry reads it.
"""

from __future__ import annotations

from typing import Any

#: the close code of a message of a shape the protocol does not define
INVALID_MESSAGE = 4400

#: what each field of an operation's payload must be (missing or null is allowed; of the query
#: and the documentId, a trusted document's id, exactly one is sent); the checks run in this order
OPERATION_FIELDS = (
    ("variables", dict, "an object"),
    ("operationName", str, "a string"),
    ("extensions", dict, "an object"),
)


def operation_problem(payload: Any) -> str | None:
    """What is wrong with an operation's payload (``None``: nothing)."""
    if not isinstance(payload, dict):
        return "The payload of an operation must be an object."
    query, named = payload.get("query"), payload.get("documentId")
    if named is None and not isinstance(query, str):
        return "The payload needs a query (a GraphQL document) or a documentId, a string."
    if named is not None and not isinstance(named, str):
        return "The payload's documentId must be a string (a trusted document's id) or null."
    if named is not None and query is not None:
        return "The payload holds a query and a documentId: send one of them."
    for name, kind, described in OPERATION_FIELDS:
        value = payload.get(name)
        if value is not None and not isinstance(value, kind):
            return f"The payload's {name} must be {described} or null."
    return None


def common_problem(message: Any) -> str | None:
    if not isinstance(message, dict):
        return "A message must be a JSON object."
    if not isinstance(message.get("type"), str):
        return "A message's type must be a string."
    return None


def shape_problem(message: Any, start: str, stop: str) -> str | None:
    """What is wrong with a message of a protocol whose operations begin with a ``start``
    message and end with a ``stop`` one, both naming the operation's id (``None``: it has the
    protocol's shape; its type may still be unknown, which strawberry refuses itself)."""
    problem = common_problem(message)
    if problem is not None:
        return problem
    kind = message["type"]
    if kind in (start, stop) and not isinstance(message.get("id"), str):
        return f"A {kind} message needs an id, a string."
    if kind == start:
        return operation_problem(message.get("payload"))
    return None


def transport_ws_problem(message: Any) -> str | None:
    """What is wrong with a graphql-transport-ws message."""
    return shape_problem(message, "subscribe", "complete")


def legacy_ws_problem(message: Any) -> str | None:
    """What is wrong with a graphql-ws (``subscriptions-transport-ws``) message."""
    return shape_problem(message, "start", "stop")
