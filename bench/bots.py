"""Bot strength table: bot levels play each other in-process on the pure engine (no server).

    .venv/bin/python bench/bots.py --game imhotep --seats 2 --games 20
    .venv/bin/python bench/bots.py --game amun_re --seats 3 --games 20 --jobs 2
    .venv/bin/python bench/bots.py --game imhotep --seats 2-4 --pairs mcts:greedy --seconds 1

A *pairing* ``A:B`` seats one bot of level ``A`` (the focal level) and fills every other seat
with level ``B``; the focal seat rotates over the seats from game to game (game ``g`` puts it at
seat ``g mod seats``). By default every ordered pair of distinct levels is played (with two
seats only one of ``A:B`` / ``B:A``, the stronger level focal: they mirror each other). A game
is played exactly as the server plays it: the table's randomness is
``domain.randomness.rng_for(seed, version)`` at each command's version, a bot decides with
``choose_action(level, rules, state, seat, seed, version)``. The focal level's result is its
win share (1 for a win, ``1/k`` for a ``k``-way tie), shown with a 95 % Wilson score interval;
a fair share is ``1/seats``. The time per move is the wall time of ``choose_action`` per level,
over every game of the run (mean, 95th percentile and maximum).
``--seconds`` gives ``mcts`` a time budget per move instead of ``--iterations``. The CPU time
is shown too: on a machine shared with other work the wall time overstates what a move costs.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.engine import apply_events, play, run_automatic
from domain.randomness import rng_for
from domain.registry import rules_for
from service.app.bots.levels import LEVELS, Budget, choose_action

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``successes`` may be fractional: ties)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Result:
    """One game: the focal seat's win share, and every bot decision's wall time by level."""

    share: float
    moves: int
    times: dict[str, list[float]] = field(default_factory=dict)


def play_game(
    kind: str, seats: int, levels: list[str], seed: str, budget: Budget, options: dict[str, Any]
) -> tuple[list[float], dict[str, list[float]], int]:
    """One game between the bots of ``levels`` (one per seat); returns each seat's win share,
    the decision times by level and the number of chosen actions."""
    rules = rules_for(kind)
    opts = rules.normalize_options(seats, options)
    version = 1  # the table's opening entry; the setup is the next command
    events = rules.setup(seats, opts, rng_for(seed, version))
    state = apply_events(rules, rules.initial(seats, opts), events)
    steps, state = run_automatic(rules, state, rng_for(seed, version))
    version += len(events) + len(steps)
    times: dict[str, list[float]] = defaultdict(list)
    moves = 0
    while rules.outcome(state) is None:
        seat = rules.active_seats(state)[0]
        level = levels[seat]
        start, cpu = time.perf_counter(), time.process_time()
        action = choose_action(level, rules, state, seat, seed, version, budget)
        times[level].append(time.perf_counter() - start)
        times[f"{level}/cpu"].append(time.process_time() - cpu)
        steps, state = play(rules, state, seat, action, rng_for(seed, version))
        version += len(steps)
        moves += 1
    outcome = rules.outcome(state)
    assert outcome is not None
    shares = [1.0 / len(outcome.winners) if s in outcome.winners else 0.0 for s in range(seats)]
    return shares, dict(times), moves


def one(task: tuple[str, int, str, str, int, str, Budget, dict[str, Any]]) -> Result:
    kind, seats, focal, other, g, seed, budget, options = task
    at = g % seats
    levels = [focal if s == at else other for s in range(seats)]
    shares, times, moves = play_game(
        kind, seats, levels, f"{seed}:{focal}:{other}:{g}", budget, options
    )
    return Result(shares[at], moves, times)


def pairings(levels: list[str], seats: int, named: str | None) -> list[tuple[str, str]]:
    if named:
        return [tuple(p.split(":", 1)) for p in named.split(",")]  # type: ignore[misc]
    if seats == 2:  # the stronger level focal: mcts:greedy, mcts:random, greedy:random
        return list(itertools.combinations(reversed(levels), 2))
    return list(itertools.permutations(levels, 2))


def seat_counts(text: str) -> list[int]:
    if "-" in text:
        low, high = text.split("-", 1)
        return list(range(int(low), int(high) + 1))
    return [int(t) for t in text.split(",")]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="imhotep", choices=["imhotep", "amun_re"])
    parser.add_argument("--seats", default="2", help="a count, a list (2,3) or a range (2-4)")
    parser.add_argument("--games", type=int, default=20, help="games per pairing and seat count")
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--pairs", default=None, help="pairings focal:other, comma-separated")
    parser.add_argument("--iterations", type=int, default=Budget().iterations)
    parser.add_argument("--seconds", type=float, default=None, help="mcts time budget per move")
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--options", default="{}", help="table options as JSON")
    args = parser.parse_args(argv)
    budget = Budget(iterations=args.iterations, seconds=args.seconds)
    options = json.loads(args.options)
    levels = args.levels.split(",")
    print(
        f"{args.game}: {args.games} games per pairing, mcts budget "
        f"{f'{args.seconds} s' if args.seconds else f'{args.iterations} iterations'} per move, "
        f"jobs={args.jobs}, seed={args.seed!r}"
    )
    all_times: dict[str, list[float]] = defaultdict(list)
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) if args.jobs > 1 else _Inline() as pool:
        for seats in seat_counts(args.seats):
            print(f"\n{seats} players (fair share {1 / seats:.0%})")
            print(f"  {'focal':>7} vs {'others':<7} {'games':>5} {'win share':>9}  95% CI")
            for focal, other in pairings(levels, seats, args.pairs):
                tasks = [
                    (args.game, seats, focal, other, g, args.seed, budget, options)
                    for g in range(args.games)
                ]
                results = list(pool.map(one, tasks))
                wins = sum(r.share for r in results)
                low, high = wilson(wins, len(results))
                for r in results:
                    for level, ts in r.times.items():
                        all_times[level].extend(ts)
                print(
                    f"  {focal:>7} vs {other:<7} {len(results):>5} {wins / len(results):>9.1%}  "
                    f"[{low:.1%}, {high:.1%}]",
                    flush=True,
                )
    print("\ntime per move (choose_action; wall time, and CPU time of the deciding process)")
    for level in levels:
        for what, key in (("wall", level), ("cpu", f"{level}/cpu")):
            ts = sorted(all_times.get(key, []))
            if ts:
                p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
                print(
                    f"  {level:>7} {what:>4}: mean {statistics.fmean(ts) * 1000:8.1f} ms, "
                    f"p95 {p95 * 1000:8.1f} ms, max {ts[-1] * 1000:8.1f} ms over {len(ts)} moves"
                )
    print(f"\ntotal {time.perf_counter() - started:.0f} s")


class _Inline:
    """A stand-in for the process pool when ``--jobs 1``: maps in this process."""

    def __enter__(self) -> _Inline:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map(self, fn: Any, items: Any) -> Any:
        return map(fn, items)


if __name__ == "__main__":
    main()
