"""GraphQL over HTTP and websockets (docs/API.md "Transport"): the view ``PapyrusGraphQL``
(``service.api.graphql.dispatch.Dispatch`` hands it ``POST /graphql`` without Starlette's router).

The view is strawberry's ASGI view with Papyrus's limits and answers: bodies and websockets
bounded per client, every error with its code, GraphiQL served from our own files, and a plain
path of its own for the JSON ``POST`` that nearly every request is (``PapyrusGraphQL.answer``).
``service.asgi.create_app`` builds it with the settings' values.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlencode

from cross_web import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.types import Receive, Scope, Send
from strawberry.asgi import GraphQL
from strawberry.exceptions import ConnectionRejectionError, MissingQueryError
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL, GRAPHQL_WS_PROTOCOL
from strawberry.types.graphql import OperationType

from service.api.bodies import (
    BodyTooLarge,
    NotJson,
    declared_length,
    dumps,
    dumps_bytes,
    limited,
    parse_json,
    parse_large_json,
)
from service.api.connections import (
    REFUSAL,
    Admission,
    LegacyWSHandler,
    TransportWSHandler,
    refusal_reason,
    refuse_websocket,
)
from service.api.graphql import console, trusted
from service.api.graphql.answers import Encoded, graphql_error, trusted_query
from service.api.graphql.context import Context
from service.api.graphql.dispatch import is_json, with_body
from service.api.graphql.errors import public_error
from service.api.graphql.schema import schema
from service.api.graphql.strawberry_private import (
    CannotGetOperationTypeError,
    InvalidOperationTypeError,
    TemporalResponse,
    stream_transport,
)
from service.api.observability import client_address, current
from service.api.security_headers import CONSOLE_POLICY


class PapyrusGraphQL(GraphQL[Context, None]):
    """``runtime_of()`` gives the running ``service.runtime.Runtime``, whose ``context`` is each
    request's (and each websocket's) ``Context``; the limits are the settings' values."""

    # the per-connection limit answered with a RATE_LIMITED code (service.api.connections)
    graphql_transport_ws_handler_class = TransportWSHandler
    graphql_ws_handler_class = LegacyWSHandler
    # the text of a trusted document by its id, for the websocket handlers (``documentId``)
    trusted_document = staticmethod(trusted.document)

    def __init__(
        self,
        runtime_of: Callable[[], Any],
        *,
        allowed_origins: Sequence[str],
        max_body_bytes: int,
        max_websockets_per_client: int,
        max_subscriptions_per_connection: int,
    ) -> None:
        super().__init__(
            schema,
            subscription_protocols=(GRAPHQL_TRANSPORT_WS_PROTOCOL, GRAPHQL_WS_PROTOCOL),
            allowed_origins=allowed_origins,
            keep_alive=True,
            keep_alive_interval=15,
            max_subscriptions_per_connection=max_subscriptions_per_connection,
        )
        self.runtime_of = runtime_of
        self.encoded = Encoded()
        self.max_body = max_body_bytes
        self.websockets = Admission(max_websockets_per_client)

    async def render_graphql_ide(self, request: Any) -> Response:
        """GraphiQL from our own files (service.api.graphql.console): it works offline."""
        root = str(request.scope.get("root_path", "")) if isinstance(request, Request) else ""
        page = console.page(f"{root}/graphql/assets", f"{root}/graphql/page")
        return HTMLResponse(page, headers={"Content-Security-Policy": CONSOLE_POLICY})

    async def execute_operation(
        self,
        request: Any,
        request_adapter: Any,
        request_data: Any,
        context: Any,
        root_value: Any,
        sub_response: Any,
    ) -> Any:
        """A subscription over HTTP is refused before it runs: BAD_INPUT, use the websocket."""
        for data in request_data if isinstance(request_data, list) else [request_data]:
            refused = console.subscription_over_http(data.query, data.operation_name)
            if refused is not None:
                raise HTTPException(422, refused)
        return await super().execute_operation(
            request, request_adapter, request_data, context, root_value, sub_response
        )

    def parse_json(self, data: str | bytes) -> Any:
        """A request body (or a query-string value) that is not JSON we read: BAD_INPUT 422."""
        try:
            return parse_json(data)
        except NotJson as refused:
            raise HTTPException(422, refused.message) from None

    def encode_json(self, data: object) -> str:
        """Answers (HTTP and websocket, where strawberry sends a ``str`` as a text frame).

        A ``next`` message whose data is one shared object (``streaming``: a step handed to
        many spectators is completed once) is written once: each subscriber's message is that
        text inside its own id (``Encoded``)."""
        if isinstance(data, dict) and data.get("type") == "next":
            payload = data.get("payload")
            if isinstance(payload, dict) and len(payload) == 1 and "data" in payload:
                return self.encoded.next_message(data["id"], payload["data"])
        return dumps(data)

    def decode_json(self, data: str | bytes) -> object:
        """A websocket message too deep to read is invalid JSON too (strawberry closes 4400)."""
        try:
            return parse_json(data)
        except NotJson as refused:
            raise json.JSONDecodeError(refused.message, "", 0) from None

    async def get_context(self, request: Any, response: Any) -> Context:
        runtime = self.runtime_of()
        authorization = None
        if isinstance(request, Request):
            authorization = request.headers.get("authorization")
        context: Context = runtime.context(authorization, request)
        context.response = response
        return context

    async def process_result(self, request: Any, result: Any) -> Any:
        """The last gate: every error leaves with a code, whatever stage raised it."""
        if result.errors:
            result.errors = [public_error(e) for e in result.errors]
            record = current()
            if record is not None:
                record.note_code(str((result.errors[0].extensions or {}).get("code", "INTERNAL")))
        return await super().process_result(request, result)

    async def on_ws_connect(self, context: Context) -> Any:
        refused = context.check_caller()
        if refused is not None and refused.code != "UNAVAILABLE":
            # the close (4403) says why (``connections.ReasonedClose``); graphql-ws's
            # connection_error carries the code and the message too
            context.extra[REFUSAL] = refusal_reason(refused.code, refused.message)
            raise ConnectionRejectionError({"code": refused.code, "message": refused.message})
        return None  # the store is down: each subscription will say so, with its code

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self.websocket(scope, receive, send)
            return
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        request = Request(scope, limited(receive, self.max_body))
        length = declared_length(scope)
        if length is not None and length > self.max_body:
            response: Response = self.too_large()
        else:
            try:
                response = await self.answer(request)
            except BodyTooLarge:  # counted as it arrived: chunked bodies carry no length
                response = self.too_large()
            except HTTPException as refused:  # strawberry's 400s are bad input too (docs/API.md)
                status = 422 if refused.status_code == 400 else refused.status_code
                response = graphql_error(refused.reason, status=status)
        await response(scope, receive, send)

    async def answer(self, request: Request) -> Response:
        """An HTTP request: a plain JSON ``POST`` (nearly every request) executed here, the
        rest by strawberry's view (``run``: GET, GraphiQL, batches, multipart, streams).

        The plain path is strawberry's for that request, step by step (the same checks and
        refusals, the same schema call and answer), without what only the other requests
        need: strawberry's request adapter, content-type parsing by ``email.message``, its
        sub-response and its protocol checks of each result cost about a twentieth of the
        server's CPU per ``act``.

        A trusted document named by its id (``documentId``, ``service.api.graphql.trusted``)
        instead of its text runs as if its text had been sent as ``query``: on the plain path
        directly; to strawberry's view (a GET's ``documentId`` parameter, a stream, a body the
        plain path leaves to it) the request is handed with the text in place of the id."""
        if request.method == "GET" and "documentId" in request.query_params:
            params = dict(request.query_params)
            named = trusted_query(params)
            if isinstance(named, Response):
                return named
            params.pop("documentId")
            query_string = urlencode({**params, "query": named}).encode()
            return await self.run(Request({**request.scope, "query_string": query_string}))
        if request.method != "POST" or not is_json(request.headers.get("content-type")):
            return await self.run(request)
        streamed = stream_transport(self, request.headers) is not None
        try:  # the body stays read for ``run``; a large one is read off the event loop
            data = await parse_large_json(await request.body())
        except NotJson as unreadable:
            if streamed:  # strawberry's refusal, as before
                return await self.run(request)
            raise HTTPException(422, unreadable.message) from None
        rewritten = None  # a body naming a trusted document, with its text in place of the id
        if isinstance(data, dict) and data.get("documentId") is not None:  # null: not sent
            named = trusted_query(data)
            if isinstance(named, Response):
                return named
            data = {key: value for key, value in data.items() if key != "documentId"}
            data["query"] = named
            rewritten = data
        if streamed or isinstance(data, list):  # a batch: refused by strawberry, with its message
            return await self.run(with_body(request, rewritten))
        if not isinstance(data, dict):  # strawberry would fail on it (a 500)
            raise HTTPException(422, "The request body must be a JSON object: one operation.")
        query, variables = data.get("query"), data.get("variables")
        name, extensions = data.get("operationName"), data.get("extensions")
        if not (
            isinstance(query, str | None)
            and isinstance(variables, dict | None)
            and isinstance(extensions, dict | None)
        ):
            return await self.run(with_body(request, rewritten))  # strawberry's refusal
        refused = console.subscription_over_http(query, name)
        if refused is not None:
            raise HTTPException(422, refused)
        # what the resolvers may set on the answer (``Context.note_refusal``: 429, Retry-After)
        answered = TemporalResponse()
        context = await self.get_context(request, answered)
        try:
            result = await self.schema.execute(
                query,
                variable_values=variables,
                context_value=context,
                operation_name=name,
                allowed_operation_types=POST_OPERATIONS,
                operation_extensions=extensions,
            )
        except CannotGetOperationTypeError as error:
            raise HTTPException(400, error.as_http_error_reason()) from error
        except InvalidOperationTypeError as error:
            raise HTTPException(400, error.as_http_error_reason("POST")) from error
        except MissingQueryError as error:
            raise HTTPException(400, "No GraphQL query found in the request") from error
        body = dumps_bytes(await self.process_result(request, result))
        return Response(
            body,
            status_code=answered.status_code,
            headers=answered.headers,
            media_type="application/json",
        )

    def too_large(self) -> Response:
        return graphql_error(f"The request is larger than {self.max_body} bytes.", status=413)

    async def websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """At most ``max_websockets_per_client`` websockets open at once per client address."""
        address = client_address(scope) or "unknown"
        if not self.websockets.admit(address):
            limit = self.websockets.limit
            message = (
                f"This address already has {limit} websockets open, the most one address may "
                f"open (max_websockets_per_client): close one first."
            )
            await refuse_websocket(scope, receive, send, message)
            return
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.websockets.leave(address)


#: what a GraphQL ``POST`` may run (strawberry's ``OperationType.from_http("POST")``)
POST_OPERATIONS = frozenset(OperationType.from_http("POST"))
