"""An example bot that plays a whole game over the Papyrus API, as any program could.

It reads the game, picks one of ``legalActions`` (at random, from a seed: the same seed and the
same game give the same choices), acts with ``expectedVersion`` (and an idempotency key, so a
retried request cannot act twice), and when the game moved on first (``CONFLICT``) reads it again;
when it need not act, it waits on the ``gameEvents`` subscription. It stops once the game is over.

    python clients/python/example_bot.py http://127.0.0.1:8000 --kind IMHOTEP --seats 2 --bots 1
    python clients/python/example_bot.py http://127.0.0.1:8000 --join GAME_ID
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from papyrus_client import Game, PapyrusClient, PapyrusError


@dataclass
class Played:
    """What one bot did in a game."""

    game: Game
    actions: int = 0
    conflicts: int = 0


class ExampleBot:
    def __init__(self, client: PapyrusClient, seed: int = 0, wait_timeout: float = 5) -> None:
        self.client = client
        self.random = random.Random(seed)
        self.wait_timeout = wait_timeout

    def choose(self, game: Game) -> object:
        return self.random.choice(game.legal_actions)

    def step(self, game: Game) -> bool:
        """Plays one action chosen from ``game`` (as read); ``False`` when the game had moved
        on (``CONFLICT``: read it again) or the action was no longer the caller's to play."""
        action = self.choose(game)
        try:
            self.client.act(
                game.id,
                action,
                expected_version=game.version,
                idempotency_key=f"{game.id}:{game.my_seat}:{game.version}",
            )
        except PapyrusError as refused:
            if refused.code in ("CONFLICT", "NOT_YOUR_TURN"):
                return False
            raise
        return True

    def play(self, game_id: str, max_actions: int = 100_000) -> Played:
        """Plays the caller's seat until the game is over."""
        played = Played(self.client.game(game_id))
        while not played.game.over:
            game = played.game
            if game.legal_actions:
                if played.actions >= max_actions:
                    raise RuntimeError(f"the game did not end within {max_actions} actions")
                if self.step(game):
                    played.actions += 1
                else:
                    played.conflicts += 1
            else:
                # a step private to another seat wakes no one: read again after a while
                with contextlib.suppress(TimeoutError):
                    self.client.wait_for_change(game_id, game.version, self.wait_timeout)
            played.game = self.client.game(game_id)
        return played


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play a whole Papyrus game over the API.")
    parser.add_argument("url", help="the server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--name", default="example-bot")
    parser.add_argument("--join", metavar="GAME_ID", help="join this open game")
    parser.add_argument("--kind", default="IMHOTEP", choices=["IMHOTEP", "AMUN_RE"])
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--bots", type=int, default=1, help="server bots to add to a new game")
    parser.add_argument("--seed", type=int, default=0, help="the bot's choices")
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
        played = ExampleBot(client, args.seed).play(game_id)
        result = played.game.result
        print(
            f"game {game_id} {played.game.status.lower()} after {played.actions} actions of mine"
            + (f": scores {result.scores}, winners {result.winners}" if result else "")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
