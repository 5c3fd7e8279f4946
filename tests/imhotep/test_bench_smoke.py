"""bench/engine.py runs (a smoke test, not a timing): a few Imhotep games end to end."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


def test_bench_engine_plays_and_replays_imhotep(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_engine", ROOT / "bench" / "engine.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(["--game", "imhotep", "--seats", "3", "--games", "2"])
    out = capsys.readouterr().out
    assert "actions/s" in out and "replay" in out
