"""An example bot that plays a whole game over the Papyrus API, as any program could, driven by
the server's pushes: it never polls.

It reads the game once, then follows the ``gameChanged`` subscription (the Python SDK's
``changes``: one websocket, resumed after a drop): whenever a pushed change leaves it actions
to take, it picks one of ``legalActions`` (at random, from a seed: the same seed and the same
game give the same choices) and sends it typed (``typedAction``, made by ``typed_action`` from
the server's ``actionCatalog``; ``--json`` sends the JSON form), with ``expectedVersion`` and an
idempotency key (a retried request cannot act twice). When the game moved on first
(``CONFLICT``) it does nothing: the change that moved it is on its way. It stops once the game is
over (the subscription completes).

    python clients/python/example_bot.py http://127.0.0.1:8000 --kind IMHOTEP --seats 2 --bots 1
    python clients/python/example_bot.py http://127.0.0.1:8000 --join GAME_ID
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from papyrus_client import (
    Conflict,
    Game,
    GameChange,
    GameNotActive,
    NotYourTurn,
    PapyrusClient,
)


@dataclass
class Played:
    """What one bot did in a game."""

    game: Game
    actions: int = 0
    conflicts: int = 0
    pushes: int = 0


class ExampleBot:
    def __init__(
        self,
        client: PapyrusClient,
        seed: int = 0,
        wait_timeout: float = 120,
        typed: bool = True,
    ) -> None:
        self.client = client
        self.random = random.Random(seed)
        self.wait_timeout = wait_timeout
        self.typed = typed

    def choose(self, legal_actions: list[Any]) -> Any:
        return self.random.choice(legal_actions)

    def step(self, game: Game | GameChange, kind: str, game_id: str) -> int | None:
        """Plays one action chosen from ``game`` (a read or a pushed change); the game's version
        after it, or ``None`` when the game had moved on (``CONFLICT``) or the action was no
        longer the caller's to play (or the game ended meanwhile)."""
        action = self.choose(game.legal_actions)
        key = f"{game_id}:{self.client.player_id}:{game.version}"
        try:
            if self.typed:
                typed = self.client.typed_action(kind, action)
                result = self.client.act(
                    game_id, typed=typed, expected_version=game.version, idempotency_key=key
                )
            else:
                result = self.client.act(
                    game_id, action, expected_version=game.version, idempotency_key=key
                )
        except (Conflict, NotYourTurn, GameNotActive):
            return None  # the game moved on (or ended) first: its change is on its way
        return result.game.version

    def play(self, game_id: str, max_actions: int = 100_000) -> Played:
        """Plays the caller's seat until the game is over: one read, then the pushes."""
        game = self.client.game(game_id)
        played = Played(game)
        current: Game | GameChange = game
        acted_through = 0  #: the version after the bot's last action: older changes are past
        with self.client.changes(game_id, game.version, timeout=self.wait_timeout) as pushes:
            while not current.over:
                if current.legal_actions and current.version >= acted_through:
                    if played.actions >= max_actions:
                        raise RuntimeError(f"the game did not end within {max_actions} actions")
                    after = self.step(current, game.kind, game_id)
                    if after is None:
                        played.conflicts += 1
                    else:
                        played.actions += 1
                        acted_through = after
                change = next(pushes, None)
                if change is None:  # the subscription completed: the game is over
                    break
                played.pushes += 1
                current = change
        played.game = self.client.game(game_id)
        return played


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play a whole Papyrus game over the API.")
    parser.add_argument("url", help="the server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--name", default="example-bot")
    parser.add_argument("--join", metavar="GAME_ID", help="join this open game")
    parser.add_argument("--kind", default="IMHOTEP", help="IMHOTEP, AMUN_RE, ... (gameKinds)")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--bots", type=int, default=1, help="server bots to add to a new game")
    parser.add_argument("--seed", type=int, default=0, help="the bot's choices")
    parser.add_argument("--json", action="store_true", help="send actions as JSON, not typed")
    args = parser.parse_args(argv)
    with PapyrusClient(args.url) as client:
        client.register(args.name)
        if args.join:
            game_id = args.join
        else:
            game_id = client.create_game(args.kind, args.seats).id
            print(f"created {args.kind} game {game_id}")
        client.join(game_id)
        if not args.join:
            for _ in range(args.bots):
                client.add_bot(game_id)
        played = ExampleBot(client, args.seed, typed=not args.json).play(game_id)
        result = played.game.result
        print(
            f"game {game_id} {played.game.status.lower()} after {played.actions} actions of mine"
            f" ({played.pushes} pushes, no polls)"
            + (f": scores {result.scores}, winners {result.winners}" if result else "")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
