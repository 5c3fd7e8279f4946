"""Verifying a game's log (audits): the hash chain, the seed, and the rules.

``verify(entries)`` recomputes every entry's hash (``domain.log``), checks that the seed matches
the commitment recorded at creation (salted, ``SHA-256(salt || seed)``, when the first entry has a
``seed_salt``; the unsalted commitment of logs written before salts existed otherwise: see
``domain.randomness``), and replays the log through the rules: every decided step
is decided again from its recorded action with the randomness derived from the seed
(``domain.randomness``) and must give exactly the recorded entries; the setup must be what the
seed gives; table entries must follow the table's life; the final result must be the rules'.
A timed table's clock is re-derived from its time control and the log's own times, each clock
time anchored to the time its entry was recorded, every expiry, take-over and charge where the
times put it, and the take-over bot's moves attributed to the bot (``domain.audit_clock``);
what each entry records about its cause (rules version, seat, submitter) is checked by
``domain.audit_causes``.
It reports the first entry that does not hold, and why.
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from domain import audit_causes as causes
from domain import clock as clocks
from domain import redaction, undo
from domain import table as tables
from domain.audit_clock import ClockAudit
from domain.contract import FORK_DEALT, Rules, RulesError
from domain.engine import play, run_automatic
from domain.log import GENESIS, Entry, entry_hash
from domain.randomness import commitment, is_salt, rng_for

FORK = "fork"


@dataclass(frozen=True, slots=True)
class Finding:
    ok: bool
    checked: int
    version: int | None = None
    reason: str | None = None


class Bad(Exception):
    def __init__(self, version: int, reason: str) -> None:
        super().__init__(reason)
        self.version = version
        self.reason = reason


def verify(entries: list[Entry], rules_of: Any, redacted: Collection[int] = frozenset()) -> Finding:
    """``rules_of(kind)`` gives the rules; ``entries`` is the whole log in order; ``redacted``:
    the versions of entries whose sealed names were erased (``domain.redaction``)."""
    try:
        check_chain(entries, redacted)
        replay_and_check(entries, rules_of)
    except Bad as bad:
        return Finding(False, len(entries), bad.version, bad.reason)
    return Finding(True, len(entries))


def malformed(version: int, failure: Exception) -> Bad:
    """A log is outside input (an imported document, a store edited behind our back): an entry
    the table or the rules cannot even read is reported like any other bad entry."""
    return Bad(version, f"it is malformed ({type(failure).__name__}: {failure})")


def check_chain(entries: list[Entry], redacted: Collection[int] = frozenset()) -> None:
    if not entries or entries[0].type != tables.TABLE_CREATED:
        raise Bad(1, "the log does not start with the creation of the table")
    opened = entries[0].data
    seed = opened.get("seed", "")
    salt = opened.get("seed_salt")  # None: a log written before tables had a salt
    if not isinstance(seed, str):
        raise Bad(1, "it is malformed (the seed is not a string)")
    if salt is not None and not is_salt(salt):
        raise Bad(1, "it is malformed (the seed's salt is not 32 bytes in lowercase hex)")
    if not isinstance(opened.get("seed_chosen", False), bool):
        raise Bad(1, "it is malformed (seed_chosen is not true or false)")
    if commitment(seed, salt) != opened.get("seed_commitment"):
        raise Bad(1, "the seed does not match the commitment recorded at creation")
    prev = GENESIS
    for number, entry in enumerate(entries, start=1):
        if entry.version != number:
            raise Bad(number, f"entry {number} is missing (found version {entry.version})")
        if (
            entry.version in redacted
            and redaction.is_sealed_name(entry)
            and redaction.is_redacted(entry)
        ):
            pass  # its hash covers a name that was erased: taken as recorded (the chain goes
            # on from it); what is left of it is checked by the replay like any entry
        elif entry.hash != entry_hash(entry, prev, seed, salt):
            raise Bad(entry.version, "its hash does not match its content: it was changed")
        prev = entry.hash


def groups_of(entries: list[Entry]) -> list[list[Entry]]:
    """Consecutive entries recorded by one command."""
    groups: list[list[Entry]] = []
    for entry in entries:
        if groups and entry.command is not None and groups[-1][0].command == entry.command:
            groups[-1].append(entry)
        else:
            groups.append([entry])
    return groups


def shape(entry: Entry) -> tuple[Any, ...]:
    return (entry.type, entry.data, entry.seat, entry.automatic)


def replay_and_check(entries: list[Entry], rules_of: Any) -> None:
    try:
        table = tables.start(entries[0])
        rules: Rules[Any] = rules_of(table.kind)
        if (
            not isinstance(table.seats, int)
            or not rules.min_seats <= table.seats <= rules.max_seats
        ):
            raise ValueError(f"{table.seats!r} seats")
        table.options = rules.normalize_options(table.seats, table.options)
        if "clock" in entries[0].data and not clocks.is_control(entries[0].data["clock"]):
            raise ValueError("the clock is not a time control")
        fork_source_shape(table.forked_from, table.seats)
        times = ClockAudit(table)  # a timed table's clock against the log's times
        times.entry(table, entries[0])
    except Exception as failure:
        raise malformed(1, failure) from None
    wrong = causes.rules_version_problem(table, entries[0]) or causes.table_entry_problem(
        table, entries[0]
    )
    if wrong is not None:
        raise Bad(1, wrong)
    for group in groups_of(entries[1:]):
        first = group[0]
        try:
            check_group(table, group, rules)
            started = causes.start_problem(group) if first.type == tables.GAME_STARTED else None
            if started is not None:
                raise Bad(*started)
            if first.type not in tables.TABLE_EVENTS and first.command != FORK:
                fault = causes.step_problem(table, group)
                if fault is not None:
                    raise Bad(*fault)
                late = times.step(table, first, rules)
                if late is not None:
                    raise Bad(first.version, late)
        except Bad:
            raise
        except Exception as failure:
            raise malformed(first.version, failure) from None
        for entry in group:
            try:
                wrong = causes.rules_version_problem(table, entry) or (
                    causes.table_entry_problem(table, entry)
                    if entry.type in tables.TABLE_EVENTS
                    else None
                )
                if wrong is not None:
                    raise Bad(entry.version, wrong)
                late = times.entry(table, entry)
                if late is not None:
                    raise Bad(entry.version, late)
                check_table_entry(table, entry, rules)
            except Bad:
                raise
            except Exception as failure:
                raise malformed(entry.version, failure) from None
            try:
                table = tables.evolve(table, entry, rules)
            except Exception as failure:  # a broken entry must be reported, not crash the check
                raise Bad(entry.version, f"the rules cannot apply it ({failure})") from None
    unfinished = times.end()
    if unfinished is not None:
        raise Bad(*unfinished)


def check_group(table: tables.Table, group: list[Entry], rules: Rules[Any]) -> None:
    """One command's entries are exactly what the rules give for its recorded action."""
    first = group[0]
    if not all(isinstance(e.data, dict) for e in group):
        raise ValueError("its data is not an object")
    try:
        expected = expected_group(table, group, rules)
    except RulesError as refused:
        raise Bad(first.version, f"the rules refuse the recorded action: {refused}") from None
    if expected is None:
        return
    for entry, want in zip(group, expected, strict=False):
        if shape(entry) != want:
            raise Bad(entry.version, "it is not what the rules give at this point")
    if len(expected) != len(group):
        at = group[min(len(expected), len(group) - 1)].version
        raise Bad(at, "the recorded step has a different number of entries")


def expected_group(table: tables.Table, group: list[Entry], rules: Rules[Any]) -> list[Any] | None:
    """What the rules record for this group, or ``None`` for table entries checked one by one."""
    first = group[0]
    if first.command == FORK:
        if first.type != tables.GAME_STARTED or table.forked_from is None:
            raise Bad(first.version, "only a fork's start may come from another game")
        return expected_fork(table, group, rules)
    if first.type == tables.GAME_STARTED:
        rng = rng_for(table.seed, first.version)
        setup = rules.setup(table.seats, table.options, rng)
        state = rules.initial(table.seats, table.options)
        for event in setup:
            state = rules.evolve(state, event)
        steps, _ = run_automatic(rules, state, rng)
        return (
            [shape(first)]
            + [(e.type, e.data, e.seat, False) for e in setup]
            + [(s.event.type, s.event.data, s.event.seat, True) for s in steps]
        )
    if first.type in tables.TABLE_EVENTS:
        return None
    if first.action is None or first.by_seat is None:
        raise Bad(first.version, "a game step without the action that caused it")
    if table.status != tables.ACTIVE:
        raise Bad(first.version, "a game step while the game is not running")
    steps, _ = play(
        rules,
        copy.deepcopy(table.game),
        first.by_seat,
        first.action,
        rng_for(table.seed, first.version - 1),
    )
    return [(s.event.type, s.event.data, s.event.seat, s.automatic) for s in steps]


def fork_source_shape(source: Any, seats: int) -> None:
    """A fork's ``forked_from`` is exactly what ``forkGame`` writes: the source's id (a
    canonical UUID), a version from 1, and for the fork of an unfinished game the forking
    seats (distinct, ascending, on the table)."""
    if source is None:
        return
    if not isinstance(source, dict) or set(source) - {"seats"} != {"game_id", "version"}:
        raise ValueError("forked_from must hold game_id, version and optionally seats")
    game_id, version = source["game_id"], source["version"]
    if not isinstance(game_id, str) or str(uuid.UUID(game_id)) != game_id:
        raise ValueError("forked_from.game_id must be a game id")
    if type(version) is not int or version < 1:
        raise ValueError("forked_from.version must be a version from 1")
    if "seats" in source:
        forking = source["seats"]
        if (
            not isinstance(forking, list)
            or not forking
            or any(type(x) is not int or not 0 <= x < seats for x in forking)
            or forking != sorted(set(forking))
        ):
            raise ValueError("forked_from.seats must be distinct seats of the table, ascending")


def expected_fork(table: tables.Table, group: list[Entry], rules: Rules[Any]) -> list[Any] | None:
    """The start of a fork. A finished game's fork copies its source's events (checked there).
    The fork of an unfinished game is its start, one ``fork_dealt`` position (re-dealt from the
    source, which may live elsewhere) and the automatic steps the rules give from it."""
    source = table.forked_from
    if not isinstance(source, dict) or "seats" not in source:
        return None
    if len(group) < 2 or group[0].type != tables.GAME_STARTED or group[1].type != FORK_DEALT:
        raise Bad(group[0].version, "a fork must start with the position it was dealt")
    state = rules.evolve(rules.initial(table.seats, table.options), group[1].event)
    if len(rules.scores(state)) != table.seats:
        raise Bad(group[1].version, "the dealt position is not one of this table's game")
    steps, _ = run_automatic(rules, state, rng_for(table.seed, group[1].version))
    return [
        shape(group[0]),
        (FORK_DEALT, group[1].data, None, False),
        *((s.event.type, s.event.data, s.event.seat, True) for s in steps),
    ]


def check_table_entry(table: tables.Table, entry: Entry, rules: Rules[Any]) -> None:
    d = entry.data
    if entry.type in clocks.EVENTS:
        running = table.status == tables.ACTIVE
        reason = clocks.problem(table.clock, entry.type, d, table.clock_due(rules), running)
        if reason is not None:
            raise Bad(entry.version, reason)
    elif (  # the clock's abandonment (no player records one; a player's reason is theirs)
        entry.type == tables.GAME_ABANDONED
        and d.get("reason") == clocks.TIME_REASON
        and entry.actor is None
    ):
        clock = table.clock
        if (
            clock is None
            or clock.control["on_expiry"] != clocks.ABANDON
            or d.get("timed_out") not in clock.timed_out
        ):
            raise Bad(entry.version, "a game abandoned for time whose seat's time had not run out")
    elif (
        entry.type == tables.GAME_ABANDONED
        and d.get("reason") == tables.BOTS_ONLY_REASON
        and entry.actor is None
    ):
        if table.status != tables.ACTIVE or table.human_seats():
            raise Bad(entry.version, "a game ended for having only bots while a person played")
        until = table.unattended_until()
        at = d.get("at")
        if until is not None and (type(at) is not int or at < until):
            raise Bad(entry.version, "a game ended before its players' time to come back ran out")
    elif entry.type == tables.SEAT_TAKEN:
        if table.status != tables.OPEN or table.holders[d["seat"]] is not None:
            raise Bad(entry.version, "a seat was taken that was not free")
    elif entry.type == tables.GAME_STARTED:
        if table.status != tables.OPEN or table.free_seats():
            raise Bad(entry.version, "the game started before every seat was taken")
        if (entry.command == FORK) != (table.forked_from is not None):
            raise Bad(entry.version, "a fork starts from its source, and only a fork does")
    elif entry.type == tables.GAME_FINISHED:
        outcome = rules.outcome(table.game) if table.game is not None else None
        if outcome is None or [outcome.scores, outcome.winners, outcome.ranks] != [
            d["scores"],
            d["winners"],
            d["ranks"],
        ]:
            raise Bad(entry.version, "the recorded result is not the one the rules give")
    elif entry.type == tables.ACTIONS_UNDONE:
        request = table.undo_request
        if d.get("request") is None:
            verdict = undo.judge(table, d["seat"], d["to_version"])
            if not (verdict.allowed and verdict.immediate):
                raise Bad(entry.version, f"an undo the policy refuses: {verdict.reason}")
        elif request is None or request.version != d["request"] or request.waiting:
            raise Bad(entry.version, "an undo that not every seat accepted")
        after = [e.version for e in table.history if e.version > d["to_version"]]
        if d.get("undone") not in (undo.undone_by(table, d["seat"], d["to_version"]), after):
            raise Bad(entry.version, "an undo that takes back other entries than the policy's")
    elif entry.type == tables.UNDO_REQUESTED:
        seat = d["seat"]
        verdict = undo.judge(table, seat, d["to_version"])
        if not verdict.allowed:
            raise Bad(
                entry.version, f"an undo was requested that the policy refuses: {verdict.reason}"
            )
