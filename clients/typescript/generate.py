"""Generate ``schema.ts``, the TypeScript types of the Papyrus GraphQL API, from ``schema.graphql``.

    .venv/bin/python clients/typescript/generate.py          # rewrite clients/typescript/schema.ts
    .venv/bin/python clients/typescript/generate.py --check  # exit 1 if schema.ts is stale

Only graphql-core (already installed with strawberry) is needed: no npm package at generation
time. Every object type and interface becomes an ``interface`` (a nullable field is ``T | null``),
every input type an ``interface`` whose nullable fields are optional, every enum a string-literal
union (with a ``const`` array of its values), every union a type union, and the arguments of
every field that has some a ``<Type><Field>Args`` interface. Descriptions become JSDoc comments.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from graphql import (
    GraphQLEnumType,
    GraphQLField,
    GraphQLInputField,
    GraphQLInputObjectType,
    GraphQLInterfaceType,
    GraphQLList,
    GraphQLNamedType,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLScalarType,
    GraphQLSchema,
    GraphQLUnionType,
    build_schema,
)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SCHEMA = ROOT / "schema.graphql"
OUTPUT = HERE / "schema.ts"

#: how each scalar is written in TypeScript (a scalar not listed here is ``unknown``)
SCALARS = {
    "ID": "string",
    "String": "string",
    "Int": "number",
    "Float": "number",
    "Boolean": "boolean",
    "DateTime": "string",
    "JSON": "JSONValue",
}

HEADER = """\
// Generated from schema.graphql by clients/typescript/generate.py: do not edit.
// Regenerate: .venv/bin/python clients/typescript/generate.py

/** Any JSON value (the GraphQL scalar ``JSON``). */
export type JSONValue =
  | string
  | number
  | boolean
  | null
  | JSONValue[]
  | { [key: string]: JSONValue };

/** An ISO 8601 date and time, as the GraphQL scalar ``DateTime`` is sent. */
export type DateTime = string;
"""


def doc(description: str | None, indent: str = "") -> list[str]:
    if not description:
        return []
    text = description.replace("*/", "*\\/").strip().splitlines()
    if len(text) == 1:
        return [f"{indent}/** {text[0]} */"]
    return [f"{indent}/**", *(f"{indent} * {line}".rstrip() for line in text), f"{indent} */"]


def ts_type(gql: object, nullable: bool = True) -> str:
    """``gql`` as a TypeScript type; a nullable GraphQL type is ``T | null``."""
    if isinstance(gql, GraphQLNonNull):
        return ts_type(gql.of_type, nullable=False)
    if isinstance(gql, GraphQLList):
        inner = ts_type(gql.of_type)
        written = f"Array<{inner}>"
    elif isinstance(gql, GraphQLScalarType):
        written = SCALARS.get(gql.name, "unknown")
    else:
        assert isinstance(gql, GraphQLNamedType)
        written = gql.name
    return f"{written} | null" if nullable else written


def key(name: str) -> str:
    return name if name.isidentifier() else f'"{name}"'


def field_lines(name: str, field: GraphQLField | GraphQLInputField, optional: bool) -> list[str]:
    lines = doc(field.description, "  ")
    deprecated = getattr(field, "deprecation_reason", None)
    if deprecated:
        lines.append(f"  /** @deprecated {deprecated} */")
    marker = "?" if optional and not isinstance(field.type, GraphQLNonNull) else ""
    lines.append(f"  {key(name)}{marker}: {ts_type(field.type)};")
    return lines


def args_interface(owner: str, name: str, field: GraphQLField) -> list[str]:
    lines = [f"/** The arguments of `{owner}.{name}`. */"]
    lines.append(f"export interface {owner}{name[0].upper()}{name[1:]}Args {{")
    for arg_name, arg in field.args.items():
        lines += doc(arg.description, "  ")
        marker = "?" if not isinstance(arg.type, GraphQLNonNull) else ""
        lines.append(f"  {key(arg_name)}{marker}: {ts_type(arg.type)};")
    lines.append("}")
    return lines


def generate(schema: GraphQLSchema) -> str:
    """The whole ``schema.ts`` for ``schema``."""
    blocks: list[list[str]] = []
    for name in sorted(schema.type_map):
        named = schema.type_map[name]
        if name.startswith("__") or isinstance(named, GraphQLScalarType):
            continue
        lines = doc(named.description)
        if isinstance(named, GraphQLEnumType):
            values = list(named.values)
            lines.append(f"export type {name} = {' | '.join(repr_ts(v) for v in values)};")
            blocks.append(lines)
            values_list = ", ".join(repr_ts(v) for v in values)
            blocks.append(
                [
                    f"/** Every value of `{name}`. */",
                    f"export const {name}Values: readonly {name}[] = [{values_list}];",
                ]
            )
            continue
        if isinstance(named, GraphQLUnionType):
            members = " | ".join(t.name for t in named.types)
            lines.append(f"export type {name} = {members};")
            blocks.append(lines)
            continue
        if isinstance(named, GraphQLInputObjectType):
            lines.append(f"export interface {name} {{")
            for field_name, input_field in named.fields.items():
                lines += field_lines(field_name, input_field, optional=True)
            lines.append("}")
            blocks.append(lines)
            continue
        assert isinstance(named, GraphQLObjectType | GraphQLInterfaceType)
        bases = [i.name for i in named.interfaces]
        extends = f" extends {', '.join(bases)}" if bases else ""
        lines.append(f"export interface {name}{extends} {{")
        if isinstance(named, GraphQLObjectType):
            lines.append(f'  __typename?: "{name}";')
        for field_name, field in named.fields.items():
            lines += field_lines(field_name, field, optional=False)
        lines.append("}")
        blocks.append(lines)
        for field_name, field in named.fields.items():
            if field.args:
                blocks.append(args_interface(name, field_name, field))
    return HEADER + "\n" + "\n\n".join("\n".join(b) for b in blocks) + "\n"


def repr_ts(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Generate schema.ts from schema.graphql")
    parser.add_argument("--check", action="store_true", help="exit 1 if schema.ts is stale")
    args = parser.parse_args(argv)
    text = generate(build_schema(SCHEMA.read_text(encoding="utf-8")))
    if args.check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print("clients/typescript/schema.ts is out of date: run generate.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
