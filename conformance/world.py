"""One scenario played through the application layer, deterministically (``generate.py``)."""

from __future__ import annotations

import contextlib
import hashlib
import random
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import eventsourcing.domain
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from conformance.scenarios import Scenario
from domain import table as tables
from domain.registry import rules_for
from service.app import numbering, play, seating
from service.app.application import Application
from service.app.bots.driver import BotDriver
from service.app.caller import Caller
from service.app.errors import PapyrusError
from service.app.now import FakeClock
from service.app.signing import Keyring
from service.store import GameTable
from service.store.database import open_store

#: the kit's signing key: derived from a public text, so that anyone can make it again. Test
#: material for third parties' signature checks (``keys.json``), never a server's key.
KIT_KEY = Ed25519PrivateKey.from_private_bytes(
    hashlib.sha256(b"papyrus conformance kit: a public test key, never a server's").digest()
)
KIT_KEYRING = Keyring(KIT_KEY)
#: 2026-01-01T00:00:00Z, when every scenario's clock starts
START_MS = 1_767_225_600_000
NAMES = ("Ann", "Bob", "Cleo", "Dan", "Eve")


class Derived:
    """Values derived from the scenario's name and a counter (never drawn)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.count = 0

    def digest(self, what: str) -> bytes:
        self.count += 1
        return hashlib.sha256(
            f"papyrus-conformance:{self.name}:{what}:{self.count}".encode()
        ).digest()

    def uuid4(self) -> uuid.UUID:
        return uuid.UUID(bytes=self.digest("id")[:16], version=4)

    def token_hex(self, nbytes: int = 32) -> str:
        return (self.digest("secret") * 2)[:nbytes].hex()

    def token_urlsafe(self, nbytes: int = 32) -> str:
        return self.token_hex(nbytes)


@contextlib.contextmanager
def fixed(name: str, clock: FakeClock) -> Iterator[None]:
    """Ids, secrets, command ids and entry times fixed for one scenario."""
    derived = Derived(name)

    def stamp() -> datetime:
        return datetime.fromtimestamp(clock.now_ms() / 1000, tz=UTC)

    patches: list[tuple[Any, str, Any]] = [
        (uuid, "uuid4", derived.uuid4),
        (eventsourcing.domain, "uuid4", derived.uuid4),
        (seating, "secrets", derived),
        (play, "command_id", derived.uuid4),
        (GameTable.Opened, "create_timestamp", staticmethod(stamp)),
        (GameTable.Recorded, "create_timestamp", staticmethod(stamp)),
    ]
    saved = [(owner, name, owner.__dict__.get(name)) for owner, name, _ in patches]
    for owner, name, value in patches:
        setattr(owner, name, value)
    try:
        yield
    finally:
        for owner, name, old in reversed(saved):
            if old is None:
                delattr(owner, name)
            else:
                setattr(owner, name, old)


class World:
    """An application on a fresh store, its fake clock, its players and a bot driver."""

    def __init__(self, scenario: Scenario, app: Application, clock: FakeClock) -> None:
        self.scenario = scenario
        self.app = app
        self.clock = clock
        self.driver = BotDriver(app.tables)
        self.rng = random.Random(f"papyrus-conformance:{scenario.name}")
        self.players = [app.accounts.register_player(n)[0] for n in NAMES[: scenario.seats]]
        self.acted = 0

    def table(self, game_id: str) -> tables.Table:
        return self.app.tables.get(game_id).table

    def new_game(self, kind: str, seats: int, options: dict[str, Any], humans: int) -> str:
        s = self.scenario
        game_id = str(self.app.seating.create_game(self.players[0], kind, seats, options, None).id)
        for seat in range(seats):
            if seat < humans:
                self.app.seating.join_game(self.players[seat], game_id, seat)
            else:
                self.app.seating.add_bot(self.players[0], game_id, seat, s.bot_levels[seat % 2])
        return game_id

    def holder(self, table: tables.Table, seat: int) -> Caller | None:
        held = table.holders[seat]
        if held is None or held.player_id is None:
            return None
        return next((p for p in self.players if p.player_id == held.player_id), None)

    def step(self, game_id: str) -> bool:
        """Bots play, then one person's action (after some thinking time); False at the end."""
        self.driver.settle(game_id)
        table = self.table(game_id)
        if table.status != tables.ACTIVE:
            return False
        rules = rules_for(table.kind)
        taken = table.clock.taken_over if table.clock is not None else []
        seats = [
            s
            for s in rules.active_seats(table.game)
            if s not in taken and self.holder(table, s) is not None
        ]
        if not seats:
            raise AssertionError(f"{self.scenario.name}: nobody can act")
        seat = self.rng.choice(seats)
        caller = self.holder(table, seat)
        assert caller is not None
        self.clock.advance(self.rng.randint(400, self.scenario.think_ms))
        action = self.rng.choice(rules.legal_actions(table.game, seat))
        self.app.play.act(caller, game_id, action, seat=seat)
        self.acted += 1
        return True

    def try_undo(self, game_id: str, consent: bool, accept: bool = True) -> bool:
        """The last person to act asks to take back their last action (answered by the
        others when it needs their consent); False when the policy refuses it now."""
        table = self.table(game_id)
        last = next((e for e in reversed(table.history) if e.by_seat is not None), None)
        if last is None:
            return False
        asker = self.holder(table, last.by_seat) if last.by_seat is not None else None
        if asker is None:
            return False
        target = None
        if consent:  # back past another seat's action: the one before the asker's last
            earlier = [e for e in table.history if e.action is not None and e.by_seat is not None]
            others = [e for e in earlier if e.by_seat != last.by_seat]
            if not others:
                return False
            target = numbering.timeline(
                self.app.tables, self.app.tables.get(game_id), asker
            ).number(others[-1].version - 1)
        try:
            game = self.app.undo.request_undo(asker, game_id, target)
        except PapyrusError:
            return False
        request = game.table.undo_request
        if request is None:
            return not consent
        for seat in request.waiting:
            other = self.holder(game.table, seat)
            if other is not None and other is not asker:
                self.app.undo.answer_undo(other, game_id, accept)
                if not accept:
                    break
        return True

    def time_out(self, game_id: str, over_ms: int) -> bool:
        """Nobody plays for ``over_ms``: the clock's expiry (the server's scheduler)."""
        self.clock.advance(over_ms)
        return bool(self.app.clocks.expire(game_id))

    def reclaim(self, game_id: str) -> bool:
        table = self.table(game_id)
        taken = table.clock.taken_over if table.clock is not None else []
        for seat in taken:
            caller = self.holder(table, seat)
            if caller is not None:
                self.clock.advance(1_000)
                self.app.clocks.reclaim(caller, game_id, seat)
                return True
        return False


def play_scenario(scenario: Scenario, scratch: Path) -> dict[str, Any]:
    """Play the scenario on a fresh store; its exported game."""
    clock = FakeClock(START_MS)
    store = open_store(f"sqlite:///{scratch / (scenario.name + '.sqlite')}")
    try:
        with fixed(scenario.name, clock):
            app = Application(store, clock=clock, keyring=KIT_KEYRING)
            world = World(scenario, app, clock)
            document = scenario.script(world)
    finally:
        store.close()
    return document  # a finished game this "server" played is signed by the kit's key
