"""Prometheus metrics of one server process, served at ``GET /metrics`` on the operator's port
(``service.api.metrics_port``: ``--metrics-host``/``--metrics-port``, never the public port), in
the text exposition format (OpenMetrics when the scraper asks for it).

Every process has its own registry and serves only its own numbers: with several processes
(replicas, or several per host) Prometheus scrapes each one and sums them
(``deploy/prometheus.yml``). Names start with ``papyrus_`` and end with their unit.

=============================================  =========  ==================================
``papyrus_http_requests_total``                counter    by ``transport`` (graphql, rest,
                                                          http), ``operation`` (GraphQL root
                                                          field, REST operationId, route) and
                                                          ``code`` (``OK`` or the error code)
``papyrus_http_request_duration_seconds``      histogram  by ``transport``
``papyrus_actions_total``                      counter    ``act`` commands by ``kind``, ``code``
``papyrus_act_duration_seconds``               histogram  by ``kind``
``papyrus_store_duration_seconds``             histogram  by ``operation``: ``load`` (a game),
                                                          ``events`` (a log read), ``save``
``papyrus_aggregate_cache_lookups_total``      counter    by ``result``: ``hit``, ``miss``
``papyrus_aggregate_cache_entries``            gauge      aggregates in the store's cache
``papyrus_aggregate_cache_capacity_entries``   gauge      its size limit
``papyrus_store_position``                     gauge      the log's last notification id
``papyrus_readmodel_position``                 gauge      by ``readmodel``
``papyrus_readmodel_lag_events``               gauge      store position minus each position
``papyrus_websocket_connections``              gauge      open websockets
``papyrus_graphql_subscriptions``              gauge      active subscriptions
``papyrus_store_breaker_open``                 gauge      1 while the breaker answers
                                                          ``UNAVAILABLE`` at once
``papyrus_store_breaker_trips_total``          counter    times the store was found down
=============================================  =========  ==================================

plus the client library's ``process_*`` and ``python_*`` metrics. The read-model positions are
read at scrape time, at most once per ``SAMPLE_SECONDS``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector

from service.api.observability import Record, current

log = logging.getLogger("papyrus.metrics")

#: how long a sample of the read models' positions is served before it is read again
SAMPLE_SECONDS = 2.0
#: an ``act`` takes milliseconds; a save on a busy PostgreSQL, up to seconds
ACT_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
STORE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)


@dataclass(frozen=True)
class Watched:
    """What the metrics read at scrape time (handed over by ``service.asgi.Runtime``)."""

    #: live subscriptions (``Hub.subscriptions``)
    subscriptions: Callable[[], int]
    #: the store's circuit breaker (``is_open()``, ``trips``)
    breaker: Any
    #: the store's aggregate cache (the eventsourcing repository's), or None
    cache: Any
    #: ``(store position, {read model: position})`` (reads the database)
    positions: Callable[[], tuple[int, dict[str, int]]]


class Metrics:
    """One process's metrics: the application's observer (``service.app.tables.Observer``), the
    request log's ``finished``/``opened`` callbacks, and the ``registry`` the operator's port
    serves."""

    def __init__(self) -> None:
        disable_created_metrics()  # no ``*_created`` series beside each counter and histogram
        registry = self.registry = CollectorRegistry()
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        GCCollector(registry=registry)
        self.requests = Counter(
            "papyrus_http_requests",
            "HTTP requests answered, by transport, operation and code (OK or the error code).",
            ["transport", "operation", "code"],
            registry=registry,
        )
        self.request_seconds = Histogram(
            "papyrus_http_request_duration_seconds",
            "Time to answer an HTTP request, by transport.",
            ["transport"],
            registry=registry,
        )
        self.actions = Counter(
            "papyrus_actions",
            "act commands, by game kind and code (OK or the error code).",
            ["kind", "code"],
            registry=registry,
        )
        self.act_seconds = Histogram(
            "papyrus_act_duration_seconds",
            "Time to decide and save one act command (the caller's action), by game kind.",
            ["kind"],
            buckets=ACT_BUCKETS,
            registry=registry,
        )
        self.store_seconds = Histogram(
            "papyrus_store_duration_seconds",
            "Time the event store took to load a game, read a log or save, by operation.",
            ["operation"],
            buckets=STORE_BUCKETS,
            registry=registry,
        )
        self.cache_lookups = Counter(
            "papyrus_aggregate_cache_lookups",
            "Lookups in the event store's aggregate cache, by result (hit or miss).",
            ["result"],
            registry=registry,
        )
        self.websockets = Gauge(
            "papyrus_websocket_connections",
            "Open websocket connections.",
            registry=registry,
        )
        self._watched: Watched | None = None
        self._sample: tuple[float, tuple[int, dict[str, int]] | None] = (-SAMPLE_SECONDS, None)
        self._sample_lock = threading.Lock()
        registry.register(_Scraped(self))

    # -- what the application tells (service.app.tables.Observer) ----------------------------

    def stored(self, operation: str, seconds: float) -> None:
        self.store_seconds.labels(operation).observe(seconds)

    def acted(self, kind: str, seat: int | None, code: str, seconds: float) -> None:
        self.actions.labels(kind, code).inc()
        self.act_seconds.labels(kind).observe(seconds)
        record = current()  # the request this act belongs to (its worker thread has its context)
        if record is not None:
            record.kind = kind
            if seat is not None:
                record.seat = seat

    # -- what the request log tells -----------------------------------------------------------

    def finished(self, record: Record) -> None:
        if record.transport == "websocket":  # counted while open, not as a request
            return
        code = record.error_code or "OK"
        self.requests.labels(record.transport, operation_label(record), code).inc()
        self.request_seconds.labels(record.transport).observe(record.duration_ms / 1000)

    def opened(self, change: int) -> None:
        self.websockets.inc(change)

    # -- what is read at scrape time ----------------------------------------------------------

    def watch(self, watched: Watched) -> None:
        """Read these at each scrape, and count the aggregate cache's hits and misses."""
        self._watched = watched
        if watched.cache is not None:
            count_lookups(watched.cache, self.cache_lookups)

    def positions(self) -> tuple[int, dict[str, int]] | None:
        """The store and read-model positions, read at most once per ``SAMPLE_SECONDS``;
        ``None`` while they cannot be read (the store is down)."""
        watched = self._watched
        if watched is None:
            return None
        with self._sample_lock:
            taken, sample = self._sample
            if time.monotonic() - taken < SAMPLE_SECONDS:
                return sample
            try:
                sample = watched.positions()
            except Exception as failure:  # a scrape must answer while the store is down
                log.warning("read-model positions unavailable: %s", failure)
                sample = None
            self._sample = (time.monotonic(), sample)
            return sample


def operation_label(record: Record) -> str:
    """A label value from a bounded set: GraphQL's first root field (a schema name), REST's
    operationId, another route's path; never a name the client chose."""
    if record.transport == "graphql":
        return record.fields[0] if record.fields else "unknown"
    return record.operation or "unmatched"


def count_lookups(cache: Any, lookups: Counter) -> None:
    """Count hits and misses of the eventsourcing aggregate cache, which keeps no count itself:
    its ``get`` raises ``KeyError`` on a miss (the repository then reads the store)."""
    lookup = cache.get
    hits, misses = lookups.labels("hit"), lookups.labels("miss")

    def counted(key: Any, *, evict: bool = False) -> Any:
        try:
            value = lookup(key, evict=evict)
        except KeyError:
            misses.inc()
            raise
        hits.inc()
        return value

    cache.get = counted


class _Scraped:
    """The metrics read at scrape time from ``Metrics.watch``'s ``Watched``."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def describe(self) -> list[Metric]:
        return []  # nothing to check at registration (and no database read then)

    def collect(self) -> Iterator[Metric]:
        watched = self.metrics._watched
        if watched is None:
            return
        subscriptions = watched.subscriptions()
        yield gauge("papyrus_graphql_subscriptions", "Active GraphQL subscriptions.", subscriptions)
        breaker = watched.breaker
        yield gauge(
            "papyrus_store_breaker_open",
            "1 while the store's circuit breaker answers UNAVAILABLE at once, else 0.",
            1 if breaker.is_open() else 0,
        )
        trips = CounterMetricFamily(
            "papyrus_store_breaker_trips", "Times the event store was found unreachable."
        )
        trips.add_metric([], breaker.trips)
        yield trips
        cache = watched.cache
        if cache is not None:
            yield gauge(
                "papyrus_aggregate_cache_entries",
                "Aggregates held in the event store's cache.",
                len(getattr(cache, "cache", {})),
            )
            maxsize = getattr(cache, "maxsize", None)
            if isinstance(maxsize, int):
                yield gauge(
                    "papyrus_aggregate_cache_capacity_entries",
                    "Most aggregates the event store's cache holds.",
                    maxsize,
                )
        sample = self.metrics.positions()
        if sample is None:
            return
        head, positions = sample
        yield gauge("papyrus_store_position", "The event log's last notification id.", head)
        position = GaugeMetricFamily(
            "papyrus_readmodel_position",
            "The last log position each read model has applied.",
            labels=["readmodel"],
        )
        lag = GaugeMetricFamily(
            "papyrus_readmodel_lag_events",
            "Log entries each read model has yet to apply (store position minus its position).",
            labels=["readmodel"],
        )
        for name, at in sorted(positions.items()):
            position.add_metric([name], at)
            lag.add_metric([name], max(head - at, 0))
        yield position
        yield lag


def gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)
