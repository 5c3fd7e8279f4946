"""Signed game records: the server's Ed25519 keys (``Keyring``), the signature of a finished
game's chain head (``Signing``), and its check against published keys (``check``).

What is signed is defined in ``domain.signature``. One key signs (the active one); older keys
are kept as public keys only (retired), so that what they signed still verifies after a
rotation. ``GET /api/v1/keys`` and ``papyrus keys`` publish them all (``Keyring.published``).
Ed25519 is deterministic: the same key signs the same head with the same bytes, so a finished
game's signature is computed again on every export rather than stored.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from domain import signature
from domain import table as tables
from service.app.tables import Tables
from service.store import GameTable

ACTIVE = "active"
RETIRED = "retired"


def raw_public(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


@dataclass(frozen=True)
class PublicKey:
    """A published key: its id, its 32 raw bytes and whether it still signs."""

    key_id: str
    raw: bytes
    status: str = RETIRED

    @classmethod
    def of(cls, raw: bytes, status: str = RETIRED) -> PublicKey:
        return cls(signature.key_id(raw), raw, status)

    def published(self) -> dict[str, Any]:
        return {
            "keyId": self.key_id,
            "alg": signature.ALG,
            "publicKey": base64.b64encode(self.raw).decode("ascii"),
            "status": self.status,
        }

    def verifies(self, value: bytes, message: bytes) -> bool:
        try:
            Ed25519PublicKey.from_public_bytes(self.raw).verify(value, message)
        except InvalidSignature:
            return False
        return True


class Keyring:
    """The active signing key (none: records are not signed) and the retired public keys."""

    def __init__(
        self, active: Ed25519PrivateKey | None = None, retired: Iterable[bytes] = ()
    ) -> None:
        self.active = active
        keys: dict[str, PublicKey] = {}
        if active is not None:
            key = PublicKey.of(raw_public(active.public_key()), ACTIVE)
            keys[key.key_id] = key
        for raw in retired:
            key = PublicKey.of(raw)
            keys.setdefault(key.key_id, key)  # the active key stays active if listed again
        self.keys = keys

    @property
    def active_id(self) -> str | None:
        return next((k.key_id for k in self.keys.values() if k.status == ACTIVE), None)

    def published(self) -> dict[str, Any]:
        """What ``GET /api/v1/keys`` answers: every key, the active one first."""
        return {
            "alg": signature.ALG,
            "message": signature.PREFIX + "{gameId}:{head}",
            "keys": [k.published() for k in self.keys.values()],
        }

    def sign(self, game_id: str, head: str) -> dict[str, Any] | None:
        """The signature of ``head`` (``domain.signature``), or None without an active key."""
        if self.active is None:
            return None
        value = self.active.sign(signature.message(game_id, head))
        return {
            "alg": signature.ALG,
            "keyId": self.active_id,
            "gameId": game_id,
            "head": head,
            "value": base64.b64encode(value).decode("ascii"),
        }


class Signing:
    """The signature of each finished game this server played (not of an imported copy: it
    did not play it)."""

    def __init__(self, tables_: Tables, keyring: Keyring | None = None) -> None:
        self.tables = tables_
        self.keyring = keyring or Keyring()

    def of_game(self, game: GameTable) -> dict[str, Any] | None:
        """The signature of a finished game this server played (None: unfinished, imported,
        or no key)."""
        table = game.table
        if table.status != tables.FINISHED or game.imported_by is not None:
            return None
        return self.keyring.sign(str(game.id), table.last_hash)

    def verdict(self, game_id: str, ok: bool) -> dict[str, Any]:
        """``verifyLog``'s signature fields: who signs the head of a finished log that holds."""
        signed = self.of_game(self.tables.get(game_id)) if ok else None
        return {"signed_by": signed["keyId"] if signed else None, "signature": signed}


# -- checking a document's signature (``papyrus verify``) --------------------------------------


@dataclass(frozen=True)
class Verdict:
    """``ok``: no forged signature (an unsigned or unchecked document is not a failure)."""

    ok: bool
    line: str


def keys_from_published(document: Any) -> dict[str, PublicKey]:
    """The keys of a ``GET /api/v1/keys`` answer; ValueError says what is wrong."""
    listed = document.get("keys") if isinstance(document, Mapping) else None
    if not isinstance(listed, list):
        raise ValueError('not a list of keys (the JSON of GET /api/v1/keys: {"keys": [...]})')
    keys: dict[str, PublicKey] = {}
    for item in listed:
        if not isinstance(item, Mapping) or item.get("alg", signature.ALG) != signature.ALG:
            raise ValueError(f"not an {signature.ALG} key: {item!r}")
        key = PublicKey.of(decode_public(item.get("publicKey")), str(item.get("status", ACTIVE)))
        if item.get("keyId", key.key_id) != key.key_id:
            raise ValueError(f"key {item.get('keyId')!r} is not the id of its public key")
        keys[key.key_id] = key
    return keys


def decode_public(text: Any) -> bytes:
    """A public key in base64 (its 32 raw bytes); ValueError if it is not one."""
    try:
        raw = base64.b64decode(str(text), validate=True)
    except (binascii.Error, ValueError):
        raise ValueError(f"not a base64 public key: {text!r}") from None
    if len(raw) != 32:
        raise ValueError(f"an {signature.ALG} public key is 32 bytes, not {len(raw)}")
    return raw


def check(document: Mapping[str, Any], keys: Mapping[str, PublicKey] | None) -> Verdict:
    """The signature of an exported game whose chain already verified (its last event's hash
    is the head): ``keys`` are those it may be signed by (None: none given, not checked)."""
    signed = document.get("signature")
    if signed is None:
        return Verdict(True, "unsigned")
    if not isinstance(signed, Mapping) or any(
        not isinstance(signed.get(f), str) for f in ("alg", "keyId", "gameId", "head", "value")
    ):
        return Verdict(False, "signature INVALID: it is not {alg, keyId, gameId, head, value}")
    key_id = signed["keyId"]
    if signed["alg"] != signature.ALG:
        return Verdict(False, f"signature INVALID: unknown algorithm {signed['alg']!r}")
    if not signature.KEY_ID.fullmatch(key_id):  # nothing a file says is printed unchecked
        return Verdict(False, f"signature INVALID: {key_id!r} is not a key id")
    head = document["events"][-1]["hash"]
    if signed["head"] != head:
        return Verdict(False, "signature INVALID: it signs another head than the log's last hash")
    if keys is None:
        return Verdict(True, f"signed by {key_id} (not checked: no keys given)")
    key = keys.get(key_id)
    if key is None:
        return Verdict(False, f"signature INVALID: {key_id} is not one of the given keys")
    try:
        value = base64.b64decode(signed["value"], validate=True)
        message = signature.message(signed["gameId"], head)
    except (binascii.Error, ValueError):
        return Verdict(False, "signature INVALID: its value or game id is malformed")
    if not key.verifies(value, message):
        return Verdict(False, f"signature INVALID: it was not made by {key_id} for this log")
    return Verdict(True, f"signed by {key_id}" + (" (retired)" if key.status == RETIRED else ""))
