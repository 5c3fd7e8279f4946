"""Compiled plans give every subscriber exactly what graphql-core gives (issue #22;
service/api/graphql/plans.py).

The differential test: games of both kinds played to random points over a real server, then
every seat and a spectator catch up from the first entry over real websockets with several
selections (the web client's, the push benchmark's, the typed view with every field, fragments,
aliases, ``__typename``, ``@skip``/``@include`` on variables, ``gameEvents``), once with plans
and once with graphql-core alone: the payloads (data and errors) are equal, entry for entry.
A deliberately wrong plan is caught by the same comparison, and a selection a plan does not do
(a field with a resolver) has none and still answers.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from service.api.graphql import plans
from tests.client import Client, register, subscribe
from tests.conftest import Server
from tests.service.limits.test_subscription_work import NO_BUDGET
from tests.service.play import create_table
from tests.service.transport.test_push import CHANGED, EVENT, VIEW

GAME = "query($g: ID!) { game(id: $g) { version legalActions } }"
ACT = "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { version } } }"
#: the selections compared: the web client's (queries.js), bench/push.py's, every field
SELECTIONS = {
    "web client": (
        "subscription($g: ID!, $a: Int) { gameChanged(gameId: $g, afterVersion: $a) {"
        " version status activeSeats event { version type seat bySeat automatic undone } } }"
    ),
    "push bench": (
        "subscription($g: ID!, $a: Int) { gameChanged(gameId: $g, afterVersion: $a) "
        "{ version status activeSeats state legalActions } }"
    ),
    "everything": CHANGED,
    "fragments and directives": (
        "subscription($g: ID!, $a: Int, $yes: Boolean!, $no: Boolean!) {"
        " changed: gameChanged(gameId: $g, afterVersion: $a) { __typename ...Change"
        " seats: activeSeats @include(if: $yes) hidden: state @include(if: $no)"
        " shown: legalActions @skip(if: $no) n: version @skip(if: $yes) } }"
        " fragment Change on GameChange { v: version status"
        f" {VIEW} ... on GameChange {{ clock {{ mode }} {EVENT} }} }}"
    ),
    "events": (
        "subscription($g: ID!, $a: Int) { gameEvents(gameId: $g, afterVersion: $a) {"
        " __typename version type seat bySeat automatic undone data hash at } }"
    ),
}


def play_to(players: list[Client], game_id: str, moves: int, rng: random.Random) -> int:
    """``moves`` random legal actions by whoever may act (several may, in Amun-Re): the
    version reached as the first player numbers it."""
    for _ in range(moves):
        movers = [(p, g) for p in players if (g := p.gql(GAME, {"g": game_id})["game"])]
        movers = [(p, g) for p, g in movers if g["legalActions"]]
        if not movers:
            break
        player, game = rng.choice(movers)
        player.gql(ACT, {"g": game_id, "a": rng.choice(game["legalActions"])})
    return int(players[0].gql(GAME, {"g": game_id})["game"]["version"])


def catch_up(server: Server, query: str, game_id: str, token: str | None) -> list[Any]:
    """Every payload of a catch-up from the first entry, up to the caller's current version."""
    reader = Client(server.url, token)
    last = reader.gql("query($g: ID!) { game(id: $g) { version } }", {"g": game_id})["game"]
    variables = {"g": game_id, "a": 0, "yes": True, "no": False}

    def reached(payloads: list[dict[str, Any]]) -> bool:
        data = payloads[-1].get("data") or {}
        change = next(iter(data.values()), None) or {}
        return "errors" in payloads[-1] or change.get("version", change.get("n", 0)) >= last[
            "version"
        ] or change.get("v", 0) >= last["version"]

    return asyncio.run(subscribe(server.ws_url, query, variables, token, until=reached))


def compared(server: Server, games: list[tuple[str, list[Client]]]) -> list[str]:
    """Every selection, caller and game caught up with plans and with graphql-core alone:
    the differences found (none when the plans are right)."""
    differences = []
    for game_id, players in games:
        for name, query in SELECTIONS.items():
            for token in [p.token for p in players] + [None]:  # every seat, and a spectator
                with_plans = catch_up(server, query, game_id, token)
                plans.ENABLED = False
                try:
                    without = catch_up(server, query, game_id, token)
                finally:
                    plans.ENABLED = True
                assert with_plans and all("errors" not in p for p in without), without[:2]
                if with_plans != without:
                    first = next(
                        n for n, (a, b) in enumerate(zip(with_plans, without, strict=False))
                        if a != b
                    ) if len(with_plans) == len(without) else -1  # fmt: skip
                    differences.append(f"{name}, game {game_id}, caller {token}: entry {first}")
    return differences


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A server with an Imhotep game (4 seats) and an Amun-Re game (3 seats, whose logs hide
    each other's secret steps) played to random points."""
    url = f"sqlite:///{tmp_path_factory.mktemp('plans') / 'papyrus.sqlite'}"
    with Server(url, **NO_BUDGET) as server:  # every catch-up runs: compared, not costed
        rng = random.Random(22)
        games = []
        for kind, seats, moves in (("IMHOTEP", 4, 25), ("AMUN_RE", 3, 40)):
            players = [register(server.url, f"{kind} {n}") for n in range(seats)]
            game_id = create_table(players, kind, seed=f"plans-{kind}")
            play_to(players, game_id, moves, rng)
            games.append((game_id, players))
        yield server, games


def test_plans_answer_exactly_as_graphql_core(played: Any) -> None:
    server, games = played
    plans._plans.clear()
    assert compared(server, games) == []
    made = [p for p in plans._plans.values() if p is not None]
    assert len(made) >= len(SELECTIONS) - 1, "the selections were not compiled"


def test_a_wrong_plan_is_caught(played: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """An enum serialised by its Python name instead of its GraphQL value (``ACTIVE`` as
    ``active``): the comparison above reports it."""
    server, games = played
    real = plans.Plan.completer

    def wrong(self: plans.Plan, type_: Any, nodes: Any) -> Any:
        complete = real(self, type_, nodes)
        if getattr(type_, "name", None) == "GameStatus":
            return lambda value: None if value is None else str(complete(value)).lower()
        return complete

    monkeypatch.setattr(plans.Plan, "completer", wrong)
    plans._plans.clear()
    try:
        differences = compared(server, games[:1])
    finally:
        plans._plans.clear()
    assert differences and all("web client" in d or "push bench" in d or "everything" in d
                               or "fragments" in d for d in differences), differences  # fmt: skip


def test_what_a_plan_does_not_do_is_left_to_graphql_core() -> None:
    """A field that is not a basic strawberry field (a resolver, arguments) gives no plan;
    a value a plan cannot complete as graphql-core would (a null for a non-null field) falls
    back, event by event."""
    from graphql import build_schema, parse

    from service.api.graphql.schema import schema
    from service.api.graphql.subscriptions import GameChange

    built = build_schema(
        "type Query { a: Int } type Subscription { s: S } type S { f(y: Int): Int g: Int }"
    )
    document = parse("subscription { s { g } }")
    with pytest.raises(plans.Unsupported):  # build_schema's fields have no basic resolver
        plans.Plan(built, document.definitions[0], {}, None)  # type: ignore[arg-type]

    document = parse("subscription($g: ID!) { gameChanged(gameId: $g) { version status } }")
    plan = plans.Plan(schema._schema, document.definitions[0], {}, None)  # type: ignore[arg-type]
    change = GameChange(
        version=3, status=None, active_seats=[], view=None, state={}, legal_actions=[],
        event=None, clock=None,
    )  # type: ignore[arg-type]  # fmt: skip
    with pytest.raises(plans.Fallback):
        plan(change)
