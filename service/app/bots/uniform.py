"""The ``random`` level: uniform among the seat's legal actions.

Seeded exactly as the first server bots were (``random.Random(f"bot:{seed}:{version}")``), so a
log written before the levels existed replays to the same bot moves. The list of legal actions
of a seat depends only on what the seat may see (the harness checks the views), so the choice
does too.
"""

from __future__ import annotations

import random
from typing import Any

from domain.contract import JSON, Rules
from service.app.bots.levels import Budget


def choose(
    rules: Rules[Any], state: Any, seat: int, seed: str, version: int, budget: Budget
) -> JSON:
    chooser = random.Random(f"bot:{seed}:{version}")
    return chooser.choice(rules.legal_actions(state, seat))
