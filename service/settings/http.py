"""The settings of the HTTP and websocket protocol limits (bodies, connections, headers).

``Settings`` inherits them; they are declared, read and listed in ``--help`` like the others.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.settings.reading import (
    at_least_seconds,
    between,
    boolean,
    documents_manifest,
    integer,
    is_bool,
    seconds,
    setting,
    text,
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
    #: protocol limits against hostile clients (service/api/connections.py; the request-header
    #: deadline: service/api/httpprotocol.py)
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
    max_subscriptions: int = setting(
        10_000,
        env="PAPYRUS_MAX_SUBSCRIPTIONS",
        flag="--max-subscriptions",
        help="live subscriptions this process runs at once, every websocket together; one more "
        "is answered with a RATE_LIMITED error",
        parse=integer,
        check=between(1),
        metavar="SUBSCRIPTIONS",
    )
    #: permessage-deflate (RFC 7692) on websockets whose client offers it
    websocket_compression: bool = setting(
        False,
        env="PAPYRUS_WEBSOCKET_COMPRESSION",
        flag="--websocket-compression",
        help="compress websocket messages for clients that offer it (permessage-deflate): "
        "about a fifth of the bytes of a pushed view, at a deflate per message and "
        "subscriber on the server (off by default, as socket.io; the variable takes 1 or 0)",
        parse=boolean,
        check=is_bool,
        shown="0",
    )
    #: compiled plans (service/api/graphql/plans.py and operations.py)
    compiled_plans: bool = setting(
        True,
        env="PAPYRUS_COMPILED_PLANS",
        flag="--compiled-plans",
        help="execute the trusted documents' queries and mutations, and the events of every "
        "subscription of plain data, by plans compiled once per document (--no-compiled-plans: "
        "graphql-core executes everything; the answers are the same; the variable takes 1 or 0)",
        parse=boolean,
        check=is_bool,
        shown="1",
    )
    #: more trusted documents than the web client's and the SDK's (docs/API.md)
    trusted_documents: str = setting(
        "",
        env="PAPYRUS_TRUSTED_DOCUMENTS",
        flag="--trusted-documents",
        help="a JSON file of more trusted documents, texts by their ids (\"sha256:\" and the "
        "hex SHA-256 of the text), as persisted-document tools write them: clients may send "
        "them by id, and their queries and mutations run by compiled plans",
        parse=text,
        check=documents_manifest,
        shown="none",
        metavar="PATH",
    )
    #: keepalive and flow control of each websocket (service/api/sockets.py)
    websocket_ping_interval: float = setting(
        20.0,
        env="PAPYRUS_WEBSOCKET_PING_INTERVAL",
        flag="--websocket-ping-interval",
        help="seconds between the pings the server sends on each websocket",
        parse=seconds,
        check=at_least_seconds(0.01),
        shown="20",
        metavar="SECONDS",
    )
    websocket_ping_timeout: float = setting(
        20.0,
        env="PAPYRUS_WEBSOCKET_PING_TIMEOUT",
        flag="--websocket-ping-timeout",
        help="seconds a websocket client has to answer a ping before the server drops the "
        "connection (close code 1011)",
        parse=seconds,
        check=at_least_seconds(0.01),
        shown="20",
        metavar="SECONDS",
    )
    websocket_send_buffer: int = setting(
        256 * 1024,
        env="PAPYRUS_WEBSOCKET_SEND_BUFFER",
        flag="--websocket-send-buffer",
        help="bytes the server queues for one websocket client that does not read; past it "
        "nothing more is sent until the client reads",
        parse=integer,
        check=between(4096),
        shown="262144 (256 KiB)",
        metavar="BYTES",
    )
    websocket_send_timeout: float = setting(
        20.0,
        env="PAPYRUS_WEBSOCKET_SEND_TIMEOUT",
        flag="--websocket-send-timeout",
        help="seconds a websocket client may leave a full send buffer unread before the server "
        "drops it (close code 1008: a slow consumer)",
        parse=seconds,
        check=at_least_seconds(0.01),
        shown="20",
        metavar="SECONDS",
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
