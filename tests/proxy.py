"""Debian's nginx in front of test servers, configured from the shipped ``deploy/nginx.conf``.

``Nginx(upstreams, bind=...)`` starts ``/usr/sbin/nginx`` on a free loopback port with its own
prefix, temp and log files in a temporary folder. Its configuration is ``deploy/nginx.conf``
itself (the proxy headers, websocket upgrade and timeouts an operator deploys), with only what
must differ on a test machine replaced: where it listens, the upstream servers, the files it
writes, and the address it connects to the servers from (``proxy_bind``: a loopback address of
its own, so that a server can tell the proxy from a client on the same machine). Each
replacement must match the shipped file exactly once: a change there that the test no longer
covers fails here.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.conftest import IN_CI, free_port

NGINX = "/usr/sbin/nginx"
SHIPPED = Path(__file__).resolve().parents[1] / "deploy" / "nginx.conf"


def replace_once(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"deploy/nginx.conf no longer has exactly one {old!r}"
    return text.replace(old, new)


class Nginx:
    """nginx on ``127.0.0.1:<free port>`` proxying to ``upstreams`` (``host:port``), connecting
    to them from ``bind``."""

    def __init__(self, upstreams: list[str], bind: str = "127.0.0.2") -> None:
        if not os.access(NGINX, os.X_OK):
            message = f"{NGINX} is missing (apt-get install nginx-light; .ci/run installs it)"
            if IN_CI:
                pytest.fail(message)
            pytest.skip(message)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/graphql"
        self.prefix = Path(tempfile.mkdtemp(prefix="papyrus-nginx-"))
        config = self.prefix / "nginx.conf"
        config.write_text(self.configuration(upstreams, bind), encoding="utf-8")
        self.process = subprocess.Popen(
            [NGINX, "-p", f"{self.prefix}/", "-c", str(config), "-e", str(self.error_log)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"nginx did not start:\n{self.errors()}")

    @property
    def error_log(self) -> Path:
        return self.prefix / "error.log"

    def errors(self) -> str:
        return self.error_log.read_text(errors="replace") if self.error_log.exists() else ""

    def configuration(self, upstreams: list[str], bind: str) -> str:
        text = SHIPPED.read_text(encoding="utf-8")
        prefix = self.prefix
        text = replace_once(text, "worker_processes auto;", "worker_processes 1;")
        text = replace_once(
            text,
            "events {",
            f"daemon off;\npid {prefix}/nginx.pid;\n"
            + ("user root;\n" if os.geteuid() == 0 else "")  # its workers read our temp files
            + "events {",
        )
        text = replace_once(
            text, "access_log /var/log/nginx/access.log;", f"access_log {prefix}/access.log;"
        )
        text = replace_once(
            text,
            "error_log /var/log/nginx/error.log warn;",
            f"error_log {self.error_log} warn;\n"
            + "".join(
                f"    {kind}_temp_path {prefix}/{kind};\n"
                for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
            ),
        )
        servers = [line for line in text.splitlines() if line.strip().startswith("server papyrus-")]
        assert servers, "deploy/nginx.conf has no `server papyrus-N:8000` upstream line"
        for number, line in enumerate(servers):
            ours = "".join(f"        server {u};\n" for u in upstreams) if number == 0 else ""
            text = text.replace(line + "\n", ours)
        text = replace_once(text, "listen 8000;", f"listen 127.0.0.1:{self.port};")
        # connect to the servers from an address of its own (they trust that one, as compose's
        # replicas trust the proxy's fixed address)
        return replace_once(
            text, "proxy_http_version 1.1;", f"proxy_http_version 1.1;\n        proxy_bind {bind};"
        )

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful: finish, then exit
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=15)
        shutil.rmtree(self.prefix, ignore_errors=True)

    def __enter__(self) -> Nginx:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
