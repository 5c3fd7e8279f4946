"""Answers the GraphQL view writes itself (``service.api.graphql.http``): ``graphql_error``, an
error with its code; ``trusted_query``, the text of the trusted document a request names by
its ``documentId`` (``service.api.graphql.trusted``) or the refusal; and ``Encoded``, the JSON
text of the last few pushed ``data`` objects, so that one object handed to many subscribers
(every spectator of a step) is written once, not once each.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.responses import JSONResponse, Response

from service.api.bodies import dumps
from service.api.graphql import trusted
from service.api.observability import current


def graphql_error(message: str, code: str = "BAD_INPUT", status: int = 422) -> JSONResponse:
    extensions = {"code": code}
    record = current()
    if record is not None:
        record.note_code(code)
        extensions["requestId"] = record.request_id
    return JSONResponse(
        {"data": None, "errors": [{"message": message, "extensions": extensions}]},
        status_code=status,
    )


def trusted_query(fields: Mapping[str, Any]) -> str | Response:
    """The text of the trusted document a request names by its ``documentId`` (``fields``:
    its body, or a GET's parameters), or the refusal: an id this server does not know is
    ``UNKNOWN_DOCUMENT`` (the client sends the text instead); an id that is not text, or an id
    and a ``query`` both, ``BAD_INPUT``."""
    named = fields.get("documentId")
    if not isinstance(named, str):
        return graphql_error("documentId must be a string: a trusted document's id.")
    if fields.get("query") is not None:
        return graphql_error("Send one of query and documentId, not both.")
    text = trusted.document(named)
    if text is None:
        return graphql_error(
            f"This server does not know the document {named[:80]!r}: send the document's "
            "text as query instead.",
            code="UNKNOWN_DOCUMENT",
        )
    return text


class Encoded:
    """The JSON text of the last few pushed ``data`` objects, by identity: one object handed
    to many subscribers (every spectator of a step) is written once, not once each. Each entry
    holds its object, so its id stays its own while it is kept."""

    #: data objects remembered (a step's pushes go out together, one after the other)
    KEPT = 64

    def __init__(self) -> None:
        self.texts: dict[int, tuple[object, str]] = {}

    def next_message(self, operation: object, data: object) -> str:
        known = self.texts.get(id(data))
        if known is not None and known[0] is data:
            text = known[1]
        else:
            text = dumps(data)
            if len(self.texts) >= self.KEPT:
                del self.texts[next(iter(self.texts))]  # the oldest
            self.texts[id(data)] = (data, text)
        return f'{{"id":{dumps(operation)},"type":"next","payload":{{"data":{text}}}}}'
