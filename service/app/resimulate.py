"""Re-simulation under the current rules: ``papyrus resimulate`` (the tool a maintainer runs
before releasing a rules fix).

Every finished game in the store is played again from its log: the setup from the revealed seed,
then every recorded action decided again by the rules this process runs, with the randomness
the seed gives at its version (``domain.randomness``), exactly as an audit re-derives it
(``domain.audit.expected_group``). Table entries (seats, undos, the clock) are kept as
recorded; the game state goes on from the *re-derived* steps, so a changed rule shows where it
first changes a step and then what it makes of the result. A game is reported when any step,
or the result, differs from what was recorded: its id, the first differing version and what
differs there, and the result recorded against the result now (when the recorded actions can
still be played to the end).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TextIO

from domain import audit
from domain import table as tables
from domain.contract import Rules
from domain.log import Entry
from domain.registry import kinds, rules_for
from service.app.errors import NotFound
from service.app.tables import Tables
from service.readmodels.models import TOPICS
from service.store.database import Store

OPENED_TOPIC = TOPICS[0]  # a game's first entry: one per game
BATCH = 500
SHOWN = 160  # characters of a value shown in a report


@dataclass(frozen=True, slots=True)
class Difference:
    game_id: str
    kind: str
    version: int
    """The first version whose re-derived entry differs from the recorded one."""
    what: str
    result: str | None = None
    """The recorded result against the result now, when the game still plays to its end."""

    def line(self) -> str:
        tail = f"; result {self.result}" if self.result else ""
        return f"differs {self.game_id} ({self.kind}): event {self.version}: {self.what}{tail}"


def game_ids(store: Store) -> Iterator[str]:
    """Every game in the store, in the order they were opened."""
    start = 1
    while True:
        notes = list(store.recorder.select_notifications(start, BATCH, topics=[OPENED_TOPIC]))
        for note in notes:
            yield str(note.originator_id)
        if len(notes) < BATCH:
            return
        start = notes[-1].id + 1


def stored_entries(history: Tables, game_id: str) -> list[Entry]:
    """The game's log as recorded (none for an id that is not a game's)."""
    try:
        return history.stored_events(game_id)
    except NotFound:
        return []


def shape_of(entry: Entry) -> tuple[Any, ...]:
    return (entry.type, entry.data, entry.seat, entry.automatic)


def short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def describe(recorded: Entry, now: tuple[Any, ...] | None) -> str:
    """What differs between a recorded entry and the one the rules give now."""
    if now is None:
        return f"{recorded.type} was recorded; the current rules give no entry there"
    kind, data, seat, automatic = now
    if kind != recorded.type:
        return f"{recorded.type} was recorded; the current rules give {kind} {short(data)}"
    if data != recorded.data and isinstance(data, dict) and isinstance(recorded.data, dict):
        keys = sorted(
            k for k in set(data) | set(recorded.data) if data.get(k) != recorded.data.get(k)
        )
        return f"{kind}: " + "; ".join(
            f"data.{k} recorded {short(recorded.data.get(k))}, now {short(data.get(k))}"
            for k in keys
        )
    if data != recorded.data:
        return f"{kind}: data recorded {short(recorded.data)}, now {short(data)}"
    was = f"{recorded.seat}/{recorded.automatic}"
    return f"{kind}: seat/automatic recorded {was}, now {seat}/{automatic}"


def result_of(data: Any) -> str:
    return f"scores {data.get('scores')} winners {data.get('winners')}"


def resimulate(game_id: str, entries: list[Entry]) -> Difference | None:
    """``None`` when the current rules give the recorded log exactly (finished games only)."""
    table = tables.start(entries[0])
    rules: Rules[Any] = rules_for(table.kind)
    first: tuple[int, str] | None = None
    for group in audit.groups_of(entries[1:]):
        try:
            expected = audit.expected_group(table, group, rules)
        except Exception as refused:  # RulesError, audit.Bad: the action does not apply now
            reason = getattr(refused, "reason", None) or str(refused)
            found = first or (group[0].version, f"the current rules refuse it: {reason}")
            return Difference(game_id, table.kind, *found)
        derived = list(group)
        if expected is not None:
            for number, entry in enumerate(group):
                now = expected[number] if number < len(expected) else None
                if now is None or shape_of(entry) != now:
                    if first is None:
                        first = (entry.version, describe(entry, now))
                    break
            if len(expected) != len(group):  # the log would be numbered differently from here
                counts = f"{len(expected)} entries where {len(group)} were recorded"
                found = first or (group[-1].version, f"the current rules give {counts}")
                return Difference(game_id, table.kind, *found)
            derived = [
                dataclasses.replace(e, type=t, data=d, seat=s, automatic=a)
                for e, (t, d, s, a) in zip(group, expected, strict=True)
            ]
        for entry in derived:
            if entry.type == tables.GAME_FINISHED and table.game is not None:
                outcome = rules.outcome(table.game)
                now_result = (
                    {"scores": outcome.scores, "winners": outcome.winners, "ranks": outcome.ranks}
                    if outcome is not None
                    else None
                )
                recorded = {k: entry.data.get(k) for k in ("scores", "winners", "ranks")}
                if now_result != recorded:
                    change = f"recorded {result_of(recorded)}, now " + (
                        result_of(now_result) if now_result else "the game is not over"
                    )
                    found = first or (entry.version, "the result differs")
                    return Difference(game_id, table.kind, *found, result=change)
            try:
                table = tables.evolve(table, entry, rules)
            except Exception as broken:  # a recorded table entry the re-derived game refuses
                found = first or (entry.version, f"the current rules cannot apply it: {broken}")
                return Difference(game_id, table.kind, *found)
    if first is None:
        return None
    return Difference(game_id, table.kind, *first, result="unchanged")


def report(store: Store, out: TextIO, only: tuple[str, ...] = ()) -> int:
    """Resimulate every finished game (``only``: these ids); one line per game that differs
    and a summary. 1 when any differs, else 0."""
    checked = differing = 0
    history = Tables(store)  # the logs, read as every audit reads them
    for game_id in only or tuple(game_ids(store)):
        entries = stored_entries(history, game_id)
        if not entries or tables.start(entries[0]).kind not in kinds():
            if only:
                print(f"not a game of an installed kind here: {game_id}", file=out)
            continue
        if not finished(entries):
            continue
        checked += 1
        difference = resimulate(game_id, entries)
        if difference is not None:
            differing += 1
            print(difference.line(), file=out)
    versions = ", ".join(rules_for(k).version for k in kinds())
    print(
        f"resimulated {checked} finished games under the current rules ({versions}): "
        f"{differing} differ",
        file=out,
    )
    return 1 if differing else 0


def finished(entries: list[Entry]) -> bool:
    return any(e.type == tables.GAME_FINISHED for e in entries)
