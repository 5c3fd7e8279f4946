"""Typed GraphQL views of the games: ``GameView`` = one member per registered game
(``ImhotepState | AmunReState | ...``).

The types are not written here: they are derived (``derivation``) from the shape each game
declares for its JSON view (``GameModule.view``, ``domain.registry``), so the typed view and the
JSON view cannot differ by a key.

``typed_view(kind, view)`` turns the JSON view of ``rules_for(kind).view(state, seat, full)``
(what ``Game.state`` serves) into the typed object. It copies the view and adds nothing: secrecy
is decided by the JSON view alone; a key the view leaves out is a null field; a closed set of
domain ids (a card, a phase) is an enum whose values are the ids upper-cased. A view that does not
match its shape (or holds an id outside its set) raises ``ViewShapeError``. Every derived type
can be imported from here by name (``from service.api.graphql.gameviews import AmunRePlayer``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, TypeAlias, Union

import strawberry

from domain.registry import games
from service.api.graphql.gameviews.derivation import Derived, ViewShapeError, derive

DERIVED: dict[str, Derived] = {game.kind: derive(game.view) for game in games()}
#: every derived type by its GraphQL name
TYPES: dict[str, type] = {name: t for d in DERIVED.values() for name, t in d.by_name.items()}
ROOTS = tuple(derived.root for derived in DERIVED.values())
SELECT = " / ".join(f"`... on {root.__name__}`" for root in ROOTS)

if TYPE_CHECKING:
    GameView: TypeAlias = Any
else:
    GameView = Annotated[
        Union[ROOTS],  # noqa: UP007 (a union of types known only once the games are loaded)
        strawberry.union(
            "GameView",
            description=f"A game's typed view, one member per game kind (select with {SELECT}): "
            "the same information as the JSON `state`, "
            "with enums for closed sets of domain ids (values: the id upper-cased). "
            "`discardPile` and `hidden { drawPile }` are lists of each game's own card enum: a "
            "query selecting them in both members aliases one of them.",
        ),
    ]


def typed_view(kind: str, view: dict[str, Any]) -> Any:
    """The typed mirror of a game's JSON view; ``kind`` is a registered game's."""
    derived = DERIVED.get(kind)
    if derived is None:
        raise ValueError(f"no typed view for game kind {kind!r}")
    return derived.read(view)


def __getattr__(name: str) -> type:
    try:
        return TYPES[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


__all__ = ["TYPES", "GameView", "ViewShapeError", "typed_view"]
