"""The push machinery as another transport may use it (``Runtime.push``): the REST event stream
(``service.api.rest.stream``) follows a game exactly as ``gameChanged`` does, by the same steps,
budgets and costs, but the REST layer may not import this one (tests/test_layers.py). The
assembly (``service.runtime``) hands it this object instead: one implementation, two
transports."""

from __future__ import annotations

import functools
from collections.abc import AsyncGenerator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from graphql import OperationDefinitionNode, parse

from service.api.graphql.budget import charge
from service.api.graphql.cost import Costing
from service.api.graphql.gamestream import CLOCK, LEGAL_ACTIONS, STATE, game_entries


@dataclass(frozen=True)
class Push:
    """``entries(context, game_id, start, cost, needs)``: the caller's steps of a game after
    ``start`` (``gamestream.game_entries``); ``charge(context, cost, events)``: the
    subscription budgets' charge; ``cost_of(document)``: what one event of a subscription
    document costs; ``needs``: what a step computes for a stream (state, legal actions,
    clock)."""

    entries: Callable[..., AsyncGenerator[Any, None]] = game_entries
    charge: Callable[..., Awaitable[None]] = charge
    needs: frozenset[str] = field(default_factory=lambda: frozenset({STATE, LEGAL_ACTIONS, CLOCK}))

    @staticmethod
    @functools.cache
    def cost_of(document: str) -> int:
        from service.api.graphql.schema import schema  # the schema imports the transports

        parsed = parse(document)
        operation = parsed.definitions[0]
        assert isinstance(operation, OperationDefinitionNode)
        return Costing(schema._schema, parsed, {"g": "0"}).operation(operation)
