"""What subscriptions may cost (service/api/graphql/budget.py; deploy/OPERATIONS.md "Protocol
limits"): a subscription's start and its catch-up are costed like a query (its selection per
event), paid from the connection's, the client address's (smaller for callers without a token)
and the process's budgets; past one, RATE_LIMITED with retryAfter naming the limit; more than
a whole budget, BAD_INPUT; the live subscriptions of the process are bounded in number.

Issue #20: an anonymous client's 10 websockets x 20 ``gameChanged(afterVersion: 0)`` of a long
game were 46 s of work, none of it costed. The budgets themselves are checked on a fake clock;
the refusals over a real server with real websockets.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from graphql import parse

from service.api.graphql.budget import BudgetLimits, SubscriptionBudget
from service.api.graphql.cost import query_cost
from service.api.graphql.schema import schema
from service.app.errors import BadInput, RateLimited
from service.settings import Settings
from tests.client import acknowledged, register
from tests.conftest import Server
from tests.service.limits.test_limits import finished_game
from tests.service.transport.test_push import CHANGED

LIGHT = (
    "subscription($g: ID!, $a: Int) { gameChanged(gameId: $g, afterVersion: $a) "
    "{ version status event { version type } } }"
)
QUIET = "subscription($g: ID!) { gameEvents(gameId: $g) { version } }"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# -- the buckets ---------------------------------------------------------------------------------


def budget(clock: Clock, **limits: Any) -> SubscriptionBudget:
    return SubscriptionBudget(BudgetLimits(window=60.0, **limits), clock)


def test_a_charge_is_taken_from_every_bucket_or_from_none() -> None:
    clock = Clock()
    spent = budget(clock, per_connection=100, per_address=1000, total=10_000)
    connection, address = spent.connection(), spent.address("10.0.0.1", anonymous=False)
    spent.take(60, [connection, address, spent.total], "this")
    with pytest.raises(RateLimited) as refused:
        spent.take(60, [connection, address, spent.total], "that")
    assert "subscription_budget_per_connection" in refused.value.message
    # refused: nothing was taken from the address's or the process's bucket
    assert address is not None and address.level == 940
    assert spent.total is not None and spent.total.level == 9940
    # 100 per 60 s: the 20 missing units come back in 12 s
    assert refused.value.retry_after == 12
    clock.now += 12
    spent.take(60, [connection, address, spent.total], "that")


def test_anonymous_callers_draw_on_a_smaller_bucket_of_their_own() -> None:
    clock = Clock()
    spent = budget(clock, per_connection=0, per_address=1000, per_anonymous_address=100, total=0)
    anonymous = spent.address("10.0.0.1", anonymous=True)
    player = spent.address("10.0.0.1", anonymous=False)
    assert anonymous is not None and anonymous.capacity == 100
    with pytest.raises(BadInput) as refused:  # more than the whole bucket: never payable
        spent.take(150, [spent.connection(), anonymous, spent.total], "A catch-up")
    assert "subscription_budget_per_anonymous_address" in refused.value.message
    assert "afterVersion" in refused.value.message
    spent.take(100, [None, anonymous, None], "spent")
    spent.take(900, [None, player, None], "a player's own budget is untouched")
    assert spent.address("10.0.0.1", anonymous=True) is anonymous  # kept while not full


def test_a_budget_of_0_is_no_limit_and_full_buckets_are_forgotten() -> None:
    clock = Clock()
    spent = budget(clock, per_connection=0, per_address=0, per_anonymous_address=10, total=0)
    assert spent.connection() is None and spent.total is None
    assert spent.address("10.0.0.1", anonymous=False) is None
    spent.take(10**9, [None, None, None], "free")
    for n in range(5000):
        spent.address(f"10.1.{n // 250}.{n % 250}", anonymous=True)
    assert len(spent.addresses) <= 4096 + 1  # untouched (full) buckets were pruned


def test_the_live_subscriptions_of_a_process_are_bounded() -> None:
    spent = budget(Clock(), live=3)
    spent.admit(2)
    with pytest.raises(RateLimited) as refused:
        spent.admit(3)
    assert "max_subscriptions" in refused.value.message


def test_the_budgets_are_settings_with_sensible_defaults() -> None:
    defaults = Settings()
    cost = query_cost(schema._schema, parse(CHANGED))
    # a full catch-up of a 450-event game with every field fits an anonymous address's budget,
    # and a player's holds a few
    assert cost * 451 <= defaults.subscription_budget_per_anonymous_address
    assert (
        defaults.subscription_budget_per_anonymous_address
        < defaults.subscription_budget_per_address
    )
    assert defaults.subscription_budget_per_address <= defaults.subscription_budget_total
    assert defaults.max_subscriptions >= 1000
    chosen = Settings.from_environment(
        {"PAPYRUS_SUBSCRIPTION_BUDGET_TOTAL": "0"}, ["--subscription-budget-per-address", "7"]
    )
    assert (chosen.subscription_budget_total, chosen.subscription_budget_per_address) == (0, 7)


# -- over a real server ----------------------------------------------------------------------------


@pytest.fixture
def long_game(sqlite_url: str) -> Iterator[tuple[Server, str, int]]:
    """A server with the default budgets, and a finished game: its id and version."""
    with Server(sqlite_url) as running:
        owner = register(running.url, "Owner")
        game_id = finished_game(running)
        version = owner.gql("query($g: ID!) { game(id: $g) { version } }", {"g": game_id})
        yield running, game_id, version["game"]["version"]


async def outcomes(
    ws_url: str, documents: list[tuple[str, dict[str, Any]]], token: str | None = None
) -> list[dict[str, Any]]:
    """Each document subscribed on one websocket: its first error (or None) and how many
    events it delivered, once every one has completed (or one live event after the catch-up)."""
    async with acknowledged(ws_url, token) as ws:
        for n, (query, variables) in enumerate(documents):
            payload = {"query": query, "variables": variables}
            await ws.send(json.dumps({"id": str(n), "type": "subscribe", "payload": payload}))
        found = [{"error": None, "events": 0, "done": False} for _ in documents]
        while not all(f["done"] for f in found):
            message = json.loads(await asyncio.wait_for(ws.recv(), 120))
            one = found[int(message["id"])]
            if message["type"] == "next" and message["payload"].get("errors"):
                one["error"] = message["payload"]["errors"][0]
            elif message["type"] == "next":
                one["events"] += 1
            elif message["type"] in ("complete", "error"):
                one["done"] = True
        return found


def test_an_anonymous_flood_of_catch_ups_is_mostly_refused(
    long_game: tuple[Server, str, int],
) -> None:
    """The issue's flood, scaled down: one address without a token, two websockets of ten full
    catch-ups each: as many run as the anonymous address's budget pays for, each delivering
    every event, and the others are refused at once with RATE_LIMITED naming that budget."""
    server, game_id, version = long_game
    cost = query_cost(schema._schema, parse(CHANGED))
    budget = Settings().subscription_budget_per_anonymous_address
    documents = [(CHANGED, {"g": game_id, "a": 0})] * 10

    async def flood() -> list[dict[str, Any]]:
        sockets = await asyncio.gather(*(outcomes(server.ws_url, documents) for _ in range(2)))
        return [one for found in sockets for one in found]

    found = asyncio.run(flood())
    served = [f for f in found if f["error"] is None]
    refused = [f["error"] for f in found if f["error"] is not None]
    assert served and all(f["events"] == version for f in served)
    assert len(served) * cost * (version + 1) <= budget
    assert len(refused) >= 20 - budget // (cost * version)
    for error in refused:
        assert error["extensions"]["code"] == "RATE_LIMITED", error
        assert error["extensions"]["retryAfter"] >= 1
        assert "subscription_budget_per_anonymous_address" in error["message"], error


def test_a_catch_up_beyond_the_whole_budget_is_bad_input_and_a_player_has_more(
    sqlite_url: str,
) -> None:
    """--subscription-budget-per-anonymous-address below one catch-up: BAD_INPUT (no wait
    would help) saying how to ask for less; a player from the same address has its own,
    larger budget, untouched by the anonymous ones."""
    settings = {
        "subscription_budget_per_anonymous_address": 2_000,
        "subscription_budget_per_address": 200_000,
    }
    with Server(sqlite_url, **settings) as server:
        owner = register(server.url, "Owner")
        game_id = finished_game(server)
        light = [(LIGHT, {"g": game_id, "a": 0})]
        anonymous = asyncio.run(outcomes(server.ws_url, light))[0]
        assert anonymous["error"]["extensions"]["code"] == "BAD_INPUT"
        assert "subscription_budget_per_anonymous_address" in anonymous["error"]["message"]
        assert "afterVersion" in anonymous["error"]["message"]
        version = owner.gql("query($g: ID!) { game(id: $g) { version } }", {"g": game_id})
        later = [(LIGHT, {"g": game_id, "a": version["game"]["version"] - 20})]
        late = asyncio.run(outcomes(server.ws_url, later))[0]
        assert late["error"] is None and late["events"] == 20  # a shorter catch-up fits
        player = asyncio.run(outcomes(server.ws_url, light * 3, owner.token))
        assert [p["error"] for p in player] == [None] * 3


def test_the_connection_and_process_budgets_and_the_live_subscriptions(sqlite_url: str) -> None:
    """--subscription-budget-per-connection pays for one catch-up: a second one on the
    same socket is RATE_LIMITED naming it, another socket is served; the process's budget
    spent, nobody is; --max-subscriptions 2: a third live subscription is refused."""
    owner_settings = {"subscription_budget_per_address": 0, "max_subscriptions": 2}
    with Server(sqlite_url, **owner_settings) as probe:
        owner = register(probe.url, "Owner")
        game_id = finished_game(probe)
        cost = query_cost(schema._schema, parse(LIGHT))
        version = owner.gql("query($g: ID!) { game(id: $g) { version } }", {"g": game_id})
        one = cost * (version["game"]["version"] + 1)
        table = owner.gql("mutation { createGame(input: {kind: IMHOTEP, seats: 2}) { id } }")
        quiet = [(QUIET, {"g": table["createGame"]["id"]})] * 3  # live, nothing happens
        live = asyncio.run(outcomes_live(probe.ws_url, quiet, owner.token))
        assert live[:2] == [None, None]
        assert live[2]["extensions"]["code"] == "RATE_LIMITED"
        assert "max_subscriptions" in live[2]["message"]
    settings = {
        "subscription_budget_per_connection": one + cost,
        "subscription_budget_per_address": 0,
        # pays for two catch-ups and a start (and a quarter more: it refills meanwhile)
        "subscription_budget_total": 2 * one + 2 * cost + one // 4,
    }
    with Server(sqlite_url, **settings) as server:
        twice = [(LIGHT, {"g": game_id, "a": 0})] * 2
        first = asyncio.run(outcomes(server.ws_url, twice, owner.token))
        errors = [f["error"] for f in first if f["error"] is not None]
        assert len(errors) == 1, first  # either one may be charged first
        assert errors[0]["extensions"]["code"] == "RATE_LIMITED"
        assert "subscription_budget_per_connection" in errors[0]["message"]
        second = asyncio.run(outcomes(server.ws_url, twice[:1], owner.token))
        assert second[0]["error"] is None
        third = asyncio.run(outcomes(server.ws_url, twice[:1], owner.token))
        assert third[0]["error"]["extensions"]["code"] == "RATE_LIMITED"
        assert "subscription_budget_total" in third[0]["error"]["message"]


async def outcomes_live(
    ws_url: str, documents: list[tuple[str, dict[str, Any]]], token: str | None
) -> list[dict[str, Any] | None]:
    """Live subscriptions started one after the other on one socket: the error each started
    with (None: it is live, it waits for news)."""
    async with acknowledged(ws_url, token) as ws:
        found: list[dict[str, Any] | None] = []
        for n, (query, variables) in enumerate(documents):
            payload = {"query": query, "variables": variables}
            await ws.send(json.dumps({"id": str(n), "type": "subscribe", "payload": payload}))
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), 1.5))
            except TimeoutError:
                found.append(None)  # no answer: live, waiting for the table to change
                continue
            found.append(message["payload"]["errors"][0] if message["type"] == "next" else message)
        return found


def test_a_subscription_from_now_is_charged_one_events_worth_once(sqlite_url: str) -> None:
    """A subscription without ``afterVersion`` costs its selection once (budget.py: "a start
    costs one event's worth"): a connection budget of two starts pays for exactly two such
    subscriptions, and the third is refused naming it (each start was charged twice before,
    and the live count admitted twice: the second was refused)."""
    with Server(sqlite_url) as probe:
        owner = register(probe.url, "Owner")
        table = owner.gql("mutation { createGame(input: {kind: IMHOTEP, seats: 2}) { id } }")
    cost = query_cost(schema._schema, parse(QUIET))
    settings = {"subscription_budget_per_connection": 2 * cost, "subscription_budget_per_address": 0}
    with Server(sqlite_url, **settings) as server:
        quiet = [(QUIET, {"g": table["createGame"]["id"]})] * 3  # live, nothing happens
        live = asyncio.run(outcomes_live(server.ws_url, quiet, owner.token))
        assert live[:2] == [None, None], live
        assert live[2] is not None and live[2]["extensions"]["code"] == "RATE_LIMITED"
        assert "subscription_budget_per_connection" in live[2]["message"]
