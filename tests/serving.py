"""``papyrus serve`` in a process of its own, as an operator runs it, for the tests that need a
real server process (several processes on one database, signals, limits, memory, outages).

Its output goes to a log file that a failing test shows. ``stop()`` sends SIGTERM, as an
orchestrator does, and requires the process to end, cleanly and promptly: a server that does
not stop is a bug an operator meets on every deploy. When it does not end in time, its threads'
stacks (``papyrus serve`` dumps them on SIGUSR1) and its log are the failure's message.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.conftest import free_port

ROOT = Path(__file__).resolve().parents[1]
#: seconds a process is given to stop after SIGTERM (its graceful shutdown is bounded by
#: ``--shutdown-timeout``, 10 s by default, then its threads by theirs)
STOP_SECONDS = 45.0


def with_repository_path(environment: Mapping[str, str]) -> dict[str, str]:
    """``environment`` with the repository first on ``PYTHONPATH``."""
    paths = [str(ROOT), *filter(None, environment.get("PYTHONPATH", "").split(os.pathsep))]
    return {**environment, "PYTHONPATH": os.pathsep.join(paths)}


class ServeProcess:
    """``papyrus serve --port <free> --database-url <url> <options>``, ready once ``ready``
    (``/readyz`` unless told) answers 200."""

    def __init__(
        self,
        database_url: str,
        *options: str,
        log_path: Path | None = None,
        ready: str = "/readyz",
        log_level: str = "warning",
        environment: Mapping[str, str] | None = None,
    ) -> None:
        """``environment``: the process's variables (this process's by default), to which
        the repository is put first on ``PYTHONPATH`` (what the environment's own
        ``PYTHONPATH`` holds comes after it: a test's plug-ins)."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/graphql"
        self.metrics_port = free_port()  # the operator's port (an option given wins over it)
        self.metrics_url = f"http://127.0.0.1:{self.metrics_port}/metrics"
        self._own_log = log_path is None  # made here: removed after a clean stop
        if log_path is None:
            handle, name = tempfile.mkstemp(prefix="papyrus-serve-", suffix=".log")
            os.close(handle)
            log_path = Path(name)
        self.log_path = log_path
        self.killed = False
        self._kept: str | None = None
        self._log = log_path.open("wb")
        command = [sys.executable, "-m", "service.cli", "serve", "--port", str(self.port)]
        command += ["--metrics-port", str(self.metrics_port)]
        command += ["--database-url", database_url, "--log-level", log_level, *options]
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=with_repository_path(os.environ if environment is None else environment),
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                if httpx.get(f"{self.url}{ready}", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"papyrus serve did not start:\n{self.log()[-4000:]}")

    @property
    def pid(self) -> int:
        return self.process.pid

    def log(self) -> str:
        """Everything the process wrote (stdout and stderr), kept once its own file is gone."""
        if self._kept is not None:
            return self._kept
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def wait_for_log(self, found: Callable[[str], bool], seconds: float = 15) -> str:
        deadline = time.monotonic() + seconds
        while not found(text := self.log()) and time.monotonic() < deadline:
            time.sleep(0.1)
        return text

    def stop(self, seconds: float = STOP_SECONDS) -> None:
        """SIGTERM, then the process must end with status 0 within ``seconds``; otherwise it
        is killed and the failure shows its threads' stacks and its log."""
        if self.killed:
            return
        self.process.terminate()
        try:
            status = self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.process.send_signal(signal.SIGUSR1)  # faulthandler: every thread's stack
            time.sleep(2)
            self.kill()
            raise AssertionError(
                f"papyrus serve (pid {self.pid}) did not stop within {seconds:g} s of SIGTERM; "
                f"its log, ending with its threads' stacks:\n{self.log()[-12000:]}"
            ) from None
        finally:
            self._log.close()
        # uvicorn ends by raising the signal it caught again, once it has shut down
        assert status in (0, -signal.SIGTERM), (
            f"papyrus serve stopped with status {status}:\n{self.log()[-4000:]}"
        )
        if self._own_log:
            self._kept = self.log()
            self.log_path.unlink(missing_ok=True)

    def kill(self) -> None:
        """SIGKILL: no shutdown of any kind (a crash)."""
        self.killed = True
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=30)
        self._log.close()


@contextmanager
def processes(database_url: str, *options: str, count: int = 2) -> Iterator[list[ServeProcess]]:
    """``count`` server processes with ``options`` on one database, every one started stopped
    afterwards (each stop tried, the first failure raised)."""
    started: list[ServeProcess] = []
    try:
        for _ in range(count):
            started.append(ServeProcess(database_url, *options))
        yield started
    finally:
        failures: list[AssertionError] = []
        for process in started:
            try:
                process.stop()
            except AssertionError as failure:
                failures.append(failure)
        if failures:
            raise failures[0]
