"""Forged clocks are named by ``papyrus verify`` (issue #25, "Verification that re-derives
everything", acceptance 1): a timed table played for real (a per-move deadline, issue #15), on
which a seat's time runs out, the table's bot takes the seat over and plays it, and its player
reclaims it, is exported (``exportGame``); each forgery of the export below, re-chained with
``domain.log.entry_hash`` as a forger who knows the revealed seed would, is refused by the
command line (run as a user runs it, on the file) with the version of the first bad entry and a
message that names what is wrong, and the genuine export verifies:

1. the ``time_expired`` and ``seat_taken_over`` entries deleted (the timeout disappears and the
   bot's moves stand as the player's), and the same with the bot's moves signed by the player;
2. a charge rewritten to 10 ms (its time moved back so that it adds up);
3. every clock time shifted by one day (and the clock entries' recorded times with them);
4. a re-chained edit of an event that is not the clock's.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from domain import clock as clocks
from domain.log import GENESIS, Entry, entry_hash
from domain.registry import rules_for
from service.app.application import Application
from service.app.errors import PapyrusError
from service.app.now import FakeClock
from service.store.database import open_store
from tests.conftest import settle_bots

START = 1_700_000_000_000
DAY = 86_400_000
MOVE_MS = 10_000
Document = dict[str, Any]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Document:
    """A finished two-seat Imhotep game with a 10 s move: a few turns of 2-4 s, then seat
    ``absent`` lets its deadline pass by 15 s: the expiry and the take-over are recorded, the
    bot plays the seat, the player reclaims it and the game is played to its end."""
    url = f"sqlite:///{tmp_path_factory.mktemp('forgeries') / 'papyrus.sqlite'}"
    clock = FakeClock(START)
    app = Application(open_store(url), clock=clock)
    seated = [app.accounts.register_player(name)[0] for name in ("Ann", "Bob")]
    control = {"mode": "move", "moveMs": MOVE_MS, "onExpiry": "takeover", "bot": "random"}
    game = app.seating.create_game(seated[0], "imhotep", 2, {"clock": control}, "forgery-seed")
    game_id = str(game.id)
    for seat, player in enumerate(seated):
        app.seating.join_game(player, game_id, seat)
    rules, rng = rules_for("imhotep"), random.Random(25)

    def act(think_ms: int) -> int:
        table = app.tables.get(game_id).table
        seat = table.clock_due(rules)[0]
        clock.advance(think_ms)
        app.play.act(seated[seat], game_id, rng.choice(rules.legal_actions(table.game, seat)))
        return seat

    for _ in range(4):
        act(rng.randint(2_000, 4_000))
    absent = app.tables.get(game_id).table.clock_due(rules)[0]
    clock.advance(MOVE_MS + 15_000)
    assert [e.type for e in app.clocks.expire(game_id)] == ["time_expired", "seat_taken_over"]
    assert settle_bots(app, game_id) >= 1  # the table's bot plays the seat
    app.clocks.reclaim(seated[absent], game_id)
    for _ in range(3_000):
        if app.tables.get(game_id).table.status != "ACTIVE":
            break
        act(rng.randint(100, 3_000))
    document = app.archive.export(game_id)
    document.pop("signature", None)  # what is checked here is the log itself
    document["absent"] = absent  # for the tests (ignored by the verifier)
    return document


def papyrus_verify(document: Document, tmp_path: Path) -> tuple[int, str]:
    """``papyrus verify FILE``, the installed command, on the document."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    papyrus = Path(sys.executable).parent / "papyrus"
    done = subprocess.run(
        [str(papyrus), "verify", str(path)], capture_output=True, text=True, timeout=120
    )
    return done.returncode, (done.stdout + done.stderr).strip()


def resealed(document: Document) -> Document:
    """The document numbered 1..n again and its whole chain recomputed."""
    events = document["events"]
    prev = GENESIS
    for number, raw in enumerate(events, start=1):
        raw["version"] = number
        raw["hash"] = entry_hash(Entry(**raw), prev, document["seed"], document["seedSalt"])
        prev = raw["hash"]
    return document


def events_of(document: Document, kind: str) -> list[dict[str, Any]]:
    return [e for e in document["events"] if e["type"] == kind]


def bot_moves(document: Document) -> list[dict[str, Any]]:
    """The decided steps of the take-over bot (the absent seat, no actor)."""
    return [
        e
        for e in document["events"]
        if e["action"] is not None and e["actor"] is None and e["by_seat"] == document["absent"]
    ]


def refused(document: Document, tmp_path: Path, version: int, *words: str) -> str:
    code, out = papyrus_verify(resealed(document), tmp_path)
    assert code == 1, out
    assert out.splitlines()[0].startswith(f"event {version} does not hold: "), out
    for word in words:
        assert word in out, out
    return out


def test_the_genuine_export_verifies(played: Document, tmp_path: Path) -> None:
    """No false alarm: the export as the server wrote it (issue #25, acceptance 1)."""
    kinds = [e["type"] for e in played["events"]]
    for kind in ("clock_charged", "time_expired", "seat_taken_over", "seat_reclaimed"):
        assert kind in kinds
    assert bot_moves(played)
    code, out = papyrus_verify(played, tmp_path)
    assert code == 0, out
    assert out.splitlines()[0] == f"ok: {len(played['events'])} events verified"


def test_the_expiry_and_the_take_over_deleted(played: Document, tmp_path: Path) -> None:
    """Forgery 1 (issue #25): without ``time_expired`` and ``seat_taken_over`` the bot's next
    move is the first entry past the seat's deadline with no expiry recorded (issue #15: the
    expiry is the scheduler's at the deadline, and an expired seat cannot act)."""
    forged = copy.deepcopy(played)
    expiry = events_of(forged, "time_expired")[0]
    forged["events"] = [
        e for e in forged["events"] if e["type"] not in ("time_expired", "seat_taken_over")
    ]
    deadline = clocks_deadline(expiry)
    refused(
        forged,
        tmp_path,
        expiry["version"],  # the bot's first move now holds the expiry's version
        f"seat {played['absent']}'s clock ran out at {deadline} (its deadline)",
        "no time_expired entry is recorded",
    )


def test_the_expiry_deleted_and_the_bots_moves_signed_by_the_player(
    played: Document, tmp_path: Path
) -> None:
    """Forgery 1, thoroughly: the bot's moves also recorded as the absent player's (the
    ``actor`` of a decided step is who submitted it): a move of the seat after its deadline."""
    forged = copy.deepcopy(played)
    player = next(e for e in forged["events"] if e["by_seat"] == forged["absent"] and e["actor"])
    for move in bot_moves(forged):
        move["actor"], move["command"] = player["actor"], f"forged:{move['version']}"
    expiry = events_of(forged, "time_expired")[0]
    forged["events"] = [
        e for e in forged["events"] if e["type"] not in ("time_expired", "seat_taken_over")
    ]
    refused(forged, tmp_path, expiry["version"], "no time_expired entry is recorded")


def test_the_bots_moves_signed_by_the_player(played: Document, tmp_path: Path) -> None:
    """The expiry kept, the take-over bot's moves attributed to the player: named (issue #25:
    "the take-over seats' bot moves attributed to the bot")."""
    forged = copy.deepcopy(played)
    player = next(e for e in forged["events"] if e["by_seat"] == forged["absent"] and e["actor"])
    first = bot_moves(forged)[0]
    first["actor"] = player["actor"]
    refused(forged, tmp_path, first["version"], "recorded as its player's")


def test_a_charge_rewritten_to_10_ms(played: Document, tmp_path: Path) -> None:
    """Forgery 2 (issue #25): a turn charged 10 ms, its time moved back to 10 ms after the
    turn's start so that it adds up (the clock alone cannot tell): the entry's recorded time
    gives the real charge."""
    forged = copy.deepcopy(played)
    charge = max(events_of(forged, "clock_charged")[:4], key=lambda e: e["data"]["used_ms"])
    used = charge["data"]["used_ms"]
    assert used >= 2_000
    charge["data"] = {**charge["data"], "at": charge["data"]["started"] + 10, "used_ms": 10}
    refused(forged, tmp_path, charge["version"], f"charge 10 ms but the times give {used:,} ms")


def test_every_clock_time_shifted_by_a_day(played: Document, tmp_path: Path) -> None:
    """Forgery 3 (issue #25): every time in every clock entry a day later. The clock agrees with
    itself, but not with the times its entries were recorded at (one command, one time)."""
    forged = copy.deepcopy(played)
    for entry in forged["events"]:
        if entry["type"] in clocks.EVENTS:
            entry["data"] = shifted(entry["data"], DAY)
    first = next(e for e in forged["events"] if e["type"] in clocks.EVENTS)
    refused(forged, tmp_path, first["version"], "is not the time it was recorded at")


def test_every_clock_time_and_its_entrys_time_shifted_by_a_day(
    played: Document, tmp_path: Path
) -> None:
    """Forgery 3, thoroughly: the clock entries' recorded times shifted with them; the log's
    times then go back at the first entry after one (the creation's time anchors them)."""
    forged = copy.deepcopy(played)
    for entry in forged["events"]:
        if entry["type"] in clocks.EVENTS:
            entry["data"] = shifted(entry["data"], DAY)
            entry["at"] = iso_shifted(entry["at"], DAY)
    after = next(
        e
        for before, e in zip(forged["events"], forged["events"][1:], strict=False)
        if before["type"] in clocks.EVENTS and e["type"] not in clocks.EVENTS
    )
    refused(forged, tmp_path, after["version"], "the log's times go back")


def deleted_expiry(document: Document) -> tuple[int, str]:
    expiry = events_of(document, "time_expired")[0]
    document["events"] = [
        e for e in document["events"] if e["type"] not in ("time_expired", "seat_taken_over")
    ]
    return int(expiry["version"]), "no time_expired entry is recorded"


def charge_of_10_ms(document: Document) -> tuple[int, str]:
    charge = max(events_of(document, "clock_charged")[:4], key=lambda e: e["data"]["used_ms"])
    used = charge["data"]["used_ms"]
    charge["data"] = {**charge["data"], "at": charge["data"]["started"] + 10, "used_ms": 10}
    return int(charge["version"]), f"charge 10 ms but the times give {used:,} ms"


def clock_a_day_later(document: Document) -> tuple[int, str]:
    for entry in document["events"]:
        if entry["type"] in clocks.EVENTS:
            entry["data"] = shifted(entry["data"], DAY)
    first = next(e for e in document["events"] if e["type"] in clocks.EVENTS)
    return int(first["version"]), "is not the time it was recorded at"


@pytest.mark.parametrize("forge", [deleted_expiry, charge_of_10_ms, clock_a_day_later])
def test_import_game_refuses_each_forgery(
    played: Document, tmp_path: Path, forge: Callable[[Document], tuple[int, str]]
) -> None:
    """The API's verifier is the same (``verifyLog`` and ``importGame`` run
    ``domain.audit.verify`` through ``service.app.audit``): ``importGame`` refuses each clock
    forgery with the entry and the reason (issue #25, "Offline and in the API"), and takes the
    genuine export."""
    app = Application(open_store(f"sqlite:///{tmp_path / 'import.sqlite'}"), clock=FakeClock())
    importer = app.accounts.register_player("Importer")[0]
    genuine = {k: v for k, v in played.items() if k != "absent"}
    assert app.archive.import_game(importer, copy.deepcopy(genuine)).table.status == "FINISHED"
    forged = copy.deepcopy(genuine)
    version, words = forge(forged)
    with pytest.raises(PapyrusError) as refused_:
        app.archive.import_game(importer, resealed(forged))
    assert refused_.value.code == "BAD_INPUT"
    message = str(refused_.value)
    assert message.startswith(f"Event {version} does not hold: ") and words in message, message


EDITS: dict[str, Callable[[Document], int]] = {}


def edit(name: str) -> Callable[[Callable[[Document], int]], Callable[[Document], int]]:
    def register(change: Callable[[Document], int]) -> Callable[[Document], int]:
        EDITS[name] = change
        return change

    return register


@edit("a step's recorded action")
def _action(document: Document) -> int:
    step = [e for e in document["events"] if e["action"] is not None][5]
    step["action"] = {**step["action"], "forged": True}
    return int(step["version"])


@edit("a step's event data")
def _data(document: Document) -> int:
    step = [e for e in document["events"] if e["action"] is not None][6]
    step["data"] = {**step["data"], "forged": True}
    return int(step["version"])


@edit("the seat a step is recorded for")
def _seat(document: Document) -> int:
    step = [e for e in document["events"] if e["action"] is not None][7]
    step["by_seat"] = 1 - step["by_seat"]
    return int(step["version"])


@edit("the result")
def _result(document: Document) -> int:
    finished = events_of(document, "game_finished")[0]
    scores = finished["data"]["scores"]
    finished["data"] = {**finished["data"], "scores": [scores[1], scores[0]]}
    return int(finished["version"])


@edit("a step's recorded time, a day later")
def _time(document: Document) -> int:
    step = [e for e in document["events"] if e["action"] is not None][3]
    step["at"] = iso_shifted(step["at"], DAY)  # a move a day after its seat's deadline
    return int(step["version"])


@edit("who reclaimed the seat")
def _reclaimed(document: Document) -> int:
    reclaim = events_of(document, "seat_reclaimed")[0]
    reclaim["data"] = {**reclaim["data"], "seat": 1 - reclaim["data"]["seat"]}
    return int(reclaim["version"])


@pytest.mark.parametrize("name", sorted(EDITS))
def test_a_rechained_edit_of_an_event(played: Document, tmp_path: Path, name: str) -> None:
    """Issue #25, acceptance 1: "a re-chained edit of any event" fails ``papyrus verify``,
    naming the entry (every step is re-decided from its action and the seed, every clock
    entry re-derived, the result recomputed)."""
    forged = copy.deepcopy(played)
    version = EDITS[name](forged)
    code, out = papyrus_verify(resealed(forged), tmp_path)
    assert code == 1, out
    assert out.startswith(f"event {version} does not hold: "), out


def clocks_deadline(expiry: dict[str, Any]) -> str:
    from domain.audit_clock import when

    return when(int(expiry["data"]["deadline"]))


def shifted(data: dict[str, Any], ms: int) -> dict[str, Any]:
    """A clock entry's data with every time in it ``ms`` later."""
    return {k: v + ms if k in ("at", "started", "deadline") else v for k, v in data.items()}


def iso_shifted(at: str, ms: int) -> str:
    from datetime import datetime, timedelta

    return (datetime.fromisoformat(at) + timedelta(milliseconds=ms)).isoformat()


assert clocks.CLOCK_CHARGED == "clock_charged"  # the names the forgeries look for
