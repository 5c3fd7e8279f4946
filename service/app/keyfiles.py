"""Where the server's signing keys come from (``service.app.signing``): a PEM file, the
environment's text, the retired keys' files, and for the embedded SQLite default a key
generated on first start next to the database file (mode 0600).

A private key is PKCS#8 PEM (``openssl genpkey -algorithm ed25519``, or ``papyrus keys
--generate FILE``) or the base64 of its 32-byte seed; a retired key is any of those or a
public key (SubjectPublicKeyInfo PEM, or the base64 of its 32 bytes): only its public half is
kept.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    load_pem_private_key,
    load_pem_public_key,
)

from service.app.signing import Keyring, raw_public

T = TypeVar("T")

#: the generated key's file, next to the SQLite database file
GENERATED_SUFFIX = ".signing-key.pem"


def private_key(text: str) -> Ed25519PrivateKey:
    """An Ed25519 private key from PEM text or the base64 of its seed; ValueError if not."""
    text = text.strip()
    if text.startswith("-----BEGIN"):
        try:
            key = load_pem_private_key(text.encode(), password=None)
        except (ValueError, TypeError) as problem:
            raise ValueError(f"not an unencrypted PEM private key ({problem})") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise ValueError("not an Ed25519 private key")
        return key
    try:
        seed = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("neither a PEM private key nor the base64 of a 32-byte seed") from None
    if len(seed) != 32:
        raise ValueError(f"an Ed25519 seed is 32 bytes, not {len(seed)}")
    return Ed25519PrivateKey.from_private_bytes(seed)


def public_key(text: str) -> bytes:
    """The 32 raw bytes of the public key in ``text`` (any form ``private_key`` reads, a PEM
    public key, or the base64 of the 32 bytes); ValueError if none."""
    text = text.strip()
    if text.startswith("-----BEGIN PUBLIC KEY"):
        try:
            key = load_pem_public_key(text.encode())
        except ValueError as problem:
            raise ValueError(f"not a PEM public key ({problem})") from None
        if not isinstance(key, Ed25519PublicKey):
            raise ValueError("not an Ed25519 public key")
        return raw_public(key)
    if text.startswith("-----BEGIN"):
        return raw_public(private_key(text).public_key())
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("not a PEM key nor the base64 of an Ed25519 key") from None
    if len(raw) != 32:
        raise ValueError(f"an Ed25519 key is 32 bytes, not {len(raw)}")
    return raw  # 32 bytes: taken as a public key (a seed is given as PEM or as the active key)


def read_text(path: str) -> str:
    try:
        return Path(path).read_text(encoding="ascii")
    except OSError as unreadable:
        raise ValueError(f"{path}: cannot be read ({unreadable.strerror or unreadable})") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path}: is not a text key file") from None


def private_key_file(path: str) -> Ed25519PrivateKey:
    return from_file(path, private_key)


def public_key_file(path: str) -> bytes:
    return from_file(path, public_key)


def from_file(path: str, parse: Callable[[str], T]) -> T:
    """``parse`` of the key file at ``path``; its ValueError names the file."""
    text = read_text(path)
    try:
        return parse(text)
    except ValueError as problem:
        raise ValueError(f"{path}: {problem}") from None


def pem(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())


def write_new(path: Path) -> Ed25519PrivateKey:
    """A new key written to ``path`` (mode 0600, never over an existing file: if another
    process wrote one first, that one is read and returned)."""
    key = Ed25519PrivateKey.generate()
    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(pem(key))
            out.flush()
            os.fsync(out.fileno())
        os.chmod(draft, 0o600)
        try:
            os.link(draft, path)  # atomic, and refuses an existing file
        except FileExistsError:
            return private_key_file(str(path))
    finally:
        with contextlib.suppress(OSError):
            os.unlink(draft)
    return key


def generated_path(sqlite_path: str) -> Path | None:
    """Where the embedded default keeps its generated key (None for an in-memory database)."""
    if not sqlite_path or sqlite_path == ":memory:" or sqlite_path.startswith("file:"):
        return None
    return Path(sqlite_path).with_name(Path(sqlite_path).name + GENERATED_SUFFIX)


def keyring(
    key_file: str = "",
    key_text: str = "",
    retired: Sequence[str] = (),
    sqlite_path: str | None = None,
    generate: bool = True,
) -> Keyring:
    """The server's keys: the active key from ``key_file`` or ``key_text`` (the environment's),
    else, on the embedded SQLite database at ``sqlite_path``, the key kept next to it (written
    on first start when ``generate``); ``retired``: files of older keys, published only."""
    old = [public_key_file(path) for path in retired]
    if key_file:
        return Keyring(private_key_file(key_file), old)
    if key_text:
        return Keyring(private_key(key_text), old)
    path = generated_path(sqlite_path) if sqlite_path is not None else None
    if path is None:
        return Keyring(None, old)
    if path.exists():
        return Keyring(private_key_file(str(path)), old)
    return Keyring(write_new(path) if generate else None, old)
