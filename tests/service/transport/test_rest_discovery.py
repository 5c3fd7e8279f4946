"""REST discoverability (issue #23): ``/api/v1`` and ``/api/v1/`` answer an index of links that
work (no more 307 then 404), ``/`` advertises working links, and ``/api/v1/docs`` is a
reference page of every operation, rendered by this server from its OpenAPI document, that a
browser shows with nothing from another host and no Content-Security-Policy violation.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

import httpx

from tests.browser import chromium, distinct, watch_policy
from tests.client import Client
from tests.service.play import create_table, seated

METHODS = {"get", "post", "put", "patch", "delete"}


def test_the_rest_root_is_an_index_of_links_with_or_without_its_slash(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    with httpx.Client(base_url=sqlite_server.url, timeout=30, follow_redirects=False) as http:
        answers = [http.get("/api/v1"), http.get("/api/v1/")]
        assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
        assert all(a.headers["content-type"].startswith("application/json") for a in answers)
        assert answers[0].json() == answers[1].json()
        index = answers[0].json()
        assert http.head("/api/v1").status_code == 200
    assert {"self", "openapi", "docs", "games", "game", "act", "stream", "export"} <= set(
        index["links"]
    )
    assert index["links"]["stream"] == {
        "href": "/api/v1/games/{id}/stream",
        "method": "GET",
        "title": "The game's changes as Server-Sent Events.",
    }


def test_every_link_of_the_index_works(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """Each link is an operation of the OpenAPI document (or the index, the document, the
    page), and each GET link answers 200 for a player, its ``{id}`` a game, ``{kind}`` a
    game kind."""
    players = seated(sqlite_server.url, 2)
    game_id = create_table(players, "IMHOTEP")
    player = players[0]
    document = player.rest("GET", "/openapi.json").json()
    links = player.rest("GET", "/").json()["links"]
    own = {"/api/v1/", "/api/v1/openapi.json", "/api/v1/docs"}
    for name, link in links.items():
        href, method = link["href"], link["method"]
        assert href.startswith("/api/v1/"), (name, href)
        if href not in own:
            path = href.removeprefix("/api/v1")
            assert method.lower() in document["paths"].get(path, {}), (name, link)
        if method != "GET":
            continue
        url = href.replace("{id}", game_id).replace("{kind}", "imhotep")
        if name == "stream":  # a live stream: its headers are enough
            with player.http.stream("GET", url, headers=player.headers()) as stream:
                assert stream.status_code == 200
                assert stream.headers["content-type"].startswith("text/event-stream")
            continue
        answer = player.http.get(url, headers=player.headers(), follow_redirects=False)
        if name == "export":  # only a finished game is exported
            assert answer.status_code == 409 and answer.json()["code"] == "GAME_NOT_ACTIVE"
            continue
        assert answer.status_code == 200, (name, url, answer.text[:300])


def test_the_root_advertises_links_that_work(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    with httpx.Client(base_url=sqlite_server.url, timeout=30, follow_redirects=False) as http:
        root = http.get("/", headers={"Accept": "application/json"}).json()
        for key in ("rest", "openapi", "restDocs"):
            answer = http.get(root[key])
            assert answer.status_code == 200, (key, root[key], answer.status_code)
        assert http.get(root["rest"]).json()["links"]["self"]["href"] == "/api/v1/"
        assert http.get(root["restDocs"]).headers["content-type"].startswith("text/html")


def test_the_reference_page_is_served_offline_under_the_page_policy(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    client = Client(sqlite_server.url)
    page = client.http.get("/api/v1/docs")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert "default-src 'none'" in policy and "style-src 'self'" in policy
    assert "https://" not in page.text and "http://" not in page.text
    assert "<script" not in page.text and "style=" not in page.text
    css = client.http.get("/api/v1/docs/reference.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    # FastAPI's own CDN pages stay off
    assert client.http.get("/api/v1/redoc").status_code == 404


def test_the_reference_page_renders_every_operation_in_chromium(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """Headless Chromium: every operation of the served document is on the page with its
    method and path, styled by the page's own stylesheet; no console error, no request to
    another host, no policy violation."""
    document = httpx.get(f"{sqlite_server.url}/api/v1/openapi.json", timeout=30).json()
    expected = sorted(
        f"{method.upper()} /api/v1{path}"
        for path, item in document["paths"].items()
        for method in item
        if method in METHODS
    )
    origin = urlparse(sqlite_server.url).netloc
    with chromium() as browser:
        context = browser.new_context()
        try:
            violations = watch_policy(context)
            page = context.new_page()
            errors: list[str] = []
            requested: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("request", lambda r: requested.append(r.url))
            opened = page.goto(f"{sqlite_server.url}/api/v1/docs", wait_until="networkidle")
            assert opened is not None and opened.status == 200
            shown: list[Any] = page.eval_on_selector_all(
                "section.operation h3",
                "(nodes) => nodes.map((n) => n.textContent.replace(/\\s+/g, ' ').trim())",
            )
            assert sorted(shown) == expected
            colour = page.eval_on_selector(
                ".method.get", "(node) => getComputedStyle(node).backgroundColor"
            )
            assert colour == "rgb(27, 106, 201)", colour  # the stylesheet was applied
            assert page.locator("#schema-gamechange").count() == 1
            page.click("a[href='#op-gamestream']")
            assert page.evaluate("location.hash") == "#op-gamestream"
            assert errors == [], errors
            assert [u for u in requested if urlparse(u).netloc != origin] == []
            assert distinct(violations) == []
        finally:
            context.close()
