"""Security headers on every HTTP answer (issue #20): the web client keeps its token in
``localStorage``, where any script running in the page can read it, so no script may run in
our pages but our own files, and no other site may frame them.

* Pages (``text/html``: the web client at ``/`` and ``/games/<id>``, GraphiQL at ``/graphql``)
  get ``PAGE_POLICY``: scripts, styles, fonts and connections (``fetch``, the websocket) from
  this origin only (``'self'``), images from it and ``data:`` URLs (the favicon), no inline
  script or style, no plugins, no ``<base>``, forms posted only here, and no framing
  (``frame-ancestors 'none'``, and ``X-Frame-Options: DENY`` for older browsers). The pages
  are built for it: ES modules and a GraphiQL start file, no inline handlers, styles from
  stylesheets or set through the CSSOM (which a policy does not restrict).
* Every other answer (JSON, problems, scripts, stylesheets) gets ``OTHER_POLICY``: nothing may
  load or run if a browser is made to open it as a document.
* All of them: ``X-Content-Type-Options: nosniff`` (a browser runs or styles only what is
  declared as such) and ``Referrer-Policy: no-referrer`` (a game's link is not sent along).

A handler that sets a header itself keeps its own value: GraphiQL's page sets
``CONSOLE_POLICY``, which lets its library's ``<style>`` elements and ``data:`` fonts through.
HSTS belongs to whatever terminates TLS (the proxy), not to this server, which speaks plain
HTTP.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

PAGE_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
#: GraphiQL's page (``service.api.graphql.console``): the page policy, but its stylesheet
#: embeds its fonts as ``data:`` URLs, and its dialogs (settings, short keys) insert a
#: ``<style>`` element (react-remove-scroll's scroll lock) whose nonce the bundled library takes
#: from webpack's internal ``__webpack_require__.nc``, which the UMD build leaves unset and
#: offers no way to set: inline ``<style>`` elements are allowed there, style attributes and
#: every script still are not. Its styles can reach nothing: images, fonts and connections
#: are this origin (and ``data:``) only.
CONSOLE_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "style-src-elem 'self' 'unsafe-inline'",
        "style-src-attr 'none'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
OTHER_POLICY = "default-src 'none'; frame-ancestors 'none'"

COMMON = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
PAGE = (
    (b"content-security-policy", PAGE_POLICY.encode("ascii")),
    (b"x-frame-options", b"DENY"),
)
OTHER = ((b"content-security-policy", OTHER_POLICY.encode("ascii")),)


def is_page(headers: list[tuple[bytes, bytes]]) -> bool:
    for name, value in headers:
        if name.lower() == b"content-type":
            return value.lower().startswith(b"text/html")
    return False


def secured(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``headers`` with the security headers they lack."""
    present = {name.lower() for name, _ in headers}
    extra = (*COMMON, *(PAGE if is_page(headers) else OTHER))
    return [*headers, *((name, value) for name, value in extra if name not in present)]


class SecurityHeaders:
    """ASGI middleware: the security headers on every HTTP answer (see the module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": secured(list(message.get("headers", ())))}
            await send(message)

        await self.app(scope, receive, sending)
