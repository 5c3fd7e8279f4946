"""Debian's Chromium for the browser tests, driven by Playwright for Python (its own browser
download cannot work here): one launcher for the web client's, GraphiQL's and CORS's tests."""

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
