"""The ``papyrus`` command: ``papyrus serve``, ``papyrus projections``, ``papyrus schema``
(``--help`` on each lists its options; the settings are declared in ``service.settings``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import Any

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
        help="a read model (games, profiles, ratings, stats); repeat for several; default all",
    )
    Settings.add_arguments(projections, PROJECTIONS)
    export = commands.add_parser("schema", help="print the GraphQL schema (SDL)")
    export.add_argument("--output", help="write to this file instead of standard output")
    args = parser.parse_args(argv)

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
        )
        uvicorn.run(app, **server_options(settings))
        return 0
    return 2


def server_options(settings: Settings) -> dict[str, Any]:
    """What ``papyrus serve`` hands uvicorn besides the app: where to listen, the log lines
    (``log_format``; uvicorn's access log is off, ``service.api.observability`` logs each
    request) and the proxies whose forwarded client address is believed."""
    from service.api.connections import http_protocol
    from service.api.logs import logging_config

    return {
        "host": settings.host,
        "port": settings.port,
        "log_level": settings.log_level,
        "log_config": logging_config(settings.log_format, settings.log_level),
        "access_log": False,
        "proxy_headers": bool(settings.forwarded_allow_ips),
        "forwarded_allow_ips": list(settings.forwarded_allow_ips),
        # uvicorn's HTTP protocol with a deadline on request headers (slowloris)
        "http": http_protocol(settings.header_timeout),
    }


def run_projections(action: str, names: tuple[str, ...], settings: Settings) -> int:
    """``rebuild``: drop and recompute; ``run``: keep them current until interrupted."""
    import signal
    import threading
    import time

    from service.readmodels import ReadModels
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
            stop = False

            def interrupt(*_: object) -> None:
                nonlocal stop
                stop = True

            signal.signal(signal.SIGTERM, interrupt)
            signal.signal(signal.SIGINT, interrupt)
            print(f"keeping {', '.join(names or tuple(models.projections))} current; Ctrl-C stops")
            wake = threading.Event()
            feed = Feed(models.store, database.is_postgres)
            feed.subscribe(lambda *_: wake.set())
            feed.start()
            try:
                while not stop:
                    wake.clear()
                    models.catch_up(names or None)
                    wake.wait(1.0)
            finally:
                feed.stop()
        return 0
    finally:
        models.close()


def sdl(schema: object) -> str:
    """The schema as committed in ``schema.graphql``."""
    return str(schema).rstrip("\n") + "\n"


if __name__ == "__main__":
    sys.exit(main())
