"""The typed request context handed to every resolver."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import strawberry

from service.api.bridge import on_worker
from service.api.graphql.limits import Limits, lane
from service.api.hub import Hub

if TYPE_CHECKING:
    from service.api.graphql.budget import SubscriptionBudget
from service.api.observability import client_address
from service.app.application import Application
from service.app.caller import SPECTATOR, Caller
from service.app.errors import PapyrusError, RateLimited, Unauthenticated

T = TypeVar("T")


@dataclass
class Context:
    app: Application
    hub: Hub
    executor: Executor
    authorization: str | None = None
    _caller: Caller | None = None
    connection_params: dict[str, Any] | None = None
    request: Any = None
    response: Any = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: this request's cost, alias and time limits (the settings, from the Runtime)
    limits: Limits = field(default_factory=Limits)
    #: what subscriptions may cost (``budget``; None: no budget, as in tests that build one)
    budget: SubscriptionBudget | None = None

    _refused: PapyrusError | None = None

    @property
    def caller(self) -> Caller:
        """The authenticated caller (a spectator without a token); bad tokens are refused
        (once per request: a refusal is remembered, so a failure is counted once)."""
        refused = self._refused
        if refused is None and self._caller is None:
            refused = self._settle()
        if refused is not None:  # the request is refused only where the caller is asked
            self.note_refusal(refused)
            raise refused
        assert self._caller is not None
        return self._caller

    def _settle(self) -> PapyrusError | None:
        """Authenticate once (store work): the refusal, remembered unless the store was down
        (it may answer the next try)."""
        try:
            # through the breaker: while the store is down, UNAVAILABLE at once
            self._caller = self.app.breaker.call(
                self.app.accounts.authenticate, self._authorization(), self.address
            )
        except PapyrusError as refused:
            if refused.code != "UNAVAILABLE":
                self._refused = refused
            return refused
        return None

    def known_caller(self) -> Caller | None:
        """The caller when it is known without the store (``Accounts.known``: no statement, so
        it may be asked on the event loop); ``None``: resolve ``caller`` on a worker."""
        if self._caller is None and self._refused is None:
            self._caller = self.app.accounts.known(self._authorization(), self.address)
        return self._caller

    async def resolved_caller(self) -> Caller:
        """``caller``, resolved on a worker when the store must be asked (a refusal raises)."""
        known = self.known_caller()
        if known is not None:
            return known
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, lambda: self.caller)

    async def settle_caller(self) -> None:
        """Resolve the caller before any resolver runs (on a worker when the store must be
        asked), so that ``caller`` answers from memory on the event loop from then on. A
        refusal is remembered, and raised where the caller is asked."""
        if self.known_caller() is None and self._refused is None:
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(self.executor, self._settle)

    def _authorization(self) -> str | None:
        authorization = self.authorization
        params = self.connection_params
        if authorization is None and isinstance(params, dict):
            value = params.get("authorization") or params.get("Authorization")
            authorization = value if isinstance(value, str) else None
        return authorization

    def recheck(self) -> Caller:
        """The caller of a long-lived connection (a websocket), its token checked again: one
        revoked since the connection opened (logout, rotateToken, deleteAccount, in any
        process) is refused from now on. Store work: run it on a worker."""
        caller = self.caller
        if caller.is_player:
            try:
                self.app.accounts.authenticate(self._authorization(), self.address)
            except PapyrusError as refused:
                self._caller, self._refused = None, refused
                raise
        return caller

    @property
    def is_connection(self) -> bool:
        """A websocket's context: it lives as long as the connection, across operations."""
        scope = getattr(self.request, "scope", None)
        return isinstance(scope, dict) and scope.get("type") == "websocket"

    @property
    def address(self) -> str | None:
        """The client's address (what rate limits count per address)."""
        scope = getattr(self.request, "scope", None)
        return client_address(scope) if isinstance(scope, dict) else None

    async def limit_mutations(self, fields: int, registrations: int) -> None:
        """Count this request's mutations (``registrations`` of them registrations) against
        the caller and the address: ``RateLimited`` past a limit (``service.app.limits``)."""
        try:  # on a worker when authentication reads the store, through the breaker once
            caller = await self.resolved_caller()
        except Unauthenticated:  # counted per address only; a resolver needing a player says so
            caller = SPECTATOR
        if not self.app.limiter.limits_mutations:
            return
        try:
            await self.run(
                self.app.limiter.mutations, caller.player_id, self.address, fields, registrations
            )
        except RateLimited as refused:
            self.note_refusal(refused)
            raise

    def note_refusal(self, refused: PapyrusError) -> None:
        """A whole request refused for its rate: its HTTP answer says when to come back. A
        websocket's operations have no HTTP answer (its ``response`` is the socket, whose
        handshake is long done): the error's ``extensions.retryAfter`` says it there."""
        if self.is_connection:
            return
        if isinstance(refused, RateLimited) and self.response is not None:
            self.response.status_code = 429
            self.response.headers["Retry-After"] = str(refused.retry_after)

    def check_caller(self) -> PapyrusError | None:
        try:
            self.caller  # noqa: B018 - resolves and caches the caller
        except PapyrusError as refused:
            return refused
        return None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run blocking store work (the library is synchronous) on the sized executor (a costly
        operation's on the few threads of the costly pool: ``limits.limited``), through the
        breaker (``service.api.bridge``)."""
        return await on_worker(lane() or self.executor, self.app.breaker, fn, *args)


Info = strawberry.Info[Context, None]
