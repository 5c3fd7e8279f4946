"""What a gap-safe notification log costs on PostgreSQL: the three ways to have one, side by side.

Writers insert into the store (``--writers`` threads, each its own aggregate, ``--events`` per
save) while ``--readers`` threads follow the notification log as the server's feeds and
read-model workers do (read everything after their position, again as soon as they are done,
``--read-pause`` between reads). Each choice runs ``--seconds`` on a fresh database, the choices
back to back, ``--rounds`` times, and the medians are printed:

* ``unsafe``: the library's insert function without a lock (what the server ran before issue
  #20): writers concurrent, readers follow ids and may pass a row that commits later;
* ``horizon``: ours (``service.store.postgres``): the same function holding a shared advisory
  lock, readers stopping at the sealed horizon (``service.store.horizon``);
* ``locking``: the library's other insert (``POSTGRES_ENABLE_DB_FUNCTIONS=n``): an exclusive
  table lock from the insert to the commit, so ids commit in order and readers follow ids.

For each: saves/s, save latency p50/p99, the read lag: from a save's return to the first read
that returns its rows, p50/p99 (what a subscriber on another process waits, less the
notification's trip), and the rows skipped: committed rows below a reader's last position that
it never read (summed over the readers; lost to them for good).

    .venv/bin/python bench/insert_order.py --writers 1 4 16 --readers 6 --seconds 5 --rounds 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import psycopg
from eventsourcing.persistence import StoredEvent

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.store.database import Database, Store, StoreOptions

SERVER = "postgresql://postgres@127.0.0.1:5432"
CHOICES = {
    "unsafe": {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_ENABLE_DB_FUNCTIONS": "y"},
    "horizon": {},  # the server's own settings
    "locking": {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_ENABLE_DB_FUNCTIONS": "n",
    },
}


def fresh_database(name: str) -> str:
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {name}")
    return f"{SERVER}/{name}"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))] if ordered else float("nan")


def run(
    choice: str, writers: int, readers: int, seconds: float, events: int, pause: float
) -> dict[str, float]:
    url = fresh_database("papyrus_insert_order")
    env = {**Database(url, StoreOptions(pool_size=writers + readers + 2)).env(), **CHOICES[choice]}
    store = Store(env=env)
    recorder: Any = store.recorder
    saved_at: dict[int, float] = {}  # notification id -> when its save returned
    lags: list[float] = []
    latencies: list[float] = []
    lock = threading.Lock()
    stop = threading.Event()

    def write() -> None:
        originator, version = uuid.uuid4(), 0
        while not stop.is_set():
            batch = [
                StoredEvent(originator, version + k + 1, "bench:Inserted", b"x" * 300)
                for k in range(events)
            ]
            started = time.perf_counter()
            ids = recorder.insert_events(batch)
            done = time.perf_counter()
            version += events
            with lock:
                latencies.append(done - started)
                if ids:
                    for ident in ids:
                        saved_at[ident] = done

    skipped: list[int] = []

    def follow() -> None:
        position, read = 0, set()
        while not stop.is_set():
            notes = recorder.select_notifications(position + 1, 500)
            now = time.perf_counter()
            for note in notes:
                position = note.id
                read.add(note.id)
                with lock:
                    saved = saved_at.get(note.id)
                if saved is not None:
                    lags.append(max(0.0, now - saved))
            if len(notes) < 500:
                time.sleep(pause)
        # rows committed at or below where this reader got to that it never read: lost to it
        with recorder.datastore.get_connection() as connection:
            rows = connection.execute(
                f"SELECT notification_id FROM {recorder.events_table_name}"
                " WHERE notification_id <= %s",
                (position,),
            ).fetchall()
        skipped.append(len({row["notification_id"] for row in rows} - read))

    threads = [threading.Thread(target=write) for _ in range(writers)]
    threads += [threading.Thread(target=follow) for _ in range(readers)]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    store.close()
    return {
        "saves/s": len(latencies) / seconds,
        "save p50 ms": percentile(latencies, 0.5) * 1000,
        "save p99 ms": percentile(latencies, 0.99) * 1000,
        "read lag p50 ms": percentile(lags, 0.5) * 1000,
        "read lag p99 ms": percentile(lags, 0.99) * 1000,
        "rows skipped": float(sum(skipped)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--writers", type=int, nargs="+", default=[1, 4, 16])
    parser.add_argument("--readers", type=int, default=6, help="log followers (feeds, workers)")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--events", type=int, default=2, help="events per save")
    parser.add_argument("--read-pause", type=float, default=0.002, help="seconds between reads")
    args = parser.parse_args()
    for writers in args.writers:
        results: dict[str, list[dict[str, float]]] = {choice: [] for choice in CHOICES}
        for _ in range(args.rounds):
            for choice in CHOICES:
                results[choice].append(
                    run(choice, writers, args.readers, args.seconds, args.events, args.read_pause)
                )
        print(f"\n{writers} writers, {args.readers} readers (medians of {args.rounds} rounds)")
        names = list(results["horizon"][0])
        print(f"{'':10}" + "".join(f"{name:>17}" for name in names) + f"{'÷ unsafe':>11}")
        base = statistics.median(r["saves/s"] for r in results["unsafe"])
        for choice, rounds in results.items():
            medians = [statistics.median(r[name] for r in rounds) for name in names]
            print(
                f"{choice:10}"
                + "".join(f"{value:17.1f}" for value in medians)
                + f"{medians[0] / base:11.2f}"
            )


if __name__ == "__main__":
    main()
