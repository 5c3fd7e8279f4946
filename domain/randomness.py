"""Randomness derived from a game's secret seed (the documented, verifiable procedure).

Every command of a game gets its own generator, derived from the game's seed and the version
the command is decided at::

    digest = SHA-256( "papyrus/v1:" + seed + ":" + str(version) )   (UTF-8)
    rng    = random.Random(int.from_bytes(digest, "big"))

A shuffle is ``rng.shuffle(list)`` over the list in its documented starting order; the outcome is
stored in the event, so replays never draw again. Anybody who learns the seed after the game (it is
revealed at the end) can re-derive every shuffle. The same seed and the same actions give the same
events (docs/API.md "Games": a seed chosen by the creator makes a game reproducible).

The commitment published when the game is created (``Game.seedCommitment``) is salted with
secret entropy the server draws at the table's creation (``SALT_BYTES`` bytes from a CSPRNG,
stored hex-encoded as ``seed_salt`` beside the seed in the table's first event, hidden like the
seed while the game runs and revealed with it at the end)::

    commitment = SHA-256( salt || seed )   hex; salt = bytes.fromhex(seed_salt) (32 bytes),
                                           seed = its UTF-8 bytes

that is ``hashlib.sha256(bytes.fromhex(seed_salt) + seed.encode("utf-8")).hexdigest()``. Without
the salt nobody can test guesses of the seed against the commitment, however guessable the seed
(a creator's "4711"). Logs written before the salt existed have no ``seed_salt``; their
commitment is the unsalted ``SHA-256( "papyrus/v1:seed:" + seed )`` (``commitment(seed, None)``).

The domain draws nothing: the seed and the salt are values handed in by the service.
"""

from __future__ import annotations

import hashlib
import random
import string

PROCEDURE = "papyrus/v1"
#: bytes of secret entropy in a table's salt (hex-encoded in the log: twice as many characters)
SALT_BYTES = 32


def rng_for(seed: str, version: int) -> random.Random:
    """The generator for the command decided right after event ``version``."""
    digest = hashlib.sha256(f"{PROCEDURE}:{seed}:{version}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


def is_salt(value: object) -> bool:
    """A salt as the log stores it: ``SALT_BYTES`` bytes in lowercase hex."""
    return (
        isinstance(value, str)
        and len(value) == 2 * SALT_BYTES
        and all(c in string.hexdigits.lower() for c in value)
    )


def commitment(seed: str, salt: str | None) -> str:
    """The public commitment to a secret seed (hex SHA-256 of ``salt || seed``).

    ``salt=None``: the unsalted commitment of logs written before tables had a salt."""
    if salt is None:
        return hashlib.sha256(f"{PROCEDURE}:seed:{seed}".encode()).hexdigest()
    if not is_salt(salt):
        raise ValueError(f"a salt is {SALT_BYTES} bytes in lowercase hex")
    return hashlib.sha256(bytes.fromhex(salt) + seed.encode("utf-8")).hexdigest()
