"""What the HTTP benchmarks share: a GraphQL call and a server process on a free port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp
import httpx

ROOT = Path(__file__).resolve().parents[1]


async def gql(
    session: aiohttp.ClientSession, query: str, variables: dict[str, Any], token: str | None = None
) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with session.post(
        "/graphql", json={"query": query, "variables": variables}, headers=headers
    ) as response:
        body = await response.json()
    if body.get("errors"):
        raise RuntimeError(body["errors"])
    return body["data"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    database_url: str,
    *extra: str,
    cpus: set[int] | None = None,
    env: dict[str, str] | None = None,
    program: tuple[str, ...] = ("-m", "service.cli"),
    ready_seconds: float = 30,
) -> tuple[subprocess.Popen[bytes], str]:
    """``papyrus serve`` on a free loopback port, once it is ready; returns it and its URL.

    ``cpus`` pins the server to those CPUs (``sched_setaffinity``, like ``taskset``); ``env``
    adds environment variables (for example a profiler's); ``program`` is what the interpreter
    runs with ``serve ...`` (the command line by default, or a wrapper such as
    bench/server_profile.py).
    """
    port = free_port()

    def pin() -> None:
        if cpus:
            os.sched_setaffinity(0, cpus)

    process = subprocess.Popen(
        [
            sys.executable,
            *program,
            "serve",
            "--port",
            str(port),
            "--database-url",
            database_url,
            "--log-level",
            "warning",
            *extra,
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        preexec_fn=pin if cpus else None,
        env={**os.environ, **env} if env else None,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + ready_seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/readyz", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("server did not start")


async def register(client: aiohttp.ClientSession, name: str) -> str:
    data = await gql(
        client, "mutation($n: String!) { registerPlayer(name: $n) { token } }", {"n": name}
    )
    return str(data["registerPlayer"]["token"])


async def new_game(client: aiohttp.ClientSession, tokens: list[str]) -> str:
    """A 4-player Imhotep table with one seat per token; it starts when the last joins."""
    data = await gql(
        client,
        "mutation { createGame(input: {kind: IMHOTEP, seats: 4}) { id } }",
        {},
        tokens[0],
    )
    game_id = str(data["createGame"]["id"])
    for seat, token in enumerate(tokens):
        await gql(
            client,
            "mutation($g: ID!, $s: Int) { joinGame(gameId: $g, seat: $s) { id } }",
            {"g": game_id, "s": seat},
            token,
        )
    return game_id
