"""A client that goes away is the client's business: one ``info`` line, never an ``ERROR``
traceback (issue #20: 23 of them in one run of hostile clients).

Over a websocket, strawberry runs each operation in a task of its own. When the client has
gone (a closed tab, a dropped network, a socket reset) while a subscription or a query still
had answers to send, the task's next send fails with a disconnect, which strawberry logged as
"Exception in worker task" with its traceback (``graphql-transport-ws``), or which asyncio
reported as "Task exception was never retrieved" (the older ``graphql-ws``).
``QuietDisconnects``, mixed into both protocol handlers (``service.api.connections``), logs the
first such failure of a connection in one line on ``papyrus.http`` at ``info``, with the
connection's request id and client address, and nothing for the other operations that find
the same socket gone. Any other failure is still logged as the bug it is.

(Over HTTP, a client gone before its body is complete is ``bodies.BodyLimit``'s line; one gone
after, while its answer is sent, costs nothing: uvicorn drops what is sent then.)
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.websockets import WebSocketDisconnect as StarletteDisconnect
from starlette.websockets import WebSocketDisconnected as StarletteClosed

from service.api.graphql.strawberry_private import WebSocketDisconnected
from service.api.observability import current

log = logging.getLogger("papyrus.http")

#: what a send to a socket that is gone raises, at each layer: strawberry's adapter, Starlette's
#: websocket (a disconnect; a send after the close), the server's transport (``OSError``)
GONE: tuple[type[BaseException], ...] = (
    WebSocketDisconnected,
    StarletteDisconnect,
    StarletteClosed,
    ConnectionError,
    OSError,
)


def is_gone(error: BaseException) -> bool:
    return isinstance(error, GONE)


def log_gone(error: BaseException) -> None:
    """The one line of a client gone mid-answer (the request's id and address, when known)."""
    record = current()
    where = f"{record.method} {record.path}" if record is not None else "websocket"
    fields = {"request_id": record.request_id, "client": record.client} if record else {}
    log.info(
        "%s: the client%s went away while answers were still being sent (%s)",
        where,
        f" {record.client}" if record is not None and record.client else "",
        type(error).__name__,
        extra={"fields": fields},
    )


class QuietDisconnects:
    """Mixed into strawberry's websocket protocol handlers, before the handler class."""

    _gone_logged = False

    def went_away(self, error: BaseException) -> None:
        """Log the connection's first disconnect found by a send; the others say nothing."""
        if not self._gone_logged:
            self._gone_logged = True
            log_gone(error)

    async def handle_task_exception(self, error: Exception) -> None:
        """``graphql-transport-ws``: every operation task's failure comes here."""
        if is_gone(error):
            self.went_away(error)
            return
        await super().handle_task_exception(error)  # type: ignore[misc]

    async def handle_async_results(self, *args: Any, **kwargs: Any) -> None:
        """``graphql-ws``: a subscription's task, whose failure nobody else looks at."""
        try:
            await super().handle_async_results(*args, **kwargs)  # type: ignore[misc]
        except GONE as error:
            self.went_away(error)
