"""How a compiled plan collects a selection's fields, as graphql-core's ``collect_fields`` does
(``plans`` for subscription events, ``operations`` for queries and mutations): each response
key with its field's name and its nodes, merged across fragments; ``@skip``/``@include`` by the
plan's own rule (``included``); anything a plan does not do raises ``Unsupported``, and
graphql-core executes the document instead."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    SelectionSetNode,
    is_abstract_type,
)

#: response key -> (the field's name, its nodes)
Collected = dict[str, tuple[str, list[FieldNode]]]


class Unsupported(Exception):
    """The selection asks for something a plan does not do: graphql-core executes it."""


class Selections:
    """The fields of selections on an object type, collected in document order."""

    def __init__(
        self,
        schema: GraphQLSchema,
        fragments: dict[str, FragmentDefinitionNode],
        included: Callable[[Any], bool],
    ) -> None:
        self.schema = schema
        self.fragments = fragments
        self.included = included

    def collect(self, parent: GraphQLObjectType, selections: list[SelectionSetNode]) -> Collected:
        found: Collected = {}
        for selection in selections:
            self._collect(parent, selection, found)
        return found

    def _collect(
        self, parent: GraphQLObjectType, selection: SelectionSetNode, found: Collected
    ) -> None:
        for node in selection.selections:
            if not self.included(node):
                continue
            if isinstance(node, FieldNode):
                key = node.alias.value if node.alias else node.name.value
                found.setdefault(key, (node.name.value, []))[1].append(node)
            elif isinstance(node, InlineFragmentNode):
                condition = node.type_condition
                if condition is None or self.applies(condition.name.value, parent):
                    self._collect(parent, node.selection_set, found)
            elif isinstance(node, FragmentSpreadNode):
                if node.arguments:
                    raise Unsupported("fragment arguments")
                fragment = self.fragments.get(node.name.value)
                if fragment is None:
                    raise Unsupported("an unknown fragment")
                if self.applies(fragment.type_condition.name.value, parent):
                    self._collect(parent, fragment.selection_set, found)
            else:  # pragma: no cover - graphql-core has no other selection
                raise Unsupported(type(node).__name__)

    def applies(self, condition: str, parent: GraphQLObjectType) -> bool:
        """Whether a fragment on ``condition`` applies to an object of type ``parent``."""
        conditional = self.schema.get_type(condition)
        if conditional is None:
            raise Unsupported(f"an unknown type {condition}")
        if conditional is parent:
            return True
        if is_abstract_type(conditional):
            return self.schema.is_sub_type(conditional, parent)
        return False
