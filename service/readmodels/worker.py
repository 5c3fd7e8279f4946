"""Keeps the read models current in a background thread: of the server process, or of
``papyrus projections run``, through database outages."""

from __future__ import annotations

import logging
import threading
from typing import Any

from service.readmodels.models import ReadModels
from service.store.failures import is_store_failure

log = logging.getLogger("papyrus.readmodels")


class Worker:
    """Keeps the read models current in the background: woken by the feed, and every second."""

    def __init__(
        self, models: ReadModels, interval: float = 1.0, names: tuple[str, ...] | None = None
    ) -> None:
        """``names``: the read models to keep current (all by default)."""
        self.models = models
        self.interval = interval
        self.names = names
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="papyrus-readmodels", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def wake(self, *_: Any) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            self._wake.wait(self.interval)
            self._wake.clear()
            try:
                self.models.catch_up(self.names)
                failures = 0
                self._stop.wait(0.01)  # let a burst of events gather into one batch
            except Exception as failure:  # loud, then retry from the last committed position
                failures += 1
                if is_store_failure(failure):  # the database is down: no traceback each time
                    log.warning(
                        "read model catch-up failed (attempt %d): the store is unavailable "
                        "(%s); retrying",
                        failures,
                        str(failure).strip()[:200],
                    )
                else:
                    log.exception("read model catch-up failed (attempt %d); retrying", failures)
                # a few seconds at most: queries catch up themselves, but the lobby and other
                # processes' readers rely on this thread once the database is back
                self._stop.wait(min(5.0, 0.5 * 2**failures))
