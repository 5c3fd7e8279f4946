"""Memory of the in-process game cache (``service.app.cache``): finished games held per 1,000.

Plays ``--games`` distinct 4-player Imhotep games to their end with random legal actions through
the application (SQLite in a temporary file), then loads ``--cached`` games from the store into
one ``GameCache`` exactly as a read does (each rebuilt from its stored events, so nothing is
shared but interned strings) and prints the memory they hold (``tracemalloc``) and the RSS growth.

    .venv/bin/python bench/cache_memory.py --cached 1000
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import tempfile
import tracemalloc
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script
from service.app.application import Application
from service.app.cache import GameCache
from service.app.views import legal_actions
from service.store.database import open_store


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def finished_game(app: Application, rng: random.Random, number: int) -> str:
    callers = [app.accounts.register_player(f"P{number}-{seat}")[0] for seat in range(4)]
    game_id = str(app.seating.create_game(callers[0], "imhotep", 4, None, f"memory-{number}").id)
    for seat, caller in enumerate(callers):
        app.seating.join_game(caller, game_id, seat)
    while True:
        table = app.tables.get(game_id).table
        if table.status != "ACTIVE":
            return game_id
        for caller in callers:
            legal = legal_actions(table, caller)
            if legal:
                app.play.act(caller, game_id, rng.choice(legal))
                break


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10, help="distinct finished games played")
    parser.add_argument("--cached", type=int, default=1000, help="games held in the cache")
    parser.add_argument(
        "--rss-only", action="store_true", help="no tracemalloc (which costs memory itself)"
    )
    args = parser.parse_args()
    folder = tempfile.mkdtemp()
    app = Application(open_store(f"sqlite:///{folder}/memory.sqlite"), game_cache=0)
    rng = random.Random(14)
    games = [finished_game(app, rng, n) for n in range(args.games)]
    events = {g: list(app.store.events.get(uuid.UUID(g))) for g in games}
    lengths = [len(e) for e in events.values()]
    loader = app.tables
    cache = GameCache(args.cached)
    cache.follow()
    gc.collect()
    if not args.rss_only:
        tracemalloc.start()
    before, rss_before = tracemalloc.get_traced_memory()[0], rss_kib()
    for n in range(args.cached):
        # a fresh rebuild from the store for every entry, as a read that misses does
        game = loader._copy_of(uuid.UUID(games[n % len(games)]))
        game._id = uuid.uuid4()  # one entry per game, as if each were its own
        cache.saved(game, new=True)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - before
    rss = rss_kib() - rss_before
    tracemalloc.stop()
    traced = (
        ""
        if args.rss_only
        else f"{held / 2**20:.1f} MiB traced, {held / len(cache) / 1024:.1f} KiB a game, "
    )
    print(
        f"{len(cache)} finished 4-player Imhotep games cached (logs of {min(lengths)}-"
        f"{max(lengths)} events): {traced}RSS +{rss / 1024:.1f} MiB"
    )


if __name__ == "__main__":
    main()
