"""The browser fixtures of the web client's tests, for the plug-in's own web test."""

from tests.web.conftest import browser, screenshot_folder, shoot

__all__ = ["browser", "screenshot_folder", "shoot"]
