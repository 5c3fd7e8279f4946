"""The settings of the HTTP and websocket protocol limits (bodies, connections, headers).

``Settings`` inherits them; they are declared, read and listed in ``--help`` like the others.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.settings.reading import (
    at_least_seconds,
    between,
    integer,
    seconds,
    setting,
)


@dataclass(frozen=True, kw_only=True)
class HttpSettings:
    max_body_bytes: int = setting(
        2 * 1024 * 1024,
        env="PAPYRUS_MAX_BODY_BYTES",
        flag="--max-body-bytes",
        help="largest accepted request body, in bytes",
        parse=integer,
        check=between(1),
        shown="2097152 (2 MiB)",
        metavar="BYTES",
    )
    #: largest accepted exported game (``POST /api/v1/games/import``), in bytes
    max_import_bytes: int = setting(
        8 * 1024 * 1024,
        env="PAPYRUS_MAX_IMPORT_BYTES",
        flag="--max-import-bytes",
        help="largest accepted exported game on POST /api/v1/games/import, in bytes",
        parse=integer,
        check=between(1),
        shown="8388608 (8 MiB)",
        metavar="BYTES",
    )
    #: protocol limits against hostile clients (service/api/connections.py)
    max_websockets_per_client: int = setting(
        50,
        env="PAPYRUS_MAX_WEBSOCKETS_PER_CLIENT",
        flag="--max-websockets-per-client",
        help="websockets one client address may have open at once; one more is refused in "
        "its handshake (429)",
        parse=integer,
        check=between(1),
        metavar="SOCKETS",
    )
    max_subscriptions_per_connection: int = setting(
        20,
        env="PAPYRUS_MAX_SUBSCRIPTIONS_PER_CONNECTION",
        flag="--max-subscriptions-per-connection",
        help="subscriptions (and other operations) one websocket may run at once; one more "
        "is answered with a RATE_LIMITED error",
        parse=integer,
        check=between(1),
        metavar="SUBSCRIPTIONS",
    )
    header_timeout: float = setting(
        10.0,
        env="PAPYRUS_HEADER_TIMEOUT",
        flag="--header-timeout",
        help="seconds a connection may take to send a request's headers (from its start, or "
        "from the first byte of a later request) before it is answered 408 and closed",
        parse=seconds,
        check=at_least_seconds(0.001),
        shown="10",
        metavar="SECONDS",
    )
    shutdown_timeout: float = setting(
        10.0,
        env="PAPYRUS_SHUTDOWN_TIMEOUT",
        flag="--shutdown-timeout",
        help="seconds a stopping server (SIGTERM, Ctrl-C) lets the requests still running "
        "finish before it cancels them; websockets are closed at once (1012)",
        parse=seconds,
        check=at_least_seconds(0.0),
        shown="10",
        metavar="SECONDS",
    )
