"""The settings of the server process itself: its database, where it listens, how it logs,
which proxies and origins it believes, its metrics listener, its threads and whether it keeps
the read models current.

``Settings`` inherits them; ``--help`` lists them first, in this order.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.api.logs import LOG_FORMATS
from service.settings.reading import (
    BOTH,
    KEYS,
    are_proxies,
    are_words,
    between,
    boolean,
    database_url,
    integer,
    is_bool,
    lowercase,
    nonempty,
    one_of,
    proxies,
    setting,
    text,
    words,
)

DEFAULT_DATABASE_URL = "sqlite:///papyrus.sqlite"
#: uvicorn's log levels
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")


@dataclass(frozen=True, kw_only=True)
class ServerSettings:
    database_url: str = setting(
        DEFAULT_DATABASE_URL,
        env="DATABASE_URL",
        flag="--database-url",
        help="where the events and read models live: sqlite:///relative/path.sqlite, "
        "sqlite:////absolute/path.sqlite or postgresql://user:password@host:5432/dbname "
        "(postgres:// too)",
        parse=text,
        check=database_url,
        commands=(*BOTH, KEYS),
        metavar="URL",
    )
    host: str = setting(
        "127.0.0.1",
        env="PAPYRUS_HOST",
        flag="--host",
        help="address to listen on",
        parse=text,
        check=nonempty,
    )
    port: int = setting(
        8000,
        env="PAPYRUS_PORT",
        flag="--port",
        help="port to listen on",
        parse=integer,
        check=between(1, 65535),
    )
    log_level: str = setting(
        "info",
        env="PAPYRUS_LOG_LEVEL",
        flag="--log-level",
        help=f"uvicorn's log level: {', '.join(LOG_LEVELS)}",
        parse=lowercase,
        check=one_of(LOG_LEVELS),
        metavar="LEVEL",
    )
    log_format: str = setting(
        "text",
        env="PAPYRUS_LOG_FORMAT",
        flag="--log-format",
        help="text: one readable line per request or message, for a terminal; json: one JSON "
        "object per line, for a log collector (the image sets json)",
        parse=lowercase,
        check=one_of(LOG_FORMATS),
        metavar="FORMAT",
    )
    #: proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (service.api.forwarded)
    forwarded_allow_ips: tuple[str, ...] = setting(
        ("127.0.0.1", "::1"),
        env="FORWARDED_ALLOW_IPS",
        flag="--forwarded-allow-ips",
        help="comma-separated addresses or networks (10.0.0.0/8) of the proxies whose "
        "X-Forwarded-For and X-Forwarded-Proto are believed: a request through one of them is "
        "logged (and rate-limited) under the client address it forwards, the rightmost "
        "X-Forwarded-For entry that is not itself one of these proxies; * believes every peer "
        "for the one entry it adds (only when nothing but the proxy can reach the server), "
        "none believes no one",
        parse=proxies,
        check=are_proxies,
        shown="127.0.0.1,::1",
        metavar="ADDRESSES",
    )
    #: the operator's listener: GET /metrics (service.api.metrics_port), never the public port
    metrics_host: str = setting(
        "127.0.0.1",
        env="PAPYRUS_METRICS_HOST",
        flag="--metrics-host",
        help="address the metrics listener (GET /metrics, Prometheus) listens on: the "
        "loopback by default, reachable from this machine only",
        parse=text,
        check=nonempty,
    )
    metrics_port: int = setting(
        0,
        env="PAPYRUS_METRICS_PORT",
        flag="--metrics-port",
        help="port of the metrics listener, apart from the public --port (which never serves "
        "metrics); 0: no metrics listener. Several processes on one host need a port each",
        parse=integer,
        check=between(0, 65535),
        shown="0 (none)",
        metavar="PORT",
    )
    #: threads that run the synchronous event store work
    workers: int = setting(
        16,
        env="PAPYRUS_WORKERS",
        flag="--workers",
        help="threads that run the (synchronous) event-store and read-model work",
        parse=integer,
        check=between(1),
    )
    #: origins whose pages may call GraphQL and REST (CORS) and open websockets cross-origin
    allowed_origins: tuple[str, ...] = setting(
        (),
        env="PAPYRUS_ALLOWED_ORIGINS",
        flag="--allowed-origins",
        help="comma-separated origins (https://play.example.com) whose pages may call "
        "GraphQL and REST (CORS, preflight included) and open websockets to this server; "
        "unset: same origin only; * allows every origin",
        parse=words,
        check=are_words,
        shown="none",
        metavar="ORIGINS",
    )
    #: keep the read models current in this process (off when a ``papyrus projections run``
    #: process does it for every server)
    run_projections: bool = setting(
        True,
        env="PAPYRUS_RUN_PROJECTIONS",
        flag="--projections",
        help="keep the read models current in this process (--no-projections: a "
        "`papyrus projections run` process does; the variable takes 1 or 0, yes or no)",
        parse=boolean,
        check=is_bool,
        shown="1",
    )
    #: FOR TESTS ONLY: a file whose number of milliseconds is added to the time the clocks of
    #: timed tables read (``service.app.now.OffsetFileClock``); unset on every real server
    clock_offset_file: str = setting(
        "",
        env="PAPYRUS_CLOCK_OFFSET_FILE",
        flag="--clock-offset-file",
        help="tests only: a file holding a whole number of milliseconds added to the time "
        "that timed tables' clocks read (tests move time with it); unset: the system time",
        parse=text,
        check=lambda value: None,
        shown="unset",
        metavar="PATH",
    )
