"""What the soak runs and breaks: a private PostgreSQL cluster and ``papyrus serve`` replicas.

The cluster is the soak's own (``initdb`` in a temporary folder, on a free port), so that it
can be restarted during play without touching any other database on the machine. ``initdb``
refuses to run as root: as root, the cluster is made and run by the ``postgres`` user.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from bench.common import ROOT, free_port


def postgres_bin(name: str) -> str:
    """A PostgreSQL server program (Debian keeps them out of the PATH)."""
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
    for folder in versions:
        if (folder / name).exists():
            return str(folder / name)
    raise RuntimeError(f"PostgreSQL's {name} is not installed (Debian: postgresql)")


class PrivatePostgres:
    """A PostgreSQL cluster of the soak's own, started in a temporary folder."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="papyrus-soak-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/papyrus"
        self._as_postgres = os.geteuid() == 0
        if self._as_postgres:
            shutil.chown(self.folder, "postgres")
        self._run(postgres_bin("initdb"), "-D", str(self.data), "--auth=trust", "-U", "postgres")
        self.start()
        self._psql("CREATE DATABASE papyrus")

    def _run(self, *command: str) -> None:
        if self._as_postgres:
            command = ("su", "postgres", "-s", "/bin/sh", "-c", shlex.join(command))
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def _ctl(self, action: str) -> None:
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder}"
        options += " -c max_connections=300 -c fsync=on"
        self._run(
            postgres_bin("pg_ctl"),
            "-D",
            str(self.data),
            "-m",
            "fast",
            "-w",
            "-l",
            str(self.folder / "postgres.log"),
            "-o",
            options,
            action,
        )

    def _psql(self, statement: str) -> None:
        import psycopg

        admin = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(statement)

    def start(self) -> None:
        self._ctl("start")

    def restart(self) -> float:
        """Stop (fast: every connection is cut) and start again; the seconds it was down."""
        started = time.monotonic()
        self._ctl("restart")
        return time.monotonic() - started

    def close(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._ctl("stop")
        shutil.rmtree(self.folder, ignore_errors=True)


class Replica:
    """One ``papyrus serve`` process on a fixed port (kept across restarts)."""

    def __init__(self, name: str, database_url: str, options: list[str], folder: Path) -> None:
        self.name = name
        self.database_url = database_url
        self.options = options
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/graphql"
        self.log_path = folder / f"{name}.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self, ready_seconds: float = 60.0) -> None:
        command = [sys.executable, "-m", "service.cli", "serve", "--port", str(self.port)]
        command += ["--database-url", self.database_url, "--log-format", "json", *self.options]
        self.spawn(command, ready_seconds, self.ready)

    def ready(self) -> bool:
        try:
            return httpx.get(f"{self.url}/readyz", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def spawn(self, command: list[str], ready_seconds: float, ready: Callable[[], bool]) -> None:
        """Start ``command`` (its output to the log) and wait until ``ready()``."""
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self.starts += 1
        deadline = time.monotonic() + ready_seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited: see {self.log_path}")
            if ready():
                return
            time.sleep(0.2)
        raise RuntimeError(f"{self.name} was not ready in {ready_seconds} s: see {self.log_path}")

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def kill(self) -> None:
        """``kill -9``: no shutdown, nothing flushed, connections cut."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self) -> int | None:
        """SIGTERM, as an orchestrator stops it: its exit status (``None`` if it had to be
        killed after a minute)."""
        if self.process is None or self.process.poll() is not None:
            return None if self.process is None else self.process.returncode
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.kill()
            return None

    def log_lines(self) -> list[str]:
        return self.log_path.read_text(errors="replace").splitlines()


class Projections(Replica):
    """``papyrus projections run``: the process that keeps the read models current for servers
    started with ``--no-projections``. It serves no HTTP: it is started once its banner is
    logged."""

    def start(self, ready_seconds: float = 60.0) -> None:
        command = [sys.executable, "-m", "service.cli", "projections", "run"]
        command += ["--database-url", self.database_url, *self.options]
        self.spawn(command, ready_seconds, self.ready)

    def ready(self) -> bool:
        return "current; Ctrl-C stops" in self.log_path.read_text(errors="replace")
