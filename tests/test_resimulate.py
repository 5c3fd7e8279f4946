"""``papyrus resimulate`` (issue #25, acceptance 4): on a database of finished games, one rule
changed in this process lists exactly the games that rule changes, and no other.

The rule changed: the points of the burial chamber's rows on its side B (``data.ROW_PLACES``,
§8.8), which only games with that site on side B score, and only where a stone lies in the
chamber. The expected set is computed from the games' options and final positions, not by the
command under test.
"""

from __future__ import annotations

import dataclasses
import json
import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse, urlunparse

import pytest

from domain import table as tables
from domain.imhotep import data as imhotep_data
from domain.registry import rules_for
from service.app.application import Application
from service.app.archive import parse_document
from service.app.bots.driver import BotDriver
from service.app.recording import replay_table
from service.app.resimulate import resimulate
from service.cli import main
from service.store.database import open_store
from service.store.entries import entry_of
from tests.conftest import POSTGRES_URL, require_postgres

ROOT = Path(__file__).resolve().parents[1]

BURIAL_B: dict[str, Any] = {"sides": {"burial_chamber": "B"}}


def play(
    app: Application, kind: str, seats: int, options: dict[str, Any], seed: int, end: bool = True
) -> str:
    """A person at seat 0 against random bots, the person's actions drawn from ``seed``."""
    host = app.accounts.register_player(f"Host {seed}")[0]
    game_id = str(app.seating.create_game(host, kind, seats, options, None).id)
    app.seating.join_game(host, game_id, 0)
    for _ in range(seats - 1):
        app.seating.add_bot(host, game_id, None, "random")
    driver, rng, rules = BotDriver(app.tables), random.Random(seed), rules_for(kind)
    for acted in range(10_000):
        driver.settle(game_id)
        table = app.tables.get(game_id).table
        if table.status != tables.ACTIVE or (not end and acted == 10):
            break
        app.play.act(host, game_id, rng.choice(rules.legal_actions(table.game, 0)))
    return game_id


@pytest.fixture(
    scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def database_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """The store ``papyrus resimulate`` reads, as ``papyrus serve`` names it: a SQLite file, or
    a fresh PostgreSQL database (dropped afterwards)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('resimulate') / 'papyrus.sqlite'}"
        return
    require_postgres()
    import psycopg

    name = f"papyrus_resimulate_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunparse(urlparse(POSTGRES_URL)._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def database(database_url: str) -> tuple[str, dict[str, dict[str, Any]]]:
    """Finished games of both kinds, side A and B burial chambers, and one game not over."""
    url = database_url
    store = open_store(url)
    games: dict[str, dict[str, Any]] = {}
    try:
        app = Application(store)
        for seed, (kind, seats, options) in enumerate(
            [
                ("imhotep", 2, BURIAL_B),
                ("imhotep", 2, {}),
                ("imhotep", 3, {"sides": "B"}),
                ("imhotep", 3, {"sides": {"burial_chamber": "A", "temple": "B"}}),
                ("amun_re", 3, {}),
                ("imhotep", 2, BURIAL_B),
            ]
        ):
            game_id = play(app, kind, seats, options, seed)
            entries = [entry_of(e) for e in store.events.get(uuid.UUID(game_id))]
            table = replay_table(entries)
            assert table.status == tables.FINISHED
            games[game_id] = {"kind": kind, "table": table}
        running = play(app, "imhotep", 2, BURIAL_B, 99, end=False)
        assert app.tables.get(running).table.status == tables.ACTIVE
    finally:
        store.close()
    return url, games


def run(url: str, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, list[str]]:
    code = main(["resimulate", "--database-url", url, *extra], environ={})
    return code, capsys.readouterr().out.strip().splitlines()


def test_nothing_differs_under_the_rules_that_played_them(
    database: tuple[str, dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    url, games = database
    code, lines = run(url, capsys)
    assert code == 0, lines
    assert len(lines) == 1
    assert lines[0].startswith(f"resimulated {len(games)} finished games under the current rules")
    assert lines[0].endswith(": 0 differ")


def test_a_changed_rule_lists_exactly_the_games_it_changes(
    database: tuple[str, dict[str, Any]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, games = database
    affected = {
        game_id
        for game_id, game in games.items()
        if game["kind"] == "imhotep"
        and game["table"].options["sides"]["burial_chamber"] == "B"
        and game["table"].game.burial  # a stone in the chamber: its rows score
    }
    assert 0 < len(affected) < len(games)

    monkeypatch.setattr(imhotep_data, "ROW_PLACES", (18, 4, 2, 1))
    code, lines = run(url, capsys)

    assert code == 1
    listed = {line.split()[1] for line in lines if line.startswith("differs ")}
    assert listed == affected
    assert lines[-1].endswith(
        f"resimulated {len(games)} finished games under the current rules "
        f"({rules_for('imhotep').version}, {rules_for('amun_re').version}): "
        f"{len(affected)} differ"
    )
    for line in lines[:-1]:  # the first differing event and the result, then and now
        assert ": event " in line and "recorded" in line and "; result recorded scores" in line

    code, lines = run(url, capsys, "--exit-zero")
    assert code == 0 and len(lines) == len(affected) + 1

    one = sorted(affected)[0]
    code, lines = run(url, capsys, "--game", one)
    assert code == 1 and [line.split()[1] for line in lines[:-1]] == [one]


def test_an_empty_store_has_nothing_to_resimulate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, lines = run(f"sqlite:///{tmp_path / 'empty.sqlite'}", capsys)
    assert code == 0 and lines[-1].startswith("resimulated 0 finished games")


def test_the_conformance_kits_games_resimulate_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every good vector of ``conformance/`` that a server may import (not the forks, whose
    source is elsewhere), stored by ``importGame``: undos, clocks with take-overs, redacted
    names, every module mix; the current rules give each exactly what it recorded."""
    url = f"sqlite:///{tmp_path / 'kit.sqlite'}"
    kit = Path(__file__).resolve().parent.parent / "conformance"
    store = open_store(url)
    try:
        app = Application(store)
        importer = app.accounts.register_player("Importer")[0]
        imported = 0
        for vector in json.loads((kit / "manifest.json").read_text())["vectors"]:
            if vector["expected"]["verdict"] == "accept" and not any(
                c.startswith("fork:") for c in vector["covers"]
            ):
                app.archive.import_game(importer, json.loads((kit / vector["file"]).read_text()))
                imported += 1
    finally:
        store.close()
    assert imported >= 40
    code, lines = run(url, capsys)
    assert code == 0 and lines[-1].endswith(": 0 differ")
    assert lines[-1].startswith(f"resimulated {imported} finished games")


def test_an_entry_the_rederived_game_cannot_take_is_a_difference_not_a_crash() -> None:
    """A recorded table entry that no longer applies to the game the current rules re-derive
    (here a seat taken that the table does not have) is reported as that game's difference,
    with its version: one such game does not stop the run over the others."""
    document = json.loads(
        (ROOT / "conformance" / "vectors" / "imhotep-2p-sides-A.json").read_text(encoding="utf-8")
    )
    entries = parse_document(document)
    at = next(n for n, e in enumerate(entries) if e.type == "seat_taken")
    broken = dataclasses.replace(entries[at], data={**entries[at].data, "seat": 7})
    found = resimulate("g", [*entries[:at], broken, *entries[at + 1 :]])
    assert found is not None and found.version == entries[at].version
    assert found.what.startswith("the current rules cannot apply it")
