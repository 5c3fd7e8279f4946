"""The signature of a game record checked offline (``service.app.signing.check``, what
``papyrus verify`` prints beside the chain's verdict), the signed bytes (``domain.signature``)
and the key files (``service.app.keyfiles``). A real server's exports are checked in
tests/service/test_signing.py; here the documents are the least the check reads."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from domain import signature
from service.app import keyfiles
from service.app.signing import Keyring, PublicKey, check, keys_from_published, raw_public
from service.cli import main

GAME = "0b1c5f4e-8a0d-4c1e-9c39-0f5a8a6f2d11"
HEAD = hashlib.sha256(b"the last entry").hexdigest()
SEED = bytes(range(32))


def document(keyring: Keyring, head: str = HEAD) -> dict[str, Any]:
    signed = keyring.sign(GAME, head)
    return {"events": [{"hash": HEAD}], **({"signature": signed} if signed else {})}


def test_the_signed_bytes_are_the_documented_message() -> None:
    assert signature.message(GAME, HEAD) == f"papyrus/v1:game-head:{GAME}:{HEAD}".encode()
    for game, head in ((GAME, HEAD.upper()), (GAME, HEAD[:-1]), ("a:b", HEAD), ("", HEAD)):
        with pytest.raises(ValueError):
            signature.message(game, head)
    key = Ed25519PrivateKey.from_private_bytes(SEED)
    raw = raw_public(key.public_key())
    assert signature.key_id(raw) == "ed25519:" + hashlib.sha256(raw).hexdigest()[:16]
    # RFC 8032: deterministic, so the value can be recomputed rather than stored
    signed = Keyring(key).sign(GAME, HEAD)
    assert signed is not None
    assert signed == Keyring(key).sign(GAME, HEAD)
    assert base64.b64decode(signed["value"]) == key.sign(signature.message(GAME, HEAD))


def test_signed_unsigned_and_not_checked() -> None:
    key = Ed25519PrivateKey.from_private_bytes(SEED)
    keyring = Keyring(key)
    key_id = keyring.active_id
    keys = keys_from_published(keyring.published())
    assert check(document(keyring), keys).line == f"signed by {key_id}"
    assert check(document(Keyring()), keys).line == "unsigned"
    assert check(document(keyring), None).line == f"signed by {key_id} (not checked: no keys given)"
    assert all(check(document(keyring), k).ok for k in (keys, None))


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda s: s.update(alg="RS256"), "unknown algorithm 'RS256'"),
        (lambda s: s.pop("gameId"), "it is not {{alg, keyId, gameId, head, value}}"),
        (lambda s: s.update(head="0" * 64), "it signs another head than the log's last hash"),
        (lambda s: s.update(value="not base64!"), "its value or game id is malformed"),
        (
            lambda s: s.update(gameId="11111111-2222-4333-8444-555555555555"),
            "it was not made by {key} for this log",
        ),
        (lambda s: s.update(keyId="ed25519:0000000000000000"), "ed25519:0000000000000000 is not"),
        (lambda s: s.update(keyId="\x1b[2Jmine"), "'\\x1b[2Jmine' is not a key id"),
    ],
)
def test_a_changed_signature_is_invalid(change: Any, says: str) -> None:
    keyring = Keyring(Ed25519PrivateKey.from_private_bytes(SEED))
    signed = document(keyring)
    change(signed["signature"])
    verdict = check(signed, keys_from_published(keyring.published()))
    assert not verdict.ok
    assert verdict.line.startswith("signature INVALID: ")
    assert says.format(key=keyring.active_id) in verdict.line


def test_retired_keys_still_verify_what_they_signed() -> None:
    old, new = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    before = document(Keyring(old))
    rotated = Keyring(new, [raw_public(old.public_key())])
    published = rotated.published()["keys"]
    assert [k["status"] for k in published] == ["active", "retired"]
    keys = keys_from_published(rotated.published())
    old_id = signature.key_id(raw_public(old.public_key()))
    assert check(before, keys).line == f"signed by {old_id} (retired)"
    assert check(document(rotated), keys).line == f"signed by {rotated.active_id}"
    assert Keyring(new, [raw_public(new.public_key())]).published()["keys"][0]["status"] == (
        "active"
    )  # the active key listed as retired too stays active


def test_published_keys_are_checked() -> None:
    good = Keyring(Ed25519PrivateKey.generate()).published()
    assert set(keys_from_published(good)) == {good["keys"][0]["keyId"]}
    lying = json.loads(json.dumps(good))
    lying["keys"][0]["keyId"] = "ed25519:0000000000000000"
    bad: Any
    for bad in ([], {"keys": "x"}, {"keys": [{"publicKey": "AAAA"}]}, lying):
        with pytest.raises(ValueError):
            keys_from_published(bad)


def test_key_files(tmp_path: Path) -> None:
    key = Ed25519PrivateKey.from_private_bytes(SEED)
    raw = raw_public(key.public_key())
    pem = keyfiles.pem(key).decode()
    public_pem = key.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
    assert raw_public(keyfiles.private_key(pem).public_key()) == raw
    assert raw_public(keyfiles.private_key(base64.b64encode(SEED).decode()).public_key()) == raw
    for text in (pem, public_pem.decode(), base64.b64encode(raw).decode()):
        assert keyfiles.public_key(text) == raw
    for text in ("", "not a key", base64.b64encode(b"short").decode(), public_pem.decode()):
        with pytest.raises(ValueError):
            keyfiles.private_key(text)

    written = tmp_path / "sub" / "key.pem"
    first = keyfiles.write_new(written)
    assert stat.S_IMODE(written.stat().st_mode) == 0o600
    assert not [p for p in written.parent.iterdir() if p != written]  # no draft left behind
    again = keyfiles.write_new(written)  # another process came first: its key is kept
    assert raw_public(again.public_key()) == raw_public(first.public_key())

    database = tmp_path / "papyrus.sqlite"
    made = keyfiles.keyring(sqlite_path=str(database))
    assert made.active is not None and (tmp_path / "papyrus.sqlite.signing-key.pem").exists()
    assert keyfiles.keyring(sqlite_path=str(database)).active_id == made.active_id
    assert keyfiles.keyring(sqlite_path=":memory:").active is None
    assert keyfiles.keyring(sqlite_path=None).active is None  # PostgreSQL without a key
    assert keyfiles.keyring(sqlite_path=str(tmp_path / "x.sqlite"), generate=False).keys == {}
    assert keyfiles.keyring(key_text=base64.b64encode(SEED).decode()).active_id == (
        PublicKey.of(raw).key_id
    )


def test_verify_key_options_that_name_no_keys_are_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text("{}", encoding="utf-8")
    for options in (
        ["--keys", str(tmp_path / "none.json")],
        ["--key", "not a key"],
        ["--keys-url", "ftp://example.org/keys"],
        ["--keys-url", f"http://127.0.0.1:{free_port()}/api/v1/keys"],
    ):
        with pytest.raises(SystemExit) as exit_:
            main(["verify", str(path), *options])
        assert exit_.value.code == 2
        assert "error: no keys to check the signature with" in capsys.readouterr().err


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_public_key_file_is_a_key(tmp_path: Path) -> None:
    """``--key FILE``: a PEM public key file, as ``openssl pkey -pubout`` writes it."""
    import argparse

    from service.signatures import given_keys

    key = Ed25519PrivateKey.generate()
    path = tmp_path / "public.pem"
    path.write_bytes(key.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo))
    os.chmod(path, 0o644)
    args = argparse.Namespace(keys_file=None, key=[str(path)], keys_url=None)
    assert set(given_keys(args) or {}) == {Keyring(key).active_id}
