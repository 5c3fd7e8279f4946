"""The server serves its web client (issue #16 "Served by papyrus serve"): ``/`` answers the
client's page to a browser and the API's index to an API client (content negotiation),
``/games/<id>`` the same page (routed in the browser), ``/app/...`` the static ES modules and
``/app/boards/<kind>.js`` each game's board module (its package's own, or the generic board); the
package ships every file of the client and every game's board; every answer carries its security
headers (issue #20).
"""

from __future__ import annotations

import asyncio
import fnmatch
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from domain import registry
from service.api.security_headers import CONSOLE_POLICY, OTHER_POLICY, PAGE_POLICY
from service.api.web import BOARD_PATH, GENERIC_BOARD, STATIC, board_modules
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
    for module in ("app.js", "api.js", "queries.js", "kinds.js", "style.css"):
        served = httpx.get(f"{web_server.url}/app/{module}")
        assert served.status_code == 200, module
        kind = "text/css" if module.endswith(".css") else "javascript"
        assert kind in served.headers["content-type"], module
    assert httpx.get(f"{web_server.url}/app/nothing-here.js").status_code == 404
    assert httpx.get(f"{web_server.url}/healthz").status_code == 200
    assert httpx.get(f"{web_server.url}/api/v1/games/nope").status_code == 404


def test_each_game_s_board_module_is_served_at_its_kind(web_server: Server) -> None:
    """``/app/boards/<kind>.js`` answers the file the game's package declares
    (``GameModule.web_board``) as JavaScript, beside the client's own modules (so its
    ``../svg.js`` is the client's); a kind no game has is a 404 problem."""
    for game in registry.games():
        assert game.web_board is not None, game.kind  # the shipped games bring their boards
        served = httpx.get(f"{web_server.url}/app/boards/{game.kind}.js")
        assert served.status_code == 200, game.kind
        assert served.headers["content-type"].startswith("text/javascript"), game.kind
        assert served.text == game.web_board.read_text(), game.kind
        assert 'from "../svg.js"' in served.text
    for kind in ("nope", "IMHOTEP", "generic"):
        missing = httpx.get(f"{web_server.url}/app/boards/{kind}.js")
        assert missing.status_code == 404, kind
        assert missing.headers["content-type"].startswith("application/problem+json"), kind


def test_a_game_without_a_board_of_its_own_gets_the_generic_one() -> None:
    """A game whose ``web_board`` is ``None`` is answered the generic board; the route stands
    before the ``/app`` mount, whose files (the generic board's stylesheet) stay served."""

    @dataclass(frozen=True)
    class Game:
        web_board: Path | None

    games = {"own": Game(STATIC / "svg.js"), "plain": Game(None)}
    app = Starlette(
        routes=[
            Route(BOARD_PATH, board_modules(lambda kind: games[kind])),
            Mount("/app", app=StaticFiles(directory=STATIC)),
        ]
    )
    paths = ("plain.js", "own.js", "other.js", "generic.css")
    plain, own, other, stylesheet = asgi_get(app, *(f"/app/boards/{path}" for path in paths))
    assert plain.status_code == 200
    assert plain.headers["content-type"].startswith("text/javascript")
    assert plain.text == GENERIC_BOARD.read_text()
    assert own.text == (STATIC / "svg.js").read_text()
    assert other.status_code == 404
    assert stylesheet.status_code == 200 and "generic-board" in stylesheet.text


def asgi_get(app: Starlette, *paths: str) -> list[httpx.Response]:
    """GET each path of ``app`` in process (on a thread of its own: no event loop of another
    test module's browser is in the way)."""

    async def get() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return [await client.get(path) for path in paths]

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, get()).result()


def package_data() -> dict[str, list[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return config["tool"]["setuptools"]["package-data"]  # type: ignore[no-any-return]


def test_the_package_ships_every_file_of_the_client() -> None:
    """pyproject.toml's package-data for ``service.api.web`` matches every static file, so an
    installed (non-editable) server serves the same client."""
    patterns = package_data()["service.api.web"]
    files = [p.relative_to(STATIC.parent).as_posix() for p in STATIC.rglob("*") if p.is_file()]
    assert files
    missing = [f for f in files if not any(fnmatch.fnmatch(f, p) for p in patterns)]
    assert missing == []


def test_the_package_ships_every_game_s_web_files() -> None:
    """Every file of a shipped game's ``web/`` folder (its board module, ``web_board``, among
    them) is package data of the game's package: an installed server serves every board."""
    data = package_data()
    checked = 0
    for game in registry.games():
        assert game.web_board is not None, game.kind
        if not game.web_board.is_relative_to(ROOT):
            continue  # a plug-in, shipped by its own distribution
        package = game.web_board.parent.parent  # domain/<game>: web/board.js
        name = package.relative_to(ROOT).as_posix().replace("/", ".")
        patterns = data.get("*", []) + data.get(name, [])
        for path in sorted(game.web_board.parent.rglob("*")):
            if path.is_file():
                where = path.relative_to(package).as_posix()
                assert any(fnmatch.fnmatch(where, p) for p in patterns), f"{name}: {where}"
                checked += 1
    assert checked >= 2


# -- security headers (issue #20) -----------------------------------------------------------------


def directives(policy: str) -> dict[str, str]:
    return {
        name: value
        for name, _, value in (part.strip().partition(" ") for part in policy.split(";"))
    }


def test_every_answer_carries_the_security_headers(web_server: Server) -> None:
    """Pages (the lobby, a game's page, GraphiQL) get a Content-Security-Policy without inline
    scripts, no framing and no referrer; every other answer (JSON, problems, modules) gets
    nosniff and a policy under which nothing runs if it is opened as a page."""
    url = web_server.url
    pages = {
        "/": PAGE_POLICY,
        "/games/some-game?v=2": PAGE_POLICY,
        "/graphql": CONSOLE_POLICY,
    }
    for path, policy in pages.items():
        answer = httpx.get(f"{url}{path}", headers={"Accept": BROWSER})
        assert answer.headers["content-type"].startswith("text/html"), path
        assert answer.headers["content-security-policy"] == policy, path
        assert directives(policy)["script-src"] == "'self'"
        assert directives(policy)["frame-ancestors"] == "'none'"
        assert answer.headers["x-frame-options"] == "DENY", path
        assert answer.headers["x-content-type-options"] == "nosniff", path
        assert answer.headers["referrer-policy"] == "no-referrer", path
    others = [
        httpx.get(f"{url}/", headers={"Accept": "application/json"}),
        httpx.post(f"{url}/graphql", json={"query": "{ __typename }"}),
        httpx.post(f"{url}/graphql", json={"query": "{ nope }"}),
        httpx.get(f"{url}/api/v1/games"),
        httpx.get(f"{url}/api/v1/games/nope"),
        httpx.get(f"{url}/app/app.js"),
        httpx.get(f"{url}/graphql/page/console.js"),
        httpx.get(f"{url}/healthz"),
        httpx.get(f"{url}/nowhere"),
    ]
    for answer in others:
        where = f"{answer.request.method} {answer.request.url.path} {answer.status_code}"
        assert answer.headers["x-content-type-options"] == "nosniff", where
        assert answer.headers["referrer-policy"] == "no-referrer", where
        assert answer.headers["content-security-policy"] == OTHER_POLICY, where


def test_a_script_injected_into_a_page_does_not_run(web: Any) -> None:
    """What the policy is for: the token sits in localStorage, so a script that got into a
    page (a name rendered as HTML, say) must not run. Inline scripts and inline handlers are
    refused (and reported), and no other site may frame the page."""
    page = web.open("/")
    page.get_by_test_id("whoami").wait_for()
    ran = page.evaluate(
        """() => {
          const inline = document.createElement("script");
          inline.textContent = "window.injected = 'script'";
          document.body.append(inline);
          const handler = document.createElement("div");
          handler.innerHTML = '<img src="data:," onload="window.injected = \\'handler\\'">';
          document.body.append(handler);
          return new Promise((done) => setTimeout(() => done(window.injected || null), 500));
        }"""
    )
    assert ran is None
    refused = {v["directive"] for v in web.violations}
    assert {"script-src-elem", "script-src-attr"} <= refused, web.violations
    web.violations.clear()  # these were the point of the test

    framing = web.context().new_page()
    framing.set_content(f'<iframe src="{web.server.url}/" width="300" height="200"></iframe>')
    framing.wait_for_timeout(1000)
    framed = [f for f in framing.frames if f != framing.main_frame]
    assert framed and not framed[0].url.startswith(web.server.url), framed[0].url
    web.violations.clear()
