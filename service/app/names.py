"""Player names: what a name may be, checked before it is stored (``check_name``, called by
``service.app.accounts`` at registration).

A name is shown to every other player, on every read path, so it is cleaned and refused here
rather than escaped wherever it is shown: it is trimmed and its inner spaces collapsed, put in
NFC, at most ``MAX_NAME_LENGTH`` characters, and holds no control or invisible formatting
characters (bidirectional overrides and zero-width characters included: they would make a name
read as another). None may pass for the server, its staff, a bot (``Bot (<strategy>)``) or a
deleted player (``DELETED_PLAYER``); those are compared case- and width-insensitively (NFKC,
casefolded). Names need not be unique: a player is known by their id.
"""

from __future__ import annotations

import re
import unicodedata

from domain.redaction import DELETED_PLAYER
from service.app.errors import BadInput

MAX_NAME_LENGTH = 40
#: Unicode categories no name may contain: controls, formatting (bidirectional overrides,
#: zero-width characters...), surrogates, private use, unassigned, line and paragraph breaks
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: names that would pass for the server or its staff (compared case- and width-insensitively)
RESERVED_NAMES = frozenset(
    {
        "system",
        "papyrus",
        "admin",
        "administrator",
        "moderator",
        "server",
        "bot",
        "spectator",
        DELETED_PLAYER.casefold(),
    }
)
#: bots are named ``Bot (<strategy>)`` (``service.app.seating``)
BOT_NAME = re.compile(r"bot\s*\(")


def check_name(name: str) -> str:
    """The name as it is stored (trimmed, inner spaces collapsed, NFC), or ``BAD_INPUT``."""
    for position, character in enumerate(name, start=1):
        if unicodedata.category(character) in REFUSED_CATEGORIES:
            described = unicodedata.name(character, "a control character")
            raise BadInput(
                "A player name must not contain control or invisible formatting characters: "
                f"found U+{ord(character):04X} ({described}) at position {position}."
            )
    cleaned = unicodedata.normalize("NFC", " ".join(name.split()))
    if not cleaned:
        raise BadInput("A player name must not be empty (spaces alone do not count).")
    if len(cleaned) > MAX_NAME_LENGTH:
        raise BadInput(
            f"A player name has at most {MAX_NAME_LENGTH} characters; this one has {len(cleaned)}."
        )
    folded = unicodedata.normalize("NFKC", cleaned).casefold()
    if BOT_NAME.match(folded):
        raise BadInput("Names starting with 'Bot (' are reserved for the server's bots.")
    if " ".join(folded.split()) in RESERVED_NAMES:
        raise BadInput(
            f"The name {cleaned!r} is reserved: a player may not pass for the server or for "
            "a deleted player."
        )
    return cleaned
