"""The in-process game cache (``service.app.cache``, issue #14): a read of a game nothing changed
asks the store nothing, and a cache that is behind never makes a command win on an old version
(the version key of the store stays the arbiter; docs/API.md ``act``: ``expectedVersion`` ->
``CONFLICT``)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from service.app.application import Application
from service.app.cache import GameCache
from service.app.caller import Caller
from service.app.errors import Conflict, PapyrusError
from service.app.views import legal_actions
from service.store.database import open_store
from tests.client import Client, GraphQLFailure, register
from tests.conftest import Server
from tests.service.fleet.conftest import WORKER, Statements
from tests.service.fleet.test_processes import act_n
from tests.service.play import create_table
from tests.serving import ServeProcess as Process

READ = (
    "query($g: ID!) { game(id: $g) { version activeSeats state legalActions view { __typename } } }"
)
ACT = (
    "mutation($g: ID!, $a: JSON!, $v: Int) { act(gameId: $g, action: $a, expectedVersion: $v) "
    "{ game { version } } }"
)


def to_move(players: list[Client], game_id: str) -> tuple[Client, dict[str, Any]]:
    game = players[0].gql(READ, {"g": game_id})["game"]
    player = players[game["activeSeats"][0]]
    return player, player.gql(READ, {"g": game_id})["game"]


def test_a_read_of_an_unchanged_game_issues_no_sql_statement(
    sqlite_url: str, statements: Statements
) -> None:
    """Issue #14 acceptance 3: after the first read, reading a game nothing changed
    (``game { state view legalActions }``, signed in, over a real server) runs no SQL statement on
    the threads that serve requests: the game comes from this process's cache, the credential
    is trusted while the feed is followed, deleted players' names come from the feed. An
    ``act`` here keeps the cache current, so the reads after it ask nothing either."""
    with Server(sqlite_url) as server:
        serving = {server.thread.name}
        players = [register(server.url, "Ann"), register(server.url, "Bob")]
        game_id = create_table(players, "IMHOTEP", seed="cache-reads")
        player, game = to_move(players, game_id)  # the first reads (game, credential) warm up

        mark = len(statements.seen)
        for _ in range(3):
            for reader in players:
                assert reader.gql(READ, {"g": game_id})["game"]["version"] == game["version"]
        assert statements.since(mark, serving) == []

        mark = len(statements.seen)
        acted = player.gql(ACT, {"g": game_id, "a": game["legalActions"][0], "v": game["version"]})
        assert acted["act"]["game"]["version"] > game["version"]
        assert any("INSERT" in sql for sql in statements.since(mark, serving))  # traced indeed

        mark = len(statements.seen)
        for reader in players:
            seen = reader.gql(READ, {"g": game_id})["game"]
            assert seen["version"] == acted["act"]["game"]["version"]
        assert statements.since(mark, serving) == []


def seat_to_move(app: Application, game_id: str, callers: list[Caller]) -> tuple[Caller, Any]:
    """A player who may act on the game as ``app`` has it, and one legal action of theirs."""
    table = app.tables.get(game_id).table
    for caller in callers:
        legal = legal_actions(table, caller)
        if legal:
            return caller, legal[0]
    raise AssertionError("nobody may act")


def versions(app: Application, game_id: str) -> list[int]:
    return [entry.version for entry in app.tables.events(game_id)]


def test_a_cache_left_behind_never_wins_a_command_on_an_old_version(database_url: str) -> None:
    """Two applications on one database; ``behind`` trusts its cache but no feed tells it of
    the other's saves (a notification not yet delivered, made to last): its read is stale, yet
    a command it decides on the stale game never records on the old version. With the old
    ``expectedVersion`` it is ``CONFLICT``; without, it is decided again on the stored game;
    a retried idempotency key finds the other process's result; and each lost race brings its
    cache up to the store."""
    behind, ahead = Application(open_store(database_url)), Application(open_store(database_url))
    callers = [behind.accounts.register_player(name)[0] for name in ("Ann", "Bob")]
    game_id = str(behind.seating.create_game(callers[0], "imhotep", 2, None, "stale").id)
    for seat, caller in enumerate(callers):
        behind.seating.join_game(caller, game_id, seat)
    behind.follow()  # trusted from now on, and nobody will tell it anything
    start = behind.tables.get(game_id).version
    assert behind.tables.get(game_id).version == start

    # the other process acts: this one still reads the old version (no SQL, no news)
    caller, action = seat_to_move(ahead, game_id, callers)
    ahead.play.act(caller, game_id, action, expected_version=start)
    assert behind.tables.get(game_id).version == start
    # a command on the stale game with the old expectation: CONFLICT, nothing recorded
    with pytest.raises(Conflict):
        behind.play.act(caller, game_id, action, expected_version=start)
    stored = versions(ahead, game_id)
    assert behind.tables.get(game_id).version == stored[-1]  # the lost race refreshed it
    assert stored == list(range(1, len(stored) + 1))

    # stale again; a command without an expectation is decided again on the stored game
    now = stored[-1]
    mover, stale_action = seat_to_move(behind, game_id, callers)
    other, action = seat_to_move(ahead, game_id, callers)
    ahead.play.act(other, game_id, action, expected_version=now)
    moved = versions(ahead, game_id)[-1]
    assert behind.tables.get(game_id).version == now
    try:
        _, saved = behind.play.act(mover, game_id, stale_action)
    except PapyrusError as refused:  # not legal any more on the stored game: refused
        assert refused.code != "CONFLICT"
    else:  # still legal there: recorded after the other's entries, never on an old version
        assert saved[0].version == moved + 1
    stored = versions(ahead, game_id)
    assert stored == list(range(1, len(stored) + 1))
    assert behind.tables.get(game_id).version == stored[-1]

    # an idempotency key first used by the other process, retried here on a stale game
    if ahead.tables.get(game_id).table.status == "ACTIVE":
        before = behind.tables.get(game_id).version
        other, action = seat_to_move(ahead, game_id, callers)
        _, first = ahead.play.act(other, game_id, action, idempotency_key="once")
        assert behind.tables.get(game_id).version == before  # stale
        _, again = behind.play.act(other, game_id, action, idempotency_key="once")
        assert [e.version for e in again] == [e.version for e in first]
        assert versions(ahead, game_id)[-1] == first[-1].version  # recorded once


@pytest.mark.postgres
def test_a_cached_game_in_a_second_process_never_accepts_a_stale_command(
    two_processes: tuple[Process, Process],
) -> None:
    """Two server processes on one PostgreSQL: A has the game cached, B acts, and A is sent
    the command right away with the version it had (whether or not the feed has told A yet):
    ``CONFLICT`` every time, never an entry on the old version; A's reads converge on B's
    version, and the log verifies (one entry per version, hashes chained)."""
    a, b = two_processes
    on_a = [register(a.url, "Ann"), register(a.url, "Bob")]
    game_id = create_table(on_a, "IMHOTEP", seed="two-processes")
    on_b = [Client(b.url, player.token) for player in on_a]
    rng = random.Random(14)
    conflicts = 0
    for _ in range(12):
        seen = on_a[0].gql(READ, {"g": game_id})["game"]  # A has it cached
        if not seen["activeSeats"]:
            break
        seat = seen["activeSeats"][0]
        legal = on_b[seat].gql(READ, {"g": game_id})["game"]["legalActions"]
        action = rng.choice(legal)
        on_b[seat].gql(ACT, {"g": game_id, "a": action, "v": seen["version"]})
        try:
            on_a[seat].gql(ACT, {"g": game_id, "a": action, "v": seen["version"]})
        except GraphQLFailure as failure:
            assert failure.errors[0]["extensions"]["code"] == "CONFLICT", failure.errors
            conflicts += 1
        else:
            raise AssertionError("a command on the old version was accepted")
        latest = on_b[0].gql(READ, {"g": game_id})["game"]["version"]
        deadline = time.monotonic() + 2
        while on_a[0].gql(READ, {"g": game_id})["game"]["version"] != latest:
            assert time.monotonic() < deadline, "A's read did not converge"
            time.sleep(0.01)
    assert conflicts >= 5
    verified = on_a[0].gql(
        "query($g: ID!) { verifyLog(gameId: $g) { ok checkedEvents } }", {"g": game_id}
    )["verifyLog"]
    assert verified["ok"] is True
    assert verified["checkedEvents"] == on_b[0].gql(READ, {"g": game_id})["game"]["version"]


def test_every_acknowledged_action_survives_a_kill_9_of_the_sqlite_server(tmp_path: Path) -> None:
    """SQLite in WAL mode with ``synchronous=NORMAL`` (``service.store.sqlite``): a server
    process killed with SIGKILL right after answering keeps every action it acknowledged (the
    log is read back by a fresh store; a power loss is another matter: docs/configuration.md "Caching and durability")."""
    url = f"sqlite:///{tmp_path}/killed.sqlite"
    server = Process(url)
    try:
        players = [register(server.url, "Ann"), register(server.url, "Bob")]
        game_id = create_table(players, "IMHOTEP", seed="kill-9")
        acknowledged = act_n(players, game_id, 25, random.Random(9))
    finally:
        server.kill()  # no shutdown of any kind
    assert acknowledged > 10
    reopened = Application(open_store(url))
    assert versions(reopened, game_id) == list(range(1, acknowledged + 1))


class Version:
    """A stand-in for a stored game: what the cache reads of one (its id and version)."""

    def __init__(self, ident: uuid.UUID, version: int) -> None:
        self.id, self.version = ident, version


def test_news_heard_while_a_game_loads_keeps_the_loaded_version_stale() -> None:
    """The races of ``GameCache``: a notification heard while a load is in flight (the load
    may have read the store before that commit) keeps the loaded version stale; a save of an
    entry evicted meanwhile is not cached (it may have missed a notification); a newer version
    is never replaced by an older one; the least recently used game goes first."""
    cache, ident = GameCache(2), uuid.uuid4()
    cache.follow()
    assert cache.base(ident) is None  # a load begins
    cache.heard(ident, 5)  # another process recorded version 5 meanwhile
    cache.offer(Version(ident, 4))  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        cache.get(ident)  # stale: the next read asks the store
    cache.base(ident)
    cache.offer(Version(ident, 5))  # type: ignore[arg-type]
    assert cache.get(ident).version == 5
    cache.saved(Version(ident, 3))  # type: ignore[arg-type]
    assert cache.get(ident).version == 5  # never older
    cache.heard(ident, 4)  # an old notification (this process's own save, say): still fresh
    assert cache.get(ident).version == 5

    others = [uuid.uuid4(), uuid.uuid4()]
    for other in others:
        cache.saved(Version(other, 1), new=True)  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        cache.get(ident)  # evicted, least recently used
    cache.saved(Version(ident, 6))  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        cache.get(ident)  # not cached by a save: it may have missed news while evicted

    untrusted = GameCache(2)
    untrusted.saved(Version(ident, 1), new=True)  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        untrusted.get(ident)  # no feed followed: every read asks the store


EVERYTHING = """query($g: ID!) { game(id: $g) {
  id kind status options version undoAllowed seed ranked rulesVersion createdAt updatedAt
  seats { seat player { name } isBot takenOver } mySeat activeSeats clock { mode }
  state view { __typename } legalActions moves { label } scores result { winners } canUndo { allowed }
  events(first: 50) { nodes { version type data } }
  replay(first: 3) { event { version } state }
  stateAt(version: 3) viewAt(version: 3) { __typename }
} }"""


def test_reads_share_the_cached_game_and_never_change_it(sqlite_url: str) -> None:
    """Issue #14: a read of a current game takes the cache's own game, with no copy and no trip
    to a worker (``Tables.peek``); so no field a reader may ask changes it. Every ``Game``
    field is read by each seat and a spectator, and the cached game pickles exactly as before
    (its table, history, clock and seats), while the next command still plays on from it."""
    import pickle

    with Server(sqlite_url) as server:
        players = [register(server.url, "Ann"), register(server.url, "Bob")]
        game_id = create_table(players, "IMHOTEP", seed="shared-reads")
        for _ in range(6):  # some history: events, replay steps, a past state
            player, game = to_move(players, game_id)
            player.gql(ACT, {"g": game_id, "a": game["legalActions"][0], "v": game["version"]})
        tables = server.server.config.app.state.runtime.app.tables
        cached = tables.cache.cache[uuid.UUID(game_id)]
        assert tables.peek(game_id) is cached  # shared, not copied
        before = pickle.dumps(cached)
        for reader in [*players, Client(server.url)]:
            seen = reader.gql(EVERYTHING, {"g": game_id})["game"]
            assert seen["version"] == cached.version and seen["events"]["nodes"]
        assert tables.cache.cache[uuid.UUID(game_id)] is cached
        assert pickle.dumps(cached) == before
        player, game = to_move(players, game_id)
        acted = player.gql(ACT, {"g": game_id, "a": game["legalActions"][0], "v": game["version"]})
        assert acted["act"]["game"]["version"] > cached.version
        assert pickle.dumps(cached) == before  # the command changed a copy of it


def test_a_replay_builds_the_typed_view_it_is_asked_for_through_fragments_too(
    sqlite_url: str,
) -> None:
    """A replay step's typed view is built only when the query selects ``view``; selected
    through a named fragment it is still there, and it is the same view as ``viewAt``."""
    with Server(sqlite_url) as server:
        players = [register(server.url, "Ann"), register(server.url, "Bob")]
        game_id = create_table(players, "IMHOTEP", seed="replay-views")
        for _ in range(4):
            player, game = to_move(players, game_id)
            player.gql(ACT, {"g": game_id, "a": game["legalActions"][0], "v": game["version"]})
        reader = players[0]
        plain = reader.gql(
            "query($g: ID!) { game(id: $g) { replay(first: 10) { event { version } state } } }",
            {"g": game_id},
        )["game"]["replay"]
        fragments = reader.gql(
            "query($g: ID!) { game(id: $g) { replay(first: 10) { ...Step } } }"
            " fragment Step on ReplayStep { event { version } state ...Typed }"
            " fragment Typed on ReplayStep { view { ... on ImhotepState { round } } }",
            {"g": game_id},
        )["game"]["replay"]
        assert [s["state"] for s in fragments] == [s["state"] for s in plain]
        started = [s for s in fragments if s["state"]]
        assert started and all(s["view"] is not None for s in started)
        for step in started:
            at = reader.gql(
                "query($g: ID!, $v: Int!) { game(id: $g) { viewAt(version: $v) "
                "{ ... on ImhotepState { round } } } }",
                {"g": game_id, "v": step["event"]["version"]},
            )["game"]["viewAt"]
            assert step["view"] == at


def test_the_caller_is_read_on_a_worker_before_the_resolvers_run(
    sqlite_url: str, statements: Statements, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A token this process must read again (its trust lapsed: ``TOKEN_RECHECK_SECONDS``) is
    read on a worker thread before the resolvers run, never on the event loop, whichever field
    asks for the caller (``node`` and ``me`` here, which take it from the context)."""
    import service.app.accounts as accounts

    monkeypatch.setattr(accounts, "TOKEN_RECHECK_SECONDS", 0.0)  # every request reads it again
    with Server(sqlite_url) as server:
        loop = server.thread.name
        players = [register(server.url, "Ann"), register(server.url, "Bob")]
        game_id = create_table(players, "IMHOTEP", seed="caller-reads")
        mark = len(statements.seen)
        seen = players[0].gql("query($g: ID!) { node(id: $g) { id } me { name } }", {"g": game_id})
        assert seen["node"]["id"] == game_id and seen["me"]["name"] == "Ann"
        with statements._lock:
            ran = statements.seen[mark:]
        assert any(WORKER.fullmatch(name) for name, _ in ran)  # the credential was read
        assert [sql for name, sql in ran if name == loop] == []


def test_a_subscriber_on_a_cache_behind_the_store_loses_no_entry(database_url: str) -> None:
    """``gameChanged``/``gameEvents`` (docs/API.md "Subscriptions") on a process whose cached game is
    behind the store: the entries it reads from the store are past the game it knows (a save
    committed but not yet in the cache, or another process's not yet heard). A seated player's
    log hides other seats' secret offerings (Amun-Re §6), so its numbers come from the game as
    this process knows it: nothing past that game is delivered, nor skipped, before the game
    here is current; once it is (the feed's news, then the wake-up), every entry comes, each
    once and in the player's numbers."""
    from concurrent.futures import ThreadPoolExecutor

    from service.api.graphql.context import Context
    from service.api.graphql.gamestream import game_entries
    from service.api.hub import Hub
    from service.app import numbering

    behind, ahead = Application(open_store(database_url)), Application(open_store(database_url))
    players = [behind.accounts.register_player(name) for name in ("Ann", "Bob", "Cy")]
    callers = [caller for caller, _ in players]
    game_id = str(behind.seating.create_game(callers[0], "amun_re", 3, None, "behind").id)
    for seat, caller in enumerate(callers):
        behind.seating.join_game(caller, game_id, seat)
    rng = random.Random(3)

    def play_one() -> None:
        table = ahead.tables.get(game_id).table
        movers = [(c, a) for c in callers if (a := legal_actions(table, c))]
        private = [  # Bob's and Cy's private steps (R11.2), which Ann's log leaves out
            (c, a)
            for c, actions in movers
            if c is not callers[0]
            for a in actions
            if a["type"] in ("mark_for_sale", "set_adjustment")
        ]
        if private and ann_log().shown is None:
            caller, action = rng.choice(private)
        else:
            caller, actions = rng.choice(movers)
            action = rng.choice(actions)
        ahead.play.act(caller, game_id, action)

    def ann_log() -> numbering.Timeline:
        return numbering.timeline(ahead.tables, ahead.tables.get(game_id), callers[0])

    # on to a moment where Ann's log hides some entry (another seat's secret offering)
    while ann_log().shown is None:
        play_one()
    start = ann_log().version
    behind.follow()
    behind.heard_game(game_id, ahead.tables.get(game_id).version)  # current here, for now

    async def scenario() -> list[int]:
        hub = Hub()
        hub.bind(asyncio.get_running_loop())
        context = Context(
            app=behind,
            hub=hub,
            executor=ThreadPoolExecutor(2),
            authorization=f"Bearer {players[0][1]}",
        )
        numbers: list[int] = []
        wanted = 0  # how many entries the scenario waits for, once it knows
        arrived = asyncio.Event()

        async def listen() -> None:
            async for step in game_entries(context, game_id, start, cost=1):
                numbers.append(step.event["version"])
                if wanted and len(numbers) >= wanted:
                    arrived.set()

        listening = asyncio.create_task(listen())
        await asyncio.sleep(0.3)
        assert numbers == []
        # another process records entries Ann sees; here the wake-up comes before the news
        while ann_log().version < start + 2 and ahead.tables.get(game_id).table.status == "ACTIVE":
            await asyncio.to_thread(play_one)
        stored = ahead.tables.get(game_id).version
        hub.notify(game_id, stored)
        await asyncio.sleep(0.5)
        assert numbers == [], "nothing past the game this process knows"
        assert behind.tables.get(game_id).version < stored  # still behind
        behind.heard_game(game_id, stored)
        hub.notify(game_id, stored)
        wanted = ann_log().version - start
        if len(numbers) < wanted:
            await asyncio.wait_for(arrived.wait(), 60)
        listening.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await listening
        context.executor.shutdown()
        return numbers

    numbers = asyncio.run(scenario())
    assert numbers == list(range(start + 1, ann_log().version + 1))
    assert len(numbers) >= 2


def test_a_game_read_behind_the_store_shows_its_log_only_as_far_as_its_version(
    database_url: str,
) -> None:
    """``Game.events`` and ``Game.replay`` (docs/API.md "Games") of the game a process knows: when
    the store already holds later entries (another process's, not yet heard), the page and the
    replay stop at that game's ``version``, so what one read shows agrees with itself."""
    from service.app import numbering
    from service.app.caller import SPECTATOR

    behind, ahead = Application(open_store(database_url)), Application(open_store(database_url))
    callers = [behind.accounts.register_player(name)[0] for name in ("Ann", "Bob")]
    game_id = str(behind.seating.create_game(callers[0], "imhotep", 2, None, "as-far").id)
    for seat, caller in enumerate(callers):
        behind.seating.join_game(caller, game_id, seat)
    behind.follow()
    known = behind.tables.get(game_id)
    for _ in range(3):
        caller, action = seat_to_move(ahead, game_id, callers)
        ahead.play.act(caller, game_id, action)
    stored = versions(ahead, game_id)[-1]
    assert behind.tables.get(game_id).version == known.version < stored  # behind the store
    log = numbering.timeline(behind.tables, known, SPECTATOR)
    assert log.shown is None and log.version == known.version  # Imhotep hides no entry
    entries, more = numbering.page(behind.tables, known, SPECTATOR, log, known.version - 2, 100)
    assert [e["version"] for e in entries] == [known.version - 1, known.version]
    assert not more
    assert numbering.replay_window(log, known.version - 2, 100) == (known.version - 2, 2)
    assert numbering.replay_window(log, known.version, 100) is None
    # once current, the same reads go on to the end of the store's log
    behind.heard_game(game_id, stored)
    now = behind.tables.get(game_id)
    log = numbering.timeline(behind.tables, now, SPECTATOR)
    entries, _ = numbering.page(behind.tables, now, SPECTATOR, log, known.version - 2, 100)
    assert [e["version"] for e in entries] == list(range(known.version - 1, stored + 1))
