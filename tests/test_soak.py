"""The fleet soak's short run (issue #20, ``bench/soak.py``): three replicas on one PostgreSQL
(the soak's own cluster), honest players and bots, the hostile mix, a replica ``kill -9``ed and
restarted and PostgreSQL restarted during play; then no acknowledged action lost, every log
verified, every read-model row equal to a rebuild, no ``INTERNAL`` answer nor server error, and
the honest players' act and bot-reply p99 within bounds.

About two minutes; ``PAPYRUS_SOAK_SECONDS`` plays longer (the long run: ``bench/soak.py
--seconds 1800``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.fleet.cluster import postgres_bin

ROOT = Path(__file__).resolve().parents[1]
SECONDS = float(os.environ.get("PAPYRUS_SOAK_SECONDS", "45"))


def has_postgres_programs() -> bool:
    try:
        postgres_bin("initdb")
    except RuntimeError:
        return False
    return True


@pytest.mark.postgres
def test_the_fleet_holds_through_faults_and_hostile_clients() -> None:
    if not has_postgres_programs():
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL's server programs (initdb, pg_ctl) are not installed")
        pytest.skip("PostgreSQL's server programs (initdb, pg_ctl) are not installed")
    run = subprocess.run(
        [sys.executable, "bench/soak.py", "--seconds", str(SECONDS), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=SECONDS + 600,
    )
    printed = run.stdout + run.stderr
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    assert lines, f"the soak printed no report:\n{printed[-6000:]}"
    report = json.loads(lines[-1])
    print(printed)  # the figures, in the test's output
    assert report["failures"] == [], printed[-6000:]
    assert run.returncode == 0, printed[-6000:]
    assert report["lost"] == 0
    assert report["read-model rows differing"] == 0 and report["read-model rows"] > 0
    assert report["INTERNAL answers"] == 0 and report["server errors logged"] == 0
    assert report["actions acknowledged"] > 50
    assert len(report["faults"]) == 3  # the kill, the restart, PostgreSQL's restart
