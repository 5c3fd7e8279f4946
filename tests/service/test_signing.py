"""Signed game records on a real server (docs/API.md "Signed records"): the key the embedded
default generates next to its database, ``GET /api/v1/keys`` and ``papyrus keys``, the
signature an export carries and ``verifyLog`` reports, key rotation, a key from the
environment, a server without a key, an imported copy, and account deletion (the signature
of a finished game stays valid through redaction, sealed names included)."""

from __future__ import annotations

import base64
import json
import random
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain import signature
from domain import table as tables
from domain.contract import Event
from domain.redaction import DELETED_PLAYER
from service.app.application import Application
from service.app.keyfiles import private_key_file, write_new
from service.app.signing import raw_public
from service.cli import main
from service.store.database import open_store
from tests.client import Client, register
from tests.conftest import Server
from tests.service.play import create_table, play_graphql

VERIFY = "query($g: ID!) { verifyLog(gameId: $g) { ok signedBy signature } }"


@dataclass
class Played:
    folder: Path
    url: str
    server: Server
    players: list[Client]
    game_id: str


def finished_game(
    server: Server, names: tuple[str, str] = ("Ann", "Bob")
) -> tuple[list[Client], str]:
    players = [register(server.url, name) for name in names]
    game_id = create_table(players, "IMHOTEP")
    assert play_graphql(players, game_id, random.Random(11))["status"] == "FINISHED"
    return players, game_id


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """The embedded default (SQLite, no key configured) with one finished game."""
    folder = tmp_path_factory.mktemp("signing")
    url = f"sqlite:///{folder / 'papyrus.sqlite'}"
    with Server(url) as server:
        players, game_id = finished_game(server)
        yield Played(folder, url, server, players, game_id)


def export(client: Client, game_id: str) -> dict[str, Any]:
    answer = client.rest("GET", f"/games/{game_id}/export")
    assert answer.status_code == 200, answer.text
    document: dict[str, Any] = answer.json()
    return document


def verify(
    tmp_path: Path, document: dict[str, Any], capsys: pytest.CaptureFixture[str], *options: str
) -> tuple[int, list[str]]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    code = main(["verify", str(path), *options])
    out = capsys.readouterr()
    return code, (out.out + out.err).strip().splitlines()


def keys_file(tmp_path: Path, server: Server) -> str:
    answer = Client(server.url).rest("GET", "/keys")
    assert answer.status_code == 200, answer.text
    path = tmp_path / "keys.json"
    path.write_text(answer.text, encoding="utf-8")
    return str(path)


def public_b64(key: Ed25519PrivateKey) -> str:
    return base64.b64encode(raw_public(key.public_key())).decode()


def test_the_embedded_default_generates_its_key_next_to_the_database(
    played: Played, capsys: pytest.CaptureFixture[str]
) -> None:
    path = played.folder / "papyrus.sqlite.signing-key.pem"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    key = private_key_file(str(path))
    key_id = signature.key_id(raw_public(key.public_key()))

    published = Client(played.server.url).rest("GET", "/keys").json()  # no token needed
    assert published == {
        "alg": "Ed25519",
        "message": "papyrus/v1:game-head:{gameId}:{head}",
        "keys": [
            {"keyId": key_id, "alg": "Ed25519", "publicKey": public_b64(key), "status": "active"}
        ],
    }
    assert main(["keys", "--database-url", played.url], {}) == 0
    assert json.loads(capsys.readouterr().out) == published


def test_a_signed_export_verifies_offline_with_only_the_public_key(
    played: Played, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = export(played.players[1], played.game_id)
    signed = document["signature"]
    head = document["events"][-1]["hash"]
    assert set(signed) == {"alg", "keyId", "gameId", "head", "value"}
    assert (signed["alg"], signed["gameId"], signed["head"]) == ("Ed25519", played.game_id, head)
    # exactly the bytes docs/API.md names, checked with nothing of Papyrus but the public key
    published = Client(played.server.url).rest("GET", "/keys").json()["keys"][0]
    public = base64.b64decode(published["publicKey"])
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    Ed25519PublicKey.from_public_bytes(public).verify(
        base64.b64decode(signed["value"]),
        f"papyrus/v1:game-head:{played.game_id}:{head}".encode(),
    )
    ok = [f"ok: {len(document['events'])} events verified", f"signed by {signed['keyId']}"]
    keys = keys_file(tmp_path, played.server)
    assert verify(tmp_path, document, capsys, "--keys", keys) == (0, ok)
    assert verify(tmp_path, document, capsys, "--key", published["publicKey"]) == (0, ok)
    keys_url = f"{played.server.url}/api/v1/keys"
    assert verify(tmp_path, document, capsys, "--keys-url", keys_url) == (0, ok)
    # Ed25519 is deterministic: every export of the finished game carries the same signature
    assert export(played.players[0], played.game_id)["signature"] == signed


def test_with_another_key_it_fails(
    played: Played, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = export(played.players[0], played.game_id)
    key_id = document["signature"]["keyId"]
    other = Ed25519PrivateKey.generate()
    other_id = signature.key_id(raw_public(other.public_key()))
    code, out = verify(tmp_path, document, capsys, "--key", public_b64(other))
    assert code == 1
    assert out[-1] == f"signature INVALID: {key_id} is not one of the given keys"

    # a forger signs the head with their own key and claims the server's key id
    head = document["events"][-1]["hash"]
    forged = other.sign(signature.message(played.game_id, head))
    document["signature"]["value"] = base64.b64encode(forged).decode()
    code, out = verify(tmp_path, document, capsys, "--keys", keys_file(tmp_path, played.server))
    assert (code, out[-1]) == (1, f"signature INVALID: it was not made by {key_id} for this log")
    # ... or their own key's id: not one of the server's keys
    document["signature"]["keyId"] = other_id
    code, out = verify(tmp_path, document, capsys, "--keys", keys_file(tmp_path, played.server))
    assert (code, out[-1]) == (1, f"signature INVALID: {other_id} is not one of the given keys")


def test_a_rechained_edit_no_longer_matches_its_signature(
    played: Played, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An edit the chain and the rules cannot see (the time of the last entry moved by one
    microsecond), the chain recomputed as a forger who knows the revealed seed would: the
    document verifies entry by entry, but the signature does not sign its head."""
    from datetime import datetime, timedelta

    from domain.log import Entry, entry_hash

    document = export(played.players[0], played.game_id)
    last = document["events"][-1]
    moved = datetime.fromisoformat(last["at"]) + timedelta(microseconds=1)
    last["at"] = moved.isoformat()
    last["hash"] = entry_hash(
        Entry(**last), document["events"][-2]["hash"], document["seed"], document["seedSalt"]
    )
    keys = keys_file(tmp_path, played.server)
    code, out = verify(tmp_path, document, capsys, "--keys", keys)
    assert out[0] == f"ok: {len(document['events'])} events verified"  # the chain holds
    assert (code, out[1]) == (
        1,
        "signature INVALID: it signs another head than the log's last hash",
    )
    document["signature"]["head"] = last["hash"]  # the head claimed too: the value betrays it
    code, out = verify(tmp_path, document, capsys, "--keys", keys)
    key_id = document["signature"]["keyId"]
    assert (code, out[1]) == (1, f"signature INVALID: it was not made by {key_id} for this log")


def test_an_unsigned_export_says_unsigned(
    played: Played, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = export(played.players[0], played.game_id)
    del document["signature"]
    keys = keys_file(tmp_path, played.server)
    count = len(document["events"])
    assert verify(tmp_path, document, capsys, "--keys", keys) == (
        0,
        [f"ok: {count} events verified", "unsigned"],
    )
    assert verify(tmp_path, document, capsys) == (0, [f"ok: {count} events verified", "unsigned"])


def test_verify_log_reports_the_signature(played: Played) -> None:
    client = played.players[0]
    signed = export(client, played.game_id)["signature"]
    shown = client.gql(VERIFY, {"g": played.game_id})["verifyLog"]
    assert shown == {"ok": True, "signedBy": signed["keyId"], "signature": signed}
    rest = Client(played.server.url).rest("GET", f"/games/{played.game_id}/verify").json()
    assert (rest["signedBy"], rest["signature"]) == (signed["keyId"], signed)

    running = create_table([client, register(played.server.url, "Cleo")], "IMHOTEP")
    shown = client.gql(VERIFY, {"g": running})["verifyLog"]
    assert shown == {"ok": True, "signedBy": None, "signature": None}  # not finished: no head


def test_an_imported_copy_is_not_signed_by_the_importer(played: Played) -> None:
    """The server did not play an imported copy: it signs nothing of it."""
    client = played.players[1]
    document = export(client, played.game_id)
    imported = client.rest("POST", "/games/import", json=document)
    assert imported.status_code == 201, imported.text
    copy_id = imported.json()["id"]
    assert "signature" not in export(client, copy_id)
    shown = client.gql(VERIFY, {"g": copy_id})["verifyLog"]
    assert shown == {"ok": True, "signedBy": None, "signature": None}


def test_key_rotation_keeps_the_old_signatures_verifiable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'papyrus.sqlite'}"
    old, new = tmp_path / "old.pem", tmp_path / "new.pem"
    old_id = signature.key_id(raw_public(write_new(old).public_key()))
    new_id = signature.key_id(raw_public(write_new(new).public_key()))
    with Server(url, signing_key_file=str(old)) as server:
        players, game_id = finished_game(server)
        before = export(players[0], game_id)
    assert before["signature"]["keyId"] == old_id
    assert not (tmp_path / "papyrus.sqlite.signing-key.pem").exists()  # a key was given

    with Server(url, signing_key_file=str(new), retired_keys=(str(old),)) as server:
        published = Client(server.url).rest("GET", "/keys").json()["keys"]
        assert [(k["keyId"], k["status"]) for k in published] == [
            (new_id, "active"),
            (old_id, "retired"),
        ]
        after = export(Client(server.url, players[0].token), game_id)
        assert after["signature"]["keyId"] == new_id  # an export now is signed by the new key
        keys_url = f"{server.url}/api/v1/keys"
        count = len(before["events"])
        assert verify(tmp_path, before, capsys, "--keys-url", keys_url) == (
            0,
            [f"ok: {count} events verified", f"signed by {old_id} (retired)"],
        )
        assert verify(tmp_path, after, capsys, "--keys-url", keys_url) == (
            0,
            [f"ok: {count} events verified", f"signed by {new_id}"],
        )
    argv = ["keys", "--signing-key", str(new), "--retired-keys", str(old)]
    assert main(argv, {}) == 0
    assert json.loads(capsys.readouterr().out)["keys"] == published


def test_a_key_from_the_environment_and_a_server_without_a_key(
    postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed = base64.b64encode(bytes(range(32))).decode()
    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    key_id = signature.key_id(raw_public(key.public_key()))
    assert main(["keys"], {"PAPYRUS_SIGNING_KEY": seed}) == 0
    assert json.loads(capsys.readouterr().out)["keys"][0]["keyId"] == key_id
    with Server(postgres_url, signing_key=seed) as server:
        assert Client(server.url).rest("GET", "/keys").json()["keys"][0]["keyId"] == key_id
        players, game_id = finished_game(server)
        assert export(players[0], game_id)["signature"]["keyId"] == key_id
    with Server(postgres_url) as server:  # PostgreSQL and no key: nothing is signed
        assert Client(server.url).rest("GET", "/keys").json()["keys"] == []
        client = Client(server.url, players[0].token)
        assert "signature" not in export(client, game_id)
        shown = client.gql(VERIFY, {"g": game_id})["verifyLog"]
        assert shown == {"ok": True, "signedBy": None, "signature": None}


def test_a_bad_key_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.pem"
    bad.write_text("not a key", encoding="ascii")
    with pytest.raises(SystemExit) as exit_:
        main(["keys", "--signing-key", str(bad)], {})
    assert exit_.value.code == 2
    assert "bad.pem" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["keys"], {"PAPYRUS_SIGNING_KEY": "secret-but-wrong"})
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "secret-but-wrong" not in err  # never echoes the secret


def test_a_finished_game_keeps_its_signature_through_account_deletion(
    sqlite_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both kinds of names a deletion erases (domain.redaction): an unsealed one (the hash
    leaves it out) and a sealed one, recorded as older logs did (the export takes its hash as
    recorded). The head does not change, so the signature made before the deletion is the one
    made after, and both documents verify with the server's key."""
    with Server(sqlite_url) as server:
        zelda, other = register(server.url, "Zelda Secret"), register(server.url, "Other")
        zelda_id: str = zelda.player_id  # type: ignore[attr-defined]
        created = zelda.rest("POST", "/games", json={"kind": "IMHOTEP", "seats": 2})
        game_id = created.json()["id"]
        store = open_store(sqlite_url)  # another application on the server's database
        try:
            old_style = Event(
                tables.SEAT_TAKEN,
                {"seat": 0, "player_id": zelda_id, "name": "Zelda Secret", "bot": None},
                0,
            )  # as seats were recorded before: the name sealed by the hash
            Application(store).tables.command(
                game_id, lambda game: game.record(old_style, actor=zelda_id)
            )
        finally:
            store.close()
        other.gql("mutation($g: ID!) { joinGame(gameId: $g) { status } }", {"g": game_id})
        assert play_graphql([zelda, other], game_id, random.Random(5))["status"] == "FINISHED"
        unsealed_id = create_table([zelda, other], "IMHOTEP")  # as every seat is taken now
        assert play_graphql([zelda, other], unsealed_id, random.Random(6))["status"] == "FINISHED"
        before = export(other, game_id)
        unsealed_before = export(other, unsealed_id)
        keys = keys_file(tmp_path, server)

        assert zelda.rest("DELETE", "/me").status_code == 204
        after = export(other, game_id)
        assert "Zelda Secret" not in json.dumps(after)
        assert after["redacted"] == [2] and after["events"][1]["data"]["name"] == DELETED_PLAYER
        assert after["signature"] == before["signature"]
        unsealed_after = export(other, unsealed_id)
        assert "Zelda Secret" not in json.dumps(unsealed_after)
        assert "redacted" not in unsealed_after  # the hashes never covered the name
        assert unsealed_after["signature"] == unsealed_before["signature"]
        for game in (game_id, unsealed_id):
            shown = other.gql(VERIFY, {"g": game})["verifyLog"]
            assert shown["ok"] is True and shown["signedBy"] is not None
    key_id = before["signature"]["keyId"]
    for document in (before, after, unsealed_before, unsealed_after):
        count = len(document["events"])
        assert verify(tmp_path, document, capsys, "--keys", keys) == (
            0,
            [f"ok: {count} events verified", f"signed by {key_id}"],
        )
