"""Where the server's time goes: a sampling profiler of every thread of ``papyrus serve``.

    # run a benchmark with the server sampled; the samples go to DIR
    .venv/bin/python bench/api.py --store sqlite --games 32 --seconds 20 --profile /tmp/prof
    # then print the summary
    .venv/bin/python bench/server_profile.py /tmp/prof

``bench/server_profile.py serve ARGS...`` is ``papyrus serve ARGS...`` with a sampler thread: every
``PAPYRUS_BENCH_PROFILE_INTERVAL`` seconds (0.005) it records the Python stack of every other
thread (``sys._current_frames``) and writes the counts to ``$PAPYRUS_BENCH_PROFILE/
samples-<pid>.json`` every two seconds and on exit. SIGUSR1 forgets the samples so far, SIGUSR2
stops recording: bench/api.py sends them at the start and the end of the measured play, so the
summary covers the play only (not the start-up, the lobby or the warm-up). cProfile would see
one thread only; the store work runs on the worker threads. Stacks of idle threads (a pool thread
waiting for work, the event loop waiting in ``select``) are counted apart. A sample is wall time,
not CPU: a thread blocked in C (a socket read, an fsync, a lock) is counted in its Python caller.
Cost: about 1-3 % of a core. ``PAPYRUS_BENCH_SWITCH_INTERVAL`` (seconds) sets the server's
``sys.setswitchinterval`` (5 ms by default), to see what GIL hand-overs cost.

The summary prints, over the busy samples: the share of each thread group, the functions that
include the most samples (inclusive), and the leaves (the Python function running or blocked).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
IDLE_LEAVES = {
    ("selectors.py", "select"),  # the event loop waiting for I/O
    ("concurrent/futures/thread.py", "_worker"),  # a pool thread waiting for work
    ("threading.py", "wait"),
    ("queue.py", "get"),
    ("asyncio/runners.py", "run"),  # the event loop's thread in C (epoll) between callbacks
}


def short(filename: str) -> str:
    for marker in ("/site-packages/", "/lib/python3.11/"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    try:
        return str(Path(filename).resolve().relative_to(ROOT))
    except ValueError:
        return filename


class Sampler:
    def __init__(self, folder: Path, interval: float) -> None:
        self.folder = folder
        self.interval = interval
        self.stacks: Counter[tuple[str, tuple[str, ...]]] = Counter()
        self.samples = 0
        self.started = time.time()
        self.lock = threading.Lock()
        self.names: dict[str, str] = {}
        self.recording = True

    def reset(self) -> None:
        """Forget the samples so far (the measured play starts now)."""
        with self.lock:
            self.stacks.clear()
            self.samples = 0
            self.started = time.time()
            self.recording = True

    def freeze(self) -> None:
        """Stop recording (the measured play is over) and write the samples."""
        with self.lock:
            self.recording = False
        self.dump()

    def frame_key(self, code: Any) -> str:
        key = f"{code.co_filename}\0{code.co_name}"
        name = self.names.get(key)
        if name is None:
            name = self.names[key] = f"{short(code.co_filename)}:{code.co_name}"
        return name

    def run(self) -> None:
        me = threading.get_ident()
        last_dump = time.monotonic()
        while True:
            time.sleep(self.interval)
            names = {t.ident: t.name for t in threading.enumerate()}
            frames = sys._current_frames()
            with self.lock:
                if not self.recording:
                    del frames
                    continue
                self.samples += 1
                for ident, frame in frames.items():
                    if ident == me:
                        continue
                    stack: list[str] = []
                    current: Any = frame
                    while current is not None and len(stack) < 80:
                        stack.append(self.frame_key(current.f_code))
                        current = current.f_back
                    group = names.get(ident, "?").rstrip("0123456789_-")
                    self.stacks[(group, tuple(stack))] += 1
            # hold no frame past the sample: a kept frame keeps its locals (an open cursor) alive
            del frames, frame, current
            if time.monotonic() - last_dump > 2:
                self.dump()
                last_dump = time.monotonic()

    def dump(self) -> None:
        with self.lock:
            data = {
                "pid": os.getpid(),
                "interval": self.interval,
                "samples": self.samples,
                "seconds": time.time() - self.started,
                "stacks": [[g, list(s), n] for (g, s), n in self.stacks.items()],
            }
        target = self.folder / f"samples-{os.getpid()}.json"
        temporary = target.with_suffix(".tmp")
        temporary.write_text(json.dumps(data))
        temporary.replace(target)


def serve(argv: list[str]) -> int:
    folder = Path(os.environ.get("PAPYRUS_BENCH_PROFILE", "profile"))
    folder.mkdir(parents=True, exist_ok=True)
    sampler = Sampler(folder, float(os.environ.get("PAPYRUS_BENCH_PROFILE_INTERVAL", "0.005")))
    if os.environ.get("PAPYRUS_BENCH_SWITCH_INTERVAL"):  # an experiment: the GIL's hand-over
        sys.setswitchinterval(float(os.environ["PAPYRUS_BENCH_SWITCH_INTERVAL"]))
    threading.Thread(target=sampler.run, name="profile-sampler", daemon=True).start()

    def stop(signum: int, frame: Any) -> None:
        sampler.dump()
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)  # uvicorn re-raises it after its graceful shutdown
    signal.signal(signal.SIGUSR1, lambda signum, frame: sampler.reset())
    signal.signal(signal.SIGUSR2, lambda signum, frame: sampler.freeze())
    sys.path.insert(0, str(ROOT))
    from service.cli import main

    try:
        return main(["serve", *argv])
    finally:
        sampler.dump()


def idle(stack: list[str]) -> bool:
    leaf = stack[0]
    return any(leaf.endswith(f"{f}:{n}") for f, n in IDLE_LEAVES)


def summarize(folder: Path, top: int) -> str:
    lines = []
    for path in sorted(folder.glob("samples-*.json")):
        data = json.loads(path.read_text())
        busy: list[tuple[str, list[str], int]] = [
            (g, s, n) for g, s, n in data["stacks"] if s and not idle(s)
        ]
        total_busy = sum(n for _, _, n in busy)
        total = sum(n for _, _, n in data["stacks"])
        lines.append(
            f"== {path.name}: {data['samples']} samples over {data['seconds']:.0f} s "
            f"(every {1000 * data['interval']:.0f} ms); thread-samples busy {total_busy} "
            f"of {total}"
        )
        if not total_busy:
            continue
        groups: Counter[str] = Counter()
        inclusive: Counter[str] = Counter()
        leaves: Counter[str] = Counter()
        for group, stack, n in busy:
            groups[group] += n
            leaves[stack[0]] += n
            for name in set(stack):
                inclusive[name] += n
        lines.append("-- busy thread-samples by thread group")
        for group, n in groups.most_common():
            lines.append(f"{100 * n / total_busy:6.1f}%  {group}")
        lines.append(f"-- top {top} functions, inclusive (% of busy thread-samples)")
        for name, n in inclusive.most_common(top):
            lines.append(f"{100 * n / total_busy:6.1f}%  {name}")
        lines.append(f"-- top {top} leaves (the Python function running or blocked in C)")
        for name, n in leaves.most_common(top):
            lines.append(f"{100 * n / total_busy:6.1f}%  {name}")
        project = Counter(
            {
                k: v
                for k, v in inclusive.items()
                if k.split(":")[0].startswith(("service/", "domain/", "projections/"))
            }
        )
        lines.append(f"-- top {top} project functions, inclusive")
        for name, n in project.most_common(top):
            lines.append(f"{100 * n / total_busy:6.1f}%  {name}")
    return "\n".join(lines) if lines else f"no samples-*.json in {folder}"


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "serve":
        return serve(sys.argv[2:])
    import argparse

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("folder", type=Path, help="the --profile folder of bench/api.py")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    print(summarize(args.folder, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
