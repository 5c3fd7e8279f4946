"""What the soak checks once play has stopped, straight from the database and the replicas' logs:

* ``lost``: acknowledged actions whose command is not in their game's stored log;
* ``verify``: every game's log, hash chain, seed and rules, through ``verifyLog``;
* ``read models``: every read-model row against a rebuild from the log (``papyrus projections
  rebuild``), row for row, once the replicas caught up and stopped;
* ``server errors``: the replicas' log lines at ERROR (tracebacks) and the requests they
  answered with ``INTERNAL``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterable
from typing import Any

import psycopg

from bench.common import ROOT
from service.readmodels.projections import PROJECTIONS
from service.store.database import open_store
from service.store.entries import entry_of

GAMES = "SELECT originator_id FROM papyrus_events WHERE topic = 'service.store:GameTable.Opened'"


def game_ids(url: str) -> list[str]:
    with psycopg.connect(url) as connection:
        return [str(row[0]) for row in connection.execute(GAMES).fetchall()]


def lost_actions(url: str, acked: Iterable[tuple[str, str]]) -> tuple[int, list[str]]:
    """How many events the store holds, and the acknowledged commands it does not."""
    store = open_store(url)
    try:
        by_game: dict[str, set[str]] = {}
        missing: list[str] = []
        for game_id, command in acked:
            if game_id not in by_game:
                entries = [entry_of(e) for e in store.events.get(uuid.UUID(game_id))]
                by_game[game_id] = {e.command for e in entries if e.command}
            if command not in by_game[game_id]:
                missing.append(f"{game_id} {command}")
        with psycopg.connect(url) as connection:
            row = connection.execute("SELECT count(*) FROM papyrus_events").fetchone()
        return int(row[0]) if row else 0, missing
    finally:
        store.close()


def caught_up(url: str, seconds: float = 60.0) -> bool:
    """Every read model has applied the whole log (a process keeps them current)."""
    deadline = time.monotonic() + seconds
    while True:
        with psycopg.connect(url) as connection:
            head = connection.execute("SELECT max(notification_id) FROM papyrus_events").fetchone()
            low = connection.execute("SELECT min(position) FROM papyrus_tracking").fetchone()
        if head and low and (low[0] or 0) >= (head[0] or 0):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)


def snapshot(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every read-model table's rows, in a stable order."""
    rows: dict[str, list[tuple[Any, ...]]] = {}
    with psycopg.connect(url) as connection:
        for projection in PROJECTIONS:
            for table in projection.tables:
                found = connection.execute(f"SELECT * FROM {table}").fetchall()
                rows[table] = sorted(found, key=repr)
    return rows


def rebuild(url: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "service.cli", "projections", "rebuild", "--database-url", url],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def differing_rows(
    before: dict[str, list[tuple[Any, ...]]], after: dict[str, list[tuple[Any, ...]]]
) -> tuple[int, int, list[str]]:
    """Rows compared, rows that differ (in either), and a few examples."""
    compared, differ, examples = 0, 0, []
    for table in sorted(set(before) | set(after)):
        kept, rebuilt = set(before.get(table, [])), set(after.get(table, []))
        compared += len(rebuilt)
        odd = kept ^ rebuilt
        differ += len(odd)
        examples += [f"{table}: {'kept' if r in kept else 'rebuilt'} {r!r}"[:300] for r in odd][:3]
    return compared, differ, examples


def server_errors(lines: Iterable[str]) -> list[str]:
    """The log lines of a replica that say something failed on the server's side."""
    found = []
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            if "Traceback" in line:
                found.append(line[:300])
            continue
        if record.get("level") in ("error", "critical") or record.get("code") == "INTERNAL":
            found.append(line[:300])
    return found


def dropped_sockets(lines: Iterable[str]) -> list[tuple[str, int, int]]:
    """(client address, port, close code) of every websocket a replica's log says it dropped
    (``service.api.sockets``: a ping left unanswered, a send buffer left full)."""
    found = []
    for line in lines:
        try:
            message = str(json.loads(line).get("message", ""))
        except ValueError:
            continue
        match = DROPPED_LINE.match(message)
        if match:
            found.append((match["address"], int(match["port"]), int(match["code"])))
    return found


DROPPED_LINE = re.compile(r"(?P<address>[\d.]+):(?P<port>\d+): websocket dropped \((?P<code>\d+)\)")
