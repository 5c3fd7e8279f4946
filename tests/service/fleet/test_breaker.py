"""Store work runs on an executor behind the breaker (service/breaker.py)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from service.app.breaker import Breaker


def test_a_stop_iteration_in_store_work_is_an_error_not_a_hung_request() -> None:
    """A future cannot carry StopIteration: without the breaker turning it into an error, the
    awaiting request would wait forever (found with a forged fork document)."""

    async def call() -> object:
        loop = asyncio.get_running_loop()
        with ThreadPoolExecutor(1) as pool:
            work = loop.run_in_executor(pool, lambda: Breaker().call(next, iter(())))
            return await asyncio.wait_for(work, timeout=5)

    with pytest.raises(RuntimeError, match="StopIteration"):
        asyncio.run(call())
