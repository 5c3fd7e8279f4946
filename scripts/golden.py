"""Golden playthroughs: a seeded random game written out as readable text (any game kind).

    .venv/bin/python scripts/golden.py                  # regenerate every tests/golden/*.txt
    .venv/bin/python scripts/golden.py imhotep 2 '{"sides": "A"}' 1   # print one game

The game is played through ``domain.engine`` with ``random.Random(seed)`` choosing among the legal
actions. For each action the file shows the acting seat and action, every resulting event (marked
``auto`` when it was an automatic step), the event as each viewer sees it where that differs
(secrets redacted), and for the spectator and every seat the lines of their view that changed
(the view flattened to ``path = value``; a decision's option list is shown as a count; for a seat
only what it sees beyond the spectator).
A change in any rule, event or view shows up as a diff of these files.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from domain.contract import Event  # noqa: E402
from domain.engine import Step, apply_events, play, run_automatic  # noqa: E402
from domain.registry import rules_for  # noqa: E402

GOLDEN_DIR = ROOT / "tests" / "golden"

#: name -> (kind, seats, options, seed)
GOLDENS: dict[str, tuple[str, int, dict[str, Any], int]] = {
    "imhotep_2p_all_a": ("imhotep", 2, {"sides": "A", "start_player": 0}, 1),
    "imhotep_3p_mixed": ("imhotep", 3, {"sides": {"market": "B", "pyramids": "B"}}, 2),
    "imhotep_4p_all_b_wrath": ("imhotep", 4, {"sides": "B", "wrath_of_the_pharaoh": True}, 3),
}


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def flatten(value: Any, path: str = "") -> dict[str, str]:
    """A view as ``path = value`` lines: dicts and lists of dicts are opened, the rest compact."""
    if isinstance(value, dict):
        out: dict[str, str] = {}
        for key, item in value.items():
            if key == "options" and isinstance(item, list):
                out[f"{path}{key}"] = f"<{len(item)} options>"
            else:
                out.update(flatten(item, f"{path}{key}."))
        return out or {path.rstrip("."): "{}"}
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        out = {}
        for i, item in enumerate(value):
            out.update(flatten(item, f"{path}{i}."))
        return out
    return {path.rstrip("."): _compact(value)}


def _viewer_name(viewer: int | None) -> str:
    return "spectator" if viewer is None else f"seat {viewer}"


class Writer:
    def __init__(self, rules: Any, seats: int) -> None:
        self.rules = rules
        self.viewers: list[int | None] = [None, *range(seats)]
        self.seen: dict[int | None, dict[str, str]] = {v: {} for v in self.viewers}
        self.lines: list[str] = []

    def events(self, steps: list[Step]) -> None:
        for step in steps:
            event = step.event
            mark = " auto" if step.automatic else ""
            who = "" if event.seat is None else f" by seat {event.seat}"
            self.lines.append(f"  event{mark} {event.type}{who} {_compact(event.data)}")
            redacted: dict[str, list[str]] = {}
            for viewer in self.viewers:
                shown = self.rules.view_event(event, viewer)
                if shown != event:
                    text = "hidden" if shown is None else _compact(shown.data)
                    redacted.setdefault(text, []).append(_viewer_name(viewer))
            for text, names in redacted.items():
                self.lines.append(f"    as {', '.join(names)}: {text}")

    def views(self, state: Any) -> None:
        """The spectator's changed lines, then per seat what it sees beyond the spectator."""
        public = flatten(self.rules.view(state, None))
        for viewer in self.viewers:
            now = public if viewer is None else {
                k: v for k, v in flatten(self.rules.view(state, viewer)).items()
                if public.get(k) != v
            }  # fmt: skip
            before = self.seen[viewer]
            changed = [f"{k} = {v}" for k, v in now.items() if before.get(k) != v]
            changed += [f"{k} (as spectator)" for k in before if k not in now]
            self.seen[viewer] = now
            if changed:
                label = f"{_viewer_name(viewer)} also sees" if viewer is not None else "view of"
                label += " spectator" if viewer is None else ""
                self.lines.append(f"  {label}:")
                self.lines.extend(f"    {line}" for line in changed)


def render(kind: str, seats: int, options: dict[str, Any], seed: int) -> str:
    """Play the seeded game and return its golden text."""
    rules = rules_for(kind)
    options = rules.normalize_options(seats, options)
    rng = random.Random(seed)
    writer = Writer(rules, seats)
    writer.lines.append(f"# golden playthrough: {kind} ({rules.version}), {seats} seats")
    writer.lines.append(f"# seed {seed}")
    writer.lines.append(f"# options {_compact(options)}")
    setup: list[Event] = rules.setup(seats, options, rng)
    state = apply_events(rules, rules.initial(seats, options), setup)
    more, state = run_automatic(rules, state, rng)
    writer.lines.append("setup")
    writer.events([Step(e) for e in setup] + more)
    writer.views(state)
    number = 0
    while rules.outcome(state) is None:
        number += 1
        seat = rng.choice(rules.active_seats(state))
        action = rng.choice(rules.legal_actions(state, seat))
        steps, state = play(rules, state, seat, action, rng)
        writer.lines.append(f"action {number}: seat {seat} {_compact(action)}")
        writer.events(steps)
        writer.views(state)
    outcome = rules.outcome(state)
    writer.lines.append(
        f"outcome scores={outcome.scores} winners={outcome.winners} ranks={outcome.ranks}"
    )
    writer.lines.append(f"full view at the end: {_compact(rules.view(state, None, full=True))}")
    return "\n".join(writer.lines) + "\n"


def main(argv: list[str]) -> None:
    if argv:
        kind, seats, options, seed = argv[0], int(argv[1]), json.loads(argv[2]), int(argv[3])
        sys.stdout.write(render(kind, seats, options, seed))
        return
    for name, (kind, seats, options, seed) in GOLDENS.items():
        path = GOLDEN_DIR / f"{name}.txt"
        path.write_text(render(kind, seats, options, seed), "utf-8")
        print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main(sys.argv[1:])
