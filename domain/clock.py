"""Time controls: the table's clock as pure functions of the log and an explicit time.

The domain reads no clock: every function takes ``now`` (milliseconds since the epoch) from its
caller, and every clock entry records the time it was decided at (``at``), so a replay and an
audit (``domain.audit``) work from the log's own times alone.

A table's time control is a table option (``table_created.data.clock``, ``None``: no clock):

* ``move``: every turn of a seat has ``move_ms`` (a per-move deadline, e.g. 24 h);
* ``bank``: every seat has a bank of ``bank_ms`` that its turns use up, and ``increment_ms`` is
  added to it after each turn (e.g. 10 min + 20 s).

A seat is *on the clock* while it must act (``Rules.active_seats``) and is played by a person;
in a simultaneous step (Amun-Re's Offering) every such seat runs at once and each is charged
for its own time. A turn is the stretch a seat is continuously on the clock: several steps of
one turn (private Offering steps) are charged once, when the turn ends, so the clock entries
tell nothing that the active seats do not already tell.

The entries (table-level, part of the hash chain):

=================  ==========================================================================
``clock_started``  ``seats`` went on the clock ``at`` (their turn started)
``clock_charged``  ``seat``'s turn ended ``at``: it ``used_ms`` since ``started``, and has
                   ``remaining_ms`` for its next turn
``time_expired``   ``seat`` had not acted by its ``deadline``; noticed ``at`` (at or after it)
``seat_taken_over``  the seat is played by a bot of level ``bot`` (policy ``takeover``)
``seat_reclaimed`` the seat's player came back: the bot stops, the seat is on the clock again
                   with a full move (``move``) or a full bank (``bank``) from its next turn
=================  ==========================================================================

On expiry the table's policy (``on_expiry``) either hands the seat to a bot (``takeover``,
zombie mode: the seat is marked in views and the game counts as a loss for the absent player in
ratings, even if they come back) or abandons the game (``abandon``: ``game_abandoned`` with
``reason`` ``"time"`` and the seat that ``timed_out``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.contract import JSON, Event

CLOCK_STARTED = "clock_started"
CLOCK_CHARGED = "clock_charged"
TIME_EXPIRED = "time_expired"
SEAT_TAKEN_OVER = "seat_taken_over"
SEAT_RECLAIMED = "seat_reclaimed"
EVENTS = frozenset({CLOCK_STARTED, CLOCK_CHARGED, TIME_EXPIRED, SEAT_TAKEN_OVER, SEAT_RECLAIMED})

MOVE, BANK, NONE = "move", "bank", "none"
TAKEOVER, ABANDON = "takeover", "abandon"
#: the reason of a ``game_abandoned`` recorded because a seat's time ran out
TIME_REASON = "time"

MIN_MS = 1_000
MAX_MS = 30 * 24 * 3_600_000
MAX_INCREMENT_MS = 3_600_000
DEFAULT_BOT = "random"


@dataclass(slots=True)
class ClockState:
    """The running clock of a table, folded from its clock entries."""

    control: JSON
    remaining: list[int]
    """Each seat's time for its current or next turn (``bank``: what is left of the bank)."""
    started: dict[int, int] = field(default_factory=dict)
    """The seats on the clock now, and when their turn started."""
    now: int = 0
    """The latest time the log has recorded (times never go back in a log)."""
    taken_over: list[int] = field(default_factory=list)
    """Seats played by a bot since their time ran out (and not reclaimed)."""
    timed_out: list[int] = field(default_factory=list)
    """Every seat whose time ran out in this game (they stay counted as absent: a loss)."""
    used: list[int] = field(default_factory=list)
    """Each seat's thinking time so far, over its charged turns."""
    turns: list[int] = field(default_factory=list)
    """How many turns each seat was charged for."""


def control_of(raw: Any) -> JSON | None:
    """The canonical time control of a ``clock`` table option, ``None`` for none; raises
    ``ValueError`` with a message for the player on a bad one.

    ``{"mode": "move", "moveMs": 86400000, "onExpiry": "takeover", "bot": "random"}`` or
    ``{"mode": "bank", "bankMs": 600000, "incrementMs": 20000, "onExpiry": "abandon"}``.
    """
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise ValueError('The table option "clock" is an object, e.g. {"mode": "move", ...}.')
    mode = raw.get("mode", NONE)
    allowed = {
        NONE: {"mode"},
        MOVE: {"mode", "moveMs", "onExpiry", "bot"},
        BANK: {"mode", "bankMs", "incrementMs", "onExpiry", "bot"},
    }
    if not isinstance(mode, str) or mode not in allowed:
        raise ValueError(f'A clock\'s "mode" is "none", "move" or "bank", not {mode!r}.')
    extra = sorted(set(raw) - allowed[mode])
    if extra:
        raise ValueError(f"A {mode!r} clock takes no {', '.join(map(repr, extra))}.")
    if mode == NONE:
        return None
    on_expiry = raw.get("onExpiry", TAKEOVER)
    if on_expiry not in (TAKEOVER, ABANDON):
        raise ValueError(f'A clock\'s "onExpiry" is "takeover" or "abandon", not {on_expiry!r}.')
    bot = raw.get("bot", DEFAULT_BOT)
    if not isinstance(bot, str) or not bot:
        raise ValueError('A clock\'s "bot" is the level of the bot that takes over a seat.')
    if mode == MOVE:
        move = milliseconds(raw, "moveMs", MIN_MS, MAX_MS)
        return {"mode": MOVE, "move_ms": move, "on_expiry": on_expiry, "bot": bot}
    return {
        "mode": BANK,
        "bank_ms": milliseconds(raw, "bankMs", MIN_MS, MAX_MS),
        "increment_ms": milliseconds(raw, "incrementMs", 0, MAX_INCREMENT_MS, default=0),
        "on_expiry": on_expiry,
        "bot": bot,
    }


def is_control(control: Any) -> bool:
    """``control`` is a canonical time control (what ``control_of`` gives): for a log from
    outside (an imported document), whose first entry may hold anything."""
    if not isinstance(control, dict):
        return False
    raw = {
        "mode": control.get("mode"),
        "onExpiry": control.get("on_expiry"),
        "bot": control.get("bot"),
        **({"moveMs": control.get("move_ms")} if control.get("mode") == MOVE else {}),
        **(
            {"bankMs": control.get("bank_ms"), "incrementMs": control.get("increment_ms")}
            if control.get("mode") == BANK
            else {}
        ),
    }
    try:
        return control_of(raw) == control
    except ValueError:
        return False


def milliseconds(raw: JSON, key: str, low: int, high: int, default: int | None = None) -> int:
    value = raw.get(key, default)
    if type(value) is not int or not low <= value <= high:
        raise ValueError(
            f'A clock\'s "{key}" is a whole number of milliseconds from {low} to {high}.'
        )
    return value


def new_state(control: JSON, seats: int) -> ClockState:
    """The clock of a new table: nobody on it yet, every seat with a full move or bank."""
    return ClockState(
        control=control,
        remaining=[full_time(control)] * seats,
        used=[0] * seats,
        turns=[0] * seats,
    )


def full_time(control: JSON) -> int:
    return int(control["move_ms"] if control["mode"] == MOVE else control["bank_ms"])


def deadline(state: ClockState, seat: int) -> int | None:
    """When ``seat``'s time runs out, if it is on the clock."""
    started = state.started.get(seat)
    return None if started is None else started + state.remaining[seat]


def remaining(state: ClockState, seat: int, now: int) -> int:
    """What ``seat`` has left at ``now`` (its whole time for its next turn if it is not on the
    clock); never below zero."""
    started = state.started.get(seat)
    if started is None:
        return state.remaining[seat]
    return max(0, state.remaining[seat] - max(0, now - started))


def expired(state: ClockState, now: int) -> list[int]:
    """The seats on the clock whose deadline is ``now`` or earlier, earliest deadline first."""
    late = [(deadline(state, seat) or 0, seat) for seat in state.started]
    return [seat for due, seat in sorted(late) if due <= now]


def next_deadline(state: ClockState) -> int | None:
    deadlines = [d for seat in state.started if (d := deadline(state, seat)) is not None]
    return min(deadlines, default=None)


def charged_remaining(control: JSON, before: int, used: int) -> int:
    """A seat's time for its next turn after a turn that used ``used`` of ``before``."""
    if control["mode"] == MOVE:
        return int(control["move_ms"])
    return max(0, before - used) + int(control["increment_ms"])


def charge(state: ClockState, seat: int, now: int) -> Event:
    """The end of ``seat``'s turn at ``now``: what it used, what it has for its next turn."""
    now = max(now, state.now)
    started = state.started[seat]
    used = now - started
    return Event(
        CLOCK_CHARGED,
        {
            "seat": seat,
            "at": now,
            "started": started,
            "used_ms": used,
            "remaining_ms": charged_remaining(state.control, state.remaining[seat], used),
        },
        seat,
    )


def settle(state: ClockState, due: list[int], now: int) -> list[Event]:
    """The clock entries that make the clock agree with who must act now (``due``: the seats
    played by people that must act; none once the game is over): the turns that ended are
    charged, the turns that began are started."""
    now = max(now, state.now)
    events = [charge(state, seat, now) for seat in sorted(state.started) if seat not in due]
    starting = [seat for seat in due if seat not in state.started]
    if starting:
        events.append(Event(CLOCK_STARTED, {"at": now, "seats": starting}))
    return events


def expire(state: ClockState, seat: int, now: int) -> list[Event]:
    """``seat``'s time ran out (noticed at ``now``, at or after its deadline): the expiry, and
    the take-over when that is the table's policy (``abandon``: the caller ends the game)."""
    now = max(now, state.now)
    due = deadline(state, seat)
    assert due is not None and due <= now, "only a seat past its deadline expires"
    events = [
        Event(
            TIME_EXPIRED,
            {"seat": seat, "at": now, "deadline": due, "used_ms": now - state.started[seat]},
            seat,
        )
    ]
    if state.control["on_expiry"] == TAKEOVER:
        events.append(
            Event(SEAT_TAKEN_OVER, {"seat": seat, "at": now, "bot": state.control["bot"]}, seat)
        )
    return events


def reclaim(state: ClockState, seat: int, now: int) -> Event:
    """The taken-over ``seat``'s player is back."""
    return Event(SEAT_RECLAIMED, {"seat": seat, "at": max(now, state.now)}, seat)


def apply(state: ClockState, kind: str, data: JSON) -> None:
    """Fold one clock entry into the clock (mutating it)."""
    state.now = max(state.now, int(data["at"]))
    if kind == CLOCK_STARTED:
        for seat in data["seats"]:
            state.started[seat] = int(data["at"])
    elif kind == CLOCK_CHARGED:
        seat = data["seat"]
        state.started.pop(seat, None)
        state.remaining[seat] = int(data["remaining_ms"])
        state.used[seat] += int(data["used_ms"])
        state.turns[seat] += 1
    elif kind == TIME_EXPIRED:
        seat = data["seat"]
        state.started.pop(seat, None)
        state.remaining[seat] = 0
        state.used[seat] += int(data["used_ms"])
        state.turns[seat] += 1
        if seat not in state.timed_out:
            state.timed_out.append(seat)
    elif kind == SEAT_TAKEN_OVER:
        if data["seat"] not in state.taken_over:
            state.taken_over.append(data["seat"])
    elif kind == SEAT_RECLAIMED:
        seat = data["seat"]
        state.taken_over = [s for s in state.taken_over if s != seat]
        state.remaining[seat] = full_time(state.control)


def problem(
    state: ClockState | None, kind: str, data: JSON, due: list[int], running: bool
) -> str | None:
    """Why a clock entry cannot be where it is in the log (``None``: it holds), from the log's
    own times: ``due`` are the seats played by people that must act before it, ``running``
    whether the game runs. Used by ``domain.audit`` (``verifyLog``)."""
    if state is None:
        return "a clock entry on a table without a clock"
    at = data.get("at")
    if type(at) is not int or at < state.now:
        return "a clock entry whose time is before the log's latest time"
    seats = data.get("seats") if kind == CLOCK_STARTED else [data.get("seat")]
    if (
        not isinstance(seats, list)
        or not seats
        or not all(type(s) is int and 0 <= s < len(state.remaining) for s in seats)
    ):
        return "a clock entry for no seat of the table"
    if kind == CLOCK_STARTED:
        if not running or any(s in state.started or s not in due for s in seats):
            return "a turn started on the clock for a seat that did not have to act"
        if data != {"at": at, "seats": seats} or len(set(seats)) != len(seats):
            return "a turn start that is not what the clock records"
        return None
    seat = seats[0]
    if kind == CLOCK_CHARGED:
        started = state.started.get(seat)
        if started is None:
            return "a charge for a seat that was not on the clock"
        want = {
            "seat": seat,
            "at": at,
            "started": started,
            "used_ms": at - started,
            "remaining_ms": charged_remaining(state.control, state.remaining[seat], at - started),
        }
        if data != want:
            return "the time charged does not add up with the log's own times"
        if running and seat in due:
            return "a charge for a seat whose turn had not ended"
        return None
    if kind == TIME_EXPIRED:
        limit = deadline(state, seat)
        if limit is None or not running:
            return "a time expiry for a seat that was not on the clock"
        if at < limit:
            return "a time expiry before the deadline the log's own times give"
        if data != {"seat": seat, "at": at, "deadline": limit, "used_ms": at - state.started[seat]}:
            return "a time expiry that does not add up with the log's own times"
        return None
    if kind == SEAT_TAKEN_OVER:
        if state.control["on_expiry"] != TAKEOVER or seat not in state.timed_out:
            return "a take-over of a seat whose time had not run out"
        wanted = {"seat": seat, "at": at, "bot": state.control["bot"]}
        if seat in state.taken_over or data != wanted:
            return "a take-over that is not the table's policy"
        return None
    if kind == SEAT_RECLAIMED:
        if seat not in state.taken_over:
            return "a seat reclaimed that was not taken over"
        if data != {"seat": seat, "at": at}:
            return "a seat reclaimed that is not what the clock records"
        return None
    return f"an unknown clock entry {kind!r}"


def thinking(state: ClockState, seat: int) -> tuple[int, int]:
    """``seat``'s thinking time so far and its number of charged turns."""
    return state.used[seat], state.turns[seat]
