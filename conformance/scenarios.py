"""The scenarios the kit's vectors are played from, and the edits that make its bad vectors."""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from conformance.forgeries import reseal
from domain.amun_re import data as amun_re
from domain.imhotep import data as imhotep
from domain.redaction import DELETED_PLAYER, UNSEALED

if TYPE_CHECKING:
    from conformance.world import World

MOVE_CLOCK = {"mode": "move", "moveMs": 60_000, "onExpiry": "takeover", "bot": "random"}
BANK_CLOCK = {"mode": "bank", "bankMs": 120_000, "incrementMs": 5_000, "onExpiry": "takeover"}


@dataclass(frozen=True)
class Scenario:
    name: str
    kind: str
    seats: int
    options: dict[str, Any]
    description: str
    humans: int | None = None
    """Seats held by people (the first ones); the others are bots. ``None``: every seat."""
    bot_levels: tuple[str, str] = ("random", "greedy")
    think_ms: int = 3_000
    undo: str | None = None
    """``own``: a seat takes back its own action at once; ``consent``: back past another
    seat's action, which the others accept; ``declined``: they refuse."""
    clock: dict[str, Any] | None = None
    timeout_at: int | None = None
    """After this many actions of people, nobody plays until the running seats' time runs out:
    a bot takes them over; ``reclaim_after`` actions later their player reclaims them."""
    reclaim_after: int = 6
    fork: str | None = None
    """``finished``: the vector is a fork of a finished game, played to its end;
    ``unfinished``: a fork of a running game (its seats' position re-dealt), played out."""
    transfer: str | None = None
    """``imported``: exported, imported by another player, exported again (the same document);
    ``redacted``: a player deleted their account after the game (their name erased)."""
    tags: tuple[str, ...] = field(default_factory=tuple)

    def covers(self) -> list[str]:
        found = [self.kind, f"seats:{self.seats}"]
        if self.kind == "imhotep":
            sides = self.options.get("sides", "A")
            for site in imhotep.SITES:
                found.append(f"site:{site}:{sides if isinstance(sides, str) else sides[site]}")
            if self.options.get("wrath_of_the_pharaoh"):
                found.append("option:wrath_of_the_pharaoh")
        else:
            modules = [m for m in amun_re.MODULES if self.options.get(m)]
            found.append("modules:" + ("+".join(modules) or "none"))
            found += [f"module:{m}" for m in modules]
            for variant in ("classic_bank_majority", "no_farmer_points"):
                if self.options.get(variant):
                    found.append(f"option:{variant}")
        if "start_player" in self.options:
            found.append("option:start_player")
        if self.humans is not None and self.humans < self.seats:
            found += sorted(
                {f"bot:{self.bot_levels[s % 2]}" for s in range(self.humans, self.seats)}
            )
        if self.undo:
            found.append(f"undo:{self.undo}")
        if self.clock:
            found.append(f"clock:{self.clock['mode']}")
        if self.timeout_at is not None:
            found += ["clock:take-over", "clock:reclaim"]
        if self.fork:
            found.append(f"fork:{self.fork}")
        if self.transfer:
            found.append(self.transfer)
        return found + list(self.tags)

    def script(self, world: World) -> dict[str, Any]:
        app = world.app
        options = dict(self.options)
        if self.clock is not None:
            options["clock"] = self.clock
        humans = self.seats if self.humans is None else self.humans
        game_id = world.new_game(self.kind, self.seats, options, humans)
        if self.fork == "finished":
            while world.step(game_id):
                pass
            game_id = fork_finished(world, game_id)
        done: set[str] = set()
        while world.step(game_id):
            n = world.acted
            if self.undo and "undo" not in done and n >= 8:
                consent = self.undo != "own"
                if world.try_undo(game_id, consent, accept=self.undo != "declined"):
                    done.add("undo")
            timeout = self.timeout_at
            if timeout is not None and "timeout" not in done and n >= timeout:
                if world.time_out(game_id, 3_600_000):
                    done.add("timeout")
                continue
            due = timeout is not None and n >= timeout + self.reclaim_after
            if due and "reclaim" not in done and world.reclaim(game_id):
                done.add("reclaim")
            if self.fork == "unfinished" and "fork" not in done and n >= 20:
                game_id = fork_running(world, game_id)
                done.add("fork")
        document = app.archive.export(game_id)
        if self.transfer == "imported":
            importer = app.accounts.register_player("Ivy")[0]
            copied = app.archive.export(str(app.archive.import_game(importer, document).id))
            original = {k: v for k, v in document.items() if k != "signature"}
            if copied != original:  # the same record, not signed by the importing server
                raise AssertionError(f"{self.name}: the imported copy exports differently")
            document = copied
        elif self.transfer == "redacted":
            app.accounts.delete_account(world.players[1])
            document = app.archive.export(game_id)
            if document["players"][1]["name"] != DELETED_PLAYER:
                raise AssertionError(f"{self.name}: nothing was redacted")
        elif self.transfer == "redacted-sealed":
            document = sealed_names_redacted(document)
        self.check_covered(document, done)
        return document

    def check_covered(self, document: dict[str, Any], done: set[str]) -> None:
        types = {e["type"] for e in document["events"]}
        wanted = {
            "undo": self.undo is not None,
            "timeout": self.timeout_at is not None,
            "reclaim": self.timeout_at is not None,
            "fork": self.fork == "unfinished",
        }
        missing = [w for w, needed in wanted.items() if needed and w not in done]
        if self.undo in ("own", "consent") and "actions_undone" not in types:
            missing.append("actions_undone")
        if missing:
            raise AssertionError(f"{self.name}: the scenario did not happen: {missing}")


def sealed_names_redacted(document: dict[str, Any]) -> dict[str, Any]:
    """The export of a log written before names were left out of the hashes (``unsealed``),
    after the second player deleted their account: the entry that named them is listed in
    ``redacted`` and keeps the hash its name was sealed under (``domain.redaction``)."""
    document = copy.deepcopy(document)
    for event in document["events"]:
        if event["type"] == "seat_taken":
            event["data"].pop(UNSEALED, None)
    reseal(document, 2)  # as the older server sealed them
    document.pop("signature", None)  # logs of that age were never signed
    erased = next(
        e for e in document["events"] if e["type"] == "seat_taken" and e["data"]["seat"] == 1
    )
    erased["data"]["name"] = DELETED_PLAYER
    document["players"][1]["name"] = DELETED_PLAYER
    document["redacted"] = [erased["version"]]
    return document


def fork_finished(world: World, game_id: str) -> str:
    """A fork of the finished game from the middle of it, every seat taken again."""
    from service.app.errors import BadInput

    app = world.app
    version = app.tables.get(game_id).version // 2
    while True:
        try:
            fork = app.forks.fork(world.players[0], game_id, version)
            break
        except BadInput:
            version -= 1
    for seat, player in enumerate(world.players):
        app.seating.join_game(player, str(fork.id), seat)
    return str(fork.id)


def fork_running(world: World, game_id: str) -> str:
    """The first player forks the running game where it is; the others join the fork."""
    from service.app import numbering

    app = world.app
    game = app.tables.get(game_id)
    number = numbering.timeline(app.tables, game, world.players[0]).number(game.version)
    fork = app.forks.fork(world.players[0], game_id, number)
    for seat, player in enumerate(world.players):
        if fork.table.holders[seat] is None:
            fork = app.seating.join_game(player, str(fork.id), seat)
    return str(fork.id)


def imhotep_scenarios() -> list[Scenario]:
    sites = imhotep.SITES
    found = [
        Scenario("imhotep-2p-sides-A", "imhotep", 2, {"sides": "A"}, "Every site on side A."),
        Scenario("imhotep-2p-sides-B", "imhotep", 2, {"sides": "B"}, "Every site on side B."),
        Scenario("imhotep-3p-sides-A", "imhotep", 3, {"sides": "A"}, "Three players, side A."),
        Scenario("imhotep-3p-sides-B", "imhotep", 3, {"sides": "B"}, "Three players, side B."),
        Scenario("imhotep-4p-sides-A", "imhotep", 4, {"sides": "A"}, "Four players, side A."),
        Scenario("imhotep-4p-sides-B", "imhotep", 4, {"sides": "B"}, "Four players, side B."),
    ]
    for site in sites:
        found.append(
            Scenario(
                f"imhotep-2p-{site.replace('_', '-')}-B",
                "imhotep",
                2,
                {"sides": {s: "B" if s == site else "A" for s in sites}},
                f"Only the {site} site on side B.",
            )
        )
    mixed = {s: "AB"[i % 2] for i, s in enumerate(sites)}
    found += [
        Scenario("imhotep-3p-mixed-sides", "imhotep", 3, {"sides": mixed}, "Sides A/B mixed."),
        Scenario(
            "imhotep-2p-wrath",
            "imhotep",
            2,
            {"sides": "B", "wrath_of_the_pharaoh": True, "start_player": 1},
            "The Wrath of the Pharaoh option, the second seat starting.",
        ),
        Scenario(
            "imhotep-4p-bots",
            "imhotep",
            4,
            {"sides": {s: "BA"[i % 2] for i, s in enumerate(sites)}},
            "One person against random and greedy bots.",
            humans=1,
        ),
        Scenario(
            "imhotep-2p-undo-own", "imhotep", 2, {}, "A seat takes back its own action.", undo="own"
        ),
        Scenario(
            "imhotep-3p-undo-consent",
            "imhotep",
            3,
            {},
            "An undo past other seats' actions, which they accept.",
            undo="consent",
        ),
        Scenario(
            "imhotep-2p-undo-declined",
            "imhotep",
            2,
            {"sides": "B"},
            "An undo asked for and declined.",
            undo="declined",
        ),
        Scenario(
            "imhotep-2p-clock-move-takeover",
            "imhotep",
            2,
            {},
            "A per-move deadline runs out: a bot takes the seat over, its player reclaims it.",
            clock=MOVE_CLOCK,
            timeout_at=10,
        ),
        Scenario(
            "imhotep-3p-clock-bank-takeover",
            "imhotep",
            3,
            {"sides": "B"},
            "A time bank runs out: a bot takes the seat over, its player reclaims it.",
            clock=BANK_CLOCK,
            timeout_at=15,
        ),
        Scenario(
            "imhotep-2p-clock-move", "imhotep", 2, {"sides": "B"}, "A timed game.", clock=MOVE_CLOCK
        ),
        Scenario(
            "imhotep-2p-fork-finished",
            "imhotep",
            2,
            {},
            "A fork of a finished game.",
            fork="finished",
        ),
        Scenario(
            "imhotep-3p-fork-running",
            "imhotep",
            3,
            {"sides": "B"},
            "A fork of a running game (fork_dealt), played out.",
            fork="unfinished",
        ),
        Scenario(
            "imhotep-2p-imported",
            "imhotep",
            2,
            {"sides": "B"},
            "Exported, imported, exported.",
            transfer="imported",
        ),
        Scenario(
            "imhotep-2p-redacted",
            "imhotep",
            2,
            {},
            "A player deleted their account.",
            transfer="redacted",
        ),
        Scenario(
            "imhotep-2p-redacted-sealed",
            "imhotep",
            2,
            {"sides": "B"},
            "A log older than unsealed names, exported after a player deleted their account: "
            "the entry that named them is listed in redacted.",
            transfer="redacted-sealed",
        ),
    ]
    return found


def amun_re_scenarios() -> list[Scenario]:
    found: list[Scenario] = []
    modules = amun_re.MODULES
    for size in range(len(modules) + 1):
        for chosen in itertools.combinations(modules, size):
            options = {m: True for m in chosen}
            name = "-".join(m.replace("_", "-") for m in chosen) or "base"
            seats = 3 + len(found) % 3
            found.append(
                Scenario(
                    f"amun-re-{seats}p-{name}",
                    "amun_re",
                    seats,
                    options,
                    f"Modules: {', '.join(chosen) or 'none'}.",
                )
            )
    everything = {m: True for m in modules}
    found += [
        Scenario(
            "amun-re-3p-variants",
            "amun_re",
            3,
            {"classic_bank_majority": True, "no_farmer_points": True, "start_player": 2},
            "The classic bank majority and no-farmer-points variants, the third seat starting.",
        ),
        Scenario("amun-re-3p-bots", "amun_re", 3, everything, "One person and two bots.", humans=1),
        Scenario(
            "amun-re-3p-undo-own", "amun_re", 3, {}, "A seat takes back its own action.", undo="own"
        ),
        Scenario(
            "amun-re-3p-undo-consent",
            "amun_re",
            3,
            {"pharaoh": True},
            "An undo past other seats' actions, which they accept.",
            undo="consent",
        ),
        Scenario(
            "amun-re-3p-clock-bank-takeover",
            "amun_re",
            3,
            {},
            "A time bank runs out: a bot takes the seat over, its player reclaims it.",
            clock=BANK_CLOCK,
            timeout_at=12,
        ),
        Scenario(
            "amun-re-4p-clock-move-takeover",
            "amun_re",
            4,
            {"afterlife": True},
            "A per-move deadline runs out: a bot takes the seat over, its player reclaims it.",
            clock=MOVE_CLOCK,
            timeout_at=20,
        ),
        Scenario(
            "amun-re-3p-fork-finished",
            "amun_re",
            3,
            {"statues": True},
            "A fork of a finished game.",
            fork="finished",
        ),
        Scenario(
            "amun-re-3p-fork-running",
            "amun_re",
            3,
            {"promo_favours": True},
            "A fork of a running game (fork_dealt), played out.",
            fork="unfinished",
        ),
        Scenario(
            "amun-re-3p-imported",
            "amun_re",
            3,
            everything,
            "Exported, imported, exported.",
            transfer="imported",
        ),
        Scenario(
            "amun-re-3p-redacted",
            "amun_re",
            3,
            {},
            "A player deleted their account.",
            transfer="redacted",
        ),
    ]
    return found


SCENARIOS = imhotep_scenarios() + amun_re_scenarios()
