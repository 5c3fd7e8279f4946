"""What the server's lifespan opens: the store, the application, the read models, the feed,
the hub, the worker pools (``Runtime``); ``service.asgi`` builds the routes over it."""

from __future__ import annotations

from typing import Any

from domain import table as tables
from service.api.graphql.context import Context
from service.api.graphql.limits import Limits, lower_priority, share_the_interpreter
from service.api.hub import Hub
from service.api.metrics import Metrics, Watched
from service.api.observability import ContextPool
from service.app.application import Application
from service.app.limits import Limiter
from service.readmodels import ReadModels, Worker
from service.settings import Settings
from service.store.database import open_store
from service.store.feed import Feed
from service.store.limits import Counters

#: entries that change what the lobby shows
LOBBY_EVENTS = frozenset(
    {
        tables.TABLE_CREATED,
        tables.SEAT_TAKEN,
        tables.GAME_STARTED,
        tables.GAME_FINISHED,
        tables.GAME_ABANDONED,
    }
)


class Runtime:
    """What the lifespan opens: the store, the application, the read model, the hub."""

    def __init__(self, settings: Settings, metrics: Metrics | None = None) -> None:
        self.settings = settings
        self.metrics = metrics or Metrics()
        self.database = settings.database
        self.store = open_store(self.database.url, self.database.options)
        self.readmodels = ReadModels(
            self.store,
            self.database,
            active=settings.run_projections,
            batch=settings.projection_batch,
        )
        rates = settings.rate_limits
        counters = None if rates.is_off else Counters(self.database)
        self.app = Application(
            self.store, self.readmodels, self.metrics, Limiter(counters, rates)
        )
        self.worker = Worker(self.readmodels)
        self.hub = Hub()
        self.app.subscribe(self.hub.notify)
        self.feed = Feed(self.store, self.database.is_postgres)
        self.feed.subscribe(self.on_event)
        # work on these threads sees its request's context (its log line learns the seat)
        self.executor = ContextPool(settings.workers, thread_name_prefix="papyrus")
        share_the_interpreter()  # costly store work hands the loop its turn within 1 ms
        self.limits = Limits(
            max_cost=settings.graphql_max_cost,
            max_aliases=settings.graphql_max_aliases,
            seconds=settings.graphql_time_budget,
            costly_pool=ContextPool(
                settings.graphql_costly_workers,
                thread_name_prefix="papyrus-costly",
                initializer=lower_priority,
            ),
        )
        self.metrics.watch(
            Watched(
                subscriptions=self.hub.subscriptions,
                breaker=self.app.breaker,
                cache=getattr(self.store.repository, "cache", None),
                positions=lambda: self.app.breaker.call(self.positions),
            )
        )

    def positions(self) -> tuple[int, dict[str, int]]:
        """The store's last position and each read model's (for the metrics' lag)."""
        return self.readmodels.store_position(), self.readmodels.positions()

    def on_event(self, game_id: str, version: int, kind: str) -> None:
        """Any process recorded an event: wake this process's subscribers and read models."""
        self.hub.notify(game_id, version)
        self.worker.wake()
        if kind in LOBBY_EVENTS:
            self.hub.lobby_changed(game_id, version)

    def start(self) -> None:
        if self.settings.run_projections:
            self.readmodels.catch_up()
            self.worker.start()
        self.feed.start()

    def context(self, authorization: str | None = None, request: Any = None) -> Context:
        return Context(
            app=self.app,
            hub=self.hub,
            executor=self.executor,
            authorization=authorization,
            request=request,
            limits=self.limits,
        )

    def close(self) -> None:
        self.feed.stop()
        if self.settings.run_projections:
            self.worker.stop()
        self.executor.shutdown(wait=True, cancel_futures=True)
        if self.limits.costly_pool is not None:
            self.limits.costly_pool.shutdown(wait=True, cancel_futures=True)
        self.app.limiter.close()
        self.readmodels.close()
        self.store.close()
