"""Where a transport hands store work to the application: the one bridge from the event loop
to the worker threads, through the store's circuit breaker.

The application (and the event store under it) is synchronous; GraphQL and REST answer on the
event loop. Both cross here: GraphQL's ``Context.run`` (on the operation's lane: the costly
pool for a costly operation, else the runtime's executor) and REST's ``routing.run`` (the
runtime's executor), so that a call can be followed from either transport to the application.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

from service.app.breaker import Breaker

T = TypeVar("T")


async def on_worker(
    executor: Executor, breaker: Breaker, fn: Callable[..., T], *args: Any, **kwargs: Any
) -> T:
    """``breaker.call(fn, *args, **kwargs)`` on a thread of ``executor``, awaited on the event
    loop.

    What ``fn`` or the breaker raises is raised here (``Unavailable`` at once while the store
    is down). The work sees the caller's context variables when the executor carries them over
    (the runtime's pools are ``contextpool.ContextPool``s: ``run_in_executor`` alone does
    not). Cancelling the await does not stop work a thread has begun: it finishes, unanswered.
    """
    loop = asyncio.get_running_loop()
    work = functools.partial(fn, **kwargs) if kwargs else fn  # named in a bug's message
    return await loop.run_in_executor(executor, lambda: breaker.call(work, *args))
