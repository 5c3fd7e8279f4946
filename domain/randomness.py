"""Randomness derived from a game's secret seed (the documented, verifiable procedure).

Every command of a game gets its own generator, derived from the game's seed and the version
the command is decided at::

    digest = SHA-256( "papyrus/v1:" + seed + ":" + str(version) )   (UTF-8)
    rng    = random.Random(int.from_bytes(digest, "big"))

A shuffle is ``rng.shuffle(list)`` over the list in its documented starting order; the outcome is
stored in the event, so replays never draw again. Anybody who learns the seed after the game (it is
revealed at the end) can re-derive every shuffle. ``commitment(seed)`` is the public SHA-256 hash
recorded when the game is created.
"""

from __future__ import annotations

import hashlib
import random

PROCEDURE = "papyrus/v1"


def rng_for(seed: str, version: int) -> random.Random:
    """The generator for the command decided right after event ``version``."""
    digest = hashlib.sha256(f"{PROCEDURE}:{seed}:{version}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


def commitment(seed: str) -> str:
    """The public commitment to a secret seed (hex SHA-256)."""
    return hashlib.sha256(f"{PROCEDURE}:seed:{seed}".encode()).hexdigest()
