"""How far the store's notification log can be read without skipping anything for good.

On PostgreSQL the notification ids come from a sequence, taken when a row is inserted, while the
rows become visible when their transaction commits. Writers commit in any order, so a reader
that follows the log by id can see id 11 committed while id 10 is still in flight; a reader
that moved past 10 then would never see it (issue #20: read models frozen for good with two
server processes). The library's other insert path serialises every writer on an exclusive
table lock to make commit order id order; ours keeps writers concurrent and has readers stop at
the *sealed horizon* instead: the largest id at or below which no transaction can still commit
a row.

Every insert holds a shared advisory lock (``service.store.postgres``) from before it takes an
id until its commit is visible. A reader reads the sequence's last id ``L`` first, then the
in-flight writers ``W`` (those holding the lock). Any writer that took an id at or below ``L``
took the lock before ``L`` was read, so it is in ``W`` or has already ended. ``L`` is sealed
once none of ``W`` holds the lock any more: at once when ``W`` is empty, else at a later look
(``Horizon.advance``). Rolled-back writers leave ids that never appear; below the horizon those
are gaps for good, and readers pass them. And wherever every id is already visible there is no
gap to wait for: each look also reads the committed ids just past the horizon, which is sealed
up to the first one missing (under load, writers that commit in id order are read at once).

This module is the bookkeeping alone (no SQL): ``service.store.postgres.Recorder`` feeds it.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence, Set

#: looks kept waiting for their writers to end (a further one drops the oldest: that delays
#: the horizon a little, it never makes it skip)
PENDING = 64


class Horizon:
    """The sealed horizon of one store, advanced by successive looks (thread-safe)."""

    def __init__(self) -> None:
        self.sealed = 0
        """Every id at or below this one that will ever be visible is visible now."""
        self.head = 0
        """The last id taken from the sequence at the latest look (committed or not)."""
        self._pending: list[tuple[int, frozenset[str]]] = []
        self._lock = threading.Lock()

    def advance(self, last: int, writers: Set[str], visible: Sequence[int] = ()) -> int:
        """One look: ``last``, the sequence's last id, read *before* ``writers``, the writers
        in flight (their virtual transaction ids), read before ``visible``, the committed ids
        above the horizon in ascending order (some of them). Returns the sealed horizon.

        Looks must be told in the order they were made, each before the next one starts: a
        look's writers say nothing of a later look's ids (a writer may have taken one of them
        after these writers were read)."""
        now = frozenset(writers)
        with self._lock:
            self.head = max(self.head, last, visible[-1] if visible else 0)
            waiting: list[tuple[int, frozenset[str]]] = []
            for before, those in self._pending:
                if those & now:
                    waiting.append((before, those))
                else:  # every writer that could hold an id up to ``before`` has ended
                    self.sealed = max(self.sealed, before)
            if now:
                waiting.append((last, now))
            else:
                self.sealed = max(self.sealed, last)
            for ident in visible:  # every id up to the first missing one is there already
                if ident == self.sealed + 1:
                    self.sealed = ident
                elif ident > self.sealed:
                    break
            self._pending = [(b, t) for b, t in waiting if b > self.sealed][-PENDING:]
            return self.sealed

    @property
    def is_behind(self) -> bool:
        """Ids were taken that are not sealed yet: look again soon (their writers' commits
        notify, but a writer that rolls back does not)."""
        with self._lock:
            return self.head > self.sealed
