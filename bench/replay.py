"""Scrubbing through a finished game over HTTP, as a replay viewer does.

Plays one finished game per configuration with server-side bots straight into a fresh SQLite
file, starts ``papyrus serve`` on it, then times a spectator fetching the whole game — every
event with the state right after it — through ``GET /api/v1/games/{id}/replay`` (pages of 200)
and through GraphQL ``game { replay(first: 200) }``, and single ``stateAt`` jumps to random
versions. Each figure is the median of ``--rounds`` runs.

    .venv/bin/python bench/replay.py --rounds 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import start_server
from domain.registry import rules_for
from service.app.application import Application
from service.app.bots.driver import BotDriver
from service.store.database import open_store

CONFIGS = [
    ("imhotep", 4, {"sides": "B", "wrath_of_the_pharaoh": True}),
    ("amun_re", 5, {"afterlife": True, "statues": True, "pharaoh": True, "promo_favours": True}),
]
PAGE = 200
GRAPHQL_REPLAY = (
    "query($g: ID!, $a: Int!, $n: Int!) { game(id: $g) { replay(after: $a, first: $n) "
    "{ event { version } state } } }"
)


def finished_game(url: str, kind: str, seats: int, options: dict[str, object]) -> tuple[str, int]:
    """A game played to its end by a host at seat 0 (random legal actions) and ``random`` bots
    (a table needs a person: bots alone are refused), the bots played by a driver here."""
    games = Application(open_store(url))
    host = games.accounts.register_player("Host")[0]
    game = games.seating.create_game(host, kind, seats, options, f"bench-replay-{kind}")
    game_id = str(game.id)
    games.seating.join_game(host, game_id, 0)
    for _ in range(seats - 1):
        game = games.seating.add_bot(host, game_id, None, "random")
    driver, rng = BotDriver(games.tables), random.Random(kind)
    rules = rules_for(kind)
    while True:
        driver.settle(game_id)
        game = games.tables.get(game_id)
        if game.table.status != "ACTIVE":
            break
        action = rng.choice(rules.legal_actions(game.table.game, 0))
        games.play.act(host, game_id, action)
    assert game.table.status == "FINISHED"
    return game_id, game.version


def scrub_rest(client: httpx.Client, game_id: str) -> int:
    after, steps = 0, 0
    while True:
        page = client.get(f"/api/v1/games/{game_id}/replay", params={"after": after, "limit": PAGE})
        items = page.json()["items"]
        if not items:
            return steps
        steps += len(items)
        after = items[-1]["event"]["version"]


def scrub_graphql(client: httpx.Client, game_id: str) -> int:
    after, steps = 0, 0
    while True:
        body = client.post(
            "/graphql",
            json={"query": GRAPHQL_REPLAY, "variables": {"g": game_id, "a": after, "n": PAGE}},
        ).json()
        items = body["data"]["game"]["replay"]
        if not items:
            return steps
        steps += len(items)
        after = items[-1]["event"]["version"]


def jump(client: httpx.Client, game_id: str, version: int) -> int:
    response = client.get(f"/api/v1/games/{game_id}/state", params={"version": version})
    return response.status_code


def timed(fn, *args) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = fn(*args)
    return (time.perf_counter() - start) * 1000, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/replay.sqlite"
        made = [
            (kind, seats, *finished_game(url, kind, seats, opts)) for kind, seats, opts in CONFIGS
        ]
        process, base = start_server(url, "--no-projections")
        try:
            with httpx.Client(base_url=base, timeout=60) as client:
                rng = random.Random(1)
                for kind, seats, game_id, version in made:
                    rest = [timed(scrub_rest, client, game_id) for _ in range(args.rounds)]
                    gql = [timed(scrub_graphql, client, game_id) for _ in range(args.rounds)]
                    assert all(n == version for _, n in rest + gql), "a replay missed events"
                    timings = [
                        timed(jump, client, game_id, rng.randint(1, version))
                        for _ in range(20 * args.rounds)
                    ]
                    assert all(status == 200 for _, status in timings)
                    jumps = [t for t, _ in timings]
                    rest_ms = statistics.median(t for t, _ in rest)
                    gql_ms = statistics.median(t for t, _ in gql)
                    print(
                        f"{kind} {seats}p, {version} events: whole game over REST "
                        f"{rest_ms:.0f} ms ({rest_ms / version:.2f} ms/step), over GraphQL "
                        f"{gql_ms:.0f} ms ({gql_ms / version:.2f} ms/step); stateAt jump "
                        f"median {statistics.median(jumps):.1f} ms, "
                        f"p95 {sorted(jumps)[int(len(jumps) * 0.95)]:.1f} ms"
                    )
        finally:
            process.terminate()
            process.wait()


if __name__ == "__main__":
    main()
