"""Papyrus side by side with boardgame.io, back to back on this machine, and the ratios.

For each concurrency N (8 and 32 games), ``--pairs`` times (3) in a row: boardgame.io with its
in-memory storage, boardgame.io with FlatFile, then Papyrus on SQLite and on PostgreSQL (durable:
every acknowledged action committed), each store once per shape of ``--shapes`` (poll and push),
each run on a fresh server; then a table of the medians and the ratios (each Papyrus shape ÷
boardgame.io FlatFile, ÷ boardgame.io in memory, the median of the per-pair ratios), and Papyrus
÷ the eventsourcing library's own save ceiling on the same store (``../shared/tools/es_ceiling.py``,
run once per pair right after the last Papyrus run on its store: sequential ``save()`` calls of
one event each on one connection, which is what one ``act`` is at least; Papyrus runs 8-32
commands at once, so on PostgreSQL, whose WAL flush serves every transaction committing at that
moment, the ratio can pass 1).

The two Papyrus shapes (``bench/api.py --shape``):

* ``poll`` (rows "Papyrus SQLite, poll"; keys ``papyrus-sqlite``): the seat to move reads the
  game with its legal actions over HTTP, then sends ``act`` over HTTP; a Papyrus action is two
  requests and nobody else is told of it. Latency: the ``act`` alone.
* ``push`` (rows "..., push"; keys ``papyrus-sqlite-push``), boardgame.io's shape: one websocket
  per seat subscribed to ``gameChanged`` (the seat's filtered state and legal actions), the mover
  sends ``act`` over its socket (``--act-over http``: by HTTP POST) and the next mover moves on the
  state pushed to it. Every event of a command (about 2 per Imhotep action) is pushed to all four
  seats, as boardgame.io broadcasts each move to its four clients. "act p50/p99" is send → the
  act's answer; "push p99" is send → the last of the four seats holding its push of the new
  version. boardgame.io's latency is send → the mover's own client holding the server's update
  (the push to the mover, not to all four), and its next player moves on that push alone, while
  Papyrus's next mover also waits for the act's answer (bench/push.py). The raw JSON of each
  push run also holds ``mover_push_p50_ms``/``mover_push_p99_ms``: send → the mover's own push,
  boardgame.io's measure.

boardgame.io is driven with its own harness (``../shared/peers/boardgameio``, copied to a
temporary folder, ``npm ci`` there), the way its ``run.sh`` runs one configuration: the server
under ``/usr/bin/time -v`` on CPU 0, its driver on CPU 1, a warm-up of 32 matches, then
ceil(64 / N) rounds of N concurrent 4-player matches of 150 moves. Papyrus is driven by
``bench/api.py`` in its closed loop at the same N (rounds of N games, lobby and websocket setup
not measured, a short warm-up), the server on CPU 0 and the load generator on CPU 1; a
boardgame.io move is one socket.io message and its four filtered broadcasts. The PostgreSQL
server itself is not pinned (it is a separate process).

    bench/compare.sh                 # full: N = 8 and 32, 3 pairs each, poll and push (~20 min)
    bench/compare.sh --quick         # smoke: 1 pair, short runs (~4 min)
    bench/compare.sh --ns 8 --pairs 1 --seconds 10
    bench/compare.sh --quick --configs papyrus-sqlite --shapes push --no-ceiling

Needs Node.js 20 + npm (the npm registry for ``npm ci``), GNU time at ``/usr/bin/time``
(``apt-get install time``), ``taskset``, and PostgreSQL at ``PAPYRUS_TEST_POSTGRES_URL``
(default ``postgresql://postgres@127.0.0.1:5432/test``). The raw JSON of every run is kept in
``--out`` (default a new folder under /tmp). The machine is shared and noisy: read the ratios of
back-to-back runs, not the absolute figures.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PEER = ROOT.parent / "shared" / "peers" / "boardgameio"
CEILING = ROOT.parent / "shared" / "tools" / "es_ceiling.py"
ADMIN_URL = os.environ.get("PAPYRUS_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
CONFIGS = ("bgio-memory", "bgio-flatfile", "papyrus-sqlite", "papyrus-postgres")
SHAPES = ("poll", "push")
STORES = {"papyrus-sqlite": "SQLite", "papyrus-postgres": "PostgreSQL"}
LABELS = {
    "bgio-memory": "boardgame.io in memory",
    "bgio-flatfile": "boardgame.io FlatFile",
    **{
        config if shape == "poll" else f"{config}-{shape}": f"Papyrus {name}, {shape}"
        for config, name in STORES.items()
        for shape in SHAPES
    },
}


def key(config: str, shape: str) -> str:
    """A run's configuration and shape as one key: ``papyrus-sqlite`` (poll, as before the push
    shape existed), ``papyrus-sqlite-push``; boardgame.io's configurations have no shape."""
    return config if shape == "poll" or config.startswith("bgio") else f"{config}-{shape}"


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def install_peer(folder: Path) -> Path:
    """A copy of the peer harness with its pinned packages installed (``npm ci``)."""
    target = folder / "boardgameio"
    shutil.copytree(PEER, target, ignore=shutil.ignore_patterns("node_modules", "results"))
    log(f"npm ci in {target} ...")
    subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=target,
        check=True,
        stdout=sys.stderr,
    )
    return target


def pinned(cpu: int) -> list[str]:
    return ["taskset", "-c", str(cpu)] if shutil.which("taskset") else []


def run_bgio(
    peer: Path, storage: str, n: int, seed: int, matches: int, warmup: int, out: Path
) -> dict[str, Any]:
    """One boardgame.io configuration on a fresh server, as ``run.sh`` runs it."""
    tag = f"bgio-{storage}-n{n}-r{seed}"
    data_dir = tempfile.mkdtemp(prefix="bgio-flatfile.") if storage != "memory" else None
    args = ["--storage", storage] + (["--dir", data_dir] if data_dir else [])
    env = {**os.environ, "NODE_ENV": "production"}
    server_out = out / f"{tag}.server.out"
    with open(server_out, "wb") as stdout, open(out / f"{tag}.server.err", "wb") as stderr:
        server = [*pinned(0), "/usr/bin/time", "-v", "-o", str(out / f"{tag}.time")]
        timed = subprocess.Popen(
            [*server, "node", "server.js", *args],
            cwd=peer,
            env=env,
            stdout=stdout,
            stderr=stderr,
        )
    try:
        pid = port = None
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and timed.poll() is None:
            ready = [x for x in server_out.read_text().splitlines() if x.startswith("READY ")]
            if ready:
                _, pid, port = ready[0].split()
                break
            time.sleep(0.05)
        if pid is None:
            raise RuntimeError(f"boardgame.io server did not start: {tag}")
        rounds = -(-matches // n)
        result = out / f"{tag}.json"
        driver = [*pinned(1), "node", "driver.js", "--url", f"http://127.0.0.1:{port}"]
        driver += ["--server-pid", pid, "--out", str(result), "--mode", "play"]
        driver += ["--matches", str(n), "--rounds", str(rounds), "--seed", str(seed)]
        driver += ["--warmup", str(warmup), "--label", tag]
        with open(out / f"{tag}.driver.err", "wb") as errors:
            subprocess.run(driver, cwd=peer, env=env, check=True, stderr=errors)
        report = json.loads(result.read_text())
    finally:
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), 15)
        try:
            timed.wait(timeout=10)
        except subprocess.TimeoutExpired:
            if pid is not None:
                os.kill(int(pid), 9)
            timed.wait(timeout=10)
        if data_dir:
            shutil.rmtree(data_dir, ignore_errors=True)
    play = report["play"]
    return {
        "actions_per_s": play["moves_per_s"],
        "p50_ms": play["latency_ms"]["p50"],
        "p99_ms": play["latency_ms"]["p99"],
        "server_cpu_ms_per_action": play["server_cpu_ms_per_move"],
        "server_cpu_percent": play["server_cpu_pct"],
        "driver_cpu_percent": play["driver_cpu_pct"],
        "actions": play["moves_total"],
        "checks_ok": report["checks"]["ok"],
    }


def run_papyrus(
    store: str, n: int, seconds: float, warmup: float, out: Path, shape: str, act_over: str
) -> dict[str, Any]:
    """One Papyrus configuration on a fresh server: bench/api.py's closed loop, pinned."""
    command = [sys.executable, str(ROOT / "bench" / "api.py"), "--store", store]
    command += ["--games", str(n), "--seconds", str(seconds), "--warmup", str(warmup)]
    command += ["--shape", shape, "--act-over", act_over, "--pin", "--json"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        log(done.stderr[-4000:])
        raise RuntimeError(f"bench/api.py failed ({done.returncode}): {' '.join(command)}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    tag = f"papyrus-{store}-{shape}-n{n}-{uuid.uuid4().hex[:6]}"
    (out / f"{tag}.json").write_text(json.dumps(figures, indent=1))
    return figures


def ceiling(store: str, events: int, out: Path) -> dict[str, Any]:
    """es_ceiling.py on a fresh SQLite file or PostgreSQL database, pinned to CPU 0."""
    env = {**os.environ, "BENCH_N": str(events)}
    cleanup: Callable[[], None] | None = None
    folder = tempfile.mkdtemp(prefix="es-ceiling-")
    if store == "sqlite":
        env.update(PERSISTENCE_MODULE="eventsourcing.sqlite", SQLITE_DBNAME=f"{folder}/c.sqlite")
    else:
        import psycopg

        name = f"es_ceiling_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        parts = urllib.parse.urlsplit(ADMIN_URL)
        env.update(
            PERSISTENCE_MODULE="eventsourcing.postgres",
            POSTGRES_DBNAME=name,
            POSTGRES_HOST=parts.hostname or "127.0.0.1",
            POSTGRES_PORT=str(parts.port or 5432),
            POSTGRES_USER=urllib.parse.unquote(parts.username or "postgres"),
            POSTGRES_PASSWORD=urllib.parse.unquote(parts.password or ""),
        )

        def drop() -> None:
            with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

        cleanup = drop

    try:
        done = subprocess.run(
            [*pinned(0), sys.executable, str(CEILING)],
            env=env,
            cwd=folder,
            check=True,
            capture_output=True,
            text=True,
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if cleanup is not None:
            cleanup()
    figures: dict[str, Any] = json.loads(done.stdout)
    tag = uuid.uuid4().hex[:6]
    (out / f"ceiling-{store}-{tag}.json").write_text(json.dumps(figures, indent=1))
    return figures


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def table(results: dict[tuple[str, int], list[dict[str, Any]]], ns: list[int]) -> str:
    rows = [
        "| configuration | N | runs | actions/s (median) | min–max | act p50 ms | act p99 ms "
        "| push p99 ms | server CPU ms/action | server CPU % of a core | driver CPU % |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for n in ns:
        for config in LABELS:
            runs = results.get((config, n), [])
            if not runs:
                continue
            rate = [r["actions_per_s"] for r in runs]
            pushed = [r["push_p99_ms"] for r in runs if r.get("push_p99_ms") is not None]
            rows.append(
                f"| {LABELS[config]} | {n} | {len(runs)} | {median(rate):.0f} "
                f"| {min(rate):.0f}–{max(rate):.0f} "
                f"| {median([r['p50_ms'] for r in runs]):.1f} "
                f"| {median([r['p99_ms'] for r in runs]):.1f} "
                f"| {f'{median(pushed):.1f}' if pushed else '—'} "
                f"| {median([r['server_cpu_ms_per_action'] for r in runs]):.2f} "
                f"| {median([r['server_cpu_percent'] for r in runs]):.0f} "
                f"| {median([r['driver_cpu_percent'] for r in runs]):.0f} |"
            )
    return "\n".join(rows)


def ratios(
    results: dict[tuple[str, int], list[dict[str, Any]]],
    ns: list[int],
    ceilings: dict[tuple[str, int], list[dict[str, Any]]],
) -> tuple[str, dict[str, float]]:
    """Median over the pairs of each pair's ratio (the runs of one pair ran back to back)."""
    papyrus = [c for c in LABELS if c.startswith("papyrus")]
    wanted = [(top, bottom) for bottom in ("bgio-flatfile", "bgio-memory") for top in papyrus]
    rows = ["| ratio (actions/s) | N | median of the pairs | per pair |", "|---|---:|---:|---|"]
    found: dict[str, float] = {}
    for n in ns:
        for top, bottom in wanted:
            a, b = results.get((top, n), []), results.get((bottom, n), [])
            pairs = [x["actions_per_s"] / y["actions_per_s"] for x, y in zip(a, b, strict=False)]
            if not pairs:
                continue
            found[f"{top}/{bottom}@{n}"] = median(pairs)
            rows.append(
                f"| {LABELS[top]} ÷ {LABELS[bottom]} | {n} | {median(pairs):.2f} "
                f"| {', '.join(f'{p:.2f}' for p in pairs)} |"
            )
        for config in papyrus:
            store = config.split("-")[1]
            runs = results.get((config, n), [])
            limits = [c["save_batch1_events_per_s"] for c in ceilings.get((store, n), [])]
            if not limits or not runs:
                continue
            pairs = [r["actions_per_s"] / c for r, c in zip(runs, limits, strict=False)]
            found[f"{config}/ceiling@{n}"] = median(pairs)
            rows.append(
                f"| {LABELS[config]} ÷ eventsourcing save ceiling (median {median(limits):.0f} "
                f"saves/s) | {n} | {median(pairs):.2f} | {', '.join(f'{p:.2f}' for p in pairs)} |"
            )
    return "\n".join(rows), found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="one pair, short runs (a smoke run)")
    parser.add_argument("--ns", type=int, nargs="+", default=[8, 32], help="concurrent games")
    parser.add_argument("--pairs", type=int, default=None, help="back-to-back pairs (3)")
    parser.add_argument("--seconds", type=float, default=None, help="Papyrus play time (20)")
    parser.add_argument("--configs", nargs="+", choices=CONFIGS, default=list(CONFIGS))
    parser.add_argument(
        "--shapes",
        nargs="+",
        choices=SHAPES,
        default=list(SHAPES),
        help="Papyrus load shapes, each run once per pair (bench/api.py --shape)",
    )
    parser.add_argument(
        "--act-over",
        choices=["ws", "http"],
        default="ws",
        help="push shape: act over the seat's websocket or by HTTP POST",
    )
    parser.add_argument("--no-ceiling", action="store_true", help="skip es_ceiling.py")
    parser.add_argument("--peer", type=Path, help="an installed copy of the peer (skip npm ci)")
    parser.add_argument("--out", type=Path, help="folder for the raw JSON of every run")
    parser.add_argument("--json", action="store_true", help="a machine-readable last line")
    args = parser.parse_args(argv)
    pairs = args.pairs or (1 if args.quick else 3)
    seconds = args.seconds or (5 if args.quick else 20)
    matches, warmup, papyrus_warmup = (16, 8, 2) if args.quick else (64, 32, 3)
    ceiling_events = 1000 if args.quick else 2000
    if not Path("/usr/bin/time").exists():
        parser.error("/usr/bin/time is required (apt-get install -y time)")
    out = args.out or Path(tempfile.mkdtemp(prefix="papyrus-compare-"))
    out.mkdir(parents=True, exist_ok=True)
    log(f"raw results in {out}")
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="bgio-peer-") as folder:
        peer = args.peer
        if peer is None and any(c.startswith("bgio") for c in args.configs):
            peer = install_peer(Path(folder))
        ceilings: dict[tuple[str, int], list[dict[str, Any]]] = {}
        results: dict[tuple[str, int], list[dict[str, Any]]] = {}
        for n in args.ns:
            for pair in range(1, pairs + 1):
                for config in args.configs:
                    store = config.split("-", 1)[1]
                    shapes = ["poll"] if config.startswith("bgio") else args.shapes
                    for shape in shapes:
                        label = LABELS[key(config, shape)]
                        log(f"N={n} pair {pair}/{pairs}: {label} ...")
                        if config.startswith("bgio"):
                            assert peer is not None
                            figures = run_bgio(peer, store, n, pair, matches, warmup, out)
                        else:
                            figures = run_papyrus(
                                store, n, seconds, papyrus_warmup, out, shape, args.act_over
                            )
                        results.setdefault((key(config, shape), n), []).append(figures)
                        pushed = ""
                        if figures.get("push_p99_ms") is not None:
                            pushed = (
                                f", push p99 {figures['push_p99_ms']:.1f} ms, "
                                f"{figures['pushes_per_action']:.2f} pushes/action"
                            )
                        log(
                            f"  {figures['actions_per_s']:.0f} actions/s, p50 "
                            f"{figures['p50_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms, server "
                            f"CPU {figures['server_cpu_ms_per_action']:.2f} ms/action{pushed}"
                        )
                    if config.startswith("papyrus") and not args.no_ceiling:
                        limit = ceiling(store, ceiling_events, out)
                        ceilings.setdefault((store, n), []).append(limit)
                        log(f"  es_ceiling.py: {limit['save_batch1_events_per_s']} saves/s")
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(started))
    print(f"Papyrus vs boardgame.io, {when}, {pairs} pair(s) per N, medians")
    if "push" in args.shapes and any(c.startswith("papyrus") for c in args.configs):
        print(
            f"(push: one websocket per seat, act over {args.act_over}; push p99 = send to the "
            "last of the four seats holding the new state; boardgame.io's p50/p99 = send to "
            "the mover's own pushed state)"
        )
    print()
    print(table(results, args.ns))
    print()
    text, found = ratios(results, args.ns, ceilings)
    print(text)
    if ceilings:
        print()
        for (store, n), measured in ceilings.items():
            print(
                f"eventsourcing {measured[0]['eventsourcing']} ceiling on {store} (N={n} pairs): "
                f"{', '.join(str(f['save_batch1_events_per_s']) for f in measured)} saves/s of "
                f"one event; {', '.join(str(f['save_batch100_events_per_s']) for f in measured)} "
                "events/s in saves of 100"
            )
    if args.json:
        print(
            json.dumps(
                {
                    "ratios": found,
                    "ceilings": {f"{s}@{n}": c for (s, n), c in ceilings.items()},
                    "runs": {f"{c}@{n}": r for (c, n), r in results.items()},
                },
                sort_keys=True,
            )
        )


if __name__ == "__main__":
    main()
