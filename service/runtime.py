"""What the server's lifespan opens: the store, the application, the read models, the feed,
the hub, the worker pools (``Runtime``); ``service.asgi`` builds the routes over it."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from domain import table as tables
from service.api.contextpool import ContextPool
from service.api.graphql.budget import BudgetLimits, SubscriptionBudget
from service.api.graphql.context import Context
from service.api.graphql.limits import Limits, lower_priority, share_the_interpreter
from service.api.graphql.pushed import Push
from service.api.hub import Hub
from service.api.metrics import Metrics, Watched
from service.app.application import Application
from service.app.bots.driver import BotDriver
from service.app.clocks import Scheduler
from service.app.limits import Limiter
from service.app.now import OffsetFileClock, SystemClock
from service.app.signing import Keyring
from service.readmodels import ReadModels, Worker
from service.settings import Settings
from service.signatures import server_keyring
from service.store.database import open_store
from service.store.feed import Feed
from service.store.limits import Counters

log = logging.getLogger("papyrus.server")
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
            self.store,
            self.readmodels,
            self.metrics,
            Limiter(counters, rates),
            game_cache=settings.game_cache,
            bot_bounds=settings.bot_bounds,
            keyring=signing_keys(settings),
            clock=(
                OffsetFileClock(settings.clock_offset_file)  # tests only
                if settings.clock_offset_file
                else SystemClock()
            ),
        )
        # the expirations of timed tables, rebuilt from the log at start (``service.app.clocks``)
        self.scheduler = Scheduler(self.app.clocks, self.running_games)
        self.app.subscribe(self.scheduler.notify)
        # every bot plays off the request path, in its own command, accounts served in turn
        # and searches bounded in time, at a lower OS priority (``bots.driver``)
        self.bots = BotDriver(
            self.app.tables,
            self.running_games,
            think=settings.think_limits,
            initializer=lower_priority,
        )
        self.app.subscribe(self.bots.wake)
        self.worker = Worker(self.readmodels)
        self.hub = Hub()
        # the push machinery, for the REST event stream (which may not import GraphQL's)
        self.push = Push()
        self.app.subscribe(self.hub.notify)
        self.feed = Feed(self.store, self.database.is_postgres)
        self.feed.subscribe(self.on_event)
        self.feed.subscribe_accounts(self.app.heard_account)
        self.feed.subscribe_gaps(self.app.missed)
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
        # what subscriptions may cost (``service.api.graphql.budget``)
        self.budget = SubscriptionBudget(
            BudgetLimits(
                per_connection=settings.subscription_budget_per_connection,
                per_address=settings.subscription_budget_per_address,
                per_anonymous_address=settings.subscription_budget_per_anonymous_address,
                total=settings.subscription_budget_total,
                window=float(settings.rate_window),
                live=settings.max_subscriptions,
            )
        )
        self.metrics.watch(
            Watched(
                subscriptions=self.hub.subscriptions,
                breaker=self.app.breaker,
                cache=self.app.tables.cache,
                positions=lambda: self.app.breaker.call(self.positions),
            )
        )

    def positions(self) -> tuple[int, dict[str, int]]:
        """The store's last position and each read model's (for the metrics' lag)."""
        return self.readmodels.store_position(), self.readmodels.positions()

    def on_event(self, game_id: str, version: int, kind: str) -> None:
        """Any process recorded an event: mark the cached game stale (before the subscribers
        woken here read it), wake this process's subscribers and read models."""
        self.app.heard_game(game_id, version)
        self.hub.notify(game_id, version)
        self.scheduler.notify(game_id, version)
        self.bots.heard(game_id, version)  # the saving process plays it; this one if not
        self.worker.wake()
        if kind in LOBBY_EVENTS:
            self.hub.lobby_changed(game_id, version)

    def start(self) -> None:
        if self.settings.run_projections:
            self.readmodels.catch_up()
            self.worker.start()
        self.feed.start()
        self.app.follow()  # after the feed's start: what it will tell covers what was read
        self.scheduler.start()  # after the feed's start too: no change is missed
        self.bots.start()  # likewise: a bot due when the server stopped plays now

    def running_games(self) -> list[str]:
        """Every game the read models list as running (the scheduler loads each from the log),
        once they have caught up with the store."""
        models = self.readmodels
        models.wait_for(models.store_position(), timeout=10.0)
        found: list[str] = []
        before: int | None = None
        while True:
            page = models.summaries(status=tables.ACTIVE, limit=200, before_seq=before)
            found += [str(row["game_id"]) for row in page]
            if len(page) < 200:
                return found
            before = page[-1]["seq"]

    def context(self, authorization: str | None = None, request: Any = None) -> Context:
        return Context(
            app=self.app,
            hub=self.hub,
            executor=self.executor,
            authorization=authorization,
            request=request,
            limits=self.limits,
            budget=self.budget,
        )

    def close(self) -> None:
        """Stop the threads, then the pools, then close the store. Each step is timed: one
        that takes over a second is logged, so that a stop an operator waits for says what it
        waits for."""
        steps: list[tuple[str, Callable[[], object]]] = [
            ("the bot driver", self.bots.stop),
            ("the clock scheduler", self.scheduler.stop),
            ("the event feed", self.feed.stop),
        ]
        if self.settings.run_projections:
            steps.append(("the read-model worker", self.worker.stop))
        steps.append(("the workers", lambda: self.executor.shutdown(True, cancel_futures=True)))
        costly = self.limits.costly_pool
        if costly is not None:
            steps.append(("the costly workers", lambda: costly.shutdown(True, cancel_futures=True)))
        steps += [
            ("the rate limits", self.app.limiter.close),
            ("the read models", self.readmodels.close),
            ("the event store", self.store.close),
        ]
        for name, step in steps:
            started = time.monotonic()
            step()
            took = time.monotonic() - started
            if took > 1.0:
                log.warning("stopping %s took %.1f s", name, took)


def signing_keys(settings: Settings) -> Keyring:
    """The keys that sign finished games (``service.signatures.server_keyring``)."""
    keys = server_keyring(settings)
    if keys.active is None:
        log.warning("no signing key (--signing-key): exported games are not signed")
    return keys
