"""The TypeScript client types (clients/typescript): generated from schema.graphql, committed,
and compiling with the pinned TypeScript compiler (``tsc --noEmit`` over ``schema.ts`` and the
typed ``example.ts``).

Node and npm are on the development machines and in CI; elsewhere the compile test is skipped
with the reason printed, and under ``CI=true`` a missing node/npm fails it.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

import pytest
from graphql import build_schema

ROOT = Path(__file__).resolve().parent.parent
CLIENT = ROOT / "clients" / "typescript"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("papyrus_ts_generate", CLIENT / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_types_match_the_schema() -> None:
    """Drift: schema.ts is exactly what generate.py gives from the committed schema.graphql."""
    schema = build_schema((ROOT / "schema.graphql").read_text(encoding="utf-8"))
    committed = (CLIENT / "schema.ts").read_text(encoding="utf-8")
    assert committed == generator().generate(schema), (
        "clients/typescript/schema.ts is out of date: run .venv/bin/python clients/typescript/generate.py"
    )


def test_the_types_name_the_api_contract() -> None:
    """The API contract's names appear as types: Game's fields, the enums, act's arguments."""
    text = (CLIENT / "schema.ts").read_text(encoding="utf-8")
    for line in (
        'export type GameKind = "IMHOTEP" | "AMUN_RE";',
        'export type GameStatus = "OPEN" | "ACTIVE" | "FINISHED" | "ABANDONED";',
        "export interface MutationActArgs {",
        "  expectedVersion?: number | null;",
        "  idempotencyKey?: string | null;",
        "  legalActions: Array<JSONValue>;",
        "  activeSeats: Array<number>;",
        "  result: GameResult | null;",
        "  mySeat: number | null;",
    ):
        assert line in text, line


def node_tools() -> tuple[str, str]:
    npm, npx = shutil.which("npm"), shutil.which("npx")
    if npm is None or npx is None or shutil.which("node") is None:
        reason = "node/npm are not installed: the TypeScript types cannot be compiled here"
        if IN_CI:
            pytest.fail(f"{reason} (CI=true: this check must run)")
        pytest.skip(reason)
    return npm, npx


def test_the_types_and_the_example_compile() -> None:
    """``npm ci`` (the lock file pins typescript) then ``tsc --noEmit`` over schema.ts and
    example.ts; node_modules is kept between runs (gitignored)."""
    npm, npx = node_tools()
    installed = CLIENT / "node_modules" / "typescript" / "package.json"
    lock = CLIENT / "package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=CLIENT, check=True, timeout=300)
    result = subprocess.run(
        [npx, "--no-install", "tsc", "--noEmit", "-p", "."],
        cwd=CLIENT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_compiler_rejects_a_misuse_of_the_types(tmp_path: Path) -> None:
    """The check has teeth: an act without its gameId or a wrong GameKind does not compile."""
    _, npx = node_tools()
    if not (CLIENT / "node_modules" / "typescript").exists():
        test_the_types_and_the_example_compile()
    shutil.copy(CLIENT / "schema.ts", tmp_path / "schema.ts")
    bad = tmp_path / "bad_usage_check.ts"
    bad.write_text(
        'import type { MutationActArgs, GameKind } from "./schema";\n'
        "export const args: MutationActArgs = { action: {}, expectedVersion: 3 };\n"
        'export const kind: GameKind = "CHESS";\n',
        encoding="utf-8",
    )
    result = subprocess.run(
        [npx, "--no-install", "tsc", "--noEmit", "--strict", str(bad)],
        cwd=CLIENT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode != 0
    assert "gameId" in result.stdout and "CHESS" in result.stdout, result.stdout
