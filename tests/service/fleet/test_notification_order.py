"""The store's notification log is never read past a row that may still commit (issue #20).

On PostgreSQL, notification ids are taken when a row is inserted and become visible when its
transaction commits; two writers can commit out of id order. A reader that followed ids moved
past the id still in flight and never saw it: a second server process's read models froze for
good, its cached game stayed old, and its subscribers, clock scheduler and bot driver never
heard of the write (``service.store.horizon``).

Here the order is forced, not hoped for: a deferred trigger (the test's own, in the test's own
database) holds the commit of every write to chosen games until the test lets it go, so their
ids are taken first and committed last, while a later write to another game commits at once.
A real ``papyrus serve`` process (the observer) must still see every held write through each
consumer of the log. SQLite needs no such test: one writer at a time holds its write lock from
taking an id until its commit, so ids commit in order there.
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from eventsourcing.persistence import StoredEvent

from service.app.application import Application
from service.app.caller import Caller
from service.app.views import legal_actions
from service.store.database import StoreOptions, open_store
from service.store.horizon import Horizon
from tests.client import Client, subscribe
from tests.serving import ServeProcess

#: the advisory lock the trigger waits on while the test holds it
HOLD_KEY = 4_242_424
TRIGGER = f"""
CREATE TABLE papyrus_test_held (originator_id uuid PRIMARY KEY);
CREATE FUNCTION papyrus_test_hold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM papyrus_test_held WHERE originator_id = NEW.originator_id) THEN
        PERFORM pg_advisory_xact_lock_shared({HOLD_KEY});
    END IF;
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER papyrus_test_hold AFTER INSERT ON papyrus_events
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION papyrus_test_hold();
"""
GAME = "query($g: ID!) { game(id: $g) { version status activeSeats } }"
SUMMARIES = """query($p: ID!) { gameSummaries(player: $p, first: 10) {
  nodes { gameId version status } } }"""
EVENTS = "subscription($g: ID!) { gameEvents(gameId: $g) { version type } }"


def wait_until(check: Callable[[], Any], seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.05)


@pytest.fixture
def offset_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The observer's clock: the system's plus what the file says (tests only)."""
    path = tmp_path / "clock-offset"
    path.write_text("0")
    monkeypatch.setenv("PAPYRUS_CLOCK_OFFSET_FILE", str(path))
    return path


class Hold:
    """Holds the commits of the writes to the games put in it, until ``release``."""

    def __init__(self, url: str) -> None:
        self.connection = psycopg.connect(url, autocommit=True)
        self.connection.execute(TRIGGER)
        self.connection.execute("SELECT pg_advisory_lock(%s)", (HOLD_KEY,))

    def hold(self, game_id: str) -> None:
        self.connection.execute("INSERT INTO papyrus_test_held VALUES (%s)", (game_id,))

    def waiting(self) -> int:
        """Writes that took their ids and wait to commit."""
        row = self.connection.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            " AND classid = 0 AND objid = %s AND objsubid = 1",
            (HOLD_KEY,),
        ).fetchone()
        return int(row[0]) if row else 0

    def release(self) -> None:
        self.connection.execute("SELECT pg_advisory_unlock(%s)", (HOLD_KEY,))

    def close(self) -> None:
        self.connection.close()


def first_move(app: Application, game_id: str, caller: Caller) -> dict[str, Any]:
    legal = legal_actions(app.tables.get(game_id).table, caller)
    assert legal, "the caller must be the one to move"
    return dict(legal[0])


def in_thread(work: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    box: list[Any] = []

    def run() -> None:
        try:
            box.append(work())
        except BaseException as failure:  # shown by the test, not lost in the thread
            box.append(failure)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, box


@pytest.fixture
def observer(postgres_url: str, offset_file: Path) -> Iterator[ServeProcess]:
    process = ServeProcess(postgres_url)
    try:
        yield process
    finally:
        process.stop()


@pytest.mark.postgres
def test_every_consumer_sees_writes_committed_out_of_id_order(
    postgres_url: str, observer: ServeProcess, offset_file: Path
) -> None:
    """Three writes take their ids first and commit last, after a fourth write to another game
    committed: the observer's read models, cached game, subscriber, clock scheduler and bot
    driver all see each of the three."""
    # the writer: another process's application (no feed, no bots, no clocks of its own),
    # whose statements may wait for the hold
    writer = Application(open_store(postgres_url, StoreOptions(statement_timeout=30.0)))
    (ann, ann_token), (bob, _) = (writer.accounts.register_player(n) for n in "AB")
    watching = Client(observer.url, ann_token)

    # a game the observer caches and a subscriber follows
    cached = str(writer.seating.create_game(ann, "imhotep", 2, None, "held-cache").id)
    writer.seating.join_game(ann, cached, 0)
    writer.seating.join_game(bob, cached, 1)
    # a game whose bot is due once Ann has moved (the observer's bot driver plays it)
    botted = str(writer.seating.create_game(ann, "imhotep", 2, None, "held-bot").id)
    writer.seating.join_game(ann, botted, 0)
    writer.seating.add_bot(ann, botted, 1, "random")
    # a timed table whose clock starts with its last seat (the observer's scheduler fires it)
    clock = {"clock": {"mode": "move", "moveMs": 5_000, "onExpiry": "abandon"}}
    timed = str(writer.seating.create_game(ann, "imhotep", 2, clock, "held-clock").id)
    writer.seating.join_game(ann, timed, 0)
    # a game written to while the others are held
    free = str(writer.seating.create_game(bob, "imhotep", 2, None, "free").id)

    def summaries() -> dict[str, int]:
        """The observer's read models: each of Ann's games and its version there."""
        nodes = watching.gql(SUMMARIES, {"p": ann.player_id})["gameSummaries"]["nodes"]
        return {node["gameId"]: node["version"] for node in nodes}

    # the observer knows every game as it is now: cached, summarised, subscribed
    wait_until(lambda: len(summaries()) == 3, 20, "the observer's read models list Ann's games")
    wait_until(  # the bot may have had the first move: the observer's driver played it
        lambda: watching.gql(GAME, {"g": botted})["game"]["activeSeats"] == [0],
        20,
        "Ann to move in the bot game",
    )
    mover = ann if watching.gql(GAME, {"g": cached})["game"]["activeSeats"] == [0] else bob
    before = {g: watching.gql(GAME, {"g": g})["game"]["version"] for g in (cached, botted)}
    events: list[list[dict[str, Any]]] = []

    def subscriber() -> None:
        events.append(
            asyncio.run(
                subscribe(
                    observer.ws_url,
                    EVENTS,
                    {"g": cached},
                    until=lambda p: bool(p),
                    timeout=45,
                    token=ann_token,
                )
            )
        )

    listening = threading.Thread(target=subscriber, daemon=True)
    listening.start()
    time.sleep(1.0)  # subscribed (afterVersion null: only what happens from now on)

    hold = Hold(postgres_url)
    try:
        for game_id in (cached, botted, timed):
            hold.hold(game_id)
        held = [
            in_thread(lambda: writer.play.act(mover, cached, first_move(writer, cached, mover))),
            in_thread(lambda: writer.play.act(ann, botted, first_move(writer, botted, ann))),
            in_thread(lambda: writer.seating.join_game(bob, timed, 1)),
        ]
        wait_until(lambda: hold.waiting() == 3, 10, "the three held writes took their ids")
        # a later id, committed first (a writer that waits for the held ones would wait here)
        later, done = in_thread(lambda: writer.seating.join_game(ann, free, 0))
        later.join(timeout=2.0)
        time.sleep(1.0)  # an observer that follows ids would now read past the held ones
    finally:
        hold.release()
        hold.close()
    for thread, box in [*held, (later, done)]:
        thread.join(timeout=20)
        assert box and not isinstance(box[0], BaseException), box

    after = {g: writer.tables.get(g).version for g in (cached, botted, timed, free)}
    missed: list[str] = []  # every consumer is checked, so a failure names all that missed

    def saw(check: Callable[[], Any], seconds: float, consumer: str) -> None:
        try:
            wait_until(check, seconds, consumer)
        except AssertionError as missing:
            missed.append(str(missing))

    # the cached game: the observer's copy is marked stale and read again
    saw(
        lambda: watching.gql(GAME, {"g": cached})["game"]["version"] == after[cached],
        15,
        "the game cache (the observer's copy shows the held write)",
    )
    # the read models: every game's summary at (or past: bots, clocks) its last write
    saw(
        lambda: (
            (seen := summaries()).keys() == after.keys() and all(seen[g] >= after[g] for g in after)
        ),
        15,
        "the read models (every game's summary shows its write)",
    )
    # the subscriber: woken for the held write
    listening.join(timeout=15)
    saw(
        lambda: events and events[0][0]["data"]["gameEvents"]["version"] == before[cached] + 1,
        0,
        "the hub (the subscriber was woken for the held write)",
    )
    # the bot driver: the bot that became due moves
    saw(
        lambda: watching.gql(GAME, {"g": botted})["game"]["version"] > after[botted],
        15,
        "the bot driver (the bot the held write made due moved)",
    )
    # the clock scheduler: the clock the held join started runs out on the observer
    offset_file.write_text("60000")
    saw(
        lambda: watching.gql(GAME, {"g": timed})["game"]["status"] == "ABANDONED",
        15,
        "the clock scheduler (the clock the held write started ran out)",
    )
    assert not missed, "consumers that missed a write: " + "; ".join(missed)
    writer.store.close()


def note_ids(recorder: Any) -> list[int]:
    return [note.id for note in recorder.select_notifications(1, 100)]


def insert_held(recorder: Any, connection: Any, topic: str) -> int:
    """The store's own insert, in a transaction the caller keeps open: its notification id."""
    event = recorder.construct_pg_stored_event(uuid.uuid4(), 1, topic, b"{}")
    rows = connection.execute(recorder.sql_invoke_pg_function_insert_events, ([event],))
    return int(rows.fetchall()[0][recorder.pg_function_name_insert_events])


@pytest.mark.postgres
@pytest.mark.parametrize("ending", ["commit", "rollback"])
def test_the_log_is_read_up_to_the_first_write_still_in_flight(
    postgres_url: str, ending: str
) -> None:
    """Two writers on two connections, the first held open: the second's later id, committed
    first, is not read (nor counted in the head) until the first ends; then both are read,
    or, the first rolled back, its id is passed for good."""
    store = open_store(postgres_url)
    recorder: Any = store.recorder
    try:
        with recorder.datastore.get_connection() as connection:
            transaction = connection.transaction(force_rollback=ending == "rollback")
            with transaction:
                first = insert_held(recorder, connection, "tests:Held")
                later = recorder.insert_events(
                    [StoredEvent(uuid.uuid4(), 1, "tests:Later", b"{}")]
                )[0]
                assert later > first
                assert note_ids(recorder) == []  # nothing past the write in flight
                assert recorder.max_notification_id() == first - 1
            ended = [first, later] if ending == "commit" else [later]
            assert note_ids(recorder) == ended
            assert recorder.max_notification_id() == later
    finally:
        store.close()


def test_the_horizon_waits_for_every_writer_in_flight_when_it_looked() -> None:
    """``Horizon``: a look's last id is sealed once none of the writers it saw is in flight,
    whoever started since; with nobody in flight, at once."""
    horizon = Horizon()
    assert horizon.advance(5, set()) == 5
    assert horizon.advance(9, {"3/1", "4/7"}) == 5  # ids 6-9 may belong to 3/1 or 4/7
    assert horizon.is_behind
    assert horizon.advance(12, {"4/7", "5/2"}) == 5  # 4/7 still in flight
    assert horizon.advance(14, {"5/2", "6/1"}) == 9  # 3/1, 4/7 ended: 9 sealed, 12 waits for 5/2
    assert horizon.advance(15, {"6/1"}) == 12
    assert horizon.advance(15, set()) == 15
    assert not horizon.is_behind


def test_the_horizon_moves_over_ids_already_visible_without_waiting() -> None:
    """Where every id past the horizon is already committed there is nothing to wait for:
    the horizon moves to the first missing one, whatever the writers in flight."""
    horizon = Horizon()
    assert horizon.advance(10, {"3/1"}, [1, 2, 3, 5, 6]) == 3  # 4 may still commit
    assert horizon.advance(10, {"3/1"}, [4, 5, 6, 8]) == 6  # 4 came; 7 is in flight
    assert horizon.advance(12, {"4/2"}, [8, 9]) == 10  # 3/1 ended: 7 rolled back, up to 10
    assert horizon.advance(12, {"4/2"}, [11, 12]) == 12


@pytest.mark.postgres
def test_followers_of_the_log_read_every_row_once_in_order_under_concurrent_writers(
    postgres_url: str,
) -> None:
    """Eight writers insert as fast as they can while three followers read the log as the
    feeds and read-model workers do: each follower reads every row, once, in id order (the
    store's insert without the horizon made followers pass dozens of rows here in two seconds:
    ``bench/insert_order.py``)."""
    store = open_store(postgres_url, StoreOptions(pool_size=14))
    recorder: Any = store.recorder
    stop = threading.Event()
    written: list[int] = []
    reads: list[list[int]] = [[] for _ in range(3)]

    def write() -> None:
        originator = uuid.uuid4()
        for version in range(1, 10_000):
            if stop.is_set():
                return
            event = StoredEvent(originator, version, "tests:Written", b"{}")
            written.extend(recorder.insert_events([event]))

    def follow(read: list[int]) -> None:
        while not stop.is_set():
            read.extend(n.id for n in recorder.select_notifications((read or [0])[-1] + 1, 100))

    threads = [threading.Thread(target=write) for _ in range(8)]
    threads += [threading.Thread(target=follow, args=(read,)) for read in reads]
    try:
        for thread in threads:
            thread.start()
        time.sleep(2.0)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
    try:
        everything = sorted(written)
        for read in reads:  # the followers catch up with what was written last
            while len(read) < len(everything):
                more = recorder.select_notifications(read[-1] + 1 if read else 1, 1000)
                assert more, f"a follower stopped {len(everything) - len(read)} rows short"
                read.extend(n.id for n in more)
            assert read == everything  # every row, once, in order: none passed for good
    finally:
        store.close()
