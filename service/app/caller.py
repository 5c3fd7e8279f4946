"""Who is asking: a registered player or a spectator, and the check that a command needs one."""

from __future__ import annotations

from dataclasses import dataclass, field

from service.app.errors import Unauthenticated


@dataclass(frozen=True, slots=True)
class Caller:
    """Who is asking: a registered player, or nobody (a spectator)."""

    player_id: str | None = None
    name: str | None = None
    token_hash: str | None = field(default=None, repr=False, compare=False)
    """The hash of the token the player signed in with (logout and rotation revoke it)."""

    @property
    def is_player(self) -> bool:
        return self.player_id is not None


SPECTATOR = Caller()


def require_player(caller: Caller) -> None:
    if not caller.is_player:
        raise Unauthenticated("Sign in first: send 'Authorization: Bearer <token>'.")
