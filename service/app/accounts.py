"""Players: open registration and bearer-token authentication (API.md "Players").

A token is shown once and stored only as its hash; a ``Credential`` keyed by a UUID derived from
that hash points at the player, so a token is resolved with one read. Signed-in callers are
remembered per process (a miss costs two reads).
"""

from __future__ import annotations

import re
import secrets
import threading
import uuid
from collections import OrderedDict
from typing import Any

from eventsourcing.application import AggregateNotFoundError

from service.app.caller import SPECTATOR, Caller
from service.app.errors import BadInput, Unauthenticated
from service.store import Credential, Player, credential_id, token_hash
from service.store.database import Store

MAX_NAME_LENGTH = 40
#: signed-in callers remembered per process
TOKEN_CACHE = 10_000


class Accounts:
    """Registration and authentication of players, over one ``Store``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._tokens: OrderedDict[str, Caller] = OrderedDict()  # token hash -> caller (LRU)
        self._tokens_lock = threading.Lock()

    def register_player(self, name: str) -> tuple[Caller, str]:
        name = " ".join(name.split())
        if not name:
            raise BadInput("A player name must not be empty.")
        if len(name) > MAX_NAME_LENGTH:
            raise BadInput(f"A player name has at most {MAX_NAME_LENGTH} characters.")
        token = secrets.token_urlsafe(32)
        hashed = token_hash(token)
        player = Player(name=name, token_hash=hashed)
        credential = Credential(token_hash=hashed, player_id=str(player.id))
        self.store.save(player, credential)
        return Caller(str(player.id), name), token

    def authenticate(self, authorization: str | None) -> Caller:
        """The caller named by an ``Authorization: Bearer <token>`` value (spectator if none)."""
        if authorization is None or not authorization.strip():
            return SPECTATOR
        match = re.fullmatch(r"\s*Bearer\s+(\S+)\s*", authorization, flags=re.IGNORECASE)
        if match is None:
            raise Unauthenticated("The Authorization header must be 'Bearer <token>'.")
        hashed = token_hash(match.group(1))
        with self._tokens_lock:
            known = self._tokens.get(hashed)
            if known is not None:
                self._tokens.move_to_end(hashed)
        if known is not None:
            return known
        try:
            credential: Any = self.store.repository.get(credential_id(hashed))
            player: Any = self.store.repository.get(uuid.UUID(credential.player_id))
        except AggregateNotFoundError:
            raise Unauthenticated("This token is not valid; register to get one.") from None
        caller = Caller(str(player.id), player.name)
        with self._tokens_lock:
            self._tokens[hashed] = caller
            while len(self._tokens) > TOKEN_CACHE:
                self._tokens.popitem(last=False)
        return caller

    def player_name(self, player_id: str) -> str | None:
        try:
            name: str = self.store.repository.get(uuid.UUID(player_id)).name
            return name
        except (AggregateNotFoundError, ValueError):
            return None
