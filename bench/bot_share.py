"""Bots' fair share under a flood: how fast another player's bots reply while one account keeps
twenty tables of ``mcts`` bots busy (issue #20, "one account starves everyone's bots").

Starts one ``papyrus serve`` (SQLite in a temporary folder unless ``--database-url``), then:

1. **Baseline.** Player B plays ``--samples`` moves at a 2-player Imhotep table against a
   ``random`` bot and as many against an ``mcts`` bot; each bot's *reply* is the time from B's
   move to the bot's move, both read from the log's own timestamps (``at``), so polling adds
   nothing. B's ``act`` round trip is timed too.
2. **Flood.** Account A sits at ``--flood`` 5-seat Amun-Re tables with four ``mcts`` bots each
   (the per-account bot bounds are turned off for A's sake: ``PAPYRUS_BOT_TABLES_PER_ACCOUNT`` and
   ``PAPYRUS_SEARCH_BOTS_PER_ACCOUNT`` 0), and a thread of A's plays its own seat whenever it must
   act, so the bots never run out of work.
3. **Under the flood.** B measures the same again.

    .venv/bin/python bench/bot_share.py --flood 20 --samples 12

It prints p50 and p99 (with 12 samples, p99 is the maximum) of each reply and of B's ``act``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: the repository's packages come first
from bench.common import start_server  # noqa: E402

GAME = "query($g: ID!) { game(id: $g) { version status activeSeats mySeat legalActions } }"
ACT = "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { version } } }"


class Player:
    def __init__(self, url: str, name: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=300)
        data = self.gql("mutation($n: String!) { registerPlayer(name: $n) { token } }", {"n": name})
        self.http.headers["Authorization"] = f"Bearer {data['registerPlayer']['token']}"

    def gql(self, query: str, variables: dict[str, Any] | None = None) -> Any:
        body = self.http.post("/graphql", json={"query": query, "variables": variables}).json()
        if body.get("errors"):
            raise RuntimeError(body["errors"])
        return body["data"]

    def table(self, kind: str, seats: int, bots: list[str], options: dict[str, Any]) -> str:
        game_id = str(
            self.gql(
                "mutation($i: CreateGameInput!) { createGame(input: $i) { id } }",
                {"i": {"kind": kind, "seats": seats, "options": options}},
            )["createGame"]["id"]
        )
        self.gql("mutation($g: ID!) { joinGame(gameId: $g, seat: 0) { id } }", {"g": game_id})
        for level in bots:
            self.gql(
                "mutation($g: ID!, $s: String) { addBot(gameId: $g, strategy: $s) { id } }",
                {"g": game_id, "s": level},
            )
        return game_id

    def game(self, game_id: str) -> dict[str, Any]:
        return dict(self.gql(GAME, {"g": game_id})["game"])

    def entries(self, game_id: str, after: int) -> list[dict[str, Any]]:
        return list(self.http.get(f"/api/v1/games/{game_id}/events?after={after}").json()["items"])


def at(entry: dict[str, Any]) -> float:
    return datetime.fromisoformat(entry["at"]).timestamp()


def my_turn(player: Player, game_id: str, timeout: float = 600) -> dict[str, Any] | None:
    """The game once its seat 0 must act (``None`` once it is over)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        game = player.game(game_id)
        if game["status"] != "ACTIVE":
            return None
        if 0 in game["activeSeats"]:
            return game
        time.sleep(0.01)
    raise RuntimeError(f"game {game_id}: seat 0 never got the turn in {timeout} s")


def measure(player: Player, game_id: str, samples: int, rng: random.Random) -> tuple[list, list]:
    """B's ``act`` round trips and the bot's replies (seconds), over ``samples`` moves."""
    acts: list[float] = []
    replies: list[float] = []
    while len(replies) < samples:
        game = my_turn(player, game_id)
        if game is None:
            raise RuntimeError("the game ended before enough samples: use fewer")
        started = time.perf_counter()
        version = player.gql(ACT, {"g": game_id, "a": rng.choice(game["legalActions"])})["act"][
            "game"
        ]["version"]
        acts.append(time.perf_counter() - started)
        if my_turn(player, game_id) is None:
            break
        entries = player.entries(game_id, version - 1)
        mine, bot = entries[0], next((e for e in entries if e["bySeat"] == 1), None)
        if bot is not None:
            replies.append(at(bot) - at(mine))
    return acts, replies


def flood(player: Player, tables: list[str], stop: threading.Event) -> None:
    """A plays its seat at every one of its tables whenever it must act."""
    rng = random.Random(7)
    while not stop.is_set():
        for game_id in tables:
            game = player.game(game_id)
            if game["status"] == "ACTIVE" and 0 in game["activeSeats"]:
                player.gql(ACT, {"g": game_id, "a": rng.choice(game["legalActions"])})
        stop.wait(0.05)


def quantiles(values: list[float]) -> str:
    if not values:
        return "no samples"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"p50 {statistics.median(ordered):7.3f} s  p99 {p99:7.3f} s  (n={len(ordered)})"


def report(title: str, results: dict[str, tuple[list, list]]) -> None:
    print(title)
    for level, (acts, replies) in results.items():
        print(f"  {level:>6} bot reply  {quantiles(replies)}")
        print(f"  {level:>6} B's act     {quantiles(acts)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flood", type=int, default=20, help="A's 5-seat all-mcts tables")
    parser.add_argument("--samples", type=int, default=12)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="papyrus-bot-share-")
    url = args.database_url or f"sqlite:///{folder}/bench.sqlite"
    unbounded = {"PAPYRUS_BOT_TABLES_PER_ACCOUNT": "0", "PAPYRUS_SEARCH_BOTS_PER_ACCOUNT": "0"}
    process, base = start_server(url, env={**os.environ, **unbounded})
    try:
        rng = random.Random(1)
        b = Player(base, "B")
        imhotep = {"start_player": 0}
        tables = {level: b.table("IMHOTEP", 2, [level], imhotep) for level in ("random", "mcts")}
        report(
            "baseline (no flood)",
            {level: measure(b, tables[level], args.samples, rng) for level in tables},
        )
        a = Player(base, "A")
        started = time.perf_counter()
        flooded = [
            a.table("AMUN_RE", 5, ["mcts"] * 4, {"start_player": 1}) for _ in range(args.flood)
        ]
        print(
            f"A made {args.flood} tables of four mcts bots in {time.perf_counter() - started:.1f} s"
        )
        stop = threading.Event()
        flooder = threading.Thread(target=flood, args=(a, flooded, stop), daemon=True)
        flooder.start()
        fresh = {level: b.table("IMHOTEP", 2, [level], imhotep) for level in ("random", "mcts")}
        try:
            report(
                f"under the flood ({args.flood} tables)",
                {level: measure(b, fresh[level], args.samples, rng) for level in fresh},
            )
        finally:
            stop.set()
            flooder.join(timeout=60)
    finally:
        process.terminate()
        process.wait(timeout=60)


if __name__ == "__main__":
    main()
