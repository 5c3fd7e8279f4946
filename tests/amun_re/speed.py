"""Speed of the Amun-Re rules (not a test): random games, counting per action the legal-action
listing, ``decide``, ``evolve`` and the automatic-step check of ``domain.engine.play``; then the
replay of every finished game.

    .venv/bin/python -m tests.amun_re.speed [seats] [games]
"""

from __future__ import annotations

import random
import sys
import time

from domain.amun_re.rules import RULES
from domain.contract import JSON, Event
from domain.engine import play, replay
from tests.harness import start


def main(seats: int = 5, games: int = 100) -> None:
    actions = 0
    logs: list[tuple[JSON, list[Event]]] = []
    began = time.perf_counter()
    for game in range(games):
        options = RULES.normalize_options(seats, {})
        events, state = start(RULES, seats, options, game)
        rng = random.Random(game)
        while RULES.outcome(state) is None:
            seat = rng.choice(RULES.active_seats(state))
            legal = RULES.legal_actions(state, seat)
            steps, state = play(RULES, state, seat, rng.choice(legal), rng)
            events.extend(s.event for s in steps)
            actions += 1
        logs.append((options, events))
    spent = time.perf_counter() - began
    print(f"{seats} seats: {actions} actions in {spent:.2f} s = {actions / spent:.0f} actions/s")
    began = time.perf_counter()
    for options, events in logs:
        replay(RULES, seats, options, events)
    spent = time.perf_counter() - began
    size = sum(len(events) for _, events in logs) / len(logs)
    print(f"replay: {spent / len(logs) * 1000:.2f} ms per game of {size:.0f} events")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
