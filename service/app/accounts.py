"""Players: registration, bearer tokens (sign-in, rotation, logout) and account deletion
(docs/API.md "Players"; docs/accounts.md).

A token is shown once and stored only as its hash; a ``Credential`` keyed by a UUID derived from
that hash points at the player, so a token is resolved with one read. A player has one live
token at a time: ``rotate_token`` replaces it (the old one is revoked), ``log_out`` revokes it,
``delete_account`` revokes it and deletes the account. Each is one save of the player and the
credentials together, so two of them racing on one token cannot both win.

A signed-in request reads its credential from the store (one query of the events stored since
the cached copy) unless this process follows the store's feed (``follow``: a server does): then
a credential found live is trusted for at most ``TOKEN_RECHECK_SECONDS`` with no query. A
revocation saved here ends that trust at once; one saved by another process ends it when the
feed tells (LISTEN/NOTIFY on PostgreSQL, within milliseconds; SQLite polls every 50 ms), and in
any case within ``TOKEN_RECHECK_SECONDS``; a failure of the feed ends every trust at once. The
player behind a credential is remembered per process.

Names are checked before they are stored (``check_name``, ``service.app.names``); the shape
of a token and of the header that carries it are in ``service.app.tokens``.
"""

from __future__ import annotations

import secrets
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

from domain.redaction import DELETED_PLAYER
from service.app.caller import SPECTATOR, Caller, require_player
from service.app.errors import Forbidden, Unauthenticated
from service.app.limits import Limiter
from service.app.names import check_name
from service.app.redaction import Redaction
from service.app.tokens import BEARER, TOKEN, TOKEN_BYTES
from service.store import Credential, Player, credential_id, token_hash
from service.store.database import Store

#: signed-in players remembered per process (token hash -> caller)
TOKEN_CACHE = 10_000
#: seconds a live credential is trusted without reading it again, while the feed is followed
#: (the feed ends the trust at once on a revocation; this bounds a feed that stalls unnoticed)
TOKEN_RECHECK_SECONDS = 5.0
#: the open games a player is seated at (ids), from the read models
Seated = Callable[[str], list[str]]


class Accounts:
    """Registration, authentication, tokens and deletion of players, over one ``Store``.

    ``limiter`` counts failed authentications (``service.app.limits``); ``redaction`` learns of
    deletions at once; ``seated`` tells which open or running games a player holds a seat at
    (an account is not deleted while it does)."""

    def __init__(
        self,
        store: Store,
        limiter: Limiter | None = None,
        redaction: Redaction | None = None,
        seated: Seated | None = None,
    ) -> None:
        self.store = store
        self.limiter = limiter or Limiter()
        self.redaction = redaction or Redaction(store)
        self.seated = seated
        self._tokens: OrderedDict[str, Caller] = OrderedDict()  # token hash -> caller (LRU)
        self._tokens_lock = threading.Lock()
        self._trusted = False  # the feed is followed: live credentials need no read
        self._live: dict[uuid.UUID, float] = {}  # credential id -> when it was read live
        self._revocations = 0  # revocations heard: a read that saw one in between is not kept
        self.clock: Callable[[], float] = time.monotonic

    # -- the feed ---------------------------------------------------------------------------------

    def follow(self) -> None:
        """The store's feed tells ``heard`` of every revocation, whichever process saved it."""
        with self._tokens_lock:
            self._trusted = True

    def heard(self, event: Any) -> None:
        """A revocation (``Credential.Revoked``) or deletion (``Player.Deleted``) was saved."""
        if isinstance(event, Credential.Revoked):
            with self._tokens_lock:
                self._revocations += 1
                self._live.pop(event.originator_id, None)
        elif isinstance(event, Player.Deleted):
            self.redaction.add(str(event.originator_id))

    def missed(self) -> None:
        """The feed may have missed revocations: read every credential again."""
        with self._tokens_lock:
            self._revocations += 1
            self._live.clear()

    # -- registration and sign-in ---------------------------------------------------------------

    def register_player(self, name: str) -> tuple[Caller, str]:
        name = check_name(name)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        hashed = token_hash(token)
        player = Player(name=name, token_hash=hashed)
        credential = Credential(token_hash=hashed, player_id=str(player.id))
        self.store.save(player, credential)
        return Caller(str(player.id), name, hashed), token

    def authenticate(self, authorization: str | None, address: str | None = None) -> Caller:
        """The caller named by an ``Authorization: Bearer <token>`` value (spectator if none).
        ``address``: the client's, which failed authentications are counted against: past
        the limit a bad token is answered ``RATE_LIMITED`` instead of ``UNAUTHENTICATED``,
        while a valid token from that address is still accepted (bad tokens throttle bad
        tokens, never the address's players, nor a victim whose address an attacker shares
        or names)."""
        if authorization is None or not authorization.strip():
            return SPECTATOR
        try:
            return self._resolve(authorization)
        except Unauthenticated:
            self.limiter.failed_authentication(address)  # RATE_LIMITED past the limit
            raise

    def known(self, authorization: str | None, address: str | None = None) -> Caller | None:
        """``authenticate`` when this process can tell without the store: no token (a
        spectator), or a token it trusts that was checked within ``TOKEN_RECHECK_SECONDS``
        (as ``authenticate`` would answer from memory). ``None``: ask ``authenticate``, on a
        worker (a token to read, a bad one)."""
        if authorization is None or not authorization.strip():
            return SPECTATOR
        match = BEARER.fullmatch(authorization)
        if match is None:
            return None
        with self._tokens_lock:
            return self._remembered(token_hash(match.group(1)))

    def _remembered(self, hashed: str) -> Caller | None:
        """(Inside ``_tokens_lock``.) The caller of a token this process trusts and checked
        within ``TOKEN_RECHECK_SECONDS``; ``None``: read its credential."""
        if not self._trusted:
            return None
        checked = self._live.get(credential_id(hashed))
        known = self._tokens.get(hashed)
        if known is None or checked is None or self.clock() - checked >= TOKEN_RECHECK_SECONDS:
            return None
        self._tokens.move_to_end(hashed)
        return known

    def _resolve(self, authorization: str) -> Caller:
        match = BEARER.fullmatch(authorization)
        if match is None:
            raise Unauthenticated("The Authorization header must be 'Bearer <token>'.")
        if TOKEN.fullmatch(match.group(1)) is None:  # not one we issue: no read needed
            raise Unauthenticated("This token is not valid; register to get one.")
        hashed = token_hash(match.group(1))
        ident = credential_id(hashed)
        with self._tokens_lock:
            revocations = self._revocations
            known = self._remembered(hashed)
        if known is not None:
            return known
        read_at = self.clock()
        try:
            credential: Any = self.store.repository.get(ident)
        except AggregateNotFoundError:
            raise Unauthenticated("This token is not valid; register to get one.") from None
        if getattr(credential, "revoked", False):
            self._forget(hashed)
            raise Unauthenticated(
                "This token was revoked (logout, rotateToken or deleteAccount): send your "
                "current token, or register again."
            )
        with self._tokens_lock:
            known = self._tokens.get(hashed)
            if known is not None:
                self._tokens.move_to_end(hashed)
                self._trust(ident, read_at, revocations)
                return known
        try:
            player: Any = self.store.repository.get(uuid.UUID(credential.player_id))
        except AggregateNotFoundError:
            raise Unauthenticated("This token is not valid; register to get one.") from None
        if getattr(player, "deleted", False):
            raise Unauthenticated("This account was deleted.")
        caller = Caller(str(player.id), player.name, hashed)
        with self._tokens_lock:
            self._tokens[hashed] = caller
            self._trust(ident, read_at, revocations)
            while len(self._tokens) > TOKEN_CACHE:
                forgotten, _ = self._tokens.popitem(last=False)
                self._live.pop(credential_id(forgotten), None)
        return caller

    def _trust(self, ident: uuid.UUID, read_at: float, revocations: int) -> None:
        """Trust a credential read live at ``read_at`` (inside the lock), unless a revocation
        was heard since the read began (it may have been this one's)."""
        if self._trusted and revocations == self._revocations:
            self._live[ident] = read_at

    def _forget(self, hashed: str | None) -> None:
        if hashed is None:
            return
        with self._tokens_lock:
            self._tokens.pop(hashed, None)
            self._revocations += 1
            self._live.pop(credential_id(hashed), None)

    # -- tokens ---------------------------------------------------------------------------------

    def rotate_token(self, caller: Caller) -> tuple[Caller, str]:
        """A new token for the caller; the one they sent stops working at once."""
        player, credential = self._session(caller)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        hashed = token_hash(token)
        fresh = Credential(token_hash=hashed, player_id=str(player.id))
        credential.revoke("rotated")
        player.rotate_token(hashed)
        self._save(player, credential, fresh)
        self._forget(caller.token_hash)
        return Caller(str(player.id), player.name, hashed), token

    def log_out(self, caller: Caller) -> bool:
        """Revoke the token the caller sent (it was their only one: they are signed out)."""
        player, credential = self._session(caller)
        credential.revoke("logged out")
        if player.token_hash == caller.token_hash:
            player.log_out()
        self._save(player, credential)
        self._forget(caller.token_hash)
        return True

    def delete_account(self, caller: Caller) -> bool:
        """Delete the caller's account: their token stops working and their name is shown as
        ``DELETED_PLAYER`` on every read path (their finished games stay, and verify).
        Refused while they hold a seat at a game that is not over."""
        player, credential = self._session(caller)
        games = self.seated(str(player.id)) if self.seated is not None else []
        if games:
            listed = ", ".join(games[:5]) + (" and more" if len(games) > 5 else "")
            raise Forbidden(
                f"You hold a seat at {len(games)} game{'s' if len(games) != 1 else ''} that "
                f"{'are' if len(games) != 1 else 'is'} not over ({listed}): finish or abandon "
                f"{'them' if len(games) != 1 else 'it'} (abandonGame) before deleting your "
                "account."
            )
        revoked = [credential]
        live = player.token_hash
        if live is not None and live != caller.token_hash:  # a token the caller did not send
            other: Any = self._get(credential_id(live))
            if other is not None and not getattr(other, "revoked", False):
                revoked.append(other)
        for each in revoked:
            each.revoke("account deleted")
        player.delete()
        self._save(player, *revoked)
        self.redaction.add(str(player.id))
        self._forget(caller.token_hash)
        self._forget(live)
        return True

    def _session(self, caller: Caller) -> tuple[Any, Any]:
        """The caller's player and the credential of the token they sent (fresh copies)."""
        require_player(caller)
        assert caller.player_id is not None
        credential = self._get(credential_id(caller.token_hash or ""))
        player = self._get(uuid.UUID(caller.player_id))
        if credential is None or player is None or getattr(credential, "revoked", False):
            raise Unauthenticated("This token was revoked meanwhile: send your current one.")
        return player, credential

    def _get(self, ident: uuid.UUID) -> Any:
        try:
            return self.store.repository.get(ident)
        except AggregateNotFoundError:
            return None

    def _save(self, *aggregates: Any) -> None:
        """One transaction; another change of the same token or player saved first loses us
        the race (the version key): the token is no longer what the caller sent."""
        try:
            self.store.save(*aggregates)
        except IntegrityError:
            raise Unauthenticated(
                "This token was changed by another request at the same time: send your current one."
            ) from None

    # -- names ----------------------------------------------------------------------------------

    def player_name(self, player_id: str) -> str | None:
        try:
            player: Any = self.store.repository.get(uuid.UUID(player_id))
        except (AggregateNotFoundError, ValueError):
            return None
        if getattr(player, "deleted", False):
            return DELETED_PLAYER
        name: str | None = getattr(player, "name", None)
        return name
