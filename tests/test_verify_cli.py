"""``papyrus verify FILE``: an exported game checked offline, with no server and no store: the
hash chain, the seed and its salt against the commitment recorded at creation, and every event
replayed through the rules (domain.audit). Exit 0 "ok: N events verified"; exit 1 "event V does
not hold: reason" naming the first event that does not hold; exit 2 for a file that is not an
exported game."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance.forgeries import reseal  # a forger's re-chaining, as the kit's
from service.cli import main
from tests.conftest import Server

CLIENTS = Path(__file__).resolve().parent.parent / "clients" / "python"
sys.path.insert(0, str(CLIENTS))

from example_bot import ExampleBot  # noqa: E402
from papyrus_client import PapyrusClient  # noqa: E402


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A finished Imhotep game, exported over REST (GET /api/v1/games/{id}/export) from a real
    server: the example bot against a server bot."""
    url = f"sqlite:///{tmp_path_factory.mktemp('verify') / 'papyrus.sqlite'}"
    with Server(url) as server, PapyrusClient(server.url) as client:
        client.register("auditor")
        game = client.create_game("IMHOTEP", 2)
        client.join(game.id)
        client.add_bot(game.id)
        assert ExampleBot(client, seed=7).play(game.id).game.status == "FINISHED"
        yield client.export(game.id)


def run(tmp_path: Path, document: Any, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = tmp_path / "game.json"
    text = document if isinstance(document, str) else json.dumps(document)
    path.write_text(text, encoding="utf-8")
    code = main(["verify", str(path)])
    out = capsys.readouterr()
    return code, (out.out + out.err).strip()


def game_step(document: dict[str, Any]) -> dict[str, Any]:
    """A decided step in the middle of the game (one with an action, not the last)."""
    steps = [e for e in document["events"] if e["action"] is not None]
    return steps[len(steps) // 2]


def test_a_real_export_verifies(
    exported: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(tmp_path, exported, capsys)
    key = exported["signature"]["keyId"]  # the server signs it (tests/service/test_signing.py)
    assert (code, out) == (
        0,
        f"ok: {len(exported['events'])} events verified\n"
        f"signed by {key} (not checked: no keys given)",
    )


def test_the_installed_command_verifies_a_file(exported: dict[str, Any], tmp_path: Path) -> None:
    """The ``papyrus`` entry point itself, as a user runs it."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    papyrus = Path(sys.executable).parent / "papyrus"
    done = subprocess.run(
        [str(papyrus), "verify", str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[0] == f"ok: {len(exported['events'])} events verified"


def test_changed_data_without_resealing_names_the_event(
    exported: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hash chain: one event's data changed, its hash left as it was."""
    document = copy.deepcopy(exported)
    step = game_step(document)
    step["data"] = {**step["data"], "forged": True}
    code, out = run(tmp_path, document, capsys)
    assert code == 1
    assert out == (
        f"event {step['version']} does not hold: its hash does not match its content: it was changed"
    )


def test_a_resealed_forged_event_names_the_event(
    exported: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Replay through the rules: an event changed and the chain recomputed from it verifies
    hash by hash, but the rules do not give it."""
    document = copy.deepcopy(exported)
    step = game_step(document)
    step["data"] = {**step["data"], "forged": True}
    reseal(document, step["version"])
    code, out = run(tmp_path, document, capsys)
    assert code == 1
    assert out.startswith(f"event {step['version']} does not hold: "), out
    assert "hash" not in out


def test_a_seed_that_does_not_match_its_commitment_names_event_1(
    exported: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seed and salt against the commitment recorded at creation."""
    document = copy.deepcopy(exported)
    document["events"][0]["data"]["seed"] = "another seed"
    document["seed"] = "another seed"
    reseal(document, 1)
    code, out = run(tmp_path, document, capsys)
    assert (code, out) == (
        1,
        "event 1 does not hold: the seed does not match the commitment recorded at creation",
    )
    document = copy.deepcopy(exported)
    document["events"][0]["data"]["seed_salt"] = "0" * 64
    document["seedSalt"] = "0" * 64
    reseal(document, 1)
    code, out = run(tmp_path, document, capsys)
    assert code == 1 and out.startswith("event 1 does not hold: the seed"), out


def test_a_header_that_contradicts_the_log_is_refused(
    exported: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The document's own fields (result, seed) must say what its verified log says."""
    document = copy.deepcopy(exported)
    actual = document["result"]["winners"]
    # A random game can end in a tie, so the forged winners are whichever differ from the real.
    document["result"]["winners"] = next(w for w in ([0], [1], [0, 1]) if w != actual)
    code, out = run(tmp_path, document, capsys)
    assert code == 1 and out.startswith("the document's result"), out
    document = copy.deepcopy(exported)
    document["seats"] = 3
    code, out = run(tmp_path, document, capsys)
    assert (code, out) == (1, "the document's seats does not match its first event")


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("{not json", "is not JSON"),
        ('"a string"', "is not an exported game: An exported game is a JSON object."),
        ('{"format": "something-else"}', 'is not an exported game: This is not a "papyrus-game"'),
        ("[" * 5000 + "]" * 5000, "is not JSON"),
    ],
)
def test_a_malformed_file_is_a_clear_error(
    content: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(tmp_path, content, capsys)
    assert code == 2
    assert out.startswith("error: ") and says in out, out


def test_an_event_without_its_fields_is_a_clear_error(
    exported: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = copy.deepcopy(exported)
    del document["events"][2]["hash"]
    code, out = run(tmp_path, document, capsys)
    assert code == 2 and "Event 3 must have exactly the fields" in out, out


def test_a_missing_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["verify", str(tmp_path / "nowhere.json")])
    assert code == 2
    assert "error: cannot read" in capsys.readouterr().err
