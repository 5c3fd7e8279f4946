"""Fixtures for the web client's tests (issue #16): a real server, headless Chromium, no outside.

- ``web_server``: the real Papyrus server (uvicorn in a thread, tests.conftest ``Server``) on a
  fresh SQLite file, one per test module.
- ``browser``: Debian's chromium (``/usr/bin/chromium``) driven by Playwright, one per session.
- ``web``: a fresh browser context whose every request to another origin than the server's is
  recorded (``web.outside``) and aborted, so a test proves the client fetches nothing from
  outside; ``web.open(path, token=None, viewport=None)`` opens a page of the client (with the
  token already in localStorage when given), ``web.page`` is the last page opened. Every
  Content-Security-Policy violation in its pages is recorded (``web.violations``, from the
  pages' ``securitypolicyviolation`` events) and so is every page's answer
  (``web.documents``); once the test is over, the fixture fails it if a page broke its policy
  or came without the security headers (``assert_secure``): every web test proves the client
  works under its CSP.
- ``shoot(page, name)``: saves a PNG under one folder (``$PAPYRUS_SCREENSHOTS`` or a temporary
  one) printed at the end of the session.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser import chromium, distinct, watch_policy
from tests.conftest import Server

#: localStorage keys of the client (service/api/web/static/api.js)
TOKEN_KEY = "papyrus.token"
PLAYER_KEY = "papyrus.player"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

_SHOTS: list[Path] = []


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The real server on its own SQLite file, for one test module."""
    folder = tmp_path_factory.mktemp("web-db")
    with Server(f"sqlite:///{folder / 'papyrus.sqlite'}") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium per test module: Playwright's sync API runs an event loop on this thread
    while it is open, so a session-wide browser would break every later test that calls
    ``asyncio.run`` (any test module collected after these)."""
    with chromium() as launched:
        yield launched


@dataclass
class Web:
    """One browser context on the server: every request elsewhere is recorded and aborted."""

    server: Server
    browser: Any
    contexts: list[Any] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    violations: list[dict[str, Any]] = field(default_factory=list)
    documents: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    page: Any = None

    def context(
        self, viewport: dict[str, int] | None = None, token: str | None = None, **options: Any
    ) -> Any:
        """``options``: more of Playwright's ``new_context`` (``is_mobile``, ``has_touch``)."""
        context = self.browser.new_context(viewport=viewport or DESKTOP, **options)
        origin = urlsplit(self.server.url)

        def elsewhere(url: str) -> bool:
            parts = urlsplit(url)
            return (parts.hostname, parts.port) != (origin.hostname, origin.port)

        def abort(route: Any) -> None:
            self.outside.append(route.request.url)
            route.abort()

        context.route(elsewhere, abort)
        context.on("request", lambda request: self.requests.append(request.url))
        watch_policy(context, into=self.violations)
        context.on("response", self._answered)
        if token is not None:
            context.add_init_script(
                f"window.localStorage.setItem({json.dumps(TOKEN_KEY)}, {json.dumps(token)});"
            )
        self.contexts.append(context)
        return context

    def open(
        self,
        path: str = "/",
        token: str | None = None,
        viewport: dict[str, int] | None = None,
        **options: Any,
    ) -> Any:
        """A new page (in a new context) of the client at ``path``."""
        page = self.context(viewport, token, **options).new_page()
        page.on(
            "console",
            lambda message: (
                self.console_errors.append(message.text) if message.type == "error" else None
            ),
        )
        page.on("pageerror", lambda error: self.console_errors.append(str(error)))
        page.goto(f"{self.server.url}{path}")
        self.page = page
        return page

    def _answered(self, response: Any) -> None:
        if response.request.resource_type == "document":
            self.documents.append((response.url, dict(response.headers)))

    def assert_secure(self) -> None:
        """No page broke its Content-Security-Policy, and every page had its security headers
        (service/api/security_headers.py)."""
        seen = distinct(self.violations)
        assert not seen, f"{len(self.violations)} CSP violations, distinct: {seen[:10]}"
        for url, headers in self.documents:
            policy = headers.get("content-security-policy", "")
            directives = {
                name: value
                for name, _, value in (part.strip().partition(" ") for part in policy.split(";"))
            }
            assert directives.get("script-src") == "'self'", (url, policy)
            assert "unsafe" not in policy, (url, policy)
            assert directives.get("frame-ancestors") == "'none'", (url, policy)
            assert headers.get("x-content-type-options") == "nosniff", url
            assert headers.get("referrer-policy") == "no-referrer", url

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        self.contexts.clear()


@pytest.fixture
def web(web_server: Server, browser: Any) -> Iterator[Web]:
    session = Web(web_server, browser)
    try:
        yield session
    finally:
        session.close()
    session.assert_secure()  # the test passed: its pages kept to their policy


@pytest.fixture(scope="session")
def screenshot_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chosen = os.environ.get("PAPYRUS_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("papyrus-screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def shoot(screenshot_folder: Path) -> Callable[[Any, str], Path]:
    """``shoot(page, name)`` saves ``<folder>/<name>.png`` (the whole page) and returns it."""

    def take(page: Any, name: str) -> Path:
        path = screenshot_folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        _SHOTS.append(path)
        return path

    return take


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _SHOTS:
        folder = _SHOTS[0].parent
        terminalreporter.write_sep("-", f"web client screenshots ({len(_SHOTS)}): {folder}")
