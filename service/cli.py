"""The ``papyrus`` command: ``papyrus serve``, ``papyrus projections``, ``papyrus schema``,
``papyrus verify FILE``, ``papyrus keys``, ``papyrus conformance``, ``papyrus resimulate``
(``--help`` on each lists its options; the settings are declared in ``service.settings``)."""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import signal
import sys
from collections.abc import Mapping
from typing import Any

from service import maintenance, signatures
from service.settings import Settings
from service.settings.reading import PROJECTIONS, SERVE


def main(argv: list[str] | None = None, environ: Mapping[str, str] | None = None) -> int:
    """``environ``: where the settings' variables are read (the process environment by
    default)."""
    parser = argparse.ArgumentParser(prog="papyrus", description="Papyrus game server")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser(
        "serve",
        help="run the HTTP server (GraphQL, REST, websockets)",
        description="Run the HTTP server (GraphQL, REST, websockets).",
    )
    Settings.add_arguments(serve, SERVE)
    projections = commands.add_parser(
        "projections",
        help="read models: rebuild, run, status",
        description="Read models: rebuild (drop and recompute), run (keep them current until "
        "interrupted), status (how far each has applied the log).",
    )
    projections.add_argument("action", choices=["rebuild", "run", "status"])
    projections.add_argument(
        "--name",
        action="append",
        help="a read model (games, profiles, ratings, stats, bots); repeat for several; "
        "default all",
    )
    Settings.add_arguments(projections, PROJECTIONS)
    export = commands.add_parser("schema", help="print the GraphQL schema (SDL)")
    export.add_argument("--output", help="write to this file instead of standard output")
    check = commands.add_parser(
        "verify",
        help="check an exported game offline (hash chain, seed, every event through the rules)",
        description="Check an exported game (what exportGame or GET /api/v1/games/{id}/export "
        "gave) without a server: the hash chain, the seed and its salt against the commitment, "
        "every event replayed through the rules; then its signature against the keys given "
        '("unsigned", "signed by KEY"). Exit 0 ("ok: N events verified"), 1 (the first event '
        "that does not hold, and why, or a signature INVALID) or 2 (not an exported game).",
    )
    check.add_argument("file", help="the exported game's JSON file ('-' reads standard input)")
    signatures.add_verify_options(check)
    keys = signatures.add_keys_command(commands)  # with its settings
    tools = maintenance.add_commands(commands)  # conformance, resimulate
    args = parser.parse_args(argv)

    if args.command == "verify":
        return verify_export(args.file, args)
    if args.command == "keys":
        return signatures.print_keys(args, keys, environ)
    if args.command in tools:
        return maintenance.run(args, tools, environ)

    if args.command == "projections":
        settings = Settings.from_arguments(args, projections, PROJECTIONS, environ)
        return run_projections(args.action, tuple(args.name or ()), settings)

    if args.command == "schema":
        from service.api.graphql.schema import schema

        text = sdl(schema)
        if args.output:
            with open(args.output, "w", encoding="utf-8") as out:
                out.write(text)
        else:
            sys.stdout.write(text)
        return 0

    if args.command == "serve":
        settings = Settings.from_arguments(args, serve, SERVE, environ)
        import uvicorn

        from service.asgi import create_app
        from service.store.database import masked

        app = create_app(settings)
        print(
            f"Papyrus on http://{settings.host}:{settings.port}/graphql "
            f"({masked(settings.database_url)})"
            + (
                f"; metrics on http://{settings.metrics_host}:{settings.metrics_port}/metrics"
                if settings.metrics_port
                else ""
            )
        )
        from service import heap

        heap.keep()  # the modules and the schema out of the collector's way (service.heap)
        # `kill -USR1 <pid>`: every thread's stack on stderr, for a process that seems stuck
        with contextlib.suppress(OSError, ValueError):  # a stderr without a file (in tests)
            faulthandler.register(signal.SIGUSR1, all_threads=True)
        uvicorn.run(app, **server_options(settings))
        return 0
    return 2


def server_options(settings: Settings) -> dict[str, Any]:
    """What ``papyrus serve`` hands uvicorn besides the app: where to listen, the log lines
    (``log_format``; uvicorn's access log is off, ``service.api.observability`` logs each
    request) and how long a stop waits for the requests still running. uvicorn's own proxy
    headers are off: the app reads the forwarded client address itself
    (``service.api.forwarded``, from ``--forwarded-allow-ips``)."""
    from service.api.httpprotocol import http_protocol
    from service.api.logs import logging_config

    return {
        "host": settings.host,
        "port": settings.port,
        "log_level": settings.log_level,
        "log_config": logging_config(settings.log_format, settings.log_level),
        "access_log": False,
        "proxy_headers": False,
        # uvicorn's HTTP protocol with a deadline on request headers (slowloris)
        "http": http_protocol(settings.header_timeout),
        # a request still running that long after SIGTERM is cancelled: the process stops
        "timeout_graceful_shutdown": settings.shutdown_timeout,
        **websocket_options(settings),
    }


def websocket_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's websocket protocol with a bounded send buffer, its keepalive, and the largest
    message it reads (service/api/sockets.py)."""
    from service.api.sockets import websocket_protocol

    return {
        "ws": websocket_protocol(settings.websocket_send_buffer, settings.websocket_send_timeout),
        "ws_ping_interval": settings.websocket_ping_interval,
        "ws_ping_timeout": settings.websocket_ping_timeout,
        "ws_max_size": settings.max_body_bytes,
        "ws_per_message_deflate": settings.websocket_compression,
    }


def run_projections(action: str, names: tuple[str, ...], settings: Settings) -> int:
    """``rebuild``: drop and recompute; ``run``: keep them current until interrupted."""
    import signal
    import threading
    import time

    from service.readmodels import ReadModels, Worker
    from service.store.database import open_store
    from service.store.feed import Feed

    database = settings.database
    store = open_store(database.url, database.options)
    models = ReadModels(store, database, batch=settings.projection_batch)
    unknown = [n for n in names if n not in models.projections]
    if unknown:
        print(
            f"unknown read model(s): {', '.join(unknown)}; known: {', '.join(models.projections)}"
        )
        return 2
    try:
        if action == "rebuild":
            started = time.monotonic()
            applied = models.rebuild(names or None)
            print(
                f"rebuilt {', '.join(names or tuple(models.projections))}: "
                f"{applied} events applied in {time.monotonic() - started:.1f}s"
            )
        elif action == "status":
            head = models.store_position()
            for name, position in models.positions().items():
                if names and name not in names:
                    continue
                print(f"{name:10s} position {position} of {head} (lag {head - position})")
        else:
            stopped = threading.Event()

            def interrupt(*_: object) -> None:
                stopped.set()

            signal.signal(signal.SIGTERM, interrupt)
            signal.signal(signal.SIGINT, interrupt)
            print(f"keeping {', '.join(names or tuple(models.projections))} current; Ctrl-C stops")
            # the server's own worker: woken by the feed and every second, and through an
            # outage of the database it logs, waits and resumes from the last committed batch
            worker = Worker(models, names=names or None)
            feed = Feed(models.store, database.is_postgres)
            feed.subscribe(worker.wake)
            worker.start()
            worker.wake()
            feed.start()
            try:
                while not stopped.wait(1.0):
                    pass
            finally:
                feed.stop()
                worker.stop()
        return 0
    finally:
        models.close()


def verify_export(path: str, options: argparse.Namespace | None = None) -> int:
    """``papyrus verify FILE``: the document parsed by ``service.app.archive`` like
    ``importGame`` does, its log re-derived (``domain.audit.verify``) and its own fields (seed,
    result, ...) checked against it (``service.app.conformance.verdict_of``, the conformance
    kit's check), then its signature against the keys ``options`` name
    (``service.signatures``). Nothing is stored and no server is needed."""
    import json

    from service.app.archive import parse_document, parse_redacted
    from service.app.conformance import verdict_of
    from service.app.errors import PapyrusError
    from service.app.signing import check

    keys = signatures.keys_or_exit(options)  # before the file: a usage error first
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as source:
                text = source.read()
        document = json.loads(text)
        entries = parse_document(document)
        redacted = parse_redacted(document, entries)
    except OSError as failure:
        print(f"error: cannot read {path}: {failure.strerror or failure}", file=sys.stderr)
        return 2
    except (ValueError, RecursionError) as failure:  # JSONDecodeError, UnicodeDecodeError
        print(f"error: {path} is not JSON ({failure})", file=sys.stderr)
        return 2
    except PapyrusError as failure:
        print(f"error: {path} is not an exported game: {failure}", file=sys.stderr)
        return 2
    found = verdict_of(document, entries, redacted)  # the log re-derived, then the header
    if not found.accepted:
        print(found.line)
        return 1
    note = ""
    if entries[0].data.get("forked_from") is not None:
        note = " (a fork: its start was not compared with its source game, not in the file)"
    print(f"ok: {len(entries)} events verified{note}")
    verdict = check(document, keys)
    print(verdict.line)
    return 0 if verdict.ok else 1


def sdl(schema: object) -> str:
    """The schema as committed in ``schema.graphql``."""
    return str(schema).rstrip("\n") + "\n"


if __name__ == "__main__":
    sys.exit(main())
