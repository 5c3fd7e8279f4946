"""What a game record's signature covers (audits: an export carries it, ``papyrus verify``
checks it; the keys are published at ``GET /api/v1/keys``).

The hash chain (``domain.log``) proves that nothing changed after the last hash, not who wrote
the log: anyone may edit an export and recompute the chain. The server therefore signs the
head of a finished game's chain, the hash of its last entry, which seals every entry before it.
The signature is Ed25519 (RFC 8032, pure Ed25519, no pre-hashing) over the UTF-8 bytes of::

    papyrus/v1:game-head:<game id>:<head>

where ``<game id>`` is the game's id as the server names it (a lowercase UUID) and ``<head>``
the hash of the game's last entry (64 lowercase hex digits). A document carries::

    "signature": {"alg": "Ed25519", "keyId": ..., "gameId": ..., "head": ..., "value": ...}

``value``: the 64-byte signature in base64 (RFC 4648, with padding); ``keyId``: which of the
server's keys made it (``key_id``: derived from the public key, so it names exactly one key).
The head of a finished game never changes: deleting a player's account erases names that the
hashes leave out or takes the hashes of older entries as recorded (``domain.redaction``), so
the signature of a finished game stays valid through every redaction.
"""

from __future__ import annotations

import hashlib
import re

#: the one signature algorithm
ALG = "Ed25519"
#: what every signed message starts with (domain separation: no other Papyrus message is signed)
PREFIX = "papyrus/v1:game-head:"
#: a hash of the chain: 64 lowercase hex digits
HEAD = re.compile(r"[0-9a-f]{64}")
#: what a ``keyId`` looks like
KEY_ID = re.compile(r"ed25519:[0-9a-f]{16}")


def message(game_id: str, head: str) -> bytes:
    """The exact bytes signed for the chain head ``head`` of game ``game_id``."""
    if ":" in game_id or not game_id:
        raise ValueError(f"not a game id: {game_id!r}")
    if not HEAD.fullmatch(head):
        raise ValueError(f"not a chain head (64 lowercase hex digits): {head!r}")
    return f"{PREFIX}{game_id}:{head}".encode()


def key_id(public_key: bytes) -> str:
    """The id of an Ed25519 public key (its 32 raw bytes): ``ed25519:`` and the first 16 hex
    digits of their SHA-256."""
    if len(public_key) != 32:
        raise ValueError("an Ed25519 public key is 32 bytes")
    return "ed25519:" + hashlib.sha256(public_key).hexdigest()[:16]
