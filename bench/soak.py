"""The fleet soak (issue #20): several replicas on one PostgreSQL, honest players and their bots,
a hostile mix, a replica ``kill -9``ed and restarted and PostgreSQL restarted, all at once; then
the checks that say whether the fleet held.

What runs (``bench/fleet/``):

* a private PostgreSQL cluster (``initdb`` in a temporary folder: restarting it touches nothing
  else on the machine) and ``--replicas`` ``papyrus serve`` processes on it, each keeping the
  read models current, as deploy/compose.yaml runs them (``--projections-process``: the
  replicas run ``--no-projections`` and one ``papyrus projections run`` process keeps them);
* honest players (``fleet.honest``): ``--human-tables`` tables of humans and ``--bot-tables``
  tables of one human against bots of every level, Imhotep and Amun-Re, each played to the end
  and again, every request to the next replica; a websocket watcher per table;
* the hostile mix (``fleet.hostile``): costly subscriptions, silent sockets, bot floods
  (untimed and timed), bad tokens sent from an honest table's address;
* faults, at fixed fractions of the play: ``kill -9`` of the last replica and its restart, then
  a restart of PostgreSQL (``pg_ctl restart -m fast``: every connection cut).

Checked, then printed with the figures (exit status 1 if any check fails):

* no acknowledged action lost (its command is in the stored log);
* every game's log verifies (``verifyLog``);
* every read-model row equals a rebuild from the log, row for row;
* no ``INTERNAL`` answer and no server error in any replica's log;
* honest ``act`` p99 and the bots' reply p99 under ``--max-act-p99`` / ``--max-bot-p99``;
* every watcher saw every version once, in order, across its reconnects.

    .venv/bin/python bench/soak.py                   # 2 minutes (the suite's run)
    .venv/bin/python bench/soak.py --seconds 1800    # the long one
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script

from bench.fleet import checks
from bench.fleet.client import Api, Tally
from bench.fleet.cluster import PrivatePostgres, Projections, Replica
from bench.fleet.honest import Honest, Played
from bench.fleet.hostile import Hostile
from service.readmodels import ReadModels
from service.store.database import Database, open_store

VERIFY = "query($g: ID!) { verifyLog(gameId: $g) { ok badVersion reason } }"
#: (kind, humans, bot levels) of the honest tables, taken in turn
HUMAN_TABLES: list[tuple[str, int, list[str]]] = [
    ("IMHOTEP", 2, []),
    ("AMUN_RE", 3, []),
    ("IMHOTEP", 4, []),
    ("IMHOTEP", 3, []),
]
BOT_TABLES = [
    ("IMHOTEP", 1, ["random"]),
    ("AMUN_RE", 1, ["greedy", "random"]),
    ("IMHOTEP", 1, ["mcts"]),
    ("AMUN_RE", 1, ["mcts", "greedy"]),
]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


class Soak:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.folder = Path(tempfile.mkdtemp(prefix="papyrus-soak-"))
        self.faults: list[str] = []
        self.tally = Tally()
        self.played = Played()
        self.hostile_seen: Counter[str] = Counter()
        self.started = time.monotonic()
        self.stopped = 0.0
        self.killed: tuple[str, float, float] | None = None  # (replica URL, killed, back)
        self.silent_opened: list[tuple[int, str, float]] = []
        self.projections: Projections | None = None
        self.honest_addresses: set[str] = set()

    def note(self, fault: str) -> None:
        self.faults.append(f"{time.monotonic() - self.started:6.1f} s  {fault}")
        print(f"  {self.faults[-1]}", flush=True)

    # -- the run --------------------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        self.postgres = PrivatePostgres()
        try:
            ping = [f"--websocket-ping-interval={self.args.ping:g}"]
            ping += [f"--websocket-ping-timeout={self.args.ping:g}"]
            serve = ping + self.args.serve
            if self.args.projections_process:  # the read models in a process of their own
                serve = ["--no-projections", *serve]
                self.projections = Projections("projections", self.postgres.url, [], self.folder)
                self.projections.start()
            self.replicas = [
                Replica(f"replica-{n + 1}", self.postgres.url, serve, self.folder)
                for n in range(self.args.replicas)
            ]
            for replica in self.replicas:
                replica.start()
            print(
                f"{len(self.replicas)} replicas on {self.postgres.url}; playing "
                f"{self.args.seconds:g} s",
                flush=True,
            )
            asyncio.run(self.play())
            return self.check()
        finally:
            for replica in self.replicas:
                replica.kill()
            if self.projections is not None:
                self.projections.kill()
            self.postgres.close()

    async def play(self) -> None:
        stop = asyncio.Event()
        urls = lambda: [r.url for r in self.replicas]  # noqa: E731
        apis: list[Api] = []

        def api(address: str) -> Api:
            apis.append(Api(urls, address, self.tally))
            return apis[-1]

        rng = random.Random(self.args.seed)
        tables = [(HUMAN_TABLES[n % len(HUMAN_TABLES)]) for n in range(self.args.human_tables)] + [
            (BOT_TABLES[n % len(BOT_TABLES)]) for n in range(self.args.bot_tables)
        ]
        tasks = [
            asyncio.create_task(
                Honest(
                    api(f"127.0.0.{10 + n}"), self.played, random.Random(rng.random()), stop
                ).table(kind, humans, bots)
            )
            for n, (kind, humans, bots) in enumerate(tables)
        ]
        hostile = Hostile(
            {
                "costly": api("127.0.0.100"),
                "silent": api("127.0.0.101"),
                "flood": api("127.0.0.102"),
                "bad tokens": api("127.0.0.10"),  # an honest table's address
            },
            stop,
        )
        if self.args.hostile:
            tasks += [
                asyncio.create_task(hostile.costly_subscriptions()),
                asyncio.create_task(hostile.silent_sockets(hold=2 * self.args.ping + 10)),
                asyncio.create_task(hostile.bot_flood(timed=False)),
                asyncio.create_task(hostile.bot_flood(timed=True)),
                asyncio.create_task(hostile.bad_tokens()),
            ]
        if self.args.faults:
            tasks.append(asyncio.create_task(self.faults_timeline()))
        await asyncio.sleep(self.args.seconds)
        stop.set()
        self.stopped = time.time()
        done = await asyncio.wait(tasks, timeout=60)
        for task in done[1]:
            task.cancel()
        for task in done[0]:
            if task.exception() is not None and not isinstance(
                task.exception(), asyncio.CancelledError
            ):
                self.played.problems.append(f"a client failed: {task.exception()!r}")
        for one in apis:
            await one.close()
        self.hostile_seen = hostile.seen
        self.silent_opened = hostile.opened
        self.honest_addresses = {f"127.0.0.{10 + n}" for n in range(len(tables))}

    async def faults_timeline(self) -> None:
        loop = asyncio.get_running_loop()
        seconds = self.args.seconds
        await asyncio.sleep(seconds * 0.3)
        victim = self.replicas[-1]
        victim.kill()
        self.killed = (victim.url, time.time(), time.time())
        self.note(f"kill -9 {victim.name}")
        await asyncio.sleep(3.0)
        await loop.run_in_executor(None, victim.start)
        self.killed = (victim.url, self.killed[1], time.time())
        self.note(f"{victim.name} restarted and ready")
        await asyncio.sleep(seconds * 0.3)
        down = await loop.run_in_executor(None, self.postgres.restart)
        self.note(f"PostgreSQL restarted (down {down:.1f} s)")

    # -- the checks -----------------------------------------------------------------------------

    def check(self) -> dict[str, Any]:
        url = self.postgres.url
        events, lost = checks.lost_actions(url, self.played.acked)
        games = checks.game_ids(url)
        bad_logs = asyncio.run(self.verify_all(games))
        stops = {r.name: r.stop() for r in self.replicas}
        projections_behind = False
        if self.projections is not None:  # what it applies once every write has stopped
            projections_behind = not checks.caught_up(url)
            stops[self.projections.name] = self.projections.stop()
        tail = self.catch_up(url)
        kept = checks.snapshot(url)
        checks.rebuild(url)
        compared, differing, examples = checks.differing_rows(kept, checks.snapshot(url))
        processes = [*self.replicas, *([self.projections] if self.projections else [])]
        errors = [line for r in processes for line in checks.server_errors(r.log_lines())]
        dropped = [d for r in self.replicas for d in checks.dropped_sockets(r.log_lines())]
        silent_kept = self.silent_kept(dropped)
        honest_dropped = [d for d in dropped if d[0] in self.honest_addresses]
        act, bot = self.played.act_ms, self.played.bot_reply_ms
        report: dict[str, Any] = {
            "seconds": self.args.seconds,
            "replicas": len(self.replicas),
            "actions acknowledged": len(self.played.acked),
            "events stored": events,
            "games": len(games),
            "honest games": len(self.played.games),
            "honest games finished": self.played.finished,
            "faults": self.faults,
            "lost": len(lost),
            "logs verified": f"{len(games) - len(bad_logs)} of {len(games)}",
            "read-model rows": compared,
            "read-model rows differing": differing,
            "read-model tail applied after stop": tail,
            "INTERNAL answers": len(self.tally.internal),
            "server errors logged": len(errors),
            "act p50 ms": round(percentile(act, 0.5), 1),
            "act p99 ms": round(percentile(act, 0.99), 1),
            "bot reply p50 ms": round(percentile(bot, 0.5), 1),
            "bot reply p99 ms": round(percentile(bot, 0.99), 1),
            "watched events": self.played.watched,
            "reads older than the reader's own act (minVersion)": self.played.stale_reads,
            "silent sockets dropped by the server": len(dropped) - len(honest_dropped),
            "silent sockets the server kept": len(silent_kept),
            "honest sockets dropped": len(honest_dropped),
            "requests resent (replica down, UNAVAILABLE)": self.tally.resent,
            "answers by code": dict(sorted(self.tally.codes.items())),
            "hostile": dict(sorted(self.hostile_seen.items())),
            "replica exit statuses": stops,
        }
        failures = []
        failures += [f"lost: {m}" for m in lost[:5]]
        if projections_behind:
            failures.append("the projections process did not apply the whole log within 60 s")
        failures += [f"log does not verify: {b}" for b in bad_logs[:5]]
        failures += examples
        failures += self.tally.internal[:5] + errors[:5]
        failures += [p for p in self.played.problems if "watcher" in p][:5]
        failures += [f"a silent socket kept: {kept}" for kept in silent_kept[:5]]
        if self.played.stale_reads:
            failures.append(f"{self.played.stale_reads} reads older than their minVersion")
        failures += [f"an honest socket dropped: {one}" for one in honest_dropped[:5]]
        if percentile(act, 0.99) > self.args.max_act_p99:
            failures.append(f"act p99 {percentile(act, 0.99):.0f} ms > {self.args.max_act_p99} ms")
        if percentile(bot, 0.99) > self.args.max_bot_p99:
            failures.append(
                f"bot reply p99 {percentile(bot, 0.99):.0f} ms > {self.args.max_bot_p99} ms"
            )
        if not self.played.acked:
            failures.append("no action was acknowledged")
        report["other problems"] = [p for p in self.played.problems if "watcher" not in p][:10]
        report["failures"] = failures
        return report

    def silent_kept(self, dropped: list[tuple[str, int, int]]) -> list[str]:
        """The silent sockets held long enough to be dropped (the ping interval and timeout,
        and a margin) that no replica's log says it dropped; not those on the replica that
        was killed while they were open."""
        ports = {port for address, port, _ in dropped if address == "127.0.0.101"}
        long_enough = 2 * self.args.ping + 5
        kept = []
        for port, url, opened in self.silent_opened:
            if opened + long_enough > self.stopped or port in ports:
                continue
            if self.killed and url == self.killed[0] and opened < self.killed[2]:
                continue  # on the replica killed before it could drop it
            kept.append(f"port {port} on {url}, opened {opened - self.stopped:.0f} s before stop")
        return kept

    async def verify_all(self, games: list[str]) -> list[str]:
        api = Api(lambda: [r.url for r in self.replicas], "127.0.0.2", self.tally)
        bad = []
        try:
            for game_id in games:
                result = (await api.gql(VERIFY, {"g": game_id}, role="checks"))["verifyLog"]
                if not result["ok"]:
                    bad.append(f"{game_id}: {result}")
        finally:
            await api.close()
        return bad

    def catch_up(self, url: str) -> int:
        """Apply what the stopped replicas had not (bots and clocks may have written last)."""
        store = open_store(url)
        models = ReadModels(store, Database(url))
        try:
            return models.catch_up()
        finally:
            models.close()
            store.close()


def print_report(report: dict[str, Any]) -> None:
    for key, value in report.items():
        if isinstance(value, dict):
            print(f"{key}:")
            for inner, figure in value.items():
                print(f"    {inner}: {figure}")
        elif isinstance(value, list):
            print(f"{key}: {len(value)}")
            for item in value:
                print(f"    {item}")
        else:
            print(f"{key}: {value}")
    print("HELD" if not report["failures"] else "FAILED")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=120.0, help="play time")
    parser.add_argument("--replicas", type=int, default=3)
    parser.add_argument("--human-tables", type=int, default=4)
    parser.add_argument("--bot-tables", type=int, default=4)
    parser.add_argument("--no-hostile", dest="hostile", action="store_false")
    parser.add_argument("--no-faults", dest="faults", action="store_false")
    parser.add_argument("--max-act-p99", type=float, default=5000.0, help="ms")
    parser.add_argument("--max-bot-p99", type=float, default=15000.0, help="ms")
    parser.add_argument(
        "--ping",
        type=float,
        default=5.0,
        help="the replicas' websocket ping interval and timeout, seconds (a short run sees "
        "silent sockets dropped; the default of papyrus serve is 20)",
    )
    parser.add_argument(
        "--projections-process",
        action="store_true",
        help="the replicas run --no-projections and one `papyrus projections run` process "
        "keeps the read models current",
    )
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--json", action="store_true", help="the report as one JSON line too")
    parser.add_argument(
        "--serve", nargs=argparse.REMAINDER, default=[], help="options for every replica"
    )
    args = parser.parse_args(argv)
    soak = Soak(args)
    report = soak.run()
    print_report(report)
    if report["failures"]:
        print(f"the replicas' logs: {soak.folder}")
    else:
        shutil.rmtree(soak.folder, ignore_errors=True)
    if args.json:
        print(json.dumps(report))
    return 1 if report["failures"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
