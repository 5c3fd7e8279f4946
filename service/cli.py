"""The ``papyrus`` command: ``papyrus serve [--host] [--port] [--database-url]``."""

from __future__ import annotations

import argparse
import os
import sys

from service.store.database import DEFAULT_DATABASE_URL


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="papyrus", description="Papyrus game server")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the HTTP server (GraphQL, REST, websockets)")
    serve.add_argument("--host", default=os.environ.get("PAPYRUS_HOST", "127.0.0.1"))
    serve.add_argument("--port", type=int, default=int(os.environ.get("PAPYRUS_PORT", "8000")))
    serve.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL,
        help="sqlite:///path/to/file.sqlite (default: ./papyrus.sqlite) or "
        "postgresql://user:password@host:port/dbname; also read from DATABASE_URL",
    )
    serve.add_argument("--log-level", default="info")
    serve.add_argument(
        "--no-projections",
        action="store_true",
        help="do not keep the read models current here (a `papyrus projections run` does)",
    )
    projections = commands.add_parser("projections", help="read models: rebuild, run, status")
    projections.add_argument("action", choices=["rebuild", "run", "status"])
    projections.add_argument(
        "--name",
        action="append",
        help="a read model (games, profiles, ratings, stats); repeat for several; default all",
    )
    projections.add_argument(
        "--database-url", default=os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    )
    export = commands.add_parser("schema", help="print the GraphQL schema (SDL)")
    export.add_argument("--output", help="write to this file instead of standard output")
    args = parser.parse_args(argv)

    if args.command == "projections":
        return run_projections(args.action, tuple(args.name or ()), args.database_url)

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
        import uvicorn

        from service.asgi import create_app
        from service.settings import Settings

        settings = Settings(database_url=args.database_url)
        if args.no_projections:
            settings = Settings(database_url=args.database_url, run_projections=False)
        app = create_app(settings)
        print(f"Papyrus on http://{args.host}:{args.port}/graphql ({args.database_url})")
        uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
        return 0
    return 2


def run_projections(action: str, names: tuple[str, ...], database_url: str) -> int:
    """``rebuild``: drop and recompute; ``run``: keep them current until interrupted."""
    import signal
    import threading
    import time

    from service.readmodels import ReadModels
    from service.store.database import Database, open_store
    from service.store.feed import Feed

    models = ReadModels(open_store(database_url), Database(database_url))
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
            feed = Feed(models.store, Database(database_url).is_postgres)
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
