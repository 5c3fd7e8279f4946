"""Regenerate the conformance kit: ``python conformance/generate.py [DIR] [--only NAME ...]``.

Every vector is a real game played through the server's application layer (``service.app``:
the same commands a GraphQL or REST request runs) on a throw-away SQLite store, then exported
exactly as ``GET /api/v1/games/{id}/export`` exports it. Everything that would differ from one
run to the next is fixed per scenario, so that the output is byte for byte the same on every
run (``tests/test_conformance.py`` regenerates it and fails on drift):

* the time: a ``FakeClock`` from 2026-01-01T00:00:00Z that moves only when a scenario says so,
  which also stamps every entry's ``at``;
* the ids of players and games, the tables' seeds and salts, the commands' ids: derived from the
  scenario's name and a counter (SHA-256), never drawn;
* the players' choices: a ``random.Random`` seeded by the scenario's name picks among the
  listed legal actions; bots are the server's own levels, whose moves derive from the log.

The bad vectors are good ones edited afterwards (``conformance/scenarios.py``, ``BAD``), with the
first bad version and the reason a verifier must give, known from the edit itself.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from conformance.forgeries import BAD, build_bad  # noqa: E402
from conformance.scenarios import SCENARIOS, Scenario  # noqa: E402
from conformance.world import KIT_KEYRING, play_scenario  # noqa: E402
from service.app.conformance import KEYS, MANIFEST, VECTORS, dump, verdict  # noqa: E402
from service.app.signing import keys_from_published  # noqa: E402


def generate(directory: Path, only: set[str] | None = None) -> list[dict[str, Any]]:
    """Write the vectors (``only``: these names) and, for the whole set, the manifest."""
    (directory / VECTORS).mkdir(parents=True, exist_ok=True)
    published = KIT_KEYRING.published()
    keys = keys_from_published(published)
    (directory / KEYS).write_text(json.dumps(published, indent=2) + "\n", encoding="utf-8")
    listed: list[dict[str, Any]] = []
    documents: dict[str, dict[str, Any]] = {}
    wanted_good = {s.name for s in SCENARIOS}
    if only is not None:  # a bad vector needs the good one it is made from
        wanted_good = {s.name for s in SCENARIOS if s.name in only} | {
            b.source for b in BAD if b.name in only
        }
    with tempfile.TemporaryDirectory(prefix="papyrus-conformance-") as scratch:
        for scenario in SCENARIOS:
            if scenario.name not in wanted_good:
                continue
            document = play_scenario(scenario, Path(scratch))
            documents[scenario.name] = document
            found = verdict(document, keys)
            if not found.accepted:
                raise AssertionError(f"{scenario.name} does not verify: {found}")
            if only is None or scenario.name in only:
                listed.append(write(directory, scenario.name, document, entry_of(scenario)))
    for bad in BAD:
        if only is not None and bad.name not in only:
            continue
        document, expected = build_bad(bad, documents[bad.source])
        found = verdict(document, keys)
        if found.accepted or found.version != expected["version"]:
            raise AssertionError(f"{bad.name}: made to fail at {expected}, but {found}")
        listed.append(
            write(
                directory,
                bad.name,
                document,
                {
                    "kind": document.get("kind"),
                    "covers": ["rejection", *bad.covers],
                    "description": bad.description,
                    "madeFrom": bad.source,
                    "expected": expected,
                },
            )
        )
    if only is None:
        manifest = {
            "format": "papyrus-conformance",
            "formatVersion": 1,
            "exportFormat": "papyrus-game",
            "exportFormatVersion": 1,
            "schema": "export.schema.json",
            "vectors": listed,
        }
        (directory / MANIFEST).write_text(
            json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    return listed


def entry_of(scenario: Scenario) -> dict[str, Any]:
    return {
        "kind": scenario.kind,
        "seats": scenario.seats,
        "covers": scenario.covers(),
        "description": scenario.description,
        "expected": {"verdict": "accept"},
    }


def write(directory: Path, name: str, document: dict[str, Any], entry: dict[str, Any]) -> Any:
    text = dump(document)
    path = directory / VECTORS / f"{name}.json"
    path.write_text(text, encoding="utf-8")
    events = document.get("events")
    return {
        "name": name,
        "file": f"{VECTORS}/{name}.json",
        "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
        "events": len(events) if isinstance(events, list) else 0,
        **entry,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Regenerate the Papyrus conformance kit.")
    parser.add_argument("directory", nargs="?", default=str(HERE))
    parser.add_argument("--only", action="append", help="regenerate only this vector")
    args = parser.parse_args(argv)
    listed = generate(Path(args.directory), set(args.only) if args.only else None)
    print(f"wrote {len(listed)} vectors to {args.directory}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
