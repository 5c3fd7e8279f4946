"""The typed request context handed to every resolver."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, TypeVar

import strawberry

from service.api.hub import Hub
from service.app.application import Application
from service.app.caller import Caller
from service.app.errors import PapyrusError

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

    @property
    def caller(self) -> Caller:
        """The authenticated caller (a spectator without a token); bad tokens are refused."""
        if self._caller is None:
            authorization = self.authorization
            params = self.connection_params
            if authorization is None and isinstance(params, dict):
                value = params.get("authorization") or params.get("Authorization")
                authorization = value if isinstance(value, str) else None
            self._caller = self.app.accounts.authenticate(authorization)
        return self._caller

    def check_caller(self) -> PapyrusError | None:
        try:
            self.caller  # noqa: B018 - resolves and caches the caller
        except PapyrusError as refused:
            return refused
        return None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run blocking store work (the library is synchronous) on the sized executor."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, lambda: self.app.breaker.call(fn, *args))


Info = strawberry.Info[Context, None]
