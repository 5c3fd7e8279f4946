"""The ``mcts`` level: information-set Monte Carlo tree search over the pure engine.

Single-observer ISMCTS (Cowling, Powley, Whitehouse 2012) with UCT selection:

1. **Determinize.** Each iteration draws a position consistent with what the bot's seat may
   see: ``levels.determinize`` (``Rules.fork(state, [seat], rng)``: the seat's view kept,
   everything hidden from it re-dealt; Amun-Re's other seats' gold and secret commitments are
   replaced by what public information allows). The true state's hidden parts are never read.
2. **Select / expand.** One tree is shared by every determinization. A node's children are
   keyed by (mover, action); in a determinization only the children whose action is legal there
   are *available*: selection takes the available child maximising
   ``mean reward + C * sqrt(ln(availability) / visits)`` for the seat that moves there (each
   seat maximises its own reward: the multi-player max-n reading); an untried legal action is
   expanded first. In a simultaneous step (Amun-Re's Offering) the lowest active seat moves
   first in the tree, the bot's own seat at the root.
3. **Roll out.** Random legal actions (an active seat drawn at random) until the game ends or
   the game's ``rollout_depth`` actions were played; a finished game is worth its win share
   (a tie shares) blended with the final margin, a cut-off one is worth its projected margin
   (``evaluation.projected``), both squashed into [0, 1] per seat.
4. **Back up** the reward vector along the path; after the budget the most visited root action
   is played.

The budget is an iteration count by default (``Budget.iterations``: the move is a function of
the seed, the version and the seat's view) or wall time (``Budget.seconds``); either way a
wall-time ``Budget.bound`` stops the iterations early (the bot driver's bound on think time).
"""

from __future__ import annotations

import json
import math
import time
from typing import Any

from domain.contract import JSON, Rules
from domain.engine import play
from domain.registry import game
from service.app.bots import evaluation
from service.app.bots.levels import Budget, bot_rng, determinize

#: exploration constant of UCT, for rewards in [0, 1]
EXPLORATION = 0.7
#: the weight of the win share in a finished game's reward (the rest is the margin)
WIN_WEIGHT = 0.75


class Node:
    """One tree node: the seat that moved into it, its statistics and its children."""

    __slots__ = ("available", "children", "mover", "reward", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.reward = 0.0
        self.available = 0
        self.children: dict[str, Node] = {}


def key_of(mover: int, action: JSON) -> str:
    return f"{mover}:{json.dumps(action, sort_keys=True, separators=(',', ':'))}"


def squash(margin: float, scale: float) -> float:
    return 0.5 + 0.5 * math.tanh(margin / scale)


def rewards(rules: Rules[Any], position: Any, seats: int) -> list[float]:
    """Each seat's reward in [0, 1] for a finished or cut-off ``position`` (module doc)."""
    scale = game(rules.kind).margin_scale  # points of margin worth "clearly ahead"
    outcome = rules.outcome(position)
    if outcome is None:
        points = evaluation.projected(rules, position)
        return [squash(evaluation.lead(points, s), scale) for s in range(seats)]
    final = [float(p) for p in outcome.scores]
    share = 1.0 / len(outcome.winners) if outcome.winners else 0.0
    return [
        WIN_WEIGHT * (share if s in outcome.winners else 0.0)
        + (1 - WIN_WEIGHT) * squash(evaluation.lead(final, s), scale)
        for s in range(seats)
    ]


def choose(
    rules: Rules[Any], state: Any, seat: int, seed: str, version: int, budget: Budget
) -> JSON:
    rng = bot_rng("mcts", seed, version, seat)
    first = determinize(rules, state, seat, rng)
    actions = rules.legal_actions(first, seat)
    if len(actions) == 1:
        return actions[0]
    seats = len(rules.scores(first))
    root = Node(seat)
    started = time.perf_counter()
    deadline = None if budget.seconds is None else started + budget.seconds
    bound = None if budget.bound is None else started + budget.bound
    depth_limit = game(rules.kind).rollout_depth  # then the position is valued
    iteration = 0
    while True:
        if deadline is not None:
            if iteration and time.perf_counter() >= deadline:
                break
        elif iteration >= budget.iterations:
            break
        if bound is not None and iteration and time.perf_counter() >= bound:
            break  # the server's bound on think time (at least one iteration always runs)
        position = first if iteration == 0 else determinize(rules, state, seat, rng)
        iteration += 1
        node, path = root, [root]
        # selection and expansion
        while rules.outcome(position) is None:
            active = rules.active_seats(position)
            mover = seat if node is root else min(active)
            legal = rules.legal_actions(position, mover)
            keys = [key_of(mover, a) for a in legal]
            untried = [i for i, k in enumerate(keys) if k not in node.children]
            for k in keys:
                if k in node.children:
                    node.children[k].available += 1
            if untried:
                index = rng.choice(untried)
                child = Node(mover)
                child.available = 1
                node.children[keys[index]] = child
                _, position = play(rules, position, mover, legal[index], rng)
                path.append(child)
                break
            best, best_index = -1.0, 0
            for i, k in enumerate(keys):
                c = node.children[k]
                score = c.reward / c.visits + EXPLORATION * math.sqrt(
                    math.log(c.available) / c.visits
                )
                if score > best:
                    best, best_index = score, i
            node = node.children[keys[best_index]]
            _, position = play(rules, position, mover, legal[best_index], rng)
            path.append(node)
        # rollout
        depth = 0
        while depth < depth_limit and rules.outcome(position) is None:
            mover = rng.choice(rules.active_seats(position))
            action = rng.choice(rules.legal_actions(position, mover))
            _, position = play(rules, position, mover, action, rng)
            depth += 1
        reward = rewards(rules, position, seats)
        root.visits += 1
        for n in path[1:]:
            n.visits += 1
            n.reward += reward[n.mover]
    visits = [
        (root.children[k].visits if (k := key_of(seat, a)) in root.children else -1, -i)
        for i, a in enumerate(actions)
    ]
    _, minus_index = max(visits)
    return actions[-minus_index]
