"""bench/api.py, the load generator of issue 14 (a smoke test, not a timing): its options, its
reading of a server's CPU from /proc, and one short closed-loop run on SQLite."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def bench_api() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_api", ROOT / "bench" / "api.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_api"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_options_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    api = bench_api()
    for wrong in (["--mode", "open"], ["--rate", "-3"], ["--rate", "fast"], ["--store", "x"]):
        with pytest.raises(SystemExit) as stopped:
            api.main(wrong)
        assert stopped.value.code == 2, wrong
    assert "--rate" in capsys.readouterr().err


def test_quantiles_and_the_cpu_of_a_process_tree() -> None:
    api = bench_api()
    ordered = [float(x) for x in range(1, 1001)]
    assert (api.quantile(ordered, 0.5), api.quantile(ordered, 0.99)) == (500.0, 990.0)
    assert api.quantile(ordered, 0.999) == 999.0
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass\ntime.sleep(30)",
        ]
    )
    try:
        assert child.pid in api.process_tree(os.getpid())  # children count with the server
        deadline = time.monotonic() + 20
        while api.cpu_seconds([child.pid]) < 0.25 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert 0.25 <= api.cpu_seconds([child.pid]) < 5
        assert api.cpu_seconds([os.getpid()]) >= api.cpu_seconds([child.pid])
        assert api.rss_mib([child.pid]) > 1
    finally:
        child.kill()
        child.wait()


def test_a_short_closed_loop_on_sqlite(capsys: pytest.CaptureFixture[str]) -> None:
    """Two games for a second: actions are played and every figure is reported."""
    api = bench_api()
    [figures] = api.main(
        ["--store", "sqlite", "--games", "2", "--seconds", "1", "--warmup", "0", "--json"]
    )
    assert figures["mode"] == "closed" and figures["actions"] > 0
    assert figures["requests"] >= 2 * figures["actions"]  # a read before every act
    assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["p999_ms"]
    assert figures["server_cpu_ms_per_action"] > 0
    out = capsys.readouterr().out
    assert "actions/s" in out and '"actions_per_s"' in out.splitlines()[-1]
