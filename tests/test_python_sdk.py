"""The Python SDK (clients/python: ``PapyrusClient``, ``AsyncPapyrusClient``; docs/clients.md
"Python SDK") against a live server, over real HTTP and real websockets:

* the blocking and the asyncio client each play a whole game on ``gameChanged`` alone, sending
  typed actions, with no poll (the game is read once before and once after: never while
  waiting) and one websocket; the export passes ``papyrus verify``;
* the typed form the SDK derives from the server's ``actionCatalog`` is exactly what
  ``act(typedAction:)`` takes, for every action listed in random games of every kind;
* a dropped websocket (cut between client and server, as a proxy or the network would) is
  opened again and every subscription resumed from the last version it delivered: the pushes are
  exactly those of a subscriber that never dropped, nothing missed, nothing twice, and the player
  behind the cut socket finishes its game; a server stopped and started again on the same
  database likewise;
* the server's errors raise the subclass of their stable code, over HTTP and on the websocket;
* the example of docs/clients.md "Python SDK" runs as written;
* ``pip install ./clients/python`` into a fresh virtual environment gives an importable package
  that plays a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import shutil
import socket
import subprocess
import sys
import sysconfig
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from domain.registry import kinds
from service.api.graphql.actioninput import typed_of
from service.cli import main as papyrus
from tests.conftest import IN_CI, Server
from tests.test_action_catalog import played as listed_actions

CLIENTS = Path(__file__).resolve().parent.parent / "clients" / "python"
sys.path.insert(0, str(CLIENTS))

import papyrus_client as sdk  # noqa: E402
from example_bot import ExampleBot, Played  # noqa: E402

GAME_ID = sdk.document_id(sdk.GAME)


class Requests:
    """The GraphQL documents a client posts, by name (an httpx request hook)."""

    def __init__(self, client: sdk.PapyrusClient | sdk.AsyncPapyrusClient) -> None:
        self.sent: list[str] = []
        names = {sdk.document_id(text): name for name, text in sdk.DOCUMENTS.items()}
        names.update({text: name for name, text in sdk.DOCUMENTS.items()})

        def record(request: httpx.Request) -> None:
            body = json.loads(request.content)
            self.sent.append(names.get(body.get("documentId") or body.get("query"), "other"))

        async def record_async(request: httpx.Request) -> None:
            record(request)

        hook = record_async if isinstance(client, sdk.AsyncPapyrusClient) else record
        client.http.event_hooks["request"] = [hook]


def verified(document: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """``papyrus verify`` of an exported game: its output (the exit code must be 0)."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    code = papyrus(["verify", str(path)])
    out = capsys.readouterr()
    assert code == 0, out.out + out.err
    return out.out.strip()


# -- whole games on the pushes ----------------------------------------------------------------


def test_the_blocking_client_plays_a_whole_game_on_game_changed_with_no_poll(
    sqlite_server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Amun-Re, 3 seats: the example bot (typed actions) against two server bots. It reads the
    game once before and once after; in between only ``act`` and ``actionCatalog`` (once) go
    over HTTP, the rest comes pushed on one websocket. Its export verifies offline."""
    with sdk.PapyrusClient(sqlite_server.url) as client:
        client.register("Ana")
        game = client.create_game("AMUN_RE", 3)
        client.join(game.id)
        client.add_bot(game.id)
        client.add_bot(game.id)
        recorded = Requests(client)
        played = ExampleBot(client, seed=5).play(game.id)
        assert played.game.status == "FINISHED" and played.actions > 10
        assert played.pushes > played.actions
        assert recorded.sent.count("game") == 2  # before and after: never while waiting
        assert recorded.sent.count("actionCatalog") == 1
        assert set(recorded.sent) == {"game", "actionCatalog", "actTyped"}
        assert client.connections == 1
        assert "ok:" in verified(client.export(game.id), tmp_path, capsys)


async def play_async(client: sdk.AsyncPapyrusClient, game_id: str, seed: int) -> Played:
    """What ``ExampleBot.play`` does, on the asyncio client: one read, then the pushes."""
    choose = random.Random(seed)
    game = await client.game(game_id)
    played = Played(game)
    current: sdk.Game | sdk.GameChange = game
    acted_through = 0
    changes = client.changes(game_id, game.version)
    try:
        while not current.over:
            if current.legal_actions and current.version >= acted_through:
                action = choose.choice(current.legal_actions)
                typed = await client.typed_action(game.kind, action)
                try:
                    result = await client.act(
                        game_id, typed=typed, expected_version=current.version
                    )
                except (sdk.Conflict, sdk.NotYourTurn, sdk.GameNotActive):
                    played.conflicts += 1
                else:
                    played.actions += 1
                    acted_through = result.game.version
            try:
                current = await anext(changes)
            except StopAsyncIteration:
                break
            played.pushes += 1
    finally:
        await changes.aclose()
    played.game = await client.game(game_id)
    return played


def test_two_asyncio_clients_play_a_whole_game_on_game_changed_with_no_poll(
    server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Imhotep, 2 players, each an ``AsyncPapyrusClient`` in one event loop, on SQLite and on
    PostgreSQL: typed actions only, the game read twice per player, one websocket each; both
    see the same result, and the export verifies."""

    async def scenario() -> tuple[list[Played], dict[str, Any]]:
        async with (
            sdk.AsyncPapyrusClient(server.url) as ana,
            sdk.AsyncPapyrusClient(server.url) as ben,
        ):
            await ana.register("Ana")
            await ben.register("Ben")
            game = await ana.create_game("IMHOTEP", 2)
            await ana.join(game.id)
            started = await ben.join(game.id)
            assert started.status == "ACTIVE"
            records = [Requests(ana), Requests(ben)]
            both = await asyncio.wait_for(
                asyncio.gather(play_async(ana, game.id, 1), play_async(ben, game.id, 2)), 240
            )
            for record in records:
                assert record.sent.count("game") == 2
                assert set(record.sent) <= {"game", "actionCatalog", "actTyped"}
            assert ana.connections == 1 and ben.connections == 1
            return list(both), await ben.export(game.id)

    both, document = asyncio.run(scenario())
    assert [p.game.status for p in both] == ["FINISHED", "FINISHED"]
    assert both[0].game.result == both[1].game.result and both[0].game.result is not None
    assert all(p.actions > 0 for p in both)
    assert "ok:" in verified(document, tmp_path, capsys)


def test_several_subscriptions_share_one_websocket(sqlite_server: Server) -> None:
    """``changes`` of two games, ``lobby_changes`` and ``wait_for_change`` run on the client's one
    websocket, at the same time: each gets its own pushes."""
    with sdk.PapyrusClient(sqlite_server.url) as ana, sdk.PapyrusClient(sqlite_server.url) as ben:
        ana.register("Ana")
        ben.register("Ben")
        lobby = ana.lobby_changes("IMHOTEP", timeout=2)
        for _ in range(10):  # the server starts it a moment after it is sent: until it runs
            ana.create_game("IMHOTEP", 2)
            with contextlib.suppress(TimeoutError):
                next(lobby)
                break
        lobby.timeout = 30
        first = ana.create_game("IMHOTEP", 2)
        second = ana.create_game("IMHOTEP", 2)
        seen: set[str] = set()
        while not {first.id, second.id} <= seen:
            seen.add(next(lobby).game_id)
        assert {t.game_id for t in ana.lobby("IMHOTEP")} >= {first.id, second.id}
        with (
            ana.changes(first.id, 0, timeout=30) as one,
            ana.changes(second.id, 0, timeout=30) as two,
        ):
            for game in (first, second):
                ana.join(game.id)
                ben.join(game.id)
            assert next(one).event.type and next(two).event.type
            ana.wait_for_change(first.id, 0, timeout=30)
        started: set[str] = set()  # the lobby pushed the tables as they started
        while started != {first.id, second.id}:
            table = next(lobby)
            if table.status == "ACTIVE":
                started.add(table.game_id)
        lobby.close()
        assert ana.connections == 1


# -- typed actions ----------------------------------------------------------------------------


@pytest.mark.parametrize("kind", kinds())
def test_the_typed_form_is_what_act_takes_for_every_listed_action(
    sqlite_server: Server, kind: str
) -> None:
    """Every distinct action ``legalActions`` lists in random games of the kind (every table
    option): the SDK's typed form, derived from ``actionCatalog`` as the server answers it, is
    exactly the server's own (``typed_of``), read once per kind."""
    with sdk.PapyrusClient(sqlite_server.url) as client:
        recorded = Requests(client)
        compared = 0
        for listed in listed_actions(kind).values():
            for action in listed:
                assert client.typed_action(kind.upper(), action) == typed_of(kind, action)
                compared += 1
        assert compared > 20
        assert recorded.sent == ["actionCatalog"]
        with pytest.raises(sdk.BadInput):
            client.typed_action(kind.upper(), {"type": "no_such_action"})


# -- a dropped websocket ----------------------------------------------------------------------


class Relay:
    """A TCP relay in front of a server that can cut its websocket connections (as a proxy
    restarting or a network dropping would); plain HTTP requests pass untouched. ``upstream``
    (the server's port) may change: the next connections go there."""

    def __init__(self, upstream_port: int) -> None:
        self.upstream = upstream_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.websockets: list[tuple[socket.socket, socket.socket]] = []
        self.lock = threading.Lock()
        self.cuts = 0
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.open, args=(client,), daemon=True).start()

    def open(self, client: socket.socket) -> None:
        try:
            server = socket.create_connection(("127.0.0.1", self.upstream))
        except OSError:  # the server is down: so is this connection
            client.close()
            return
        first = client.recv(65536)
        if b"upgrade: websocket" in first.lower():
            with self.lock:
                self.websockets.append((client, server))
        server.sendall(first)
        threading.Thread(target=self.pipe, args=(server, client), daemon=True).start()
        self.pipe(client, server)

    @staticmethod
    def pipe(source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        for end in (source, target):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        """Drops every websocket connection now (no close frame: the TCP connection is gone)."""
        with self.lock:
            cut, self.websockets = self.websockets, []
            self.cuts += 1
        for pair in cut:
            for end in pair:
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
                end.close()

    def close(self) -> None:
        self.listener.close()
        self.cut()


@pytest.fixture
def relay(sqlite_server: Server) -> Iterator[Relay]:
    running = Relay(sqlite_server.port)
    yield running
    running.close()


def test_a_dropped_websocket_is_resumed_with_nothing_missed_or_twice(
    sqlite_server: Server, relay: Relay
) -> None:
    """Imhotep, 2 players: Ana plays through the relay, Ben directly; Cleo watches through the
    relay and Dan directly, both from the first event. The relay cuts every websocket at Cleo's
    5th and 20th push: Cleo's pushes are exactly Dan's (version, event and state), Ana's bot
    finishes the game on resumed pushes, and both relayed clients connected again."""
    ana, cleo = sdk.PapyrusClient(relay.url), sdk.PapyrusClient(relay.url)
    ben, dan = sdk.PapyrusClient(sqlite_server.url), sdk.PapyrusClient(sqlite_server.url)
    try:
        for client, name in ((ana, "Ana"), (ben, "Ben"), (cleo, "Cleo"), (dan, "Dan")):
            client.register(name)
        game = ana.create_game("IMHOTEP", 2, seed="sdk-relay")
        watched: dict[str, list[sdk.GameChange]] = {"cleo": [], "dan": []}
        watchers = [
            cleo.changes(game.id, 0, timeout=120),
            dan.changes(game.id, 0, timeout=120),
        ]
        ana.join(game.id)
        ben.join(game.id)

        def watch(name: str, pushes: sdk.Pushes[sdk.GameChange]) -> None:
            for change in pushes:
                watched[name].append(change)
                if name == "cleo" and len(watched[name]) in (5, 20):
                    relay.cut()

        results: dict[str, Any] = {}

        def play(name: str, client: sdk.PapyrusClient, seed: int) -> None:
            try:
                results[name] = ExampleBot(client, seed=seed, wait_timeout=120).play(game.id)
            except BaseException as failure:
                results[name] = failure

        threads = [
            threading.Thread(target=watch, args=("cleo", watchers[0]), daemon=True),
            threading.Thread(target=watch, args=("dan", watchers[1]), daemon=True),
            threading.Thread(target=play, args=("ana", ana, 1), daemon=True),
            threading.Thread(target=play, args=("ben", ben, 2), daemon=True),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=300)
        for name in ("ana", "ben"):
            assert isinstance(results[name], Played), results[name]
            assert results[name].game.status == "FINISHED"
        assert relay.cuts == 2
        assert len(watched["dan"]) > 20 and watched["dan"][-1].over
        seen = [(c.version, c.event, c.state, c.status) for c in watched["cleo"]]
        assert seen == [(c.version, c.event, c.state, c.status) for c in watched["dan"]]
        assert cleo.connections == 3 and dan.connections == 1
        assert ana.connections >= 2
    finally:
        for client in (ana, ben, cleo, dan):
            client.close()


def play_moves(players: dict[int, sdk.PapyrusClient], game_id: str, moves: int) -> None:
    """``moves`` actions of a game without bots, each by the seat that must act (its first legal
    action)."""
    for _ in range(moves):
        game = players[0].game(game_id)
        actor = players[game.active_seats[0]]
        mine = actor.game(game_id)
        actor.act(game_id, mine.legal_actions[0], expected_version=mine.version)


def test_a_server_restart_is_resumed_on_the_new_process(sqlite_url: str) -> None:
    """The server behind the relay stops (its websockets closed) and another process starts on
    the same database: a subscriber through the relay connects again (refused while nothing
    listens) and resumes from the last version it had, so it gets every event once, in order,
    those played on the first process and those played on the second."""
    relay = Relay(0)
    cleo = sdk.PapyrusClient(relay.url)
    try:
        with Server(sqlite_url) as first:
            relay.upstream = first.port
            players = {0: sdk.PapyrusClient(first.url), 1: sdk.PapyrusClient(first.url)}
            try:
                cleo.register("Cleo")
                for seat, client in players.items():
                    client.register(f"P{seat}")
                game = players[0].create_game("IMHOTEP", 2, seed="sdk-restart")
                pushes = cleo.changes(game.id, 0, timeout=60)
                for seat, client in players.items():
                    client.join(game.id, seat)
                play_moves(players, game.id, 6)
                before = players[0].game(game.id).version
                seen = [next(pushes) for _ in range(before)]  # all of the first process
                tokens = {seat: client.token for seat, client in players.items()}
            finally:
                for client in players.values():
                    client.close()
        with Server(sqlite_url) as second:
            relay.upstream = second.port
            players = {seat: sdk.PapyrusClient(second.url, token) for seat, token in tokens.items()}
            try:
                play_moves(players, game.id, 6)
                after = players[0].game(game.id).version
                seen += [next(pushes) for _ in range(after - before)]
                logged = players[0].events(game.id)
            finally:
                for client in players.values():
                    client.close()
            pushes.close()
        assert after > before > 6
        assert [c.version for c in seen] == list(range(1, after + 1))
        assert [c.event for c in seen] == logged  # a player's log: the same public events
        assert cleo.connections == 2
    finally:
        cleo.close()
        relay.close()


# -- errors -----------------------------------------------------------------------------------


def test_errors_raise_with_their_code(sqlite_server: Server) -> None:
    """Each refusal raises the subclass of its stable code, ``code`` set (and ``rule`` for an
    illegal action); a websocket refused for a bad token fails its subscription likewise."""
    with sdk.PapyrusClient(sqlite_server.url) as erin:
        erin.register("Erin")
        with pytest.raises(sdk.NotFound) as missing:
            erin.game("00000000-0000-4000-8000-000000000000")
        assert missing.value.code == sdk.ErrorCode.NOT_FOUND == "NOT_FOUND"
        with pytest.raises(sdk.BadInput) as bad:
            erin.create_game("IMHOTEP", 9)
        assert bad.value.code == "BAD_INPUT" and isinstance(bad.value, sdk.PapyrusError)
        game = erin.create_game("IMHOTEP", 2)
        erin.join(game.id)
        with pytest.raises(sdk.GameNotActive):
            erin.act(game.id, {"type": "get_stones"})
        erin.add_bot(game.id)
        with erin.changes(game.id, 0, timeout=60) as pushes:
            current: sdk.Game | sdk.GameChange = erin.game(game.id)
            while not current.legal_actions:
                current = next(pushes)
        with pytest.raises(sdk.Conflict) as stale:
            erin.act(game.id, current.legal_actions[0], expected_version=current.version - 1)
        assert stale.value.code == "CONFLICT"
        with pytest.raises(sdk.IllegalAction) as illegal:
            erin.act(game.id, {"type": "place_stone", "ship": 0, "slot": 99})
        assert illegal.value.code == "ILLEGAL_ACTION" and illegal.value.message
        with pytest.raises(sdk.BadInput):
            erin.act(game.id)  # neither action nor typed: refused before sending
    with sdk.PapyrusClient(sqlite_server.url, token="not-a-token") as stranger:
        with pytest.raises(sdk.Unauthenticated) as refused:
            stranger.game(game.id)
        assert refused.value.code == "UNAUTHENTICATED"
        with pytest.raises(sdk.Unauthenticated), stranger.changes(game.id, 0, timeout=30) as p:
            next(p)


def test_the_documented_example_plays_a_whole_game(
    sqlite_server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    """The example of docs/clients.md "Python SDK" (and of the package's README), run as it is
    written against a live server: it plays until the game is over and prints the result."""
    docs = Path(__file__).resolve().parent.parent / "docs" / "clients.md"
    found = re.search(r"## Python SDK.*?```python\n(.*?)```", docs.read_text(), re.S)
    assert found is not None
    code = found.group(1)
    assert code in (CLIENTS / "README.md").read_text()
    exec(compile(code.replace("http://127.0.0.1:8000", sqlite_server.url), "example", "exec"), {})
    assert capsys.readouterr().out.startswith("Result(scores=")


# -- the package ------------------------------------------------------------------------------


def test_pip_installs_the_sdk_into_a_fresh_environment(
    sqlite_server: Server, tmp_path: Path
) -> None:
    """``pip install ./clients/python`` (from a copy: a build writes into its source folder):
    the fresh environment imports ``papyrus_client`` and ``example_bot`` from its own
    site-packages, the package requires only httpx and websockets (taken here from this
    environment), and its example bot plays a whole game."""
    source = tmp_path / "python"
    shutil.copytree(CLIENTS, source, ignore=shutil.ignore_patterns("__pycache__", "build"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # the dependencies from this environment (no download of them)
    (Path(site) / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    installed = subprocess.run(
        [python, "-m", "pip", "install", "-q", "--no-deps", str(source)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    said = installed.stdout + installed.stderr
    if installed.returncode and "No matching distribution found for setuptools" in said:
        # the build backend comes from the package index (PyPI in CI, where this fails instead)
        if IN_CI:
            pytest.fail(said)
        pytest.skip(f"pip cannot reach a package index for the build backend: {said[-300:]}")
    assert installed.returncode == 0, said
    shown = subprocess.run(
        [python, "-m", "pip", "show", "papyrus-client"], capture_output=True, text=True
    ).stdout
    assert "Requires: httpx, websockets" in shown
    played = subprocess.run(
        [python, "-c", "import papyrus_client, example_bot; print(papyrus_client.__file__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert played.stdout.strip().startswith(site)
    bot = subprocess.run(
        [venv / "bin" / "papyrus-example-bot", sqlite_server.url, "--bots", "1"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert bot.returncode == 0, bot.stdout + bot.stderr
    assert "finished after" in bot.stdout and "no polls" in bot.stdout
