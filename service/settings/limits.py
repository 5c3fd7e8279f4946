"""The settings of the request limits: GraphQL cost, aliases and time, and rate limits.

``Settings`` inherits them; they are declared, read and listed in ``--help`` like the others.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.settings.reading import (
    at_least_seconds,
    between,
    integer,
    seconds,
    setting,
)


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
