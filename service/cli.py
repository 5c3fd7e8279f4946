"""The ``papyrus`` command: ``papyrus serve [--host] [--port] [--database-url]``."""

from __future__ import annotations

import argparse
import os
import sys

from service.store import DEFAULT_DATABASE_URL


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
    export = commands.add_parser("schema", help="print the GraphQL schema (SDL)")
    export.add_argument("--output", help="write to this file instead of standard output")
    args = parser.parse_args(argv)

    if args.command == "schema":
        from service.graphql.schema import schema

        text = sdl(schema)
        if args.output:
            with open(args.output, "w", encoding="utf-8") as out:
                out.write(text)
        else:
            sys.stdout.write(text)
        return 0

    if args.command == "serve":
        import uvicorn

        from service.http import create_app
        from service.settings import Settings

        app = create_app(Settings(database_url=args.database_url))
        print(f"Papyrus on http://{args.host}:{args.port}/graphql ({args.database_url})")
        uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
        return 0
    return 2


def sdl(schema: object) -> str:
    """The schema as committed in ``schema.graphql``."""
    return str(schema).rstrip("\n") + "\n"


if __name__ == "__main__":
    sys.exit(main())
