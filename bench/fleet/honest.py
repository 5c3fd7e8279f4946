"""Honest players: tables of humans, and humans against bots, played to the end and again, as
long as the soak lasts, through every replica in turn.

Each action carries an idempotency key and the version it was decided on; an answer with the
action's events is *acknowledged*: the soak's checks then look for its command in the stored log
(``checks``). Each table also has a watcher: a websocket subscriber on one replica, which
reconnects (to the next replica) when its socket drops and resumes after the last version it
got; it must see every version once, in order.

Measured: each ``act`` from its first send to its answer (resends included), and for tables
with bots, the bots' reply: from the human's acknowledged action to the first read that shows
the bots moved on.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from dataclasses import dataclass, field

from bench.fleet.client import DROPPED, Api, Refused, messages, socket

REGISTER = "mutation($n: String!) { registerPlayer(name: $n) { token player { id } } }"
CREATE = "mutation($i: CreateGameInput!) { createGame(input: $i) { id } }"
JOIN = "mutation($g: ID!, $s: Int) { joinGame(gameId: $g, seat: $s) { id } }"
ADD_BOT = (
    "mutation($g: ID!, $s: Int, $b: String) { addBot(gameId: $g, seat: $s, strategy: $b) { id } }"
)
READ = """query($g: ID!, $m: Int) {
  game(id: $g, minVersion: $m) { version status activeSeats mySeat legalActions } }"""
ACT = """mutation($g: ID!, $a: JSON!, $v: Int, $k: String) {
  act(gameId: $g, action: $a, expectedVersion: $v, idempotencyKey: $k) {
    game { version status } events { version } } }"""
STARTED = time.monotonic()
WATCH = """subscription($g: ID!, $v: Int) {
  gameChanged(gameId: $g, afterVersion: $v) { version status } }"""


@dataclass
class Played:
    """What the honest players did and saw."""

    acked: list[tuple[str, str]] = field(default_factory=list)
    """(game id, command) of every acknowledged action (``player_id:idempotency key``)."""
    act_ms: list[float] = field(default_factory=list)
    bot_reply_ms: list[float] = field(default_factory=list)
    games: set[str] = field(default_factory=set)
    finished: int = 0
    watched: int = 0
    stale_reads: int = 0
    """Reads that showed a player a game older than their own acknowledged action."""
    problems: list[str] = field(default_factory=list)


class Honest:
    """The honest players of the soak, their tables played until ``stop`` is set."""

    def __init__(self, api: Api, played: Played, rng: random.Random, stop: asyncio.Event) -> None:
        self.api = api
        self.played = played
        self.rng = rng
        self.stop = stop
        self.watched: dict[str, int] = {}  # the last version each game's watcher saw
        self.traces: dict[str, list[str]] = {}  # what each watcher did last

    def trace(self, game_id: str, what: str) -> None:
        kept = self.traces.setdefault(game_id, [])
        kept.append(f"{time.monotonic() - STARTED:.1f} {what}")
        del kept[:-6]

    async def player(self, name: str) -> tuple[str, str]:
        session = (await self.api.gql(REGISTER, {"n": name}))["registerPlayer"]
        return str(session["token"]), str(session["player"]["id"])

    async def table(self, kind: str, humans: int, bots: list[str]) -> None:
        """Tables of ``humans`` players and ``bots`` (their levels), one after another."""
        while not self.stop.is_set():
            try:
                await self._one_game(kind, humans, bots)
            except Refused as refused:  # counted in the tally; a table may still be refused
                self.played.problems.append(f"{kind} table: {refused.code} {refused}")
                await asyncio.sleep(1.0)

    async def _one_game(self, kind: str, humans: int, bots: list[str]) -> None:
        players = [await self.player(f"Honest {i}") for i in range(humans)]
        options = {"kind": kind, "seats": humans + len(bots)}
        game_id = str(
            (await self.api.gql(CREATE, {"i": options}, players[0][0]))["createGame"]["id"]
        )
        for seat, (token, _) in enumerate(players):
            await self.api.gql(JOIN, {"g": game_id, "s": seat}, token)
        for offset, level in enumerate(bots):
            await self.api.gql(
                ADD_BOT, {"g": game_id, "s": humans + offset, "b": level}, players[0][0]
            )
        self.played.games.add(game_id)
        watcher = asyncio.create_task(self.watch(game_id, players[0][0]))
        try:
            if await self._play(game_id, players, bool(bots)):  # over: its end is pushed
                done, _ = await asyncio.wait({watcher}, timeout=10)
                if not done:
                    over = (await self.api.gql(READ, {"g": game_id}, players[0][0]))["game"]
                    self.played.problems.append(
                        f"watcher of {game_id}: no end in 10 s (it saw version "
                        f"{self.watched.get(game_id)}, the game is {over['status']} at "
                        f"{over['version']}; last: {' | '.join(self.traces.get(game_id, []))})"
                    )
            if watcher.done() and not watcher.cancelled() and watcher.exception():
                self.played.problems.append(f"watcher of {game_id}: {watcher.exception()!r}")
        finally:
            watcher.cancel()
            await asyncio.gather(watcher, return_exceptions=True)

    async def _play(self, game_id: str, players: list[tuple[str, str]], bots: bool) -> bool:
        """Play until the game is over (``True``) or the soak ends."""
        acted_at: float | None = None
        last = 0
        known: dict[str, int] = {}  # each player's version after their last acknowledged act
        while not self.stop.is_set():
            mark = known.get(players[0][0])
            game = (await self.api.gql(READ, {"g": game_id, "m": mark}, players[0][0]))["game"]
            if await self._stale(game, known.get(players[0][0], 0)):
                continue
            if game["status"] in ("FINISHED", "ABANDONED"):
                self.played.finished += game["status"] == "FINISHED"
                return True
            if game["status"] != "ACTIVE":  # not yet started, on a replica behind the joins
                await asyncio.sleep(0.05)
                continue
            human = [s for s in game["activeSeats"] if s < len(players)]
            if acted_at is not None and game["version"] > last and human:
                self.played.bot_reply_ms.append((time.monotonic() - acted_at) * 1000)
                acted_at = None
            if not human:  # the bots' turn: they move in their own commands
                await asyncio.sleep(0.05)
                continue
            seat = self.rng.choice(human)
            token, player_id = players[seat]
            mine = (await self.api.gql(READ, {"g": game_id, "m": known.get(token)}, token))["game"]
            if await self._stale(mine, known.get(token, 0)) or not mine["legalActions"]:
                await asyncio.sleep(0.05)
                continue
            key = uuid.uuid4().hex
            started = time.monotonic()
            variables = {
                "g": game_id,
                "a": self.rng.choice(mine["legalActions"]),
                "v": mine["version"],
                "k": key,
            }
            try:
                result = (await self.api.gql(ACT, variables, token))["act"]
            except Refused as refused:
                if refused.code == "CONFLICT":  # a bot moved since the read: read again
                    continue
                raise
            self.played.act_ms.append((time.monotonic() - started) * 1000)
            self.played.acked.append((game_id, f"{player_id}:{key}"))
            last = known[token] = result["game"]["version"]
            if result["game"]["status"] in ("FINISHED", "ABANDONED"):  # the action ended it
                self.played.finished += result["game"]["status"] == "FINISHED"
                return True
            if bots:
                acted_at = time.monotonic()
        return False

    async def _stale(self, game: dict[str, object], known: int) -> bool:
        """A read older than the reader's own last action, although it passed that action's
        version as ``minVersion`` (replicas follow each other's writes through the store's
        feed, a few milliseconds behind; ``minVersion`` reads past that): counted (the soak
        fails on any), and read again a moment later."""
        if int(str(game["version"])) >= known:
            return False
        self.played.stale_reads += 1
        await asyncio.sleep(0.02)
        return True

    async def watch(self, game_id: str, token: str) -> None:
        """Follow the game on one replica after another: every version once, in order. The
        versions are the player's own numbering (another seat's private steps are not in it)
        until the game is over, when the whole log is public: the entry that ends it carries
        its number in the whole log (docs/API.md "Numbering"), the one jump allowed."""
        seen = 0
        jump = ""  # a jump in the versions, allowed if the game ends right after it
        while True:
            try:
                url = self.api.next_url().replace("http", "ws", 1) + "/graphql"
                self.trace(game_id, f"connect {url}")
                ws = await socket(url, self.api.address, token)
            except (*DROPPED, ConnectionError, TimeoutError) as failure:
                self.trace(game_id, f"not connected: {failure!r}")
                await asyncio.sleep(0.5)
                continue
            try:
                payload = {"query": WATCH, "variables": {"g": game_id, "v": seen}}
                await ws.send(json.dumps({"id": "w", "type": "subscribe", "payload": payload}))
                async for message in messages(ws):
                    if message.get("type") == "next":
                        change = ((message.get("payload") or {}).get("data") or {}).get(
                            "gameChanged"
                        )
                        if change is None:  # an error in a "next" (graphql-transport-ws)
                            errors = (message.get("payload") or {}).get("errors") or []
                            self.api.tally.note("watcher", errors, WATCH)
                            self.trace(game_id, f"errors {errors}")
                            await asyncio.sleep(1.0)
                            break
                        version = change["version"]
                        if version <= seen or (version != seen + 1 and jump):
                            self.played.problems.append(
                                f"watcher of {game_id}: version {version} after {seen}"
                            )
                        elif version != seen + 1:
                            jump = f"watcher of {game_id}: version {version} after {seen}"
                        if change["status"] != "ACTIVE":
                            jump = ""  # over: the jump was to the whole log's numbers
                        seen = self.watched[game_id] = max(seen, version)
                        self.trace(game_id, f"version {version}")
                        self.played.watched += 1
                    elif message.get("type") in ("complete", "error"):
                        if message.get("type") == "error":
                            self.api.tally.note("watcher", message.get("payload") or [], WATCH)
                            await asyncio.sleep(1.0)
                            break
                        return
            except DROPPED as failure:
                self.trace(game_id, f"dropped: {failure!r}")
                await asyncio.sleep(0.2)
            finally:
                await ws.close()
