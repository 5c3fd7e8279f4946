"""Bots seated at tables that are not over, by the account that seated them: what the
per-account bot bounds count (``service.app.bots.bounds``).

A ``seat_taken`` entry of a bot gives one row: the game, the seat, the bot's level and the
account that seated it, the entry's ``actor`` (``addBot``'s caller), or the table's creator for
bots seated before the entry named anyone. A game's rows go when it is over (``game_finished``,
``game_abandoned``). A seat taken over by a bot when its player's time ran out is not a row:
nobody seated that bot.
"""

from __future__ import annotations

from typing import Any

from domain import table as tables

#: the entries after which a game has no bots any more
ENDINGS = frozenset({tables.GAME_FINISHED, tables.GAME_ABANDONED})


def seated_bot(entry: Any, created_by: str | None) -> dict[str, Any] | None:
    """The row of the bot ``entry`` seats (``None``: it seats no bot, or nobody to count it
    against)."""
    if entry.type != tables.SEAT_TAKEN or not entry.data.get("bot"):
        return None
    account = entry.actor or created_by
    if account is None:
        return None
    return {"seat": entry.data["seat"], "account": account, "level": entry.data["bot"]}


def ends(entry: Any) -> bool:
    """After ``entry`` the game's bots count against nobody."""
    return bool(entry.type in ENDINGS)
