"""Every part of the GraphQL schema describes itself (issue #13: a client is built from the API
and its documents alone): each type, field, argument, enum and enum value of the generated schema
has a description, and the typed game views' enums say how their values are named.

The game views' descriptions come from the domain's view shapes (``metadata["description"]``
and docstrings in ``domain/<game>/view_shape*.py``), the enums' from ``domain/shapes.Closed``.
"""

from __future__ import annotations

from collections.abc import Iterator

from graphql import (
    GraphQLEnumType,
    GraphQLInputObjectType,
    GraphQLInterfaceType,
    GraphQLNamedType,
    GraphQLObjectType,
    GraphQLScalarType,
    GraphQLSchema,
    GraphQLUnionType,
    build_schema,
)

from service.api.graphql.gameviews.derivation import ENUMS
from service.api.graphql.schema import schema
from service.cli import sdl

#: the built-in scalars GraphQL itself describes
BUILT_IN = {"String", "Int", "Float", "Boolean", "ID"}


def undescribed(graphql_schema: GraphQLSchema) -> Iterator[str]:
    """The coordinate (``Type.field(argument)``) of everything without a description."""
    for name, named in sorted(graphql_schema.type_map.items()):
        if name.startswith("__") or name in BUILT_IN:
            continue
        if not described(named):
            yield name
        if isinstance(named, GraphQLObjectType | GraphQLInterfaceType | GraphQLInputObjectType):
            for field_name, field in named.fields.items():
                if not (field.description or "").strip():
                    yield f"{name}.{field_name}"
                for arg_name, arg in getattr(field, "args", {}).items():
                    if not (arg.description or "").strip():
                        yield f"{name}.{field_name}({arg_name})"
        if isinstance(named, GraphQLEnumType):
            for value_name, value in named.values.items():
                if not (value.description or "").strip():
                    yield f"{name}.{value_name}"


def described(named: GraphQLNamedType) -> bool:
    return bool((named.description or "").strip())


def test_every_type_field_argument_and_enum_value_of_the_schema_has_a_description() -> None:
    missing = list(undescribed(schema._schema))
    assert not missing, f"{len(missing)} without a description: {missing[:20]}"


def test_the_committed_schema_carries_the_descriptions_too() -> None:
    """What a client downloads (schema.graphql, introspection) keeps them: the SDL built back."""
    assert not list(undescribed(build_schema(sdl(schema))))


def test_the_check_finds_what_lacks_a_description() -> None:
    bare = build_schema(
        '"A described type." type Query { "a field" a(x: Int): Int b: E }'
        ' enum E { ONE "the second" TWO } union U = Query scalar S'
    )
    assert list(undescribed(bare)) == ["E", "E.ONE", "Query.a(x)", "Query.b", "S", "U"]


def test_the_game_views_enums_say_how_their_values_are_named() -> None:
    """The enums of the typed views (phase, decision, card, province, side, colour …) are
    generated from the domain's ids: value = id upper-cased, which each description says, and
    each value's description names its domain id."""
    assert {"AmunRePhase", "AmunReDecision", "AmunReCard", "AmunReProvinceId", "ImhotepSide",
            "ImhotepColour", "ImhotepCard"} <= set(ENUMS)  # fmt: skip
    for name, (closed, _) in ENUMS.items():
        enum = schema._schema.get_type(name)
        assert isinstance(enum, GraphQLEnumType)
        assert "upper-cased" in (enum.description or ""), name
        assert list(enum.values) == [value.upper() for value in closed.ids]
        for value_name, value in enum.values.items():
            domain_id = next(i for i in closed.ids if i.upper() == value_name)
            assert f'"{domain_id}"' in (value.description or ""), (name, value_name)


def test_no_scalar_or_union_of_ours_is_left_undescribed() -> None:
    ours = [
        named
        for name, named in schema._schema.type_map.items()
        if isinstance(named, GraphQLScalarType | GraphQLUnionType)
        and not name.startswith("__")
        and name not in BUILT_IN
    ]
    assert ours and all(described(named) for named in ours)
