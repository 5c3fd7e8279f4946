"""A maintainer's commands (``service.cli``): ``papyrus conformance check DIR`` re-derives the
conformance kit's vectors against its manifest (``service.app.conformance``), ``papyrus
resimulate`` re-runs the stored finished games through the current rules and lists those whose
events or result would differ (``service.app.resimulate``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import Any

from service.settings.reading import PROJECTIONS


def add_commands(commands: Any) -> dict[str, argparse.ArgumentParser]:
    """The commands' parsers, by name."""
    from service.settings import Settings

    conformance = commands.add_parser(
        "conformance",
        help="check the conformance kit: every vector re-derived against its manifest",
        description="Re-derive every exported game the kit's manifest.json lists (hash chain, "
        "seed, every event through the rules, the header against the log) and compare the "
        "verdict with the one the manifest expects (accept; or reject at a given event). One "
        "line per vector and a summary; exit 0 when all are as expected, 1 on any mismatch, 2 "
        "for a directory without a manifest.",
    )
    conformance.add_argument("action", choices=["check"])
    conformance.add_argument("directory", help="the kit's directory (conformance/ here)")
    resimulate = commands.add_parser(
        "resimulate",
        help="re-run stored finished games through the current rules; list those that differ",
        description="Play every finished game of the store (the same settings as papyrus serve "
        "name it) again from its seed and recorded actions through the rules this version "
        "runs, and list every game whose events or result would differ: its id, the first "
        "differing event and what differs, and the result then and now. Exit 1 when any game "
        "differs (0 with --exit-zero), 0 when none does.",
    )
    resimulate.add_argument(
        "--game", action="append", metavar="ID", help="only this game (repeat for several)"
    )
    resimulate.add_argument(
        "--exit-zero", action="store_true", help="exit 0 even when some games differ"
    )
    Settings.add_arguments(resimulate, PROJECTIONS)
    return {"conformance": conformance, "resimulate": resimulate}


def run(
    args: argparse.Namespace,
    parsers: dict[str, argparse.ArgumentParser],
    environ: Mapping[str, str] | None,
) -> int:
    if args.command == "conformance":
        from service.app.conformance import report

        return report(args.directory, sys.stdout)
    from service.app import resimulate
    from service.settings import Settings
    from service.store.database import open_store

    settings = Settings.from_arguments(args, parsers["resimulate"], PROJECTIONS, environ)
    database = settings.database
    store = open_store(database.url, database.options)
    try:
        code = resimulate.report(store, sys.stdout, tuple(args.game or ()))
    finally:
        store.close()
    return 0 if args.exit_zero else code
