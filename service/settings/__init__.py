"""Every setting of the server, declared once: name, type, default, environment variable,
command-line option and help text.

``Settings()`` is the defaults alone (tests build it with keyword arguments);
``Settings.from_environment(environ, argv)`` reads the environment and the command line once:
the command line wins over the environment, the environment over the default. A value that
does not parse or fails its check is a usage error (the message, and exit status 2). The
``papyrus`` options are generated from these declarations (``add_arguments``), so
``papyrus serve --help`` lists every setting with its variable and default.

This is the only module that reads the environment: the values are passed down from here
(``store_options``, ``database``, ``projection_batch``...); the lower layers never import it.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from service.app.limits import RateLimits
from service.settings.http import HttpSettings
from service.settings.limits import LimitSettings
from service.settings.reading import (
    BOTH,
    SERVE,
    Spec,
    are_proxies,
    are_words,
    between,
    boolean,
    database_url,
    for_argparse,
    integer,
    is_bool,
    lowercase,
    nonempty,
    one_of,
    proxies,
    read,
    setting,
    text,
    usage_error,
    words,
)
from service.settings.store import StoreSettings
from service.store.database import Database, StoreOptions

DEFAULT_DATABASE_URL = "sqlite:///papyrus.sqlite"
#: uvicorn's log levels
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")
#: ``service.api.observability``'s log line formats
LOG_FORMATS = ("text", "json")
_STORE = StoreOptions()


@dataclass(frozen=True, kw_only=True)
class Settings(StoreSettings, HttpSettings, LimitSettings):
    database_url: str = setting(
        DEFAULT_DATABASE_URL,
        env="DATABASE_URL",
        flag="--database-url",
        help="where the events and read models live: sqlite:///relative/path.sqlite, "
        "sqlite:////absolute/path.sqlite or postgresql://user:password@host:5432/dbname "
        "(postgres:// too)",
        parse=text,
        check=database_url,
        commands=BOTH,
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
    #: proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (uvicorn applies them)
    forwarded_allow_ips: tuple[str, ...] = setting(
        ("127.0.0.1", "::1"),
        env="FORWARDED_ALLOW_IPS",
        flag="--forwarded-allow-ips",
        help="comma-separated addresses or networks (10.0.0.0/8) of the proxies whose "
        "X-Forwarded-For and X-Forwarded-Proto are believed: a request through one of them is "
        "logged (and rate-limited) under the client address it forwards; * believes every "
        "peer (when only the proxy can reach the server), none believes no one",
        parse=proxies,
        check=are_proxies,
        shown="127.0.0.1,::1",
        metavar="ADDRESSES",
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

    #: largest accepted request body, in bytes
    def __post_init__(self) -> None:
        for name, spec in SPECS.items():
            try:
                spec.check(getattr(self, name))
            except ValueError as problem:
                raise ValueError(f"{name}: {problem}") from None

    # -- what the lower layers take ------------------------------------------------------------

    @property
    def store_options(self) -> StoreOptions:
        return StoreOptions(
            pool_size=self.pool_size,
            connect_timeout=self.connect_timeout,
            sqlite_lock_timeout=self.sqlite_lock_timeout,
            sqlite_synchronous=self.sqlite_synchronous,
            statement_timeout=self.statement_timeout,
            pool_timeout=self.pool_timeout,
        )

    @property
    def database(self) -> Database:
        return Database(self.database_url, self.store_options)

    @property
    def rate_limits(self) -> RateLimits:
        return RateLimits(
            window_seconds=self.rate_window,
            mutations_per_player=self.rate_mutations_per_player,
            mutations_per_address=self.rate_mutations_per_address,
            registrations_per_address=self.rate_registrations_per_address,
            failed_authentications_per_address=self.rate_failed_authentications_per_address,
        )

    # -- reading them ----------------------------------------------------------------------------

    @classmethod
    def add_arguments(cls, parser: argparse.ArgumentParser, command: str = SERVE) -> None:
        """One option per setting that ``command`` takes, with its variable and default."""
        group = parser.add_argument_group(
            "settings",
            "each option may be given by its environment variable instead; the option wins "
            "over the variable, the variable over the default",
        )
        for name, spec in SPECS.items():
            if command not in spec.commands:
                continue
            default = DEFAULTS[name]
            shown = spec.shown if spec.shown is not None else str(default)
            help_text = f"{spec.help} [env {spec.env}; default {shown}]".replace("%", "%%")
            if isinstance(default, bool):
                group.add_argument(
                    spec.flag,
                    dest=name,
                    action=argparse.BooleanOptionalAction,
                    default=argparse.SUPPRESS,
                    help=help_text,
                )
            else:
                group.add_argument(
                    spec.flag,
                    dest=name,
                    type=for_argparse(spec),
                    default=argparse.SUPPRESS,
                    metavar=spec.metavar or name.upper(),
                    help=help_text,
                )

    @classmethod
    def from_arguments(
        cls,
        args: argparse.Namespace,
        parser: argparse.ArgumentParser,
        command: str = SERVE,
        environ: Mapping[str, str] | None = None,
    ) -> Settings:
        """The settings ``command`` takes from ``args`` (parsed by a parser given
        ``add_arguments``), else from ``environ`` (the process environment by default), else
        their defaults; the others keep their defaults. A bad value: ``parser.error``."""
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for name, spec in SPECS.items():
            if command not in spec.commands:
                continue
            if hasattr(args, name):  # checked by its argparse type already
                values[name] = getattr(args, name)
                continue
            raw = environ.get(spec.env, "")
            if not raw.strip():  # unset or empty: the default
                continue
            try:
                values[name] = read(spec, raw)
            except ValueError as problem:
                usage_error(parser, f"environment variable {spec.env}: {problem}")
        try:
            return cls(**values)
        except ValueError as problem:  # a check across settings (none yet): still a usage error
            usage_error(parser, str(problem))

    @classmethod
    def from_environment(
        cls,
        environ: Mapping[str, str] | None = None,
        argv: Sequence[str] = (),
        command: str = SERVE,
    ) -> Settings:
        """Read the settings of ``papyrus <command>`` from ``environ`` and ``argv``."""
        parser = argparse.ArgumentParser(prog=f"papyrus {command}")
        cls.add_arguments(parser, command)
        return cls.from_arguments(parser.parse_args(list(argv)), parser, command, environ)


#: the server's own settings first (--help lists them in this order), then the inherited ones
ORDERED = sorted(fields(Settings), key=lambda f: f.name not in Settings.__annotations__)
SPECS: dict[str, Spec] = {f.name: f.metadata["setting"] for f in ORDERED}
DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(Settings)}
