"""The mutations of players and their tokens: registration, token rotation, logout and account
deletion (docs/API.md "Players"; ``service.app.accounts`` holds the commands).

``PlayerMutations`` is a part of the schema's ``Mutation`` type (``service.api.graphql.mutations``
combines it with ``TableMutations``): it is never a type of the schema by itself, and the fields
keep their place in ``Mutation`` (the generated schema is the same as when they were declared
there).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import strawberry

from service.api.graphql.context import Info
from service.api.graphql.types import Player, PlayerSession
from service.app.caller import Caller


@strawberry.type
class PlayerMutations:
    @strawberry.mutation(description="Open registration; the token is shown once.")
    async def register_player(
        self,
        info: Info,
        name: Annotated[
            str, strawberry.argument(description="The name shown to others (not unique).")
        ],
    ) -> PlayerSession:
        return await session(info, info.context.app.accounts.register_player, name)

    @strawberry.mutation(
        description="A new token for the caller; the one sent with this request stops working "
        "at once, in every server process. Shown once, like the first."
    )
    async def rotate_token(self, info: Info) -> PlayerSession:
        return await session(info, info.context.app.accounts.rotate_token, info.context.caller)

    @strawberry.mutation(
        description="Revoke the token sent with this request, at once in every server "
        "process. A player has one token at a time and no password, so this signs the player "
        "out for good; to change a token and keep playing, use rotateToken."
    )
    async def logout(self, info: Info) -> bool:
        return await info.context.run(info.context.app.accounts.log_out, info.context.caller)

    @strawberry.mutation(
        description="Delete the caller's account: the token stops working and the name is "
        "shown as 'Deleted player' everywhere (seats, events, summaries, profiles, "
        "leaderboards, exports); finished games stay and still verify. Refused (FORBIDDEN) "
        "while the caller holds a seat at a game that is not over: finish or abandon it first."
    )
    async def delete_account(self, info: Info) -> bool:
        return await info.context.run(info.context.app.accounts.delete_account, info.context.caller)


async def session(
    info: Info, command: Callable[..., tuple[Caller, str]], *args: Any
) -> PlayerSession:
    """What ``registerPlayer`` and ``rotateToken`` do: run the command on a worker and answer
    the player it names with the new token (shown this once)."""
    caller, token = await info.context.run(command, *args)
    player = Player.of(caller)
    assert player is not None, "a new token is always a player's"
    return PlayerSession(player=player, token=token)
