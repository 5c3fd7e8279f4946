"""Errors with the stable public codes of docs/API.md ("Errors")."""

from __future__ import annotations

HTTP_STATUS = {
    "BAD_INPUT": 422,
    "UNAUTHENTICATED": 401,
    "FORBIDDEN": 403,
    "NOT_FOUND": 404,
    "NOT_YOUR_TURN": 409,
    "ILLEGAL_ACTION": 409,
    "CONFLICT": 409,
    "GAME_NOT_ACTIVE": 409,
    "TABLE_FULL": 409,
    "RATE_LIMITED": 429,
    "UNAVAILABLE": 503,
    "INTERNAL": 500,
}


class PapyrusError(Exception):
    """An expected failure a client can act on: ``code`` is one of ``HTTP_STATUS``."""

    code = "INTERNAL"

    def __init__(self, message: str, *, code: str | None = None, rule: str | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.rule = rule

    @property
    def status(self) -> int:
        return HTTP_STATUS[self.code]


class BadInput(PapyrusError):
    code = "BAD_INPUT"


class Unauthenticated(PapyrusError):
    code = "UNAUTHENTICATED"


class Forbidden(PapyrusError):
    code = "FORBIDDEN"


class NotFound(PapyrusError):
    code = "NOT_FOUND"


class Conflict(PapyrusError):
    code = "CONFLICT"


class GameNotActive(PapyrusError):
    code = "GAME_NOT_ACTIVE"


class TableFull(PapyrusError):
    """Every seat of the table is taken (joining it is not possible)."""

    code = "TABLE_FULL"


class Unavailable(PapyrusError):
    code = "UNAVAILABLE"


class RateLimited(PapyrusError):
    """Too many requests of one kind from one player or address in the current window;
    ``retry_after``: whole seconds until the window ends (the ``Retry-After`` header)."""

    code = "RATE_LIMITED"

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after
