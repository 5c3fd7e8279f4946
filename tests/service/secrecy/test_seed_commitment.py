"""Seed commitments that cannot be brute-forced, and chosen seeds that make a table unranked.

The commitment published at creation (``Game.seedCommitment``) is ``SHA-256(salt || seed)``
with 32 bytes of secret salt the server draws (``domain/randomness.py``); the salt is hidden
like the seed while the game runs and revealed with it at the end, and it salts the hash chain
too (``domain/log.py``). A seed the creator chose (``createGame(input: {seed})``) makes the
table unranked, like a fork or an imported copy: ``Game.ranked`` / ``Game.unrankedReason``,
and it counts in no rating, profile or statistic.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import string
import uuid
from typing import Any

from domain import audit
from domain.log import GENESIS, Entry, entry_hash
from domain.registry import rules_for
from service.app.application import Application
from service.store.database import open_store
from tests.client import Client, register, subscribe, wait_game

GAME = (
    "id status version seed seedSalt seedCommitment ranked unrankedReason "
    "seats { seat player { id } } "
    "events(first: 200) { nodes { version at seat type data automatic bySeat hash } }"
)
CREATE = "mutation($i: CreateGameInput!) { createGame(input: $i) { id ranked unrankedReason } }"
JOIN = "mutation($g: ID!, $s: Int) { joinGame(gameId: $g, seat: $s) { status } }"
BOT = "mutation($g: ID!, $s: Int) { addBot(gameId: $g, seat: $s) { status } }"
COUNTS = (
    "query($p: ID!, $q: ID!) { a: player(id: $p) { gamesPlayed } b: player(id: $q) { gamesPlayed }"
    " leaderboard(kind: IMHOTEP, first: 10) { nodes { playerId games } }"
    " statistics(kind: IMHOTEP) { games } }"
)
#: an attacker's best guesses besides every number below 10,000
GUESSES = ["4711", "0815", "1234", "42", "seed", "test", "secret", "papyrus", "imhotep", ""]


def open_game(players: list[Client], bots: int, seed: str | None) -> str:
    """An Imhotep table: ``players`` take the first seats, bots the rest; it starts at once."""
    creator = players[0]
    created = creator.gql(
        CREATE, {"i": {"kind": "IMHOTEP", "seats": len(players) + bots, "seed": seed}}
    )["createGame"]
    for seat, player in enumerate(players):
        player.gql(JOIN, {"g": created["id"], "s": seat})
    for seat in range(len(players), len(players) + bots):
        creator.gql(BOT, {"g": created["id"], "s": seat})
    return str(created["id"])


def play_out(players: list[Client], game_id: str, rng: random.Random) -> None:
    """The humans (seats 0..) pick listed legal actions until the game ends; bots reply in
    their own commands (waited for: ``wait_game``)."""
    for _ in range(2000):
        game = wait_game(players[0], game_id)
        if game["status"] != "ACTIVE":
            assert game["status"] == "FINISHED"
            return
        seat = rng.choice([s for s in game["activeSeats"] if s < len(players)])
        mine = players[seat].gql(
            "query($g: ID!) { game(id: $g) { legalActions } }", {"g": game_id}
        )["game"]
        players[seat].gql(
            "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { version } } }",
            {"g": game_id, "a": rng.choice(mine["legalActions"])},
        )
    raise AssertionError("the game did not end")


def read_game(client: Client, game_id: str) -> dict[str, Any]:
    return dict(
        client.gql(f"query($g: ID!) {{ game(id: $g) {{ {GAME} }} }}", {"g": game_id})["game"]
    )


def public_entry(game: dict[str, Any], version: int) -> Entry:
    """A ``seat_taken`` entry rebuilt from what everybody sees of it (its hash left empty):
    every hashed field of it is public (``domain/log.py``), the secret salt aside."""
    shown = game["events"]["nodes"][version - 1]
    created = game["events"]["nodes"][0]["data"]
    assert shown["type"] == "seat_taken" and shown["version"] == version
    return Entry(
        version=version,
        at=shown["at"],
        type=shown["type"],
        data=shown["data"],
        seat=shown["seat"],
        automatic=shown["automatic"],
        by_seat=shown["bySeat"],
        command=None,
        action=None,
        actor=shown["data"]["player_id"],
        rules_version=created["rules_version"],
    )


def old_entry_hash(entry: Entry, prev: str, seed: str) -> str:
    """The documented hash of an entry of a log without a seed salt (``domain/log.py``)."""
    return entry_hash(entry, prev, seed)


def new_entry_hash(entry: Entry, prev: str, seed: str, seed_salt: str) -> str:
    """The documented hash of an entry of a log with a seed salt (``domain/log.py``)."""
    return entry_hash(entry, prev, seed, seed_salt)


def old_commitment(seed: str) -> str:
    """The unsalted commitment of logs written before salts existed."""
    return hashlib.sha256(f"papyrus/v1:seed:{seed}".encode()).hexdigest()


def salted_commitment(seed: str, salt: bytes) -> str:
    """``SHA-256(salt || seed)``, the documented commitment (``domain/randomness.py``)."""
    return hashlib.sha256(salt + seed.encode("utf-8")).hexdigest()


def brute_force(game: dict[str, Any]) -> str | None:
    """Everything an attacker can try from what a running game shows: each candidate seed
    against the commitment (unsalted, and salted with every salt one could guess) and against
    the public hash of a ``seat_taken`` entry, as the documented functions allow."""
    published = game["seedCommitment"]
    game_id = uuid.UUID(game["id"])
    guessed_salts = [
        b"",
        bytes(32),
        b"\xff" * 32,
        game_id.bytes,
        game_id.hex.encode(),
        str(game_id).encode(),
        hashlib.sha256(str(game_id).encode()).digest(),
        bytes.fromhex(published),
    ]
    first, seat = game["events"]["nodes"][0], public_entry(game, 2)
    for candidate in [str(n) for n in range(10_000)] + GUESSES:
        if published in (
            old_commitment(candidate),
            hashlib.sha256(candidate.encode()).hexdigest(),
        ) or any(salted_commitment(candidate, s) == published for s in guessed_salts):
            return candidate
        if old_entry_hash(seat, first["hash"], candidate) == game["events"]["nodes"][1]["hash"]:
            return candidate
    return None


def test_a_guessable_seed_is_not_found_from_the_commitment_while_the_game_runs(
    sqlite_server,
) -> None:  # type: ignore[no-untyped-def]
    """Seed commitment: a game created with seed "4711" publishes a commitment salted with 32
    secret bytes; trying every seed "0".."9999" and an attacker's best guesses against it (and
    against the public hash of a seat_taken entry) finds nothing while the game runs. At the end
    seed and salt are revealed, the documented function gives the commitment, verifyLog holds."""
    human = register(sqlite_server.url, "Human")
    game_id = open_game([human], 1, "4711")
    running = read_game(Client(sqlite_server.url), game_id)
    assert running["status"] == "ACTIVE"
    assert running["seed"] is None and running["seedSalt"] is None
    assert brute_force(running) is None, "the seed was brute-forced from a running game"

    play_out([human], game_id, random.Random(3))
    over = read_game(Client(sqlite_server.url), game_id)
    assert over["status"] == "FINISHED"
    salt = over["seedSalt"]
    assert over["seed"] == "4711"
    assert len(salt) == 64 and set(salt) <= set(string.hexdigits.lower())
    assert salted_commitment("4711", bytes.fromhex(salt)) == over["seedCommitment"]
    created = over["events"]["nodes"][0]["data"]
    assert (created["seed"], created["seed_salt"]) == ("4711", salt)  # revealed in the log too
    # the attacker's rebuilt entry was exact: with the revealed salt it gives the public hash
    seat = public_entry(running, 2)
    first, second = running["events"]["nodes"][0], running["events"]["nodes"][1]
    assert new_entry_hash(seat, first["hash"], "4711", salt) == second["hash"]
    verified = human.gql("query($g: ID!) { verifyLog(gameId: $g) { ok reason } }", {"g": game_id})[
        "verifyLog"
    ]
    assert verified == {"ok": True, "reason": None}
    exported = human.gql("query($g: ID!) { exportGame(gameId: $g) }", {"g": game_id})["exportGame"]
    assert (exported["seed"], exported["seedSalt"]) == ("4711", salt)


def test_the_salt_and_seed_appear_in_no_read_path_while_the_game_runs(
    sqlite_server, sqlite_url
) -> None:  # type: ignore[no-untyped-def]
    """Seed commitment: the salt is hidden exactly like the seed while the game runs: the
    salt's and the seed's values appear in no answer of state, events, stateAt, replay, REST
    game/events/state/replay/summaries, the refused export, nor in the first events of a
    gameEvents subscription, for a seated player and for a spectator."""
    players = [register(sqlite_server.url, f"P{n}") for n in range(2)]
    game_id = open_game(players, 1, None)
    play = random.Random(5)
    for _ in range(4):  # a few moves in: the log holds game entries too
        game = wait_game(players[0], game_id)  # the bot replies in its own command
        seat = game["activeSeats"][0]
        actions = players[seat].gql(
            "query($g: ID!) { game(id: $g) { legalActions } }", {"g": game_id}
        )["game"]["legalActions"]
        players[seat].gql(
            "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { version } } }",
            {"g": game_id, "a": play.choice(actions)},
        )
    first = Application(open_store(sqlite_url)).tables.events(game_id)[0].data
    salt, seed = first["seed_salt"], first["seed"]
    assert len(salt) == 64 and len(seed) == 32
    spectator = Client(sqlite_server.url)
    for caller in (players[0], spectator):
        version = caller.gql("query($g: ID!) { game(id: $g) { version status } }", {"g": game_id})
        assert version["game"]["status"] == "ACTIVE"
        head = version["game"]["version"]
        answers = [
            caller.gql(
                f"query($g: ID!) {{ game(id: $g) {{ {GAME} state legalActions "
                "replay(after: 0) { event { data hash } state } } }",
                {"g": game_id},
            ),
            caller.gql(
                "query { gameSummaries(first: 10) { nodes { gameId ranked options } } "
                "lobby { nodes { gameId } } }"
            ),
        ]
        refused = caller.error("query($g: ID!) { exportGame(gameId: $g) }", {"g": game_id})
        assert refused.code == "GAME_NOT_ACTIVE"
        for version_at in range(1, head + 1):
            answers.append(
                caller.gql(
                    "query($g: ID!, $v: Int!) { game(id: $g) { stateAt(version: $v) } }",
                    {"g": game_id, "v": version_at},
                )
            )
        texts = [json.dumps(a) for a in answers] + [json.dumps(refused.errors)]
        for path in (
            f"/games/{game_id}",
            f"/games/{game_id}/events?limit=200",
            f"/games/{game_id}/replay",
            f"/games/{game_id}/export",
            "/summaries",
            *(f"/games/{game_id}/state?version={v}" for v in range(1, head + 1)),
        ):
            response = caller.rest("GET", path)
            assert response.status_code in (200, 409), (path, response.text)
            texts.append(response.text)
        events = asyncio.run(
            subscribe(
                sqlite_server.ws_url,
                "subscription($g: ID!) { gameEvents(gameId: $g, afterVersion: 0) "
                "{ version type data hash } }",
                {"g": game_id},
                caller.token,
                until=lambda got, head=head: len(got) >= head,
            )
        )
        assert [e["data"]["gameEvents"]["version"] for e in events] == list(range(1, head + 1))
        texts.append(json.dumps(events))
        assert answers[0]["game"]["events"]["nodes"][0]["type"] == "table_created"
        for text in texts:
            assert salt not in text, "the salt leaked while the game runs"
            assert seed not in text, "the seed leaked while the game runs"


def test_a_chosen_seed_makes_a_table_unranked_and_a_server_seed_counts(server) -> None:  # type: ignore[no-untyped-def]
    """Ranked play: a game whose creator chose the seed is `ranked: false` ("the creator chose
    the seed") over GraphQL, REST and the summaries, and played to the end with a bot it counts
    in no rating, profile or statistic; a server-seeded game is ranked and counts once; its
    fork ("a fork") and imported copy ("an imported copy") are unranked."""
    players = [register(server.url, name) for name in ("Ana", "Bo")]
    ids = {"p": players[0].player_id, "q": players[1].player_id}  # type: ignore[attr-defined]
    chosen = open_game(players, 1, "sandbox-4711")
    game = players[0].gql(
        "query($g: ID!) { game(id: $g) { ranked unrankedReason } }", {"g": chosen}
    )["game"]
    assert game == {"ranked": False, "unrankedReason": "the creator chose the seed"}
    body = players[0].rest("GET", f"/games/{chosen}").json()
    assert (body["ranked"], body["unrankedReason"]) == (False, "the creator chose the seed")
    play_out(players, chosen, random.Random(11))
    counted = players[0].gql(COUNTS, ids)
    assert counted["a"] is None and counted["b"] is None, "a chosen seed counted in a profile"
    assert counted["leaderboard"]["nodes"] == [], "a chosen seed counted in a rating"
    assert counted["statistics"]["games"] == 0, "a chosen seed counted in the statistics"
    summaries = players[0].gql(
        "query { gameSummaries(status: FINISHED) { nodes { gameId ranked unrankedReason } } }"
    )["gameSummaries"]["nodes"]
    assert summaries == [
        {"gameId": chosen, "ranked": False, "unrankedReason": "the creator chose the seed"}
    ]
    rest_rows = players[0].rest("GET", "/summaries").json()["items"]
    assert [(r["gameId"], r["ranked"], r["unrankedReason"]) for r in rest_rows] == [
        (chosen, False, "the creator chose the seed")
    ]

    seeded = open_game(players, 1, None)
    game = players[0].gql(
        "query($g: ID!) { game(id: $g) { ranked unrankedReason } }", {"g": seeded}
    )["game"]
    assert game == {"ranked": True, "unrankedReason": None}
    play_out(players, seeded, random.Random(12))
    body = players[1].rest("GET", f"/games/{seeded}").json()
    assert (body["status"], body["ranked"], body["unrankedReason"]) == ("FINISHED", True, None)
    counted = players[0].gql(COUNTS, ids)
    assert counted["a"] == {"gamesPlayed": 1} and counted["b"] == {"gamesPlayed": 1}
    assert sorted(r["games"] for r in counted["leaderboard"]["nodes"]) == [1, 1]
    assert {r["playerId"] for r in counted["leaderboard"]["nodes"]} == set(ids.values())
    assert counted["statistics"]["games"] == 1

    document = players[0].gql("query($g: ID!) { exportGame(gameId: $g) }", {"g": seeded})
    copy_ = players[1].gql(
        "mutation($d: JSON!) { importGame(document: $d) { id ranked unrankedReason } }",
        {"d": document["exportGame"]},
    )["importGame"]
    assert (copy_["ranked"], copy_["unrankedReason"]) == (False, "an imported copy")
    for at in range(30, 1, -1):  # the first version from 30 down that ends an action
        answer = players[0].raw(
            "mutation($g: ID!, $v: Int!) { forkGame(gameId: $g, atVersion: $v) "
            "{ id ranked unrankedReason } }",
            {"g": seeded, "v": at},
        )
        if not answer.get("errors"):
            break
    fork = answer["data"]["forkGame"]
    assert (fork["ranked"], fork["unrankedReason"]) == (False, "a fork")
    rows = {
        r["gameId"]: (r["ranked"], r["unrankedReason"])
        for r in players[0].rest("GET", "/summaries").json()["items"]
    }
    assert rows[copy_["id"]] == (False, "an imported copy") and rows[fork["id"]] == (
        False,
        "a fork",
    )
    assert rows[seeded] == (True, None)
    assert players[0].gql(COUNTS, ids) == counted  # the copy counted nowhere again


def test_a_log_written_before_salts_still_verifies(sqlite_server, sqlite_url) -> None:  # type: ignore[no-untyped-def]
    """Seed commitment, old logs: a log whose first event has no salt (commitment and hash
    chain by the old unsalted functions, built here with them) still passes verifyLog and can
    be imported; a changed seed in it is still caught, and a salted log cannot be passed off as
    an unsalted one by dropping its salt."""
    human = register(sqlite_server.url, "Old")
    game_id = open_game([human], 1, None)
    play_out([human], game_id, random.Random(4))
    document = human.gql("query($g: ID!) { exportGame(gameId: $g) }", {"g": game_id})["exportGame"]
    seed = document["seed"]

    def old_format(events: list[dict[str, Any]], seed: str) -> list[dict[str, Any]]:
        """The log as the server wrote it before salts: no seed_salt nor seed_chosen, the
        unsalted commitment, every hash by the unsalted chain."""
        data = {k: v for k, v in events[0]["data"].items() if k not in ("seed_salt", "seed_chosen")}
        events = [
            {**events[0], "data": {**data, "seed_commitment": old_commitment(seed)}},
            *events[1:],
        ]
        prev, out = GENESIS, []
        for raw in events:
            out.append({**raw, "hash": old_entry_hash(Entry(**{**raw, "hash": ""}), prev, seed)})
            prev = out[-1]["hash"]
        return out

    old_events = old_format(document["events"], seed)
    finding = audit.verify([Entry(**e) for e in old_events], rules_for)
    assert finding.ok, finding
    old_document = {
        **{k: v for k, v in document.items() if k != "seedSalt"},
        "seedCommitment": old_commitment(seed),
        "events": old_events,
    }
    imported = human.gql(
        "mutation($d: JSON!) { importGame(document: $d) { id status seedCommitment } }",
        {"d": old_document},
    )["importGame"]
    assert imported["status"] == "FINISHED"
    assert imported["seedCommitment"] == old_commitment(seed)
    verified = human.gql("query($g: ID!) { verifyLog(gameId: $g) { ok } }", {"g": imported["id"]})[
        "verifyLog"
    ]
    assert verified["ok"] is True

    tampered = old_format(document["events"], seed)
    tampered[0]["data"]["seed"] = "other"  # the old check of the seed still holds
    finding = audit.verify([Entry(**e) for e in tampered], rules_for)
    assert not finding.ok and finding.version == 1 and "commitment" in (finding.reason or "")
    # dropping the salt of a salted log: its commitment no longer matches any function
    unsalted = [dict(e) for e in document["events"]]
    unsalted[0] = {
        **unsalted[0],
        "data": {k: v for k, v in unsalted[0]["data"].items() if k != "seed_salt"},
    }
    finding = audit.verify([Entry(**e) for e in unsalted], rules_for)
    assert not finding.ok and finding.version == 1 and "commitment" in (finding.reason or "")
    # and the salted log itself verifies with the salted function
    assert audit.verify([Entry(**e) for e in document["events"]], rules_for).ok
