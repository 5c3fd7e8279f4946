"""The operator's port: ``GET /metrics`` on a listener of its own (``--metrics-host``,
``--metrics-port``), never on the public port.

The metrics count what every player does (requests and actions by game kind, store timings),
private steps included: while few games run, the counters move with each seat's secret
Offering steps. They are the operator's, like the database, so they are served apart from the
API: on the loopback by default, to a Prometheus on the operator's network in a deployment
(``deploy/compose.yaml``), and not at all unless ``--metrics-port`` is given.

The listener is a small threaded WSGI server in a thread of its own, so a scrape is answered
even while the event loop is busy, and a scrape (which reads the read models' positions from
the database) never runs on it. It answers ``GET /metrics`` in the Prometheus text format
(OpenMetrics when asked, gzipped when accepted: the client library's WSGI app) and 404 on any
other path; an idle connection is dropped after ``IDLE_SECONDS``.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
from collections.abc import Callable, Iterable, Iterator
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from prometheus_client import make_wsgi_app

from service.api.metrics import Metrics

log = logging.getLogger("papyrus.metrics")

#: seconds a connection to the listener may stay silent before it is closed
IDLE_SECONDS = 10.0
PATH = "/metrics"


class MetricsPortUnavailable(RuntimeError):
    """The listener cannot bind its address (a port in use, an address not on this host)."""


class _Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True  # a scrape still running never holds the process's exit
    allow_reuse_address = True


class _Handler(WSGIRequestHandler):
    """No line per scrape on stderr (Prometheus scrapes every few seconds), and a timeout."""

    timeout = IDLE_SECONDS

    def log_message(self, format: str, *args: Any) -> None:
        return


def only_metrics(app: Callable[..., Iterable[bytes]]) -> Callable[..., Iterable[bytes]]:
    """``app`` at ``/metrics``; 404 elsewhere."""

    def routed(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("PATH_INFO", "") != PATH:
            body = b"Not found: the metrics are at /metrics.\n"
            start_response(
                "404 Not Found",
                [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))],
            )
            return [body]
        return app(environ, start_response)

    return routed


class MetricsPort:
    """``GET /metrics`` of ``metrics`` on ``host:port``, from ``start()`` to ``close()``."""

    def __init__(self, metrics: Metrics, host: str, port: int) -> None:
        self.metrics = metrics
        self.host = host
        self.port = port
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}{PATH}"

    def start(self) -> None:
        app = only_metrics(make_wsgi_app(self.metrics.registry))
        try:
            family = socket.getaddrinfo(
                self.host, self.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
            )[0][0]
            server_class = type("MetricsServer", (_Server,), {"address_family": family})
            server: _Server = make_server(
                self.host, self.port, app, server_class=server_class, handler_class=_Handler
            )
        except OSError as failure:
            reason = failure.strerror or str(failure)
            raise MetricsPortUnavailable(
                f"cannot listen for metrics on {self.host}:{self.port} ({reason}): give each "
                "process a free --metrics-port of its own, or 0 for no metrics listener"
            ) from None
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, name="papyrus-metrics", daemon=True
        )
        self._thread.start()
        log.info("metrics on %s", self.url)

    def close(self) -> None:
        server, thread = self._server, self._thread
        self._server = self._thread = None
        if server is None:
            return
        server.shutdown()  # serve_forever returns within its poll interval (0.5 s)
        server.server_close()
        if thread is not None:
            thread.join(timeout=5)


@contextlib.contextmanager
def serving_metrics(metrics: Metrics, host: str, port: int) -> Iterator[MetricsPort | None]:
    """The metrics listener for the ``with`` block (none when ``port`` is 0)."""
    if not port:
        yield None
        return
    listener = MetricsPort(metrics, host, port)
    listener.start()
    try:
        yield listener
    finally:
        listener.close()
