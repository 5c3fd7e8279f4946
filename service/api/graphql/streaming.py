"""Each event of a subscription is executed on a worker thread, not on the event loop.

graphql-core maps every value a subscription yields to a response by executing the
subscription's selection on it (``map_source_to_response_event``: one per-event executor per
value). That walk is the bulk of a subscription's work: ``gameChanged`` with the typed view
completes hundreds of fields per event, and a catch-up of a long game is hundreds of events.
On the event loop, a catch-up that never has to wait (its socket drains) ran start to end
without giving the loop a turn: every other client waited for it (issue #20: 10 websockets x
20 catch-ups stalled everybody else for 43 s).

``EventExecution`` is strawberry's graphql-core executor with one change: the per-event
executors it builds execute on a thread of the pool the running operation's store work uses
(``limits.lane()``: the costly pool during a costly catch-up, else the request context's
common pool), and each event awaits that thread, so the loop serves everybody else between
two events. Queries and mutations are executed as before (only per-event executors move).

A subscription's executor lives as long as the subscription, and graphql-core's per-event
copies share its memo of the subfields collected for each list of fields: each event adds its
own (a full catch-up of a 450-event game with the typed view, hundreds of thousands of
objects, 10 MB a subscription). Each per-event executor has a memo of its own instead. The
subscription's executor also outlives the full collections after which ``service.heap``
freezes the heap's survivors. graphql-core's executor
refers to itself (its ``async_helpers`` hold its bound methods): a cycle, which only the
collector frees, and frozen it would outlive its subscription by up to ``heap.FULL_SECONDS``
with everything it holds. ``EventExecution`` holds those helpers through weak references:
no cycle, and an executor goes as soon as its stream ends.

Two exceptions keep the push path cheap (issue #22). A selection of plain data (every field
a basic strawberry field, as every subscription of this schema is) has a plan compiled once per
document (``plans``): each event is completed by it on the loop, without graphql-core or a hop
to a worker (on the costly pool during a costly catch-up, so that the loop is not held by it).
And an event object handed to several subscribers (a step shared by ``steps.fold``: every
socket of one caller, every spectator) is completed once per document and variables, by its
plan or by graphql-core: the hub's memo keeps the result, which the others are handed (the
resolvers under it read only that object); its ``data`` is then one object, which
``http.PapyrusGraphQL.encode_json`` (``answers.Encoded``) writes as JSON once for them all.

This module owns the graphql-core internals it relies on (``build_per_event_executor``,
``execute_operation``, ``async_helpers`` and ``_relevant_sub_fields``, graphql-core 3.3;
``tests/service/limits/test_subscription_work.py`` and
``tests/service/transport/test_silent_sockets.py`` pin the behaviour).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from concurrent.futures import Executor
from functools import partial
from typing import Any

from graphql import ExecutionResult
from graphql.type.definition import GraphQLResolveInfoHelpers

from service.api.graphql.limits import lane
from service.api.graphql.plans import Fallback, Plan, plan_for
from service.api.graphql.strawberry_private import StrawberryGraphQLCoreExecutionContext


class EventExecution(StrawberryGraphQLCoreExecutionContext):
    """Strawberry's executor; a subscription's per-event executors run on a worker thread."""

    #: set on the per-event copies only: the operation itself executes as usual
    per_event = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.async_helpers = GraphQLResolveInfoHelpers(
            gather=weakly(self.gather_async_work), track=weakly(self.track_async_work)
        )

    def build_per_event_executor(self, payload: Any) -> Any:
        executor: Any = super().build_per_event_executor(payload)
        executor.per_event = True
        # graphql-core's copy shares the subscription's memo of collected subfields, keyed by
        # lists each event makes anew (and keeps alive): it grew by every event's selection
        # for as long as the subscription lived. One memo per event, gone with it
        executor._relevant_sub_fields = {}
        return executor

    def execute_operation(self, serially: bool | None = None) -> Any:
        if not self.per_event:
            return super().execute_operation(serially)
        compiled = plan_for(self)
        costly = lane()
        if compiled is not None and isinstance(costly, Executor):  # off the loop, an event
            return self._planned_on(costly, compiled, serially)  # a trip (a costly catch-up)
        if compiled is not None:  # plain data: no resolver to run, no hop to a worker
            shared, key = self._shared()
            known = shared.get(key) if shared is not None else None
            if known is not None and known[0] is self.root_value:
                return known[1]  # every spectator of one step: completed once, one answer
            try:
                result = ExecutionResult(compiled(self.root_value))
            except Fallback:
                pass  # graphql-core completes this event (and reports its error)
            else:
                if shared is not None:
                    shared.put(key, (self.root_value, result))
                return result
        pool = costly or getattr(self.context_value, "executor", None)
        if not isinstance(pool, Executor):  # a context without a pool (tests): inline
            return super().execute_operation(serially)
        return self._executed_on(pool, serially)

    async def _executed_on(self, pool: Executor, serially: bool | None) -> Any:
        shared, key = self._shared()
        if shared is not None:
            known = shared.get(key)
            if known is not None and known[0] is self.root_value:
                await asyncio.sleep(0)  # a turn for the loop between two events all the same
                return known[1]  # the same document on the same event: executed already
        loop = asyncio.get_running_loop()
        run = partial(StrawberryGraphQLCoreExecutionContext.execute_operation, self, serially)
        result = await loop.run_in_executor(pool, run)
        if self.is_awaitable(result):  # an async resolver left something for the loop
            result = await result
        if shared is not None and not getattr(result, "errors", None):
            shared.put(key, (self.root_value, result))
        return result

    async def _planned_on(self, pool: Executor, compiled: Plan, serially: bool | None) -> Any:
        """``compiled`` on a thread of ``pool`` (a costly catch-up's: the loop serves everybody
        else between its events), graphql-core where it falls back."""
        try:
            data = await asyncio.get_running_loop().run_in_executor(
                pool, compiled, self.root_value
            )
        except Fallback:
            return await self._executed_on(pool, serially)
        return ExecutionResult(data)

    def _shared(self) -> tuple[Any, Any]:
        """The hub's memo of executed events and this event's key in it (``None``: not
        shared). Every subscriber handed the same event object (a step shared by
        ``steps.fold``) with the same document and variables gets the same result, which
        its resolvers, reading only that object, would compute again: it is computed once."""
        hub = getattr(self.context_value, "hub", None)
        location = getattr(self.operation, "loc", None)
        if hub is None or location is None:
            return None, None
        variables = repr(sorted(self.variable_values.coerced.items()))
        operation = location.start, location.source.body  # the document and its operation
        return hub.shared, ("executed", operation, variables, id(self.root_value))


def weakly(method: Callable[..., Any]) -> Callable[..., Any]:
    """``method`` (bound) called through a weak reference to its object: whoever holds this
    does not keep the object alive (a cycle back to it is no cycle)."""
    reference = weakref.WeakMethod(method)

    def call(*args: Any, **kwargs: Any) -> Any:
        bound = reference()
        if bound is None:  # pragma: no cover - the executor is gone: nothing runs any more
            raise RuntimeError("the execution this belongs to is over")
        return bound(*args, **kwargs)

    return call
