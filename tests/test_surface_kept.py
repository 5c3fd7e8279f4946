"""Issue #21, acceptance 1: the refactor into game plug-ins keeps the public surface. Every
type, field, argument, enum value and union member of ``schema.graphql``, and every path,
method, parameter and component schema of ``openapi.json``, as they were before it
(``fixtures/surface_before_plugins/``), is still there with the same type; what changes may only
add (descriptions, the registry's games)."""

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
                surface[key] = meaning(
                    {k: parameter.get(k) for k in ("required", "schema")}
                )
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
    lost = [
        f"{key}: {now.get(key, '(gone)')!r} was {was!r}"
        for key, was in before.items()
        if now.get(key, "(gone)") != was
    ]
    assert lost == []


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
