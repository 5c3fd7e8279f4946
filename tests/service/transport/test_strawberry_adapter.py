"""The one adapter over strawberry's private API (``service.api.graphql.strawberry_private``).

Each name it adapts is exercised for real, so that a strawberry upgrade that moves or changes
one fails the test named after it; and no other module imports strawberry's internals.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, ClassVar, get_origin

import pytest
import strawberry
from graphql import GraphQLError, GraphQLSchema, parse, validate
from starlette.websockets import WebSocketDisconnect
from strawberry.asgi import ASGIWebSocketAdapter, GraphQL
from strawberry.subscriptions import MULTIPART_SUBSCRIPTION_PROTOCOL
from strawberry.types import ExecutionContext
from strawberry.types.graphql import OperationType

from service.api.connections import LegacyWSHandler, TransportWSHandler
from service.api.graphql.context import Context
from service.api.graphql.schema import schema
from service.api.graphql.strawberry_private import (
    DEFAULT_ALLOWED_OPERATION_TYPES,
    BaseGraphQLTransportWSHandler,
    BaseGraphQLWSHandler,
    CannotGetOperationTypeError,
    InvalidOperationTypeError,
    StrawberryGraphQLCoreExecutionContext,
    TemporalResponse,
    WebSocketDisconnected,
    core_schema,
    create_validator,
    execute_document,
    handle_errors,
    new_execution_context,
    normalize_allowed_origins,
    stream_transport,
    to_camel_case,
    validate_document,
)
from service.api.hub import Hub
from service.app.application import Application
from service.store.database import open_store

ROOT = Path(__file__).resolve().parents[3]
ADAPTER = ROOT / "service" / "api" / "graphql" / "strawberry_private.py"

#: strawberry's public modules: every other ``strawberry.*`` module is imported in ADAPTER only
#: (``strawberry.types.graphql`` and ``.nodes`` hold the types of public attributes:
#: ``ExecutionContext.operation_type``, ``Info.selected_fields``)
PUBLIC = frozenset(
    {
        "strawberry",
        "strawberry.asgi",
        "strawberry.exceptions",
        "strawberry.extensions",
        "strawberry.permission",
        "strawberry.scalars",
        "strawberry.schema.config",
        "strawberry.schema_directive",
        "strawberry.subscriptions",
        "strawberry.types",
        "strawberry.types.graphql",
        "strawberry.types.nodes",
    }
)


@strawberry.type
class Query:
    @strawberry.field
    def hello(self, name: str = "world") -> str:
        return f"hello {name}"


class Recording(StrawberryGraphQLCoreExecutionContext):
    """Strawberry's executor, noting the operation extensions each execution was handed."""

    seen: ClassVar[list[Any]] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        Recording.seen.append(self.operation_extensions)


class Noting(strawberry.Schema):
    def process_errors(self, errors: list[GraphQLError], execution_context: Any = None) -> None:
        self.noted = [error.message for error in errors]


def context_of(small: strawberry.Schema, query: str, **options: Any) -> ExecutionContext:
    context = new_execution_context(
        small, query=query, allowed_operation_types=DEFAULT_ALLOWED_OPERATION_TYPES, **options
    )
    context.graphql_document = parse(query)
    return context


# -- the names, one test each -------------------------------------------------------------------


def test_create_validator_refuses_a_deep_query() -> None:
    deep = parse("{ games { edges { node { events { edges { node { version } } } } } } }")
    assert validate(core_schema(schema), deep, [create_validator(7, None, None)]) == []
    errors = validate(core_schema(schema), deep, [create_validator(5, None, None)])
    assert errors and "exceeds maximum operation depth of 5" in errors[0].message


def test_validate_document_runs_strawberrys_rules() -> None:
    small = strawberry.Schema(query=Query)
    rules = tuple(
        new_execution_context(small, query="", allowed_operation_types=()).validation_rules
    )
    assert validate_document(core_schema(small), parse("{ hello }"), rules) == []
    errors = validate_document(core_schema(small), parse("{ goodbye }"), rules)
    assert [e.message for e in errors] == ["Cannot query field 'goodbye' on type 'Query'."]


def test_default_allowed_operation_types_are_all_three() -> None:
    assert set(DEFAULT_ALLOWED_OPERATION_TYPES) == set(OperationType)


def test_new_execution_context_carries_the_operation() -> None:
    small = strawberry.Schema(query=Query)
    context = new_execution_context(
        small,
        query="query Hi { hello }",
        allowed_operation_types={OperationType.QUERY},
        variable_values={"a": 1},
        context_value="ctx",
        root_value="root",
        operation_name="Hi",
        operation_extensions={"x": 1},
    )
    assert isinstance(context, ExecutionContext) and context.schema is small
    assert (context.query, context.operation_name, context.variables) == (
        "query Hi { hello }",
        "Hi",
        {"a": 1},
    )
    assert (context.context, context.root_value) == ("ctx", "root")
    assert set(context.allowed_operations) == {OperationType.QUERY}


def test_core_schema_is_graphql_cores() -> None:
    small = strawberry.Schema(query=Query)
    assert isinstance(core_schema(small), GraphQLSchema)
    assert core_schema(small).query_type is not None
    assert "hello" in core_schema(small).query_type.fields


async def test_execute_document_runs_the_schemas_executor() -> None:
    small = strawberry.Schema(query=Query, execution_context_class=Recording)
    Recording.seen.clear()
    query = 'query Hi($n: String!) { hello(name: $n) } query Other { hello(name: "no") }'
    result = await execute_document(
        small, context_of(small, query, variable_values={"n": "ann"}, operation_name="Hi"), {"x": 1}
    )
    assert result.data == {"hello": "hello ann"} and not result.errors
    assert Recording.seen == [{"x": 1}]  # the schema's executor, with the operation extensions


def test_handle_errors_reaches_process_errors() -> None:
    small = Noting(query=Query)
    handle_errors(small, [GraphQLError("refused")], context_of(small, "{ hello }"))
    assert small.noted == ["refused"]


async def test_operation_type_errors_are_strawberrys() -> None:
    small = strawberry.Schema(query=Query)
    with pytest.raises(CannotGetOperationTypeError) as unknown:
        await small.execute("query A { hello }", operation_name="B")
    assert unknown.value.as_http_error_reason() == 'Unknown operation named "B".'
    with pytest.raises(InvalidOperationTypeError) as refused:
        await small.execute("{ hello }", allowed_operation_types={OperationType.MUTATION})
    assert refused.value.as_http_error_reason("POST") == "queries are not allowed when using POST"


@pytest.fixture
def papyrus_context(sqlite_url: str) -> Iterator[Context]:
    with ThreadPoolExecutor(1) as executor:
        yield Context(app=Application(open_store(sqlite_url)), hub=Hub(), executor=executor)


async def test_papyrus_schema_executes_through_the_adapter(papyrus_context: Context) -> None:
    result = await schema.execute("{ __typename }", context_value=papyrus_context)
    assert result.data == {"__typename": "Query"} and not result.errors
    with pytest.raises(CannotGetOperationTypeError):
        await schema.execute("query A { __typename }", operation_name="B")
    with pytest.raises(InvalidOperationTypeError):
        await schema.execute("{ __typename }", allowed_operation_types={OperationType.MUTATION})


def test_temporal_response_takes_a_status_and_headers() -> None:
    answered = TemporalResponse()
    assert (answered.status_code, answered.headers) == (200, {})
    answered.status_code = 429
    answered.headers["Retry-After"] = "3"
    assert (answered.status_code, answered.headers) == (429, {"Retry-After": "3"})
    assert TemporalResponse().headers == {}  # each answer its own headers


def test_normalize_allowed_origins() -> None:
    origins = normalize_allowed_origins(["https://Example.COM:443", "http://localhost:8080", "*"])
    assert origins == {"https://example.com", "http://localhost:8080", "*"}
    with pytest.raises(ValueError, match="Invalid origin"):
        normalize_allowed_origins(["https://example.com/path"])
    with pytest.raises(TypeError):
        normalize_allowed_origins("https://example.com")


async def test_websocket_disconnected_is_what_a_send_to_a_gone_socket_raises() -> None:
    class Gone:
        async def send_text(self, text: str) -> None:
            raise WebSocketDisconnect(1001)

    adapter = ASGIWebSocketAdapter(GraphQL(strawberry.Schema(query=Query)), Gone(), Gone())  # type: ignore[arg-type]
    with pytest.raises(WebSocketDisconnected):
        await adapter.send_json({"type": "next"})


def test_websocket_handlers_are_the_views() -> None:
    """The classes the view runs each protocol with (generic aliases of them, by default)."""
    transport, legacy = GraphQL.graphql_transport_ws_handler_class, GraphQL.graphql_ws_handler_class
    assert (get_origin(transport) or transport) is BaseGraphQLTransportWSHandler
    assert (get_origin(legacy) or legacy) is BaseGraphQLWSHandler
    assert issubclass(TransportWSHandler, BaseGraphQLTransportWSHandler)
    assert issubclass(LegacyWSHandler, BaseGraphQLWSHandler)


def test_stream_transport_follows_accept() -> None:
    small = strawberry.Schema(query=Query)
    streams = GraphQL(small, subscription_protocols=(MULTIPART_SUBSCRIPTION_PROTOCOL,))
    multipart = {"Accept": 'multipart/mixed;subscriptionSpec="1.0"'}
    assert stream_transport(streams, multipart) is not None
    assert stream_transport(streams, {"accept": "application/json"}) is None
    assert stream_transport(GraphQL(small), multipart) is None  # websockets only: no streams


def test_to_camel_case() -> None:
    assert to_camel_case("amun_re_bid") == "amunReBid"
    assert to_camel_case("imhotep_place_stone") == "imhotepPlaceStone"
    assert to_camel_case("pass") == "pass"


# -- no other module imports strawberry's internals ---------------------------------------------


def private_imports(source: str) -> list[str]:
    """The strawberry modules outside ``PUBLIC`` that ``source`` imports."""
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return [n for n in names if n.split(".")[0] == "strawberry" and n not in PUBLIC]


def project_modules() -> list[Path]:
    return sorted(
        path
        for folder in ("domain", "projections", "service", "tests", "bench", "scripts")
        for path in (ROOT / folder).rglob("*.py")
    )


def test_only_the_adapter_imports_strawberry_privately() -> None:
    found = {
        str(path.relative_to(ROOT)): private
        for path in project_modules()
        if path != ADAPTER and (private := private_imports(path.read_text(encoding="utf-8")))
    }
    assert found == {}
    assert private_imports(ADAPTER.read_text(encoding="utf-8"))  # the check sees them there


@pytest.mark.parametrize(
    "source",
    [
        "from strawberry.utils.str_converters import to_camel_case",
        "import strawberry.http.temporal_response",
        "from strawberry.schema.schema import validate_document",
        "from strawberry.extensions.query_depth_limiter import create_validator",
    ],
)
def test_the_check_catches_a_private_import(source: str) -> None:
    assert private_imports(source)


def test_public_imports_pass() -> None:
    assert not private_imports("import strawberry\nfrom strawberry.scalars import JSON")
    assert not private_imports("from strawberry.types.graphql import OperationType")
