"""Relay connections: the fields of every paged list (``…Connection`` and its ``…Edge``),
declared once.

Each paged list (games, game summaries, the leaderboard, a game's log) is a GraphQL type of its
own, with the same fields and its own wording. ``Connection`` and ``Edge`` declare the fields
and how a page is put together; a list's connection is a subclass ``XConnection(Connection[X])``
that ``paged`` names and words, and with it the type ``XEdge`` of its edges. The strawberry
generic alone would name the types the same way, but give every list the same descriptions.
"""

from __future__ import annotations

import types
from collections.abc import Awaitable, Callable
from typing import Any, Generic, Self, TypeVar, get_args

import strawberry

from service.api.graphql.types import PageInfo, encode_cursor

N = TypeVar("N")
T = TypeVar("T")

#: counts the items of a list, on every page; called only when `totalCount` is selected (for a
#: listing of a read model, one ``COUNT`` in its SQL)
Counter = Callable[[], Awaitable[int]]


@strawberry.type
class Edge(Generic[N]):
    """The fields of every ``…Edge`` type (``paged`` words them); never in the schema itself."""

    cursor: str
    node: N


@strawberry.type
class Connection(Generic[N]):
    """The fields of every ``…Connection`` type (``paged`` words them, but for ``pageInfo``,
    which is the same everywhere); never in the schema itself."""

    edges: list[Edge[N]]
    nodes: list[N]
    page_info: PageInfo = strawberry.field(description="Where this page lies.")
    _count: strawberry.Private[Counter]

    async def count(self) -> int:
        """The resolver of ``totalCount``."""
        return await self._count()

    total_count: int = strawberry.field(resolver=count)

    @classmethod
    def of(
        cls,
        nodes: list[N],
        positions: list[int],
        *,
        prefix: str,
        after: str | None,
        more: bool,
        count: Counter,
    ) -> Self:
        """The page of ``nodes``, read after the cursor ``after`` (``more``: items follow it);
        their cursors hold their ``positions`` under ``prefix`` (``decode_cursor``)."""
        cursors = [encode_cursor(prefix, p) for p in positions]
        return cls(
            # plain ``Edge``s: GraphQL checks the type of no object that implements no interface
            edges=[Edge(cursor=c, node=n) for c, n in zip(cursors, nodes, strict=True)],
            nodes=nodes,
            page_info=PageInfo.of(cursors, after, more),
            _count=count,
        )


def paged(
    description: str,
    *,
    edges: str,
    nodes: str,
    total_count: str,
    edge: str,
    cursor: str,
    node: str,
) -> Callable[[type[T]], type[T]]:
    """Declares ``XConnection(Connection[X])`` as the GraphQL type of that name, with these
    descriptions of it and of its fields, and its edges as the type ``XEdge`` (described by
    ``edge``, ``cursor`` and ``node``)."""

    def declare(cls: type[T]) -> type[T]:
        (generic,) = cls.__dict__["__orig_bases__"]  # Connection[X]
        item: Any
        (item,) = get_args(generic)
        edge_type: Any = declared(
            cls.__name__.removesuffix("Connection") + "Edge",
            Edge,
            edge,
            cls.__module__,
            cursor=(str, strawberry.field(description=cursor)),
            node=(item, strawberry.field(description=node)),
        )
        return declared(
            cls.__name__,
            cls,
            description,
            cls.__module__,
            edges=(list[edge_type], strawberry.field(description=edges)),
            nodes=(list[item], strawberry.field(description=nodes)),
            total_count=(
                int,
                strawberry.field(resolver=Connection.count, description=total_count),
            ),
        )

    return declare


def declared(
    name: str, base: type[T], description: str, module: str, **fields: tuple[Any, Any]
) -> type[T]:
    """The strawberry type ``name``: a subclass of ``base`` that declares these fields again,
    each with its annotation and its ``strawberry.field`` (the class a ``class`` statement in
    ``module`` would make, for fields whose types and wording only ``paged`` knows)."""

    def body(namespace: dict[str, Any]) -> None:
        namespace["__module__"] = module
        namespace["__annotations__"] = {n: annotation for n, (annotation, _) in fields.items()}
        namespace.update({n: field for n, (_, field) in fields.items()})

    return strawberry.type(types.new_class(name, (base,), exec_body=body), description=description)
