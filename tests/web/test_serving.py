"""The server serves its web client (issue #16 "Served by papyrus serve"): ``/`` answers the
client's page to a browser and the API's index to an API client (content negotiation),
``/games/<id>`` the same page (routed in the browser), ``/app/...`` the static ES modules; the
package ships every file of the client.
"""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import httpx

from service.api.web import STATIC
from tests.conftest import Server

ROOT = Path(__file__).resolve().parents[2]
BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def test_the_root_answers_html_to_a_browser_and_json_to_an_api_client(web_server: Server) -> None:
    """``GET /`` with a browser's Accept header: the page (``index.html``, which loads
    ``/app/app.js`` as a module); with no Accept or ``application/json``: the JSON index."""
    page = httpx.get(f"{web_server.url}/", headers={"Accept": BROWSER})
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/app/app.js">' in page.text
    for accept in ("*/*", "application/json"):
        index = httpx.get(f"{web_server.url}/", headers={"Accept": accept})
        assert index.status_code == 200
        assert index.json()["graphql"] == "/graphql"


def test_a_game_link_and_the_modules_are_served(web_server: Server) -> None:
    """``/games/<id>`` (with or without ``?v=``) is the same page; ``/app/*.js`` are served as
    JavaScript; a missing file is a 404; the API's own paths are untouched."""
    for path in ("/games/some-game", "/games/some-game?v=3"):
        page = httpx.get(f"{web_server.url}{path}", headers={"Accept": BROWSER})
        assert page.status_code == 200 and "/app/app.js" in page.text
    for module in ("app.js", "api.js", "queries.js", "boards/imhotep.js", "style.css"):
        served = httpx.get(f"{web_server.url}/app/{module}")
        assert served.status_code == 200, module
        kind = "text/css" if module.endswith(".css") else "javascript"
        assert kind in served.headers["content-type"], module
    assert httpx.get(f"{web_server.url}/app/nothing-here.js").status_code == 404
    assert httpx.get(f"{web_server.url}/healthz").status_code == 200
    assert httpx.get(f"{web_server.url}/api/v1/games/nope").status_code == 404


def test_the_package_ships_every_file_of_the_client() -> None:
    """pyproject.toml's package-data for ``service.api.web`` matches every static file, so an
    installed (non-editable) server serves the same client."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["service.api.web"]
    files = [p.relative_to(STATIC.parent).as_posix() for p in STATIC.rglob("*") if p.is_file()]
    assert files
    missing = [f for f in files if not any(fnmatch.fnmatch(f, p) for p in patterns)]
    assert missing == []
