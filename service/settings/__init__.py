"""Every setting of the server, declared once: name, type, default, environment variable,
command-line option and help text (the declarations by job: ``server``, ``store``, ``http``,
``limits``, ``signing``; the machinery that reads one: ``reading``).

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

from service.settings.http import HttpSettings
from service.settings.limits import LimitSettings
from service.settings.reading import SERVE, Spec, for_argparse, read, usage_error
from service.settings.server import ServerSettings
from service.settings.signing import SigningSettings
from service.settings.store import StoreSettings
from service.store.database import Database


@dataclass(frozen=True, kw_only=True)
class Settings(ServerSettings, StoreSettings, HttpSettings, LimitSettings, SigningSettings):
    """All the settings: a value that fails its check is refused however it comes, from the
    command line, the environment or a test's keyword argument."""

    def __post_init__(self) -> None:
        for name, spec in SPECS.items():
            try:
                spec.check(getattr(self, name))
            except ValueError as problem:
                raise ValueError(f"{name}: {problem}") from None
        if self.metrics_port and self.metrics_port == self.port:
            raise ValueError(
                f"metrics_port: the metrics listener needs a port of its own, not the public "
                f"--port {self.port}"
            )

    # -- what the lower layers take ------------------------------------------------------------

    @property
    def database(self) -> Database:
        return Database(self.database_url, self.store_options)

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
        except ValueError as problem:  # a check across settings: still a usage error
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


#: the server's own settings first (--help lists them in this order), then the others
ORDERED = sorted(fields(Settings), key=lambda f: f.name not in ServerSettings.__annotations__)
SPECS: dict[str, Spec] = {f.name: f.metadata["setting"] for f in ORDERED}
DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(Settings)}
