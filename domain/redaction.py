"""Erasable names in a game's log: what an account deletion takes out, and how the log still
verifies afterwards (accounts: deletion; audits: ``verifyLog``, export and import).

A player's display name is personal data: once the player deletes their account, no read path
may show it, yet every game they played must stay verifiable. Two entry types name a player:
``seat_taken`` (``data.name``, next to the sealed ``data.player_id``) and ``game_abandoned``
(``data.by``, the player whose id is the entry's ``actor``). Their names are shown as
``DELETED_PLAYER`` once the player is deleted, in one of two ways:

* **Unsealed names** (every entry recorded since accounts can be deleted). The entry's data
  says which of its fields the hash leaves out: ``"unsealed": ["name"]``. ``domain.log`` hashes
  the entry without those fields (only the fields ``ERASABLE`` allows are ever left out, and
  the ``unsealed`` list itself is sealed), so replacing the name by ``DELETED_PLAYER`` changes
  no hash: such a log verifies in full, redacted or not. Who sat where stays sealed by the
  player's id; the name beside it is a label, not evidence.
* **Sealed names** (entries recorded before). Their hash covers the name, so a redacted copy
  cannot reproduce it. An export lists those entries (``redacted``: their versions) and the
  verifier takes their hash as recorded instead of recomputing it; it still checks that the
  entry is one that names a player with only its name replaced by ``DELETED_PLAYER``, that the
  chain continues from that hash, and the whole replay through the rules.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # ``domain.log`` imports this module to hash entries
    from domain.log import Entry

#: how a deleted player is shown wherever their name was
DELETED_PLAYER = "Deleted player"
#: the data member listing the fields that the entry's hash leaves out
UNSEALED = "unsealed"
#: the fields that may name a player, by entry type (``domain.table``'s ``SEAT_TAKEN`` and
#: ``GAME_ABANDONED``; written out here because ``domain.log`` imports this module)
ERASABLE: dict[str, tuple[str, ...]] = {"seat_taken": ("name",), "game_abandoned": ("by",)}


def unsealed(entry_type: str) -> list[str]:
    """The ``unsealed`` member of a new entry of this type (what its hash leaves out)."""
    return list(ERASABLE.get(entry_type, ()))


def sealed_data(entry_type: str, data: Any) -> Any:
    """``data`` as the entry's hash covers it: without the erasable fields its ``unsealed``
    member names (any other name in that list is ignored: it stays sealed)."""
    if not isinstance(data, dict):
        return data
    listed = data.get(UNSEALED)
    if not isinstance(listed, list):
        return data
    left_out = {name for name in ERASABLE.get(entry_type, ()) if name in listed}
    if not left_out:
        return data
    return {key: value for key, value in data.items() if key not in left_out}


def is_sealed_name(entry: Entry) -> bool:
    """An entry whose hash covers a name it holds (recorded before names were unsealed)."""
    if not isinstance(entry.data, dict):
        return False
    names = [f for f in ERASABLE.get(entry.type, ()) if f in entry.data]
    return bool(names) and sealed_data(entry.type, entry.data) is entry.data


def names_player(entry: Entry, player_ids: Collection[str]) -> bool:
    """The entry shows the name of one of ``player_ids``."""
    if entry.type not in ERASABLE or not isinstance(entry.data, dict) or not player_ids:
        return False
    if entry.type == "seat_taken":
        return entry.data.get("player_id") in player_ids
    return entry.actor in player_ids


def redact(entry: Entry) -> Entry:
    """The entry with its names replaced by ``DELETED_PLAYER`` (its hash kept as recorded)."""
    fields = [f for f in ERASABLE.get(entry.type, ()) if f in entry.data]
    data = {**entry.data, **dict.fromkeys(fields, DELETED_PLAYER)}
    return dataclasses.replace(entry, data=data)


def is_redacted(entry: Entry) -> bool:
    """An entry that names a player, every name in it replaced by ``DELETED_PLAYER``, and
    nothing else changed that could be told from its content."""
    fields = ERASABLE.get(entry.type, ())
    return (
        isinstance(entry.data, dict)
        and any(f in entry.data for f in fields)
        and all(entry.data[f] == DELETED_PLAYER for f in fields if f in entry.data)
    )
