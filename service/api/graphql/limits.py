"""What one GraphQL request may ask for and how long it may run: cost, aliases, time.

Checked on the parsed document before any resolver runs (``limited``, through
two graphql-core validation rules), so an over-budget query costs the server a walk over at
most ``MaxTokensLimiter``'s 2,000 tokens and nothing else:

* **cost**: every field costs 1; the page size of a paginated field (its ``first`` argument,
  variables resolved, else the field's default page) multiplies the cost of what is selected
  in its list (``replay``'s steps, the ``nodes`` and ``edges`` of a connection); fields that make
  the server work carry their own weight (``WEIGHTS``: loading a game, computing a view, its
  legal actions, a replay step, rebuilding a past state, verifying or exporting a log).
  Fragments and inline fragments are flattened as execution flattens them (a field asked
  twice under one key runs once; an alias runs again); on a union every branch counts.
* **aliases**: aliased fields in the document (each alias is the same work asked again).
* **time**: a query (not a mutation, whose write cannot be called back once the store has it,
  nor a subscription, which lives as long as its game) is cancelled after ``seconds``.

The weights are in units of one plain field (about 5 µs of server time here); their ratios
follow what each field took in measurements on finished games (a replay step with its state
about 15 plain fields, a verifyLog of a 2-player Imhotep game about 2,000, 5,000 for a 5-player
Amun-Re). The default limit, 40,000 (about 0.2 s of work), lets through the heaviest query the
test suite sends (the events of the default page of games, 36,652); the amplification it stops,
200 games of 200 replay steps with their states, costs 944,202.

* **costly pool**: an operation costing more than a tenth of the limit runs its store work on
  a pool of its own (``graphql_costly_workers`` threads, 1 by default, nicer to the OS), so that
  however much it fans out, and however many clients send one, the common pool and the event
  loop stay free for everybody else; the interpreter's switch interval is shortened
  (``share_the_interpreter``) so that CPU-bound store work hands the event loop its turn sooner.

The limits are settings (``Settings.graphql_*``), handed to each request's ``Context``.

Known gap: cancelling a query stops the request, not a store call already running in a
worker thread (the store and the rules are synchronous); that call finishes and its result
is dropped. The cost limit is what bounds that work.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Mapping
from concurrent.futures import Executor
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from graphql import (
    FieldNode,
    GraphQLError,
    GraphQLSchema,
    get_operation_ast,
    validate,
)
from graphql.language import DocumentNode
from graphql.validation import ValidationRule
from strawberry.types.graphql import OperationType

from service.api.graphql.cost import EXPENSIVE, costing
from service.api.graphql.strawberry_private import core_schema


@dataclass(frozen=True)
class Limits:
    """One request's budget (``Settings.graphql_max_cost``, ``_max_aliases``, ``_time_budget``)
    and the threads that run costly operations' store work (``graphql_costly_workers``)."""

    max_cost: int = 40_000
    max_aliases: int = 20
    seconds: float = 10.0
    #: None: costly operations share the common pool (tests that build a Context by hand)
    costly_pool: Executor | None = field(default=None, compare=False)

    @property
    def costly(self) -> int:
        """An operation costing more is costly: its store work waits for the costly pool."""
        return self.max_cost // COSTLY_SHARE


#: an operation costing more than this share of the limit runs on the costly pool
COSTLY_SHARE = 10
#: the pool this request's store work runs on, when it is not the common one (Context.run)
COSTLY_LANE: ContextVar[Executor | None] = ContextVar("papyrus_costly_lane", default=None)


def lane() -> Executor | None:
    """The costly pool when the running operation is costly, else None."""
    return COSTLY_LANE.get()


#: seconds a thread holding the interpreter lock keeps it while another thread waits for it
#: (Python's default is 5 ms): a costly operation's CPU-bound store work then gives the event
#: loop, which answers every other request, its turn five times sooner
SWITCH_INTERVAL = 0.001


def share_the_interpreter() -> None:
    """Set ``SWITCH_INTERVAL`` (for the whole process: the server calls it when it starts)."""
    sys.setswitchinterval(SWITCH_INTERVAL)


#: how much nicer (lower in the OS's priority) the costly pool's threads run than the rest of
#: the process: on a busy machine the threads that answer everybody else get the CPU first
COSTLY_NICE = 10


def lower_priority() -> None:
    """The costly pool's thread initializer: this thread runs ``COSTLY_NICE`` nicer (Linux
    schedules threads one by one; elsewhere, or where refused, nothing changes)."""
    if not sys.platform.startswith("linux"):
        return
    thread = threading.get_native_id()
    with contextlib.suppress(OSError):
        nice = os.getpriority(os.PRIO_PROCESS, thread)
        os.setpriority(os.PRIO_PROCESS, thread, min(19, nice + COSTLY_NICE))


def refused(message: str, node: Any = None, **extensions: Any) -> GraphQLError:
    return GraphQLError(message, node, extensions={"code": "BAD_INPUT", **extensions})


# -- the validation rules -----------------------------------------------------------------------


def cost_rule(
    limit: int,
    operation_name: str | None,
    variables: Mapping[str, Any] | None,
    costs: list[int] | None = None,
    dependence: list[bool] | None = None,
) -> type[ValidationRule]:
    """A rule refusing the operation when it costs more than ``limit`` (bound to one request:
    its cost depends on the variables, which graphql-core's validation does not see); the cost
    is appended to ``costs``, and whether it depended on the variables' values to
    ``dependence``."""

    class CostLimit(ValidationRule):
        def enter_document(self, node: DocumentNode, *_: Any) -> Any:
            operation = get_operation_ast(node, operation_name)
            if operation is not None:
                cost, variable = costing(self.context.schema, node, operation_name, variables)
                if costs is not None:
                    costs.append(cost)
                if dependence is not None:
                    dependence.append(variable)
                if cost > limit:
                    self.report_error(
                        refused(
                            f"This query costs {cost}, more than the limit of {limit}: ask for "
                            "fewer items (first:) or fewer expensive fields "
                            f"({', '.join(EXPENSIVE)}).",
                            operation,
                            cost=cost,
                            limit=limit,
                        )
                    )
            return self.SKIP

    return CostLimit


def alias_rule(limit: int) -> type[ValidationRule]:
    """A rule refusing a document with more than ``limit`` aliased fields."""

    class AliasLimit(ValidationRule):
        def __init__(self, context: Any) -> None:
            super().__init__(context)
            self.aliases = 0

        def enter_field(self, node: FieldNode, *_: Any) -> None:
            if node.alias is not None:
                self.aliases += 1

        def leave_document(self, node: DocumentNode, *_: Any) -> None:
            if self.aliases > limit:
                self.report_error(
                    refused(
                        f"This query has {self.aliases} aliased fields, more than the limit of "
                        f"{limit}: ask for each thing once, or send several requests.",
                        aliases=self.aliases,
                        limit=limit,
                    )
                )

    return AliasLimit


def check(
    schema: GraphQLSchema,
    document: DocumentNode,
    limits: Limits,
    operation_name: str | None = None,
    variables: Mapping[str, Any] | None = None,
    text: str | None = None,
) -> tuple[int, list[GraphQLError]]:
    """The cost of ``document``'s operation and the limits it breaks (none: it may run).

    ``text``, the document's source, lets a passing check be remembered (``PASSED``): clients
    send the same few documents over and over, and when an operation's cost does not depend on
    its variables (no page size given by a variable) neither its cost nor its aliases change
    from one request to the next. A document that breaks a limit, or whose cost reads a
    variable, is checked again each time."""
    key = (schema, text, operation_name, limits.max_cost, limits.max_aliases)
    if text is not None:
        known = PASSED.get(key)
        if known is not None:
            PASSED.move_to_end(key)
            return known, []
    costs: list[int] = []
    dependence: list[bool] = []
    rules = [
        alias_rule(limits.max_aliases),
        cost_rule(limits.max_cost, operation_name, variables, costs, dependence),
    ]
    errors = validate(schema, document, rules)
    cost = costs[0] if costs else 0
    if text is not None and not errors and dependence == [False]:
        PASSED[key] = cost
        while len(PASSED) > PASSED_SIZE:
            PASSED.popitem(last=False)
    return cost, errors


#: documents that passed ``check`` with a cost independent of their variables, by (schema,
#: source text, operation name, limits): their cost (the least recently used forgotten first)
PASSED: OrderedDict[tuple[Any, ...], int] = OrderedDict()
PASSED_SIZE = 512


# -- the extension ------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def limited(context: Any) -> AsyncIterator[None]:
    """Around an operation's execution (``context``: strawberry's execution context): refuses
    it over its cost or alias limit before it runs, sends a costly one's store work to the
    costly pool, and cancels a query still running after its time budget. The limits are the
    request context's ``limits``."""
    limits = getattr(context.context, "limits", None) or Limits()
    cost = 0
    if context.graphql_document is not None:
        cost, errors = check(
            core_schema(context.schema),
            context.graphql_document,
            limits,
            context.operation_name,
            context.variables,
            context.query,
        )
        if errors:  # raised here, the operation never starts (and answers data: null)
            raise errors[0]
    # a costly operation's store work (its resolvers' tasks inherit this) queues for a few
    # threads of its own: however many it asks at once, and however many clients ask, the
    # common pool stays free for everybody else (a subscription keeps the common pool: it
    # lives on, and it costs per event)
    costly = (
        limits.costly_pool is not None
        and cost > limits.costly
        and context.operation_type is not OperationType.SUBSCRIPTION
    )
    token = COSTLY_LANE.set(limits.costly_pool if costly else None)
    try:
        if context.operation_type is not OperationType.QUERY:
            yield
            return
        budget = asyncio.timeout(limits.seconds)
        try:
            async with budget:
                yield
        except TimeoutError:
            if not budget.expired():
                raise
            raise refused(
                f"This query ran longer than the time budget of {limits.seconds:g} seconds "
                "and was cancelled: ask for fewer items (first:) or fewer expensive fields.",
                seconds=limits.seconds,
            ) from None
    finally:
        COSTLY_LANE.reset(token)
