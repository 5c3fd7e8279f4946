"""Rate limits (docs/API.md "Errors": ``RATE_LIMITED``): mutations per player and per client
address, registrations per address, failed authentications per address.

Every limit counts hits in fixed windows of ``window_seconds`` (aligned on Unix time), in the
database (``service.store.limits``), so that every server process over one database counts
together. A limited request costs ONE statement: the UPSERT that adds its hits to all of its
counters at once and returns their new values (plus, about once a window per process, one
``DELETE`` of the windows long over). Over a limit, the request is refused with ``RateLimited``,
whose ``retry_after`` is the number of seconds until the window ends.

* A mutation counts once per mutation field it runs (a GraphQL document with three mutations
  counts three), against the player who sent it (per player, i.e. per live token: a player
  has one at a time, so rotating it does not start a new count) and against its client
  address. Registrations count against the address a second time, on their own limit.
* A failed authentication (a token that is unknown, revoked or malformed) counts against the
  address. Past the limit, the failure is answered ``RATE_LIMITED``, and so is every later bad
  token from that address until the window ends (this process answers those without another
  statement; another process from its next failure on: the count is shared). A valid token is
  never refused for its address: bad tokens throttle bad tokens, not the players behind the
  same address (an office, a mobile carrier's NAT), nor a victim whose address an attacker
  names.

A limit of 0 turns that limit off; ``RateLimits()`` turns them all off (the server's settings
give the defaults: ``service.settings``).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from service.app.errors import RateLimited
from service.store.limits import Counters

#: addresses remembered as locked out after too many failed authentications, per process
MAX_LOCKED_OUT = 10_000
FAILED_SIGN_INS = "failed sign-ins from this address"


class Check(NamedTuple):
    """One counter a request adds to: its key, the hits it adds, the limit, what it limits."""

    key: str
    hits: int
    limit: int
    what: str


@dataclass(frozen=True)
class RateLimits:
    """How many requests of each kind one player or address may send per window (0: any)."""

    window_seconds: int = 60
    mutations_per_player: int = 0
    mutations_per_address: int = 0
    registrations_per_address: int = 0
    failed_authentications_per_address: int = 0

    @property
    def is_off(self) -> bool:
        return not (
            self.mutations_per_player
            or self.mutations_per_address
            or self.registrations_per_address
            or self.failed_authentications_per_address
        )


class Limiter:
    """The limits of ``RateLimits``, counted in ``counters`` (none: nothing is limited)."""

    def __init__(
        self,
        counters: Counters | None = None,
        limits: RateLimits | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.limits = limits or RateLimits()
        self._counters = counters
        #: where hits are counted; ``None`` when nothing is limited
        self.counters = None if self.limits.is_off else counters
        self.clock = clock
        self._locked_out: dict[str, float] = {}  # address -> end of its window (Unix time)
        self._lock = threading.Lock()
        self._swept = 0

    @property
    def limits_mutations(self) -> bool:
        """Whether ``mutations`` counts anything (a statement): no limit of mutations or
        registrations, nothing to count."""
        limits = self.limits
        return self.counters is not None and bool(
            limits.mutations_per_player
            or limits.mutations_per_address
            or limits.registrations_per_address
        )

    def mutations(
        self, player_id: str | None, address: str | None, count: int = 1, registrations: int = 0
    ) -> None:
        """Count ``count`` mutations (``registrations`` of them registrations) of one request;
        ``RateLimited`` if that takes the player or the address over a limit."""
        limits = self.limits
        checks = [
            Check(
                f"mutations:player:{player_id}",
                count,
                limits.mutations_per_player,
                "mutations from this player",
            )
            if player_id
            else None,
            Check(
                f"mutations:address:{address}",
                count,
                limits.mutations_per_address,
                "mutations from this address",
            )
            if address
            else None,
            Check(
                f"registrations:address:{address}",
                registrations,
                limits.registrations_per_address,
                "registrations from this address",
            )
            if address
            else None,
        ]
        self._count([c for c in checks if c is not None and c.hits and c.limit])

    def failed_authentication(self, address: str | None) -> None:
        """One failed authentication from ``address``: ``RateLimited`` once the address is past
        its limit (then remembered here until the window ends, and not counted again), else
        counted (one statement) and refused if that is one too many."""
        limit = self.limits.failed_authentications_per_address
        if address is None or not limit or self.counters is None:
            return
        with self._lock:
            until = self._locked_out.get(address)
            if until is not None and until <= self.clock():
                del self._locked_out[address]
                until = None
        if until is not None:
            raise self._refusal(FAILED_SIGN_INS, limit, until - self.clock())
        try:
            self._count([Check(f"failed-sign-ins:address:{address}", 1, limit, FAILED_SIGN_INS)])
        except RateLimited as refused:
            with self._lock:
                if len(self._locked_out) >= MAX_LOCKED_OUT:  # forget the oldest
                    self._locked_out.pop(next(iter(self._locked_out)))
                self._locked_out[address] = self.clock() + refused.retry_after
            raise

    def _count(self, checks: list[Check]) -> None:
        """One statement for all of ``checks``; the first one over its limit refuses."""
        if not checks or self.counters is None:
            return
        window = self.limits.window_seconds
        now = self.clock()
        start = int(now // window) * window
        counted = self.counters.hit([(c.key, c.hits) for c in checks], start)
        self._sweep(start)
        for check in checks:
            hits, window_start = counted.get(check.key, (0, start))
            if hits > check.limit:
                raise self._refusal(check.what, check.limit, window_start + window - now)

    def _refusal(self, what: str, limit: int, seconds: float) -> RateLimited:
        wait = max(1, math.ceil(seconds))
        return RateLimited(
            f"Too many {what}: at most {limit} every {self.limits.window_seconds} seconds. "
            f"Try again in {wait} second{'s' if wait != 1 else ''}.",
            retry_after=wait,
        )

    def _sweep(self, start: int) -> None:
        """Forget the windows before the last one, once per window in this process."""
        if self._swept >= start or self.counters is None:
            return
        self._swept = start
        self.counters.forget_before(start - self.limits.window_seconds)

    def close(self) -> None:
        if self._counters is not None:
            self._counters.close()
