"""Engine benchmark: random games of one kind, played in-process through ``domain.engine``.

    .venv/bin/python bench/engine.py --game imhotep --seats 4 --games 200

Per action it lists the acting seat's legal actions, picks one at random and plays it with
``domain.engine.play`` (decide, evolve and the automatic-step check). Prints games/s, actions/s
(chosen actions; automatic steps are counted separately) and the median time to replay a finished
game from its events with ``domain.engine.replay``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.contract import Event
from domain.engine import apply_events, play, replay, run_automatic
from domain.registry import rules_for


def play_game(
    rules: Any, seats: int, options: dict[str, Any], seed: int
) -> tuple[list[Event], int]:
    """One random game; returns its events and the number of chosen actions."""
    rng = random.Random(seed)
    events = rules.setup(seats, options, rng)
    state = apply_events(rules, rules.initial(seats, options), events)
    steps, state = run_automatic(rules, state, rng)
    events.extend(s.event for s in steps)
    actions = 0
    while rules.outcome(state) is None:
        seat = rng.choice(rules.active_seats(state))
        action = rng.choice(rules.legal_actions(state, seat))
        steps, state = play(rules, state, seat, action, rng)
        events.extend(s.event for s in steps)
        actions += 1
    return events, actions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="imhotep", choices=["imhotep", "amun_re"])
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", default="{}", help="table options as JSON")
    args = parser.parse_args(argv)
    import json

    rules = rules_for(args.game)
    options = rules.normalize_options(args.seats, json.loads(args.options))
    games: list[list[Event]] = []
    actions = 0
    start = time.perf_counter()
    for g in range(args.games):
        events, n = play_game(rules, args.seats, options, args.seed * 1_000_003 + g)
        games.append(events)
        actions += n
    elapsed = time.perf_counter() - start
    replays = []
    for events in games:
        t = time.perf_counter()
        replay(rules, args.seats, options, events)
        replays.append(time.perf_counter() - t)
    events_total = sum(len(e) for e in games)
    print(f"{args.game} seats={args.seats} games={args.games} options={json.dumps(options)}")
    print(f"  games/s    {args.games / elapsed:10.1f}")
    print(f"  actions/s  {actions / elapsed:10.0f}  ({actions / args.games:.0f} chosen per game)")
    per_game = events_total / args.games
    print(f"  events/s   {events_total / elapsed:10.0f}  ({per_game:.0f} per game)")
    print(f"  replay     {statistics.median(replays) * 1000:10.3f} ms median per finished game")


if __name__ == "__main__":
    main()
