"""The entries a process saved or read last answer a subscriber's wake-up (``service.app.tails``)
exactly as the store would, and only when they reach back far enough."""

from __future__ import annotations

import asyncio
from typing import Any

from domain.log import Entry
from service.app.tails import KEEP, Tails
from tests.client import register, subscribe
from tests.conftest import Server
from tests.service.fleet.conftest import Statements
from tests.service.fleet.test_game_cache import ACT, to_move
from tests.service.play import create_table


def entries(first: int, last: int) -> list[Entry]:
    return [Entry(v, "2026-12-05T00:00:00+00:00", "step", {"n": v}) for v in range(first, last + 1)]


def test_a_tail_answers_only_what_it_holds_without_a_gap() -> None:
    tails = Tails(maxsize=2)
    tails.add("g", entries(1, 5))
    tails.add("g", entries(6, 7))  # joins on
    assert [e.version for e in tails.after("g", 2, 7, None) or []] == [3, 4, 5, 6, 7]
    assert [e.version for e in tails.after("g", 0, 7, 2) or []] == [1, 2]
    assert tails.after("g", 2, 8, None) is None  # the store has more than the tail
    tails.add("g", entries(10, 11))  # a gap (8-9 never read here): the tail starts again
    assert tails.after("g", 7, 11, None) is None
    assert [e.version for e in tails.after("g", 9, 11, None) or []] == [10, 11]
    tails.add("g", entries(11, 12))  # read again, overlapping: no entry twice
    assert [e.version for e in tails.after("g", 9, 12, None) or []] == [10, 11, 12]
    tails.add("g", entries(13, 13 + KEEP))  # only the last KEEP are kept
    assert tails.after("g", 12, 13 + KEEP, None) is None
    assert len(tails.after("g", 13, 13 + KEEP, None) or []) == KEEP
    tails.add("h", entries(1, 1))
    tails.add("i", entries(1, 1))  # three games, two kept: the least recently used goes
    assert tails.after("g", 13, 13 + KEEP, None) is None


GAME_CHANGED = (
    "subscription($g: ID!) { gameChanged(gameId: $g) { version activeSeats legalActions } }"
)


def test_a_wake_up_after_an_act_here_reads_no_entry_from_the_store(
    sqlite_url: str, statements: Statements
) -> None:
    """Both seats subscribed to ``gameChanged`` over a real server: an ``act`` here wakes them,
    and each is pushed the entries of the command with no ``SELECT`` of the event log on any
    serving thread (before, each subscriber queried the store for the same entries)."""
    with Server(sqlite_url) as server:
        serving = {server.thread.name}
        players = [register(server.url, "Ann"), register(server.url, "Bob")]
        game_id = create_table(players, "IMHOTEP", seed="tails")
        player, game = to_move(players, game_id)
        tokens = [p.token for p in players]  # type: ignore[attr-defined]

        async def watch() -> list[list[dict[str, Any]]]:
            wanted = game["version"] + 1

            def seen(payloads: list[dict[str, Any]]) -> bool:
                return any(p["data"]["gameChanged"]["version"] >= wanted for p in payloads)

            subscribers = [
                asyncio.create_task(
                    subscribe(server.ws_url, GAME_CHANGED, {"g": game_id}, t, until=seen)
                )
                for t in tokens
            ]
            await asyncio.sleep(1.0)  # both subscribed and waiting
            nonlocal mark
            mark = len(statements.seen)
            variables = {"g": game_id, "a": game["legalActions"][0], "v": game["version"]}
            await asyncio.to_thread(player.gql, ACT, variables)
            return list(await asyncio.wait_for(asyncio.gather(*subscribers), 30))

        mark = 0
        pushed = asyncio.run(watch())
        ran = statements.since(mark, serving)
    assert all(p for p in pushed), pushed
    assert any("INSERT" in sql for sql in ran), ran  # traced indeed
    reads = [sql for sql in ran if sql.lstrip().upper().startswith("SELECT") and "events" in sql]
    assert reads == [], reads
