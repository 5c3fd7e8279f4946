"""The conformance kit (issue #25): ``conformance/`` holds exported games that third parties
check their verifiers against, the export format as a JSON Schema, and a manifest with every
vector's expected verdict. Here: every vector fits the schema, the kit is exactly what its
generator writes (drift fails), ``papyrus conformance check conformance/`` passes (so every
vector is re-derived in CI), a mismatch fails it, and the kit covers what it claims to.
"""

from __future__ import annotations

import base64
import copy
import filecmp
import hashlib
import json
import shutil
import subprocess
import sys
from itertools import combinations
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from domain.amun_re import data as amun_re
from domain.imhotep import data as imhotep
from service.cli import main

ROOT = Path(__file__).resolve().parent.parent
KIT = ROOT / "conformance"
PAPYRUS = Path(sys.executable).parent / "papyrus"


def manifest() -> dict[str, Any]:
    return dict(json.loads((KIT / "manifest.json").read_text(encoding="utf-8")))


def vectors(verdict: str | None = None) -> list[dict[str, Any]]:
    listed = manifest()["vectors"]
    return [v for v in listed if verdict is None or v["expected"]["verdict"] == verdict]


def document(vector: dict[str, Any]) -> dict[str, Any]:
    return dict(json.loads((KIT / vector["file"]).read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads((KIT / "export.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    return jsonschema.Draft202012Validator(schema)


def test_every_vector_fits_the_export_schema(validator: jsonschema.Draft202012Validator) -> None:
    for vector in vectors():
        errors = [e.message for e in validator.iter_errors(document(vector))]
        assert errors == [], vector["name"]


def test_the_schema_allows_a_signature_and_refuses_what_is_not_an_export(
    validator: jsonschema.Draft202012Validator,
) -> None:
    good = document(vectors("accept")[0])
    signed = {
        **good,
        "signature": {
            "alg": "Ed25519",
            "keyId": "k1",
            "head": good["events"][-1]["hash"],
            "value": "c2lnbmF0dXJl",
        },
    }
    assert validator.is_valid(signed)
    wrong_alg = copy.deepcopy(signed)
    wrong_alg["signature"]["alg"] = "RSA"
    missing_field = copy.deepcopy(good)
    del missing_field["events"][0]["hash"]
    extra_field = {**good, "comment": "added"}
    other_format = {**good, "format": "something-else"}
    for bad in (wrong_alg, missing_field, extra_field, other_format):
        assert not validator.is_valid(bad)


def test_the_kit_is_what_its_generator_writes(tmp_path: Path) -> None:
    """Regenerated from scratch (fixed seeds, ids and clock): byte for byte the committed kit.
    A change to the rules, the log or the export format shows up here as drift: regenerate
    with ``python conformance/generate.py`` and review the diff."""
    done = subprocess.run(
        [sys.executable, str(KIT / "generate.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    committed = sorted(p.name for p in (KIT / "vectors").glob("*.json"))
    assert sorted(p.name for p in (tmp_path / "vectors").glob("*.json")) == committed
    _, drifted, errors = filecmp.cmpfiles(
        KIT,
        tmp_path,
        ["manifest.json", "keys.json", *(f"vectors/{n}" for n in committed)],
        shallow=False,
    )
    assert (drifted, errors) == ([], [])


def test_the_conformance_check_passes_on_the_kit() -> None:
    """``papyrus conformance check conformance/``, the installed command as a user runs it:
    every vector re-derived, each with its expected verdict."""
    done = subprocess.run(
        [str(PAPYRUS), "conformance", "check", str(KIT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    count = len(vectors())
    assert len(lines) == count + 1
    assert all(line.startswith("ok ") for line in lines[:-1])
    assert lines[-1] == f"{count} vectors: {count} as expected, 0 mismatched"


def test_a_vector_without_its_expected_verdict_fails_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kit = tmp_path / "kit"
    shutil.copytree(KIT / "vectors", kit / "vectors")
    listed = manifest()
    good, bad = vectors("accept")[0], vectors("reject")[0]
    for entry in listed["vectors"]:
        if entry["name"] == good["name"]:
            entry["expected"] = {"verdict": "reject", "version": 3, "reason": "made up"}
        if entry["name"] == bad["name"]:
            entry["expected"] = {**entry["expected"], "version": entry["expected"]["version"] + 1}
    listed["vectors"] = [v for v in listed["vectors"] if v["name"] in (good["name"], bad["name"])]
    (kit / "manifest.json").write_text(json.dumps(listed), encoding="utf-8")
    for stray in (kit / "vectors").glob("*.json"):
        if stray.stem not in (good["name"], bad["name"], vectors()[1]["name"]):
            stray.unlink()

    assert main(["conformance", "check", str(kit)]) == 1
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith(f"MISMATCH {good['name']}: expected rejected at event 3")
    assert lines[0].endswith("got accepted")
    assert lines[1].startswith(f"MISMATCH {bad['name']}: expected rejected at event")
    assert lines[2] == f"MISMATCH vectors/{vectors()[1]['name']}.json: not in the manifest"
    assert lines[-1] == "3 vectors: 0 as expected, 3 mismatched"

    assert main(["conformance", "check", str(tmp_path / "nothing")]) == 2


def test_papyrus_verify_gives_each_vector_its_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    """The kit's verdicts are ``papyrus verify``'s: 0 for every good vector, 1 for every bad."""
    for vector in vectors():
        code = main(["verify", str(KIT / vector["file"]), "--keys", str(KIT / "keys.json")])
        out = capsys.readouterr().out
        assert code == (0 if vector["expected"]["verdict"] == "accept" else 1), (vector, out)
        where = vector["expected"].get("version")
        if where is not None:
            assert out.startswith(f"event {where} does not hold: "), (vector["name"], out)


def test_the_signed_vectors_verify_with_the_kit_key_alone() -> None:
    """What a third party does with ``keys.json`` and nothing of ours: the signed message
    rebuilt from the README's recipe, checked with the ``cryptography`` library. Every vector
    this kit's "server" played to its end is signed (an imported copy and a log older than
    signatures are not); the two forged signatures fail."""
    published = json.loads((KIT / "keys.json").read_text(encoding="utf-8"))
    (key,) = published["keys"]
    raw = base64.b64decode(key["publicKey"])
    assert key["keyId"] == "ed25519:" + hashlib.sha256(raw).hexdigest()[:16]
    public = Ed25519PublicKey.from_public_bytes(raw)
    signed, forged = 0, 0
    for vector in vectors():
        good, forgery = vector in vectors("accept"), "forged signature" in vector["covers"]
        if not (good or forgery):
            continue  # a forged log: its signature was of the log before the edit
        document = json.loads((KIT / vector["file"]).read_text(encoding="utf-8"))
        mark = document.get("signature")
        if mark is None:
            assert "imported" in vector["covers"] or vector["name"].endswith("-sealed"), vector
            continue
        message = published["message"].format(gameId=mark["gameId"], head=mark["head"])
        assert mark["head"] == document["events"][-1]["hash"]
        try:
            public.verify(base64.b64decode(mark["value"]), message.encode("utf-8"))
        except InvalidSignature:
            assert forgery, vector["name"]
            forged += 1
        else:
            assert good, vector["name"]
            signed += 1
    assert signed >= 40 and forged == 2


def test_the_kit_covers_what_it_says() -> None:
    good = vectors("accept")
    covered = {c for v in good for c in v["covers"]}
    assert len(good) >= 40
    assert {"imhotep", "amun_re"} <= covered
    for site in imhotep.SITES:
        assert {f"site:{site}:A", f"site:{site}:B"} <= covered, site
    for size in range(len(amun_re.MODULES) + 1):
        for mix in combinations(amun_re.MODULES, size):
            assert "modules:" + ("+".join(mix) or "none") in covered, mix
    assert {f"seats:{n}" for n in (2, 3, 4, 5)} <= covered
    assert {"undo:own", "undo:consent", "undo:declined"} <= covered
    assert {"clock:move", "clock:bank", "clock:take-over", "clock:reclaim"} <= covered
    assert {"fork:finished", "fork:unfinished", "imported", "redacted"} <= covered
    assert {"bot:random", "bot:greedy"} <= covered
    for vector in good:  # what the manifest says is in the game is in its log
        types = {e["type"] for e in document(vector)["events"]}
        if "clock:take-over" in vector["covers"]:
            assert {"time_expired", "seat_taken_over", "seat_reclaimed"} <= types
        if {"undo:own", "undo:consent"} & set(vector["covers"]):
            assert "actions_undone" in types
        if "undo:declined" in vector["covers"]:
            assert "undo_answered" in types and "actions_undone" not in types
        if "fork:unfinished" in vector["covers"]:
            assert "fork_dealt" in types
    bad = vectors("reject")
    assert len(bad) >= 5
    assert all(v["expected"]["reason"] for v in bad)
    assert sum(v["expected"]["version"] is not None for v in bad) >= 5
