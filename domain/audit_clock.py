"""Verifying a timed table's clock (audits, ``domain.audit``): every clock entry re-derived
from the table's time control and the log's own times (issue #25).

``domain.clock.problem`` checks each clock entry against the clock folded from the entries
before it: a charge adds up with the turn's start, an expiry is at or after the deadline, a
take-over is the table's policy. That alone lets a forger who re-seals the hash chain rewrite
the clock consistently: delete an expiry and its take-over (the bot's moves then stand as the
player's), move a charge's time back (a turn of 8 s charged 10 ms), or shift every clock time
by a day. What pins the clock down is that it is not the only time in the log:

* **Every entry carries the time it was recorded** (``Entry.at``, inside the hash chain). The
  server stamps all the entries of one command with the command's one time, the time the
  clock's entries read (``service.app.recording.begin_command``), never before the entry
  before it. So a clock entry's ``at`` *is* its entry's recorded time: a clock time that is
  not (a charge moved back, a time shifted) is named. Logs recorded before commands stamped
  their entries so carry the store's time, taken just after the clock's: up to ``SLACK_MS``
  later is accepted.
* **The times never go back** along the log (by more than ``SLACK_MS``): a forger cannot
  shift the clock entries' recorded times alone either.
* **Who acted, and when, is in the log too.** A decided step records its seat (``by_seat``)
  and who submitted it (``actor``: the player, ``None`` for a bot). A step of a seat whose
  deadline had passed (recorded at or after it), or a charge of its turn at or after it,
  while no ``time_expired`` was recorded means the expiry is missing; a bot's step for a seat
  its player plays (not taken over) is a take-over that is not recorded; a step of a taken-over
  seat recorded as its player's is a bot's move attributed to the player. An expiry must be
  followed at once by what the table's policy says (``seat_taken_over``, or ``game_abandoned``
  for time).
* **The clock agrees with who must act** before every decided step: every seat played by a
  person that must act is on the clock, and no other seat is (a deleted ``clock_started`` or
  charge shows there).

What the log alone cannot pin is a shift of *every* time of the log at once, the creation's
included: nothing in a game depends on the absolute date (the game id is random, the seed
and its salt are drawn, not dated). The creation entry's time is the log's anchor, inside the
chain: every other time is checked against it through the two rules above, so a shift must
move the whole log. Such a log is a different, consistent record; what rejects it is the
server's signature of the chain head (issue #25, "Signed records"), which covers every
entry's time.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from domain import clock as clocks
from domain import table as tables
from domain.contract import Rules
from domain.log import Entry

#: how much later than a clock entry's time its entry may have been recorded (logs recorded
#: before entries carried their command's time), and how far the log's times may go back
SLACK_MS = 1_000

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

Fault = tuple[int, str]
"""The version of the first entry that does not hold, and why."""


def ms_of(at: str) -> int:
    """An entry's recorded time (ISO 8601; without a zone: UTC) in milliseconds since the
    epoch; ``ValueError`` for one that is not a time."""
    moment = datetime.fromisoformat(at)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return (moment - EPOCH) // timedelta(milliseconds=1)


def when(ms: int) -> str:
    """``ms`` since the epoch as a UTC time to the millisecond, for a message."""
    moment = EPOCH + timedelta(milliseconds=ms)
    return f"{moment:%Y-%m-%dT%H:%M:%S}.{ms % 1000:03d}Z"


def ran_out(seat: int, deadline: int) -> str:
    return (
        f"seat {seat}'s clock ran out at {when(deadline)} (its deadline) but no time_expired "
        "entry is recorded"
    )


class ClockAudit:
    """The checks above over one log, fed in order: ``step`` before each decided step,
    ``entry`` before each entry, ``end`` after the last."""

    def __init__(self, table: tables.Table) -> None:
        self.timed = table.clock is not None
        self.last: int | None = None
        """The latest recorded time so far."""
        self.pending: tuple[int, int, str] | None = None
        """An expiry (seat, version, policy) whose policy's entry must come next."""

    def entry(self, table: tables.Table, entry: Entry) -> str | None:
        """Why ``entry`` cannot be where it is, from the times (``None``: it holds)."""
        if not self.timed:
            return None
        stamp = ms_of(entry.at)
        if self.last is not None and stamp < self.last - SLACK_MS:
            return (
                f"it was recorded at {when(stamp)}, before an entry before it "
                f"({when(self.last)}): the log's times go back"
            )
        self.last = stamp if self.last is None else max(self.last, stamp)
        fault = self.policy(entry)
        if fault is not None or entry.type not in clocks.EVENTS:
            return fault
        clock, data = table.clock, entry.data
        at = data.get("at") if isinstance(data, dict) else None
        if clock is None or type(at) is not int:
            return None  # ``domain.clock.problem`` names it
        if entry.type == clocks.CLOCK_CHARGED:
            fault = self.charge(clock, data, at, stamp)
            if fault is not None:
                return fault
        if not at <= stamp <= at + SLACK_MS:
            return (
                f"its clock time {when(at)} is not the time it was recorded at "
                f"({when(stamp)}): the clock's times were changed"
            )
        if entry.type == clocks.CLOCK_CHARGED and table.status == tables.ACTIVE:
            seat = data.get("seat")
            limit = clocks.deadline(clock, seat) if type(seat) is int else None
            # as a move (``step``): a log recorded before commands had one time may charge a
            # turn within ``SLACK_MS`` after its deadline, read a moment after the expiry check
            if seat is not None and limit is not None and at >= limit + SLACK_MS:
                return ran_out(seat, limit)
        if entry.type == clocks.TIME_EXPIRED and type(data.get("seat")) is int:
            self.pending = (data["seat"], entry.version, str(clock.control["on_expiry"]))
        return None

    def charge(self, clock: clocks.ClockState, data: Any, at: int, stamp: int) -> str | None:
        """A charge is the time from its turn's start to when it was recorded."""
        seat, used = data.get("seat"), data.get("used_ms")
        started = clock.started.get(seat) if type(seat) is int else None
        if started is None or type(used) is not int:
            return None  # ``domain.clock.problem`` names it
        if at <= stamp <= at + SLACK_MS and used == at - started:
            return None
        return (
            f"charge {used:,} ms but the times give {stamp - started:,} ms (seat {seat}'s turn "
            f"started at {when(started)}, its charge was recorded at {when(stamp)})"
        )

    def policy(self, entry: Entry) -> str | None:
        """The entry right after an expiry is what the table's policy says."""
        if self.pending is None:
            return None
        seat, version, policy = self.pending
        self.pending = None
        data = entry.data if isinstance(entry.data, dict) else {}
        if policy == clocks.TAKEOVER:
            if entry.type != clocks.SEAT_TAKEN_OVER or data.get("seat") != seat:
                return (
                    f"seat {seat}'s time ran out (version {version}) but no seat_taken_over "
                    "follows, as the table's policy (takeover) says"
                )
        elif (
            entry.type != tables.GAME_ABANDONED
            or data.get("reason") != clocks.TIME_REASON
            or data.get("timed_out") != seat
        ):
            return (
                f"seat {seat}'s time ran out (version {version}) but the game is not abandoned "
                "for time next, as the table's policy (abandon) says"
            )
        return None

    def step(self, table: tables.Table, first: Entry, rules: Rules[Any]) -> str | None:
        """Before a decided step (``first``: its first entry): who played it, when, and the
        clock agreeing with who must act."""
        if not self.timed:
            return None
        fault = self.policy(first)  # (the step's entries come after an expiry's policy)
        if fault is not None:
            return fault
        clock = table.clock
        seat = first.by_seat
        if (
            clock is None
            or table.status != tables.ACTIVE
            or table.game is None
            or type(seat) is not int
            or not 0 <= seat < table.seats
        ):
            return None
        stamp = ms_of(first.at)
        holder = table.holders[seat]
        limit = clocks.deadline(clock, seat)
        if seat in clock.taken_over:
            if first.actor is not None:
                return (
                    f"seat {seat} is played by the table's bot since its time ran out, but this "
                    "move is recorded as its player's"
                )
        elif holder is not None and holder.bot is None:  # its player plays it
            if first.actor is None:  # a bot's move
                if limit is not None and stamp >= limit:
                    return ran_out(seat, limit)
                return (
                    f"a bot's move for seat {seat}, which its player plays (it is not "
                    "recorded as taken over)"
                )
            if limit is not None and stamp >= limit + SLACK_MS:
                return ran_out(seat, limit)
        due = table.clock_due(rules)
        for must in due:
            if must not in clock.started:
                return f"seat {must} must act but its turn is not on the clock"
        for running in sorted(clock.started):
            if running not in due:
                return f"seat {running} is on the clock but does not have to act"
        return None

    def end(self) -> Fault | None:
        """The log may not end between an expiry and its policy's entry."""
        if self.pending is None:
            return None
        seat, version, policy = self.pending
        return version, (
            f"seat {seat}'s time ran out but the log ends before the table's policy ({policy}) "
            "is recorded"
        )
