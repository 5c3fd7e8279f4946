"""The shapes of a player as every answer shows one, and of a player with their new token."""

from __future__ import annotations

from typing import Any

from service.api.shapes.declare import Id, described, shape


@shape("A registered player (open registration, `registerPlayer`).")
class Player:
    id: Id = described("The player's id (stable).")
    name: str = described("The name shown to others (not unique).")


@shape("What `registerPlayer` returns: the new player and its token.")
class PlayerSession:
    player: Player = described(
        "The player just registered.",
        rest_description="The player: just registered, or the caller whose token was rotated.",
    )
    token: str = described(
        "Shown once; the server keeps only its hash.",
        rest_description="Shown once: send it as `Authorization: Bearer <token>`.",
    )


# -- the data of the shapes ----------------------------------------------------------------------


def player(player_id: str, name: str) -> dict[str, Any]:
    """A ``Player``: the id and the name, nothing of the token."""
    return {"id": player_id, "name": name}


def session(player_id: str, name: str, token: str) -> dict[str, Any]:
    """A ``PlayerSession``: a player with their new token (the one time it is shown)."""
    return {"player": player(player_id, name), "token": token}
