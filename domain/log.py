"""One entry of a game's event log, and the hash chain that seals the log (audits).

Every entry carries ``hash``, computed when it is recorded::

    salt    = SHA-256( "papyrus/v1:salt:" + seed + ":" + str(version) )            (hex)
    content = canonical JSON of the entry without ``hash``, with ``prev`` and ``salt`` added
    hash    = SHA-256( content )                                                     (hex)

where ``prev`` is the hash of the entry before (64 zeros for version 1) and canonical JSON is
``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`` in UTF-8.
Changing any stored field of any entry changes its hash and breaks the chain from there on.
The one exception: a display name that an entry lists in its ``unsealed`` data member (see
``domain.redaction``) is left out of ``content``, so that deleting an account can erase it.

The salt is derived from the game's secret seed, so nobody can test guesses of a hidden entry
(a secret offering, a shuffled order) against its hash while the game runs; once the seed is
revealed at the end, anyone can recompute the whole chain. A table with a ``seed_salt`` (the
secret entropy the server drew at its creation, see ``domain.randomness``; every table created
since salts existed) mixes it in, so that the hashes of public entries do not let anybody test
guesses of a guessable seed either::

    salt    = SHA-256( "papyrus/v2:salt:" + seed_salt + ":" + seed + ":" + str(version) )  (hex)

Logs without a ``seed_salt`` keep the first formula.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from typing import Any

from domain.contract import JSON, Event
from domain.redaction import sealed_data

GENESIS = "0" * 64


@dataclass(frozen=True, slots=True)
class Entry:
    """A recorded event with what the log keeps about it."""

    version: int
    at: str
    type: str
    data: JSON
    seat: int | None = None
    automatic: bool = False
    by_seat: int | None = None
    """The seat whose command caused the entry (``None`` for table and system steps)."""
    command: str | None = None
    """Entries recorded by one command share its id."""
    action: JSON | None = None
    """The submitted action, on the first entry of each decided step."""
    actor: str | None = None
    rules_version: str = ""
    hash: str = ""

    @property
    def event(self) -> Event:
        return Event(self.type, self.data, self.seat)

    def content(self) -> dict[str, Any]:
        fields = asdict(self)
        del fields["hash"]
        return fields


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def salt(seed: str, version: int, seed_salt: str | None = None) -> str:
    if seed_salt is None:  # a log written before tables had a salt
        return hashlib.sha256(f"papyrus/v1:salt:{seed}:{version}".encode()).hexdigest()
    return hashlib.sha256(f"papyrus/v2:salt:{seed_salt}:{seed}:{version}".encode()).hexdigest()


def entry_hash(entry: Entry, prev: str, seed: str, seed_salt: str | None = None) -> str:
    content = {
        **entry.content(),
        "data": sealed_data(entry.type, entry.data),  # without its erasable names, if unsealed
        "prev": prev,
        "salt": salt(seed, entry.version, seed_salt),
    }
    return hashlib.sha256(canonical(content).encode()).hexdigest()
