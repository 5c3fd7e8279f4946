"""Generate ``schema.ts``, the TypeScript types of the Papyrus GraphQL API, from ``schema.graphql``.

    .venv/bin/python clients/typescript/generate.py          # rewrite clients/typescript/schema.ts
    .venv/bin/python clients/typescript/generate.py --check  # exit 1 if schema.ts is stale

Only graphql-core (already installed with strawberry) is needed: no npm package at generation
time. Every object type and interface becomes an ``interface`` (a nullable field is ``T | null``),
every input type an ``interface`` whose nullable fields are optional, every enum a string-literal
union (with a ``const`` array of its values), every union a type union, and the arguments of
every field that has some a ``<Type><Field>Args`` interface. Descriptions become JSDoc comments.

A ``@oneOf`` input (``ActionInput``) is a discriminated union: its fields are written as the
interface ``<Name>Members`` and ``<Name>`` is ``OneOf<<Name>Members>``, an object with exactly
one of them set, so that ``{}`` or an object with two members does not compile. ``ErrorCode``
is the union of the stable error codes that docs/API.md ("Errors") lists, read from that page
(the contract), so a new code there is a new member here (and the drift test says so).
``Move.typedAction``, a JSON scalar in GraphQL, is written as the ``ActionInput`` it holds.
"""

from __future__ import annotations

import argparse
import re
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
CONTRACT = ROOT / "docs" / "API.md"
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

/**
 * Exactly one member of `T` set, and set to a value (a GraphQL `@oneOf` input): every other
 * member must be absent, so `{}` or two members do not compile.
 */
export type OneOf<T> = {
  [K in keyof T]-?: { [P in K]-?: NonNullable<T[P]> } & { [P in Exclude<keyof T, K>]?: never };
}[keyof T];
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


#: JSON fields whose value is known to be one type of the schema: written as that type.
#: ``Move.typedAction`` holds exactly what ``act(typedAction:)`` takes, an ``ActionInput``
#: (a JSON scalar in GraphQL, since an output cannot be an input type).
TYPED_JSON = {("Move", "typedAction"): "ActionInput"}


def field_lines(
    name: str, field: GraphQLField | GraphQLInputField, optional: bool, owner: str = ""
) -> list[str]:
    lines = doc(field.description, "  ")
    deprecated = getattr(field, "deprecation_reason", None)
    if deprecated:
        lines.append(f"  /** @deprecated {deprecated} */")
    marker = "?" if optional and not isinstance(field.type, GraphQLNonNull) else ""
    written = ts_type(field.type)
    if (owner, name) in TYPED_JSON and written.startswith("JSONValue"):
        written = written.replace("JSONValue", TYPED_JSON[(owner, name)], 1)
    lines.append(f"  {key(name)}{marker}: {written};")
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


def error_codes(contract: str) -> list[str]:
    """The codes of docs/API.md's "Errors" section, in its order: each written `` `CODE` 422``."""
    section = contract.split("\n## Errors", 1)[1].split("\n## ", 1)[0]
    codes = list(dict.fromkeys(re.findall(r"`([A-Z][A-Z_]+)` \d{3}", section)))
    if not codes:
        raise ValueError("docs/API.md has no error codes under its Errors section")
    return codes


def error_code_block(codes: list[str]) -> list[list[str]]:
    union = "\n".join(f"  | {repr_ts(code)}" for code in codes)
    values = ", ".join(map(repr_ts, codes))
    described = (
        'A stable error code (docs/API.md "Errors"): GraphQL `extensions.code`, REST `code`.'
    )
    return [
        ["/**", f" * {described}", " */", f"export type ErrorCode =\n{union};"],
        [
            "/** Every value of `ErrorCode`. */",
            f"export const ErrorCodeValues: readonly ErrorCode[] = [{values}];",
        ],
    ]


def generate(schema: GraphQLSchema, contract: str | None = None) -> str:
    """The whole ``schema.ts`` for ``schema`` and ``contract`` (the text of docs/API.md, read
    from the repository when not given)."""
    if contract is None:
        contract = CONTRACT.read_text(encoding="utf-8")
    blocks: list[list[str]] = error_code_block(error_codes(contract))
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
        if isinstance(named, GraphQLInputObjectType) and named.is_one_of:
            lines.append(f"export type {name} = OneOf<{name}Members>;")
            blocks.append(lines)
            lines = [f"/** The members of `{name}`: exactly one of them is sent. */"]
            lines.append(f"export interface {name}Members {{")
            for field_name, input_field in named.fields.items():
                lines += field_lines(field_name, input_field, optional=True)
            lines.append("}")
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
            lines += field_lines(field_name, field, optional=False, owner=name)
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
