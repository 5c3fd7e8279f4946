"""The server's heap and the cyclic garbage collector: long-lived objects out of its way.

CPython's collector stops every thread while it walks a generation, and its oldest generation
holds every object that lived a while: the imported modules and the GraphQL schema (about
140,000 objects at start), then each game the cache keeps (``service.app.cache``: a finished
game's table and history are thousands of objects). Measured with ``bench/api.py --store sqlite
--rate 250`` (an open loop at half the saturation rate, 8 games), its full collections ran every
2-3 seconds and took 59-78 ms each, during which no request moved: that was the p99 of ``act``
(54-74 ms against a p50 of 2 ms), and with 2,000 cached games it grows to about a second.

``keep()`` (``papyrus serve``) therefore:

* collects once and freezes what survives at start (``gc.freeze``: moved to a permanent
  generation the collector never walks; refcounting still frees an object whose last
  reference goes);
* after each full collection the interpreter runs, freezes its survivors the same way, so the
  next one walks only what was made since;
* every ``FULL_SECONDS`` thaws everything (``gc.unfreeze``), so that one full collection walks
  the whole heap again: only a cycle of objects that were frozen can outlive its last outside
  reference until then (a frozen cycle is garbage the collector does not see).

The same run with ``keep()``: p99 of ``act`` 13 ms.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable

#: seconds between the full collections that walk the whole heap (frozen objects included)
FULL_SECONDS = 600.0
#: seconds between two looks at the collector's counts
LOOK_SECONDS = 0.5


class HeapKeeper:
    """Freezes the survivors of each full collection, and thaws all every ``full_seconds``."""

    def __init__(
        self,
        full_seconds: float = FULL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.full_seconds = full_seconds
        self.clock = clock
        self._collections = full_collections()
        self._thawed = clock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Collect and freeze the heap now, then look after it on a daemon thread."""
        gc.collect()
        gc.freeze()
        self._collections = full_collections()
        self._thawed = self.clock()
        self._thread = threading.Thread(target=self._run, name="papyrus-heap", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def look(self) -> str | None:
        """One look: ``"thawed"`` when the period of full collections is over, ``"frozen"``
        when a full collection ran since the last look, else ``None``."""
        if self.clock() - self._thawed >= self.full_seconds:
            gc.unfreeze()  # the next full collection walks every object again
            self._thawed = self.clock()
            self._collections = full_collections()
            return "thawed"
        collections = full_collections()
        if collections != self._collections:
            gc.freeze()
            self._collections = collections
            return "frozen"
        return None

    def _run(self) -> None:
        while not self._stop.wait(LOOK_SECONDS):
            self.look()


def full_collections() -> int:
    """How many collections of the oldest generation the interpreter has run."""
    return int(gc.get_stats()[-1]["collections"])


_KEEPER: HeapKeeper | None = None
_LOCK = threading.Lock()


def keep() -> HeapKeeper:
    """The process's one ``HeapKeeper``, started (``papyrus serve`` calls it once ready)."""
    global _KEEPER
    with _LOCK:
        if _KEEPER is None:
            _KEEPER = HeapKeeper()
            _KEEPER.start()
        return _KEEPER
