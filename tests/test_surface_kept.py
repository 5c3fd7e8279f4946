"""Issue #21, acceptance 1: the refactor into game plug-ins keeps the public surface. Every
type, field, argument, enum value and union member of ``schema.graphql``, and every path,
method, parameter and component schema of ``openapi.json``, as they were before it
(``fixtures/surface_before_plugins/``), is still there with the same type; what changes may only
add (descriptions, the registry's games).

A REST body may change in one way more, the way no client can notice (issue #23): a body that
clients only send may accept more (a member no longer required), a body they only read may
promise more (a member always present, an object now declared as one of named object schemas:
the typed legal actions). ``compatible`` says which; its test shows it refuses the converse."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from graphql import (
    GraphQLEnumType,
    GraphQLInputObjectType,
    GraphQLInterfaceType,
    GraphQLObjectType,
    GraphQLUnionType,
    build_schema,
)

ROOT = Path(__file__).parent.parent
BEFORE = Path(__file__).parent / "fixtures" / "surface_before_plugins"
#: what a schema may gain without changing what it accepts or answers
WORDING = {"description", "title", "example", "examples"}


def graphql_surface(sdl: str) -> dict[str, dict[str, str]]:
    """Each named type's members: a field or argument with its type, an enum value, a member
    of a union, each as ``member -> type`` (the kind of the type under ``""``)."""
    surface: dict[str, dict[str, str]] = {}
    for name, kind in build_schema(sdl).type_map.items():
        if name.startswith("__"):
            continue
        members: dict[str, str] = {"": type(kind).__name__}
        if isinstance(kind, GraphQLObjectType | GraphQLInterfaceType | GraphQLInputObjectType):
            for field_name, field in kind.fields.items():
                members[field_name] = str(field.type)
                for arg_name, arg in getattr(field, "args", {}).items():
                    members[f"{field_name}({arg_name})"] = str(arg.type)
        if isinstance(kind, GraphQLObjectType | GraphQLInterfaceType):
            for interface in kind.interfaces:
                members[f"implements {interface.name}"] = ""
        if isinstance(kind, GraphQLEnumType):
            members.update({value: "" for value in kind.values})
        if isinstance(kind, GraphQLUnionType):
            members.update({f"| {member.name}": "" for member in kind.types})
        surface[name] = members
    return surface


def test_schema_graphql_keeps_every_type_field_and_argument() -> None:
    before = graphql_surface((BEFORE / "schema.graphql").read_text(encoding="utf-8"))
    now = graphql_surface((ROOT / "schema.graphql").read_text(encoding="utf-8"))
    lost = [
        f"{name}.{member or '(kind)'}: {kind!r} was {was!r}"
        for name, members in before.items()
        for member, was in members.items()
        if (kind := now.get(name, {}).get(member, "(gone)")) != was
    ]
    assert lost == []


def meaning(schema: Any) -> Any:
    """A JSON schema without its wording (what it accepts and answers, nothing else)."""
    if isinstance(schema, dict):
        return {k: meaning(v) for k, v in schema.items() if k not in WORDING}
    if isinstance(schema, list):
        return [meaning(v) for v in schema]
    return schema


def inlined(schema: Any, document: dict[str, Any]) -> Any:
    """``schema`` with each ``#/components/schemas/`` reference replaced by what it names: an
    inline schema moved to a named component (each action's, issue #23) means the same."""
    if isinstance(schema, dict):
        ref = schema.get("$ref", "")
        if ref.startswith("#/components/schemas/"):
            named = document["components"]["schemas"][ref.rpartition("/")[2]]
            beside = {k: v for k, v in schema.items() if k != "$ref"}
            return inlined({**named, **beside}, document)
        return {k: inlined(v, document) for k, v in schema.items()}
    if isinstance(schema, list):
        return [inlined(v, document) for v in schema]
    return schema


def openapi_surface(document: dict[str, Any]) -> dict[str, Any]:
    surface: dict[str, Any] = {}
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or method == "parameters":
                continue
            where = f"{method.upper()} {path}"
            surface[where] = operation.get("operationId")
            for parameter in operation.get("parameters", []):
                key = f"{where} {parameter['in']}:{parameter['name']}"
                surface[key] = meaning({k: parameter.get(k) for k in ("required", "schema")})
            for status in operation.get("responses", {}):
                surface[f"{where} -> {status}"] = True
    for name, schema in document["components"]["schemas"].items():
        surface[f"schema {name}"] = meaning(
            {k: v for k, v in schema.items() if k not in ("properties", "enum")}
        )
        for prop, declared in schema.get("properties", {}).items():
            surface[f"schema {name}.{prop}"] = meaning(inlined(declared, document))
        for value in schema.get("enum", []):
            surface[f"schema {name} = {value}"] = True
    return surface


def test_openapi_json_keeps_every_path_parameter_and_schema() -> None:
    before = openapi_surface(json.loads((BEFORE / "openapi.json").read_text(encoding="utf-8")))
    now = openapi_surface(json.loads((ROOT / "openapi.json").read_text(encoding="utf-8")))
    read_as = directions(json.loads((ROOT / "openapi.json").read_text(encoding="utf-8")))
    lost = [
        f"{key}: {now.get(key, '(gone)')!r} was {was!r}"
        for key, was in before.items()
        if now.get(key, "(gone)") != was and not compatible(key, now.get(key), was, read_as)
    ]
    assert lost == []


def directions(document: dict[str, Any]) -> dict[str, set[str]]:
    """Each component's directions: ``"request"`` where a client sends it (a request body or a
    parameter reaches it), ``"response"`` where a client reads it."""
    schemas = document["components"]["schemas"]
    found: dict[str, set[str]] = {}

    def walk(node: Any, direction: str) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/components/schemas/"):
                name = ref.rpartition("/")[2]
                if direction not in found.setdefault(name, set()):
                    found[name].add(direction)
                    walk(schemas[name], direction)
            for value in node.values():
                walk(value, direction)
        elif isinstance(node, list):
            for value in node:
                walk(value, direction)

    for item in document["paths"].values():
        for operation in item.values():
            if isinstance(operation, dict):
                walk(operation.get("requestBody"), "request")
                walk(operation.get("parameters"), "request")
                walk(operation.get("responses"), "response")
    return found


def any_object(schema: Any) -> bool:
    return schema == {"additionalProperties": True, "type": "object"}


def narrower(now: Any, was: Any) -> bool:
    """``now`` admits no value that ``was`` does not: the same schema, more members required
    or shown,
    or any object declared as one of several object schemas."""
    if now == was:
        return True
    if not isinstance(now, dict) or not isinstance(was, dict):
        return False
    if any_object(was):
        options = now.get("oneOf") or now.get("anyOf") or [now]
        return all(isinstance(o, dict) and o.get("type") == "object" for o in options)
    if set(now) - {"required"} != set(was) - {"required"}:
        return False
    for key, before in was.items():
        after = now[key]
        if key == "required":
            ok = set(after) >= set(before)
        elif key == "properties":
            ok = set(after) >= set(before) and all(narrower(after[p], before[p]) for p in before)
        elif key in ("items", "additionalProperties"):
            ok = narrower(after, before)
        elif key in ("oneOf", "anyOf"):
            ok = len(after) == len(before) and all(map(narrower, after, before))
        else:
            ok = after == before
        if not ok:
            return False
    return True


def compatible(key: str, now: Any, was: Any, read_as: dict[str, set[str]]) -> bool:
    """A component's change that no client can notice: a body only sent that now requires
    fewer members, a body only read that is narrower (``narrower``)."""
    if now is None or not key.startswith("schema "):
        return False
    name = key.removeprefix("schema ").partition(".")[0].partition(" ")[0]
    direction = read_as.get(name, set())
    if direction == {"response"}:
        return narrower(now, was)
    if direction == {"request"} and "." not in key and " = " not in key:
        fewer = set(now.get("required", [])) <= set(was.get("required", []))
        same_rest = {k: v for k, v in now.items() if k != "required"} == {
            k: v for k, v in was.items() if k != "required"
        }
        return fewer and same_rest
    return False


def test_only_changes_no_client_notices_are_compatible() -> None:
    """``compatible`` accepts a sent body asking for less and a read body promising more, and
    refuses the converse: a sent body asking for more, a read body promising less."""
    read_as = {"Sent": {"request"}, "Read": {"response"}, "Both": {"request", "response"}}
    one, two = {"required": ["a"], "type": "object"}, {"required": ["a", "b"], "type": "object"}
    assert compatible("schema Sent", one, two, read_as)
    assert not compatible("schema Sent", two, one, read_as)
    assert compatible("schema Read", two, one, read_as)
    assert not compatible("schema Read", one, two, read_as)
    assert not compatible("schema Both", one, two, read_as)
    assert not compatible("schema Both", two, one, read_as)
    anything = {"additionalProperties": True, "type": "object"}
    typed = {"oneOf": [{"type": "object", "required": ["type"]}, {"type": "object"}]}
    assert compatible("schema Read.action", typed, anything, read_as)
    assert not compatible("schema Read.action", anything, typed, read_as)
    assert not compatible("schema Sent.action", typed, anything, read_as)
    assert not compatible("schema Read.action", {"type": "string"}, anything, read_as)


def test_the_comparison_sees_a_lost_field_and_a_changed_type() -> None:
    """The two checks above can fail: a field dropped and a type changed are both named."""
    sdl = (BEFORE / "schema.graphql").read_text(encoding="utf-8")
    before = graphql_surface(sdl)
    changed = graphql_surface(sdl.replace("  mySeat: Int\n", "  mySeat: Int!\n", 1))
    assert any(before[t].get("mySeat") != changed[t].get("mySeat") for t in before)
    document = json.loads((BEFORE / "openapi.json").read_text(encoding="utf-8"))
    path = next(iter(document["paths"]))
    surface = openapi_surface(document)
    del document["paths"][path]
    assert set(surface) - set(openapi_surface(document))
