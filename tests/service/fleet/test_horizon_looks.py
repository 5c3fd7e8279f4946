"""Looks at the PostgreSQL horizon are shared by the calls waiting for them (issue #20).

Every read of the notification log and every "is the read model current?" looks at the sealed
horizon (``service.store.postgres.Recorder.sealed``), one look at a time. While the database
was down each look waited the pool's timeout, and the calls queued behind one another: a
request in flight when PostgreSQL was killed waited three and four pool timeouts before it was
answered ``UNAVAILABLE`` (``test_outage``'s three-second bound failed one run in eight). Here
the pool is exhausted on purpose, so the waits are certain, not hoped for.
"""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

import pytest
from eventsourcing.persistence import StoredEvent

from service.store.database import StoreOptions, open_store
from service.store.failures import is_store_failure

POOL_TIMEOUT = 0.5


def together(calls: int, work: Any) -> list[tuple[float, Any]]:
    """``work()`` on ``calls`` threads released at once: (seconds taken, result or failure)."""
    start = threading.Barrier(calls)
    results: list[tuple[float, Any]] = [(0.0, None)] * calls

    def run(n: int) -> None:
        start.wait()
        began = time.monotonic()
        try:
            outcome: Any = work()
        except Exception as failure:  # what the caller would see
            outcome = failure
        results[n] = (time.monotonic() - began, outcome)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


@pytest.mark.postgres
def test_calls_in_flight_when_the_database_fails_share_one_failed_look(postgres_url: str) -> None:
    """Six calls at once, no connection to be had: each fails as a store failure after about
    one pool wait (two at most, for a call that arrived while the first look had begun), not
    one after another (six waits for the last, 3 s here)."""
    store = open_store(postgres_url, StoreOptions(pool_size=1, pool_timeout=POOL_TIMEOUT))
    recorder: Any = store.recorder
    pool = recorder.datastore.pool
    held = [pool.getconn() for _ in range(pool.max_size)]  # nobody else gets one now
    try:
        results = together(6, recorder.max_notification_id)
    finally:
        for connection in held:
            pool.putconn(connection)
        store.close()
    failures = [outcome for _, outcome in results]
    assert all(isinstance(f, Exception) and is_store_failure(f) for f in failures), failures
    longest = max(seconds for seconds, _ in results)
    assert longest < 3 * POOL_TIMEOUT + 0.1, f"a call waited {longest:.2f} s: {results}"


@pytest.mark.postgres
def test_a_shared_look_never_answers_a_call_with_a_horizon_from_before_it(
    postgres_url: str,
) -> None:
    """Eight threads each write events and ask for the horizon, over and over, while the
    looks are shared: every call is given a horizon at least as far as every id whose write
    had committed, with all the ids before it, when the call was made (a look begun before the
    call would not reach them; an id still in flight below may hold the horizon back, rightly).
    """
    store = open_store(postgres_url, StoreOptions(pool_size=12))
    recorder: Any = store.recorder
    committed: list[tuple[int, float]] = []  # (id, a moment after its commit)
    calls: list[tuple[float, int]] = []  # (a moment before the call, the horizon it got)

    def write_then_look() -> int:
        for version in range(1, 40):
            event = StoredEvent(uuid.uuid4(), version, "tests:Looked", b"{}")
            (written,) = recorder.insert_events([event])
            committed.append((written, time.monotonic()))
            called = time.monotonic()
            calls.append((called, recorder.max_notification_id()))
        return 0

    try:
        begun = recorder._begun
        results = together(8, write_then_look)
        looks = recorder._begun - begun
    finally:
        store.close()
    assert all(outcome == 0 for _, outcome in results), results
    ids = sorted(committed)
    assert [i for i, _ in ids] == list(range(1, len(ids) + 1))  # no gaps: nobody rolled back
    # reached[n]: the moment ids 1..n had all committed
    reached, latest = [0.0], 0.0
    for _, at in ids:
        latest = max(latest, at)
        reached.append(latest)
    stale = []
    for called, horizon in calls:
        due = max(n for n in range(len(reached)) if reached[n] < called or n == 0)
        if horizon < due:
            stale.append((due, horizon))
    assert not stale, f"horizons short of what had committed before the call: {stale[:5]}"
    assert looks < len(calls), f"{looks} looks for {len(calls)} calls: none was shared"
