"""The settings of the request limits: GraphQL cost, aliases and time, rate limits, and the bots'
compute budget (per-account bounds, think time).

``Settings`` inherits them; they are declared, read and listed in ``--help`` like the others.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.app.bots.bounds import BotBounds
from service.app.bots.budget import FLOOR_SECONDS, ThinkLimits
from service.app.limits import RateLimits
from service.settings.reading import at_least_seconds, between, integer, seconds, setting


@dataclass(frozen=True, kw_only=True)
class LimitSettings:
    graphql_max_cost: int = setting(
        40_000,
        env="PAPYRUS_GRAPHQL_MAX_COST",
        flag="--graphql-max-cost",
        help="largest cost of one GraphQL operation, computed before it runs: 1 a field, page "
        "sizes (first:) multiply, expensive fields (replay, stateAt, verifyLog...) weigh more",
        parse=integer,
        check=between(1),
        metavar="COST",
    )
    graphql_max_aliases: int = setting(
        20,
        env="PAPYRUS_GRAPHQL_MAX_ALIASES",
        flag="--graphql-max-aliases",
        help="most aliased fields in one GraphQL document",
        parse=integer,
        check=between(0),
        metavar="ALIASES",
    )
    graphql_time_budget: float = setting(
        10.0,
        env="PAPYRUS_GRAPHQL_TIME_BUDGET",
        flag="--graphql-time-budget",
        help="seconds a GraphQL query may run before it is cancelled (mutations and "
        "subscriptions are not)",
        parse=seconds,
        check=at_least_seconds(0.001),
        shown="10",
        metavar="SECONDS",
    )
    graphql_costly_workers: int = setting(
        1,
        env="PAPYRUS_GRAPHQL_COSTLY_WORKERS",
        flag="--graphql-costly-workers",
        help="threads that run the store work of costly GraphQL operations (costing more than "
        "a tenth of the cost limit), apart from --workers so that they never hold up the rest",
        parse=integer,
        check=between(1),
        metavar="THREADS",
    )

    #: what subscriptions may cost, per --rate-window, in this process
    #: (service/api/graphql/budget.py)
    subscription_budget_per_connection: int = setting(
        300_000,
        env="PAPYRUS_SUBSCRIPTION_BUDGET_PER_CONNECTION",
        flag="--subscription-budget-per-connection",
        help="cost units one websocket may spend starting subscriptions per window: each start "
        "costs its selection's cost (as --graphql-max-cost counts it) once, and once more per "
        "event of its catch-up (afterVersion); 0: no limit",
        parse=integer,
        check=between(0),
        metavar="COST",
    )
    subscription_budget_per_address: int = setting(
        600_000,
        env="PAPYRUS_SUBSCRIPTION_BUDGET_PER_ADDRESS",
        flag="--subscription-budget-per-address",
        help="cost units the players of one client address may spend starting subscriptions "
        "per window, every websocket together; 0: no limit",
        parse=integer,
        check=between(0),
        metavar="COST",
    )
    subscription_budget_per_anonymous_address: int = setting(
        150_000,
        env="PAPYRUS_SUBSCRIPTION_BUDGET_PER_ANONYMOUS_ADDRESS",
        flag="--subscription-budget-per-anonymous-address",
        help="cost units callers without a token (spectators) from one client address may "
        "spend starting subscriptions per window; 0: no limit",
        parse=integer,
        check=between(0),
        metavar="COST",
    )
    subscription_budget_total: int = setting(
        2_000_000,
        env="PAPYRUS_SUBSCRIPTION_BUDGET_TOTAL",
        flag="--subscription-budget-total",
        help="cost units every subscriber of this process together may spend starting "
        "subscriptions per window; 0: no limit",
        parse=integer,
        check=between(0),
        metavar="COST",
    )

    #: rate limits, counted in the database for every process (service/app/limits.py)
    rate_window: int = setting(
        60,
        env="PAPYRUS_RATE_WINDOW",
        flag="--rate-window",
        help="seconds of each fixed window that the rate limits count in",
        parse=integer,
        check=between(1),
        metavar="SECONDS",
    )
    rate_mutations_per_player: int = setting(
        1200,
        env="PAPYRUS_RATE_MUTATIONS_PER_PLAYER",
        flag="--rate-mutations-per-player",
        help="mutations (GraphQL mutation fields, REST POST/PUT/PATCH/DELETE) one player's "
        "token may send per window; 0: no limit",
        parse=integer,
        check=between(0),
        metavar="COUNT",
    )
    rate_mutations_per_address: int = setting(
        12000,
        env="PAPYRUS_RATE_MUTATIONS_PER_ADDRESS",
        flag="--rate-mutations-per-address",
        help="mutations one client address may send per window; 0: no limit",
        parse=integer,
        check=between(0),
        metavar="COUNT",
    )
    rate_registrations_per_address: int = setting(
        300,
        env="PAPYRUS_RATE_REGISTRATIONS_PER_ADDRESS",
        flag="--rate-registrations-per-address",
        help="players one client address may register per window; 0: no limit",
        parse=integer,
        check=between(0),
        metavar="COUNT",
    )
    rate_failed_authentications_per_address: int = setting(
        300,
        env="PAPYRUS_RATE_FAILED_AUTHENTICATIONS_PER_ADDRESS",
        flag="--rate-failed-authentications-per-address",
        help="unknown, revoked or malformed tokens one client address may send per window "
        "before its tokens are refused until the window ends; 0: no limit",
        parse=integer,
        check=between(0),
        metavar="COUNT",
    )

    #: the bots' compute budget (service/app/bots/bounds.py, budget.py, driver.py)
    bot_tables_per_account: int = setting(
        10,
        env="PAPYRUS_BOT_TABLES_PER_ACCOUNT",
        flag="--bot-tables-per-account",
        help="tables not over at which one account may have seated bots (addBot past it is "
        "FORBIDDEN); 0: no limit",
        parse=integer,
        check=between(0),
        metavar="COUNT",
    )
    search_bots_per_account: int = setting(
        8,
        env="PAPYRUS_SEARCH_BOTS_PER_ACCOUNT",
        flag="--search-bots-per-account",
        help="searching bots (mcts) one account may have seated at tables not over (addBot "
        "past it is FORBIDDEN); 0: no limit",
        parse=integer,
        check=between(0),
        metavar="COUNT",
    )
    bot_think_seconds: float = setting(
        2.0,
        env="PAPYRUS_BOT_THINK_SECONDS",
        flag="--bot-think-seconds",
        help="most wall time one searching bot's move may think (its iterations stop early)",
        parse=seconds,
        check=at_least_seconds(FLOOR_SECONDS),
        shown="2",
        metavar="SECONDS",
    )
    bot_reply_seconds: float = setting(
        10.0,
        env="PAPYRUS_BOT_REPLY_SECONDS",
        flag="--bot-reply-seconds",
        help="seconds within which every table waiting for a searching bot should have its "
        "move, counted from the arrival of the one waiting longest: each move thinks at most "
        f"an equal share of what is left of them (at least {FLOOR_SECONDS:g} s)",
        parse=seconds,
        check=at_least_seconds(FLOOR_SECONDS),
        shown="10",
        metavar="SECONDS",
    )

    @property
    def rate_limits(self) -> RateLimits:
        return RateLimits(
            window_seconds=self.rate_window,
            mutations_per_player=self.rate_mutations_per_player,
            mutations_per_address=self.rate_mutations_per_address,
            registrations_per_address=self.rate_registrations_per_address,
            failed_authentications_per_address=self.rate_failed_authentications_per_address,
        )

    @property
    def bot_bounds(self) -> BotBounds:
        return BotBounds(
            tables_per_account=self.bot_tables_per_account,
            searching_per_account=self.search_bots_per_account,
        )

    @property
    def think_limits(self) -> ThinkLimits:
        return ThinkLimits(
            move_seconds=self.bot_think_seconds, round_seconds=self.bot_reply_seconds
        )
