"""Work on threads in the context of the request that asked for it.

The application reports what a request did (its game kind, its acting seat) on the worker
thread that does the store work; the report reaches the request's ``Record``
(``service.api.observability``) only if the thread runs in the request's context.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class ContextPool(ThreadPoolExecutor):
    """A thread pool whose work runs in the context of the code that submitted it, so that the
    application's reports on a worker thread reach the request they belong to
    (``loop.run_in_executor`` alone does not carry context variables over)."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        context = contextvars.copy_context()
        return super().submit(context.run, fn, *args, **kwargs)
