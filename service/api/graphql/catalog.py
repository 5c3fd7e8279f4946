"""The action vocabulary over GraphQL: ``actionCatalog(kind)`` and ``Move`` (a legal action with
its label, and in its typed form: the ``ActionInput`` value ``act(typedAction:)`` takes, made by
``actioninput.typed_of``), both read from the domain's declaration (``domain.actions``); their
types are derived from the shared shapes (``service.api.shapes.catalog``, ``games.Move``)."""

from __future__ import annotations

from typing import Any

from domain import actions
from service.api.graphql.actioninput import typed_of
from service.api.graphql.shaped import Derived, build, graphql_type
from service.api.graphql.types import GameKind
from service.api.shapes import catalog, games


@graphql_type(catalog.ActionParameter)
class ActionParameter(Derived):
    pass


@graphql_type(catalog.ActionSpec)
class ActionSpec(Derived):
    pass


@graphql_type(games.Move)
class Move(Derived):
    pass


def action_catalog(kind: GameKind) -> list[ActionSpec]:
    """The actions of ``kind`` (the resolver of ``Query.actionCatalog``)."""
    return [
        build(ActionSpec, catalog.action_spec(spec))
        for spec in actions.catalog_for(kind.value).actions
    ]


def moves_of(kind: str, legal: list[Any]) -> list[Move]:
    """The legal actions ``legal`` of a game of ``kind``, each with its label, its type and
    its typed form."""
    labelled = actions.catalog_for(kind)
    return [
        build(
            Move,
            {
                "action": a,
                "label": actions.label(labelled, a),
                "type": str(a.get("type", "")),
                "typed_action": typed_of(kind, a),
            },
        )
        for a in legal
    ]
