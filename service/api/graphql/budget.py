"""What subscriptions may cost: a budget of work per connection, per client address and for
the whole process (deploy/OPERATIONS.md "Protocol limits").

A subscription's selection is costed like a query's (``cost.py``); that cost is what
delivering one event costs (the selection is executed once per event: the typed view, the
state, the legal actions...). Starting a subscription costs one event, and its catch-up (the
events after ``afterVersion`` that it delivers at once) one more per event: a
``gameChanged(afterVersion: 0)`` of a 450-event game with the typed view is hundreds of
thousands of units, a subscription from now on one event's worth. That charge is taken, all or
nothing, from three token buckets before the work starts (``charge``):

* the connection's: ``per_connection`` units, refilled at that many per ``window`` seconds;
* the client address's: ``per_address`` for players, ``per_anonymous_address`` (smaller) for
  callers without a token (spectators, and whoever opens sockets by the hundred: they pay
  nothing to make more), kept apart so that anonymous sockets cannot spend a player's budget;
* the process's: ``total``, for every subscriber together.

A charge the buckets cannot pay now is refused with ``RATE_LIMITED`` (``retryAfter``: the
seconds until they can), naming the limit; one that a bucket could never pay (more than it
holds when full) with ``BAD_INPUT``: subscribe from a later ``afterVersion``, or select less.
0 turns a bucket off. Live events after the catch-up are not charged: their pace is the game's
(mutations are rate-limited) and the live subscriptions are bounded in number: per connection
(``max_subscriptions_per_connection``) and in the process (``max_subscriptions``: one more is
refused with ``RATE_LIMITED``).

The buckets live in this process (a websocket lives in one process): behind several replicas,
an address may spend its budget in each.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from service.app.errors import BadInput, RateLimited

if TYPE_CHECKING:
    from service.api.graphql.context import Context

#: where a connection keeps its bucket (``Context.extra``: the context lives as long as it)
CONNECTION_KEY = "subscription_budget"
#: seconds a subscription refused for the live ones (``max_subscriptions``) is told to wait
LIVE_RETRY = 10
#: address buckets kept before the full ones (nothing spent that is not refilled) are dropped
PRUNE_AT = 4096


@dataclass
class Bucket:
    """``capacity`` units, refilled at ``capacity`` per ``window`` seconds; ``setting`` names
    the limit in refusals."""

    capacity: int
    window: float
    setting: str
    level: float = field(init=False)
    stamp: float = field(default=0.0)

    def __post_init__(self) -> None:
        self.level = float(self.capacity)

    def refill(self, now: float) -> None:
        rate = self.capacity / self.window
        self.level = min(float(self.capacity), self.level + (now - self.stamp) * rate)
        self.stamp = now

    def wait(self, cost: int) -> float:
        """Seconds until ``cost`` can be paid (refilled first)."""
        missing = cost - self.level
        return 0.0 if missing <= 0 else missing * self.window / self.capacity

    @property
    def is_full(self) -> bool:
        return self.level >= self.capacity


@dataclass(frozen=True)
class BudgetLimits:
    """The budgets, in cost units per ``window`` seconds (``Settings.subscription_budget_*``,
    ``rate_window``); 0: no such limit."""

    per_connection: int = 300_000
    per_address: int = 600_000
    per_anonymous_address: int = 150_000
    total: int = 2_000_000
    window: float = 60.0
    #: live subscriptions this process runs at once, every connection together
    live: int = 10_000


class SubscriptionBudget:
    """The buckets of one process (used on the event loop only: no lock)."""

    def __init__(self, limits: BudgetLimits, clock: Callable[[], float] = time.monotonic):
        self.limits = limits
        self.clock = clock
        self.total = self._bucket(limits.total, "subscription_budget_total")
        self.addresses: dict[tuple[str, bool], Bucket] = {}

    def _bucket(self, capacity: int, setting: str) -> Bucket | None:
        if capacity <= 0:
            return None
        return Bucket(capacity, self.limits.window, setting, stamp=self.clock())

    def connection(self) -> Bucket | None:
        """A new connection's bucket."""
        return self._bucket(self.limits.per_connection, "subscription_budget_per_connection")

    def address(self, address: str, anonymous: bool) -> Bucket | None:
        key = (address, anonymous)
        bucket = self.addresses.get(key)
        if bucket is None:
            if anonymous:
                capacity = self.limits.per_anonymous_address
                setting = "subscription_budget_per_anonymous_address"
            else:
                capacity, setting = self.limits.per_address, "subscription_budget_per_address"
            bucket = self._bucket(capacity, setting)
            if bucket is not None:
                self._prune()
                self.addresses[key] = bucket
        return bucket

    def _prune(self) -> None:
        """Drop the buckets that are full again (as good as new) once there are many."""
        if len(self.addresses) < PRUNE_AT:
            return
        now = self.clock()
        for key, bucket in list(self.addresses.items()):
            bucket.refill(now)
            if bucket.is_full:
                del self.addresses[key]

    def admit(self, live: int) -> None:
        """``RateLimited`` when ``live`` subscriptions already run (one more may not start)."""
        limit = self.limits.live
        if limit and live >= limit:
            raise RateLimited(
                f"This server already runs {live} live subscriptions, the most it runs at once "
                "(max_subscriptions): try again later.",
                retry_after=LIVE_RETRY,
            )

    def take(self, cost: int, buckets: list[Bucket | None], what: str) -> None:
        """Take ``cost`` from every bucket, or from none: ``RateLimited`` when one cannot pay
        it now, ``BadInput`` when one never could. ``what`` says what costs it."""
        present = [b for b in buckets if b is not None]
        now = self.clock()
        for bucket in present:
            bucket.refill(now)
        for bucket in present:
            if cost > bucket.capacity:
                raise BadInput(
                    f"{what} costs {cost}, more than the whole subscription budget of "
                    f"{bucket.capacity} ({bucket.setting}, per {self.limits.window:g} s): "
                    "subscribe from a later afterVersion (catch up with the game's events or "
                    "replay page by page), or select fewer fields."
                )
        short = [(bucket.wait(cost), bucket) for bucket in present if bucket.wait(cost) > 0]
        if short:
            wait, empty = max(short, key=lambda pair: pair[0])
            raise RateLimited(
                f"{what} costs {cost}, more than is left of the subscription budget "
                f"({empty.setting}: {empty.capacity} per {self.limits.window:g} s): try "
                f"again in {math.ceil(wait)} s, subscribe from a later afterVersion, or select "
                "fewer fields.",
                retry_after=max(1, math.ceil(wait)),
            )
        for bucket in present:
            bucket.level -= cost


async def charge(context: Context, cost: int, events: int) -> None:
    """Charge the start of a subscription of ``cost`` per event that delivers ``events`` at
    once (its catch-up; 0: the start itself, one event's worth) to the caller's buckets."""
    caller = await context.resolved_caller()  # a bad token is refused first, budget or not
    budget = context.budget
    if budget is None:
        return
    bucket: Bucket | None
    if context.is_connection:
        if CONNECTION_KEY not in context.extra:
            context.extra[CONNECTION_KEY] = budget.connection()
        bucket = context.extra[CONNECTION_KEY]
    else:  # an operation of its own (tests): its own connection
        bucket = budget.connection()
    address = budget.address(context.address or "unknown", not caller.is_player)
    if events:
        what = f"This subscription's catch-up of {events} events at {cost} each"
    else:
        budget.admit(context.hub.subscriptions())
        what = f"Starting this subscription ({cost} an event)"
    budget.take(cost * max(events, 1), [bucket, address, budget.total], what)
