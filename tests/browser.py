"""Debian's Chromium for the browser tests, driven by Playwright for Python (its own browser
download cannot work here): one launcher for the web client's, GraphiQL's and CORS's tests, and
``watch_policy``, which records every Content-Security-Policy violation of a context's pages."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.conftest import IN_CI

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium, closed afterwards. Missing, the test is skipped, or fails in CI
    (``.ci/run`` installs the package)."""
    if not os.access(CHROMIUM, os.X_OK):
        message = f"{CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


#: every CSP violation of a page, reported to the test (``watch_policy``)
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.papyrusCspViolation({
    directive: event.violatedDirective,
    blocked: event.blockedURI,
    sample: event.sample,
    where: `${event.sourceFile}:${event.lineNumber}`,
  });
});
"""


def watch_policy(context: Any, into: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The Content-Security-Policy violations of ``context``'s pages, as they happen (the
    ``securitypolicyviolation`` events a page's document receives), appended to ``into``
    (a new list by default), which is returned."""
    violations: list[dict[str, Any]] = [] if into is None else into
    context.expose_binding(
        "papyrusCspViolation", lambda source, violation: violations.append(violation)
    )
    context.add_init_script(REPORT_VIOLATIONS)
    return violations


def distinct(violations: list[dict[str, Any]]) -> list[str]:
    """The violations once each, for a readable failure."""
    import json

    return sorted({json.dumps(v, sort_keys=True) for v in violations})
