"""Typed GraphQL views of the games: ``GameView`` = ``ImhotepState | AmunReState``.

The types are not written here: they are derived (``derivation``) from the shapes the domain
declares for its JSON views (``domain/imhotep/view_shape.py``, ``domain/amun_re/view_shape.py``),
so the typed view and the JSON view cannot differ by a key.

``typed_view(kind, view)`` turns the JSON view of ``rules_for(kind).view(state, seat, full)``
(what ``Game.state`` serves) into the typed object. It copies the view and adds nothing: secrecy
is decided by the JSON view alone; a key the view leaves out is a null field; a closed set of
domain ids (a card, a phase) is an enum whose values are the ids upper-cased. A view that does not
match its shape (or holds an id outside its set) raises ``ViewShapeError``. Every derived type
can be imported from here by name (``from service.api.graphql.gameviews import AmunRePlayer``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, TypeAlias

import strawberry

from domain.amun_re import view_shape as amun_re_shape
from domain.imhotep import view_shape as imhotep_shape
from service.api.graphql.gameviews.derivation import Derived, ViewShapeError, derive

DERIVED: dict[str, Derived] = {
    "imhotep": derive(imhotep_shape.VIEW),
    "amun_re": derive(amun_re_shape.VIEW),
}
#: every derived type by its GraphQL name
TYPES: dict[str, type] = {name: t for d in DERIVED.values() for name, t in d.by_name.items()}
ImhotepState = DERIVED["imhotep"].root
AmunReState = DERIVED["amun_re"].root

if TYPE_CHECKING:
    GameView: TypeAlias = Any
else:
    GameView = Annotated[
        ImhotepState | AmunReState,
        strawberry.union(
            "GameView",
            description="A game's typed view, one member per game kind (select with `... on "
            "ImhotepState` / `... on AmunReState`): the same information as the JSON `state`, "
            "with enums for closed sets of domain ids (values: the id upper-cased). "
            "`discardPile` and `hidden { drawPile }` are lists of each game's own card enum: a "
            "query selecting them in both members aliases one of them.",
        ),
    ]


def typed_view(kind: str, view: dict[str, Any]) -> Any:
    """The typed mirror of a game's JSON view; ``kind`` is "imhotep" or "amun_re"."""
    derived = DERIVED.get(kind)
    if derived is None:
        raise ValueError(f"no typed view for game kind {kind!r}")
    return derived.read(view)


def __getattr__(name: str) -> type:
    try:
        return TYPES[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


__all__ = ["TYPES", "AmunReState", "GameView", "ImhotepState", "ViewShapeError", "typed_view"]
