"""The REST API's OpenAPI document is generated from its declarations (FastAPI + pydantic).

It is fetched from a real running server, checked against the OpenAPI 3.1 specification, must
keep every path, method and component schema of the v1 surface (``fixtures/
openapi_v1_surface.json``, recorded from the hand-written document it replaced) and must match
the committed ``openapi.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from openapi_spec_validator import validate

from domain import actions
from service.api.rest import openapi_document
from tests.client import Client

ROOT = Path(__file__).parent.parent
SURFACE = json.loads((Path(__file__).parent / "fixtures" / "openapi_v1_surface.json").read_text())
REGENERATE = (
    '.venv/bin/python -c "import json,service.api.rest as r; '
    'print(json.dumps(r.openapi_document(), indent=2, sort_keys=True))" > openapi.json'
)
METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from tests.conftest import Server

    folder = tmp_path_factory.mktemp("openapi")
    with Server(f"sqlite:///{folder / 'papyrus.sqlite'}") as server:
        response = Client(server.url).rest("GET", "/openapi.json")
        assert response.status_code == 200, response.text
        assert response.headers["content-type"].startswith("application/json")
        yield response.json()


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    ]


def test_the_served_document_is_valid_openapi_3_1(served: dict[str, Any]) -> None:
    assert served["openapi"].startswith("3.1")
    validate(served)


def test_the_served_document_is_the_generated_one(served: dict[str, Any]) -> None:
    assert served == openapi_document()


def test_the_document_keeps_the_v1_surface(served: dict[str, Any]) -> None:
    for path, methods in SURFACE["paths"].items():
        assert path in served["paths"], path
        assert {m.lower() for m in methods} <= set(served["paths"][path]), path
    assert set(SURFACE["schemas"]) <= set(served["components"]["schemas"])
    assert set(SURFACE["securitySchemes"]) <= set(served["components"]["securitySchemes"])
    assert served["components"]["securitySchemes"]["bearer"] == {"type": "http", "scheme": "bearer"}
    assert served["servers"] == SURFACE["servers"]
    assert served["security"] == [{}, {"bearer": []}]  # the token is optional: spectators


def test_every_operation_has_an_operation_id_and_tags(served: dict[str, Any]) -> None:
    ids = [operation.get("operationId") for _, _, operation in operations(served)]
    assert all(ids) and len(ids) == len(set(ids)), ids
    declared = {tag["name"] for tag in served["tags"]}
    for path, method, operation in operations(served):
        assert operation.get("tags") and set(operation["tags"]) <= declared, (path, method)
    assert {
        "registerPlayer",
        "me",
        "createGame",
        "joinGame",
        "addBot",
        "act",
        "game",
        "games",
    } <= set(ids)


def test_failures_are_documented_as_problems(served: dict[str, Any]) -> None:
    """No FastAPI default validation error shape: every failure is application/problem+json."""
    assert not {"HTTPValidationError", "ValidationError"} & set(served["components"]["schemas"])
    problem = {"schema": {"$ref": "#/components/schemas/Problem"}}
    for path, _, operation in operations(served):
        for status, response in operation["responses"].items():
            if int(status) >= 400:
                assert response["content"] == {"application/problem+json": problem}, (path, status)


def example_validator(document: dict[str, Any], schema: dict[str, Any]) -> Any:
    """A validator of ``schema`` whose ``#/components/...`` references resolve in ``document``."""
    return jsonschema.Draft202012Validator({"components": document["components"], **schema})


def test_every_request_body_has_examples_that_validate(served: dict[str, Any]) -> None:
    """Every operation with a request body shows named examples on it (OpenAPI Example Objects
    with a summary), and each one is valid against the body's own schema: the ``act`` examples
    against the ``oneOf`` of the catalogs' action schemas (real actions of both games)."""
    bodies = 0
    for path, method, operation in operations(served):
        body = operation.get("requestBody")
        if body is None:
            continue
        for media_type, media in body["content"].items():
            assert media.get("examples"), f"{method} {path} {media_type} has no example"
            check = example_validator(served, media["schema"])
            for name, example in media["examples"].items():
                assert example["summary"] and "value" in example, (path, name)
                errors = [e.message for e in check.iter_errors(example["value"])]
                assert not errors, f"{method} {path} example {name!r}: {errors}"
            bodies += 1
    assert bodies >= 10
    act = served["paths"]["/games/{id}/actions"]["post"]["requestBody"]["content"]
    # each action a named component (``ImhotepPlaceStone``): the kind is its name's start
    kind_of = {
        "".join(p[:1].upper() + p[1:] for p in f"{c.kind}_{a.name}".split("_")): c.kind
        for c in actions.catalogs()
        for a in c.actions
    }
    kinds = {
        kind_of[branch["$ref"].rpartition("/")[2]]
        for example in act["application/json"]["examples"].values()
        for branch in served["components"]["schemas"]["Act"]["properties"]["action"]["oneOf"]
        if example_validator(served, branch).is_valid(example["value"]["action"])
    }
    assert kinds == {"imhotep", "amun_re"}


def test_every_schema_example_validates_and_the_main_responses_have_one(
    served: dict[str, Any],
) -> None:
    """The component schemas' ``examples`` (requests and the main responses: a game, an act's
    result, a session, an event, pages, a problem) each validate against their schema; an
    example of a body whose model changed fails here."""
    from service.api.rest.examples import SCHEMA_EXAMPLES

    schemas = served["components"]["schemas"]
    assert set(SCHEMA_EXAMPLES) <= set(schemas), set(SCHEMA_EXAMPLES) - set(schemas)
    for name, schema in schemas.items():
        check = example_validator(served, {"$ref": f"#/components/schemas/{name}"})
        for example in schema.get("examples", []):
            errors = [f"{list(e.absolute_path)}: {e.message}" for e in check.iter_errors(example)]
            assert not errors, f"the example of {name} does not match it: {errors}"
    main = {"Game", "ActResult", "PlayerSession", "GameEvent", "GamePage", "EventPage", "Problem"}
    assert all(schemas[name].get("examples") for name in main)
    assert {"GameSummary", "SummaryPage", "Verification"} <= {
        n for n in schemas if "examples" in schemas[n]
    }


def test_the_committed_openapi_json_is_current() -> None:
    committed = json.loads((ROOT / "openapi.json").read_text(encoding="utf-8"))
    assert committed == openapi_document(), f"openapi.json is out of date: run {REGENERATE}"


def test_the_document_is_deterministic() -> None:
    first = json.dumps(openapi_document(), sort_keys=True)
    assert json.dumps(openapi_document(), sort_keys=True) == first


def test_fastapi_defaults_never_leak(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """Unknown paths, wrong methods and invalid parameters answer problems, not {"detail": ...};
    the CDN-backed /redoc page is off (/docs is this server's own page: test_rest_discovery)."""
    client = Client(sqlite_server.url)
    cases = {
        ("GET", "/nowhere"): (404, "NOT_FOUND"),
        ("GET", "/redoc"): (404, "NOT_FOUND"),
        ("DELETE", "/games"): (405, "BAD_INPUT"),
        ("PUT", "/games/some-id/actions"): (405, "BAD_INPUT"),
        ("GET", "/games?limit=500"): (422, "BAD_INPUT"),
        ("GET", "/games/some-id/events?after=x"): (422, "BAD_INPUT"),
    }
    for (method, path), (status, code) in cases.items():
        response = client.rest(method, path)
        assert response.status_code == status, (path, response.text)
        assert response.headers["content-type"].startswith("application/problem+json")
        body = response.json()
        assert set(body) == {"type", "title", "status", "detail", "code", "requestId"}, body
        assert body["requestId"] == response.headers["x-request-id"]
        assert (body["status"], body["code"]) == (status, code)
        if status == 405:  # RFC 9110 §15.5.6: the methods the resource has
            assert response.headers["allow"], (method, path)
    assert client.rest("PUT", "/games/some-id/actions").headers["allow"] == "POST"
    assert client.rest("GET", "/games?limit=500").json()["detail"] == (
        "limit must be between 1 and 200, not 500."
    )


def test_bodies_are_read_as_leniently_as_ever(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """Any content type, an empty body is {}, and refusals say what was wrong."""
    client = Client(sqlite_server.url)
    registered = client.rest("POST", "/players", content=b'{"name": "Ana"}')
    assert registered.status_code == 201, registered.text
    client.token = registered.json()["token"]
    refusals = {
        b"": 'Send {"name": "..."}.',
        b"[1]": "The request body must be a JSON object.",
        b"{nope": "The request body is not valid JSON.",
        b'{"name": 3}': 'Send {"name": "..."}.',
    }
    for raw, detail in refusals.items():
        response = client.rest("POST", "/players", content=raw)
        assert (response.status_code, response.json()["detail"]) == (422, detail), raw
    bodies = {
        '{"kind": "imhotep", "seats": 500}': "seats must be between 1 and 100, not 500.",
        '{"kind": "chess", "seats": 2}': 'kind must be "IMHOTEP" or "AMUN_RE".',
        '{"kind": "AMUN_RE"}': "seats is required.",
        '{"kind": "AMUN_RE", "seats": true}': "seats must be an integer.",
        '{"kind": "AMUN_RE", "seats": 2, "seed": 7}': "seed must be a string.",
    }
    for raw_body, detail in bodies.items():
        response = client.rest("POST", "/games", content=raw_body.encode())
        assert (response.status_code, response.json()["detail"]) == (422, detail), raw_body
    created = client.rest("POST", "/games", content=b'{"kind": "amun_re", "seats": "3"}')
    assert created.status_code == 201 and created.json()["kind"] == "AMUN_RE"
    seats = f"/games/{created.json()['id']}/seats"
    for raw in (b"{nope", b"null", b'"seat"'):  # an optional body is still refused when wrong
        assert client.rest("POST", seats, content=raw).status_code == 422, raw
    joined = client.rest("POST", seats)  # no body at all
    assert joined.status_code == 200 and joined.json()["mySeat"] == 0
    too_large = client.rest("POST", "/games/import", content=b" " * (9 * 2**20))
    assert too_large.json()["detail"] == "The request body is too large."
