"""The TypeScript/JavaScript runtime SDK (clients/typescript/papyrus.ts) against a live server.

- Its compiled JavaScript is committed twice, as the package's entry point (``lib/``) and where
  the server serves it to the web client (``service/api/web/static/sdk/papyrus.js``): both must
  be exactly what the pinned tsc makes of the source (``npm run build`` rewrites them).
- ``node --test`` (clients/typescript/test/) runs against a real server started here: the SDK
  plays a whole game on ``gameChanged`` with no poll (its export then passes ``papyrus verify``),
  resumes dropped sockets with nothing missed, raises ``ApiError`` with the contract's codes, and
  sends documents by id with the UNKNOWN_DOCUMENT fallback.
- The types: ``ActionInput`` is a discriminated union (``type-tests/accept.ts`` compiles,
  ``type-tests/reject.ts`` must not, with the expected errors).

Node and npm are on the development machines and in CI; elsewhere these tests are skipped with
the reason, and under ``CI=true`` a missing node/npm fails them (as tests/test_typescript_client.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import Server
from tests.test_typescript_client import CLIENT, ROOT, node_tools

SERVED = ROOT / "service" / "api" / "web" / "static" / "sdk" / "papyrus.js"


def installed() -> str:
    """``npm ci`` done (typescript and ws from the lock file); the path of node."""
    node_tools()
    lock = CLIENT / "package-lock.json"
    for package in ("typescript", "ws"):
        marker = CLIENT / "node_modules" / package / "package.json"
        if not marker.exists() or marker.stat().st_mtime < lock.stat().st_mtime:
            npm = shutil.which("npm")
            assert npm is not None
            subprocess.run(
                [npm, "ci", "--no-audit", "--no-fund"], cwd=CLIENT, check=True, timeout=300
            )
            break
    node = shutil.which("node")
    assert node is not None
    return node


def tsc(*args: str, cwd: Path = CLIENT) -> subprocess.CompletedProcess[str]:
    installed()
    npx = shutil.which("npx")
    assert npx is not None
    return subprocess.run(
        [npx, "--no-install", "tsc", *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def test_the_committed_javascript_is_the_compiled_source(tmp_path: Path) -> None:
    """lib/ and the web client's copy are what tsc makes of papyrus.ts today."""
    result = tsc("-p", "tsconfig.build.json", "--outDir", str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    stale = "is not what papyrus.ts compiles to: run `npm run build` in clients/typescript"
    for name in ("papyrus.js", "papyrus.d.ts", "schema.js", "schema.d.ts"):
        built = (tmp_path / name).read_text(encoding="utf-8")
        assert (CLIENT / "lib" / name).read_text(encoding="utf-8") == built, f"lib/{name} {stale}"
    built = (tmp_path / "papyrus.js").read_text(encoding="utf-8")
    assert SERVED.read_text(encoding="utf-8") == built, f"{SERVED} {stale}"


def test_the_module_imports_nothing_at_run_time() -> None:
    """One file for Node and the browser: no import the page could not resolve."""
    text = SERVED.read_text(encoding="utf-8")
    assert "\nimport " not in text and not text.startswith("import "), "the SDK module imports"
    assert "export class PapyrusClient" in text and "export class ApiError" in text


def test_action_input_is_a_discriminated_union(tmp_path: Path) -> None:
    """accept.ts (one member per ActionInput, the SDK's typed documents) compiles; reject.ts
    (two members, none) does not, each line with its own error."""
    accepted = tsc("--noEmit", "-p", ".")  # tsconfig.json's files include type-tests/accept.ts
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    result = tsc("--noEmit", "-p", "type-tests/tsconfig.reject.json")
    assert result.returncode != 0, "type-tests/reject.ts compiled: ActionInput accepts too much"
    errors = [line for line in result.stdout.splitlines() if "error TS" in line]
    for line in errors:
        assert "reject.ts" in line, line
    text = (CLIENT / "type-tests" / "reject.ts").read_text(encoding="utf-8").splitlines()
    expected = {n for n, line in enumerate(text, 1) if "// must not compile" in line}
    failing = {int(line.split("(", 1)[1].split(",", 1)[0]) for line in errors}
    assert failing == expected, result.stdout
    two = next(n for n, line in enumerate(text, 1) if line.startswith("export const two"))
    assert f"reject.ts({two},14): error TS2322" in result.stdout, result.stdout  # two members
    assert "is not assignable to type 'ActionInput'" in result.stdout, result.stdout
    assert "is not assignable to type 'ErrorCode'" in result.stdout, result.stdout


def test_the_sdk_in_node_against_a_live_server(sqlite_url: str, tmp_path: Path) -> None:
    """``node --test``: a whole game with no poll, dropped sockets resumed, error codes,
    documents by id; the exported game then passes ``papyrus verify``."""
    node = installed()
    exports = tmp_path / "exports"
    exports.mkdir()
    with Server(sqlite_url) as server:
        env = {**os.environ, "PAPYRUS_URL": server.url, "PAPYRUS_EXPORTS": str(exports)}
        result = subprocess.run(
            [node, "--test", "--test-reporter=spec", "test/"],
            cwd=CLIENT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
    assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-4000:]
    exported = exports / "imhotep.json"
    assert exported.exists(), result.stdout
    papyrus = Path(sys.executable).parent / "papyrus"
    verified = subprocess.run(
        [str(papyrus), "verify", str(exported)], capture_output=True, text=True, timeout=120
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.startswith("ok: "), verified.stdout


def test_the_example_bot_compiles_and_plays_a_whole_game(sqlite_server: Server) -> None:
    """``example.ts`` is what a newcomer copies: compiled as its header says
    (``tsc -p tsconfig.example.json``) and run with node against a live server, it registers,
    plays an Imhotep game against a server bot to its end on ``gameChanged`` and says so."""
    node = installed()
    compiled = tsc("-p", "tsconfig.example.json")
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    ran = subprocess.run(
        [node, "build/example.js", sqlite_server.url, "example-ts"],
        cwd=CLIENT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    first, second = ran.stdout.splitlines()
    assert first.startswith("example-ts played game ") and ": FINISHED after " in first, first
    assert second.startswith("scores ") and "you were seat 1" in second, second


@pytest.fixture(autouse=True)
def _node_or_skip() -> None:
    node_tools()
