"""The shape of a bearer token: how this server makes one and how a request sends it
(``service.app.accounts`` issues, resolves and revokes them).

A token is ``TOKEN_BYTES`` random bytes, URL-safe base64 (``secrets.token_urlsafe``): always
43 characters of ``[A-Za-z0-9_-]``. A request sends it as ``Authorization: Bearer <token>``
(``BEARER``, case-insensitive, spaces allowed around it). A value that does not have the shape
of a token this server issues (``TOKEN``) is refused without reading the store: a guessed or
mangled token costs the server no query.
"""

from __future__ import annotations

import re

#: an ``Authorization`` header value that names a bearer token
BEARER = re.compile(r"\s*Bearer\s+(\S+)\s*", flags=re.IGNORECASE)
#: the shape of every token this server issues (``secrets.token_urlsafe(TOKEN_BYTES)``)
TOKEN_BYTES = 32
TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")
