"""Undo as new events, the audit log, provably fair randomness, replays, export and
import, forks. Policy tests drive the application layer on a real SQLite store; the acceptance
tests go through GraphQL and REST."""

from __future__ import annotations

import copy
import itertools
import json
import random
import sqlite3
from typing import Any

import pytest

from domain import table as tables
from domain.audit import FORK
from domain.log import Entry, entry_hash
from service.app import numbering, views
from service.app.application import Application
from service.app.archive import ENTRY_FIELDS
from service.app.caller import Caller
from service.app.errors import PapyrusError
from service.store.database import open_store
from tests.client import Client, register, wait_game
from tests.conftest import settle_bots
from tests.service.play import create_table, play_graphql, play_rest, seated


def setup_game(
    url: str,
    kind: str = "imhotep",
    n: int = 4,
    options: dict | None = None,
    seed: str = "s",
    bots: int = 0,
):  # type: ignore[type-arg]
    games = Application(open_store(url))
    timeline = games
    players = [games.accounts.register_player(f"P{i}")[0] for i in range(n - bots)]
    game = games.seating.create_game(players[0], kind, n, options or {}, seed)
    game_id = str(game.id)
    for p in players:
        games.seating.join_game(p, game_id, None)
    for _ in range(bots):
        games.seating.add_bot(players[0], game_id, None, "random")
    settle_bots(games, game_id)  # the bots that begin play, as the driver would
    return games, timeline, players, game_id


def act_once(games: Application, players: list[Caller], game_id: str, rng: random.Random) -> int:
    """One random legal action by the seat that must act, then the bots' replies (in their own
    commands, as the driver plays them); returns that seat."""
    table = games.tables.get(game_id).table
    seat = rng.choice(views.active_seats(table))
    games.play.act(players[seat], game_id, rng.choice(views.legal_actions(table, players[seat])))
    settle_bots(games, game_id)
    return seat


def codes(fn: Any, *args: Any) -> str:
    with pytest.raises(PapyrusError) as refused:
        fn(*args)
    return refused.value.code


# -- undo policy ------------------------------------------------------------------------------


def test_a_seat_takes_back_its_own_last_action_at_once(sqlite_url: str) -> None:
    games, timeline, players, game_id = setup_game(sqlite_url)
    before = games.tables.get(game_id)
    version = before.version
    seat = views.active_seats(before.table)[0]
    state_before = copy.deepcopy(before.table.game)
    games.play.act(players[seat], game_id, {"type": "get_stones"})
    assert games.tables.get(game_id).table.game != state_before
    game = timeline.undo.request_undo(players[seat], game_id, None)
    assert game.table.game == state_before
    entries = games.tables.events(game_id)
    assert entries[-1].type == "actions_undone"
    undone = [e.version for e in entries if e.version in game.table.undone]
    assert undone and all(version < v < entries[-1].version for v in undone)
    assert views.event(game.table, entries[version], players[seat])["undone"] is True
    assert timeline.audit.verify(game_id).ok  # the audit replays undos too
    finish(games, players, game_id)  # play on after the undo: still a valid log to the end
    assert timeline.audit.verify(game_id).ok
    assert games.tables.get(game_id).table.status == tables.FINISHED


def test_undo_across_another_seats_action_needs_every_other_human_to_accept(
    sqlite_url: str,
) -> None:
    games, timeline, players, game_id = setup_game(sqlite_url)
    start = games.tables.get(game_id)
    version = start.version
    state_before = copy.deepcopy(start.table.game)
    first = views.active_seats(start.table)[0]
    games.play.act(players[first], game_id, {"type": "get_stones"})
    second = views.active_seats(games.tables.get(game_id).table)[0]
    games.play.act(players[second], game_id, {"type": "get_stones"})
    game = timeline.undo.request_undo(players[first], game_id, version)
    assert game.table.undo_request is not None
    assert sorted(game.table.undo_request.waiting) == sorted(s for s in range(4) if s != first)
    assert codes(timeline.undo.answer_undo, players[first], game_id, True) == "FORBIDDEN"
    for seat in range(4):
        if seat != first:
            game = timeline.undo.answer_undo(players[seat], game_id, True)
    assert game.table.undo_request is None
    assert game.table.game == state_before
    finding = timeline.audit.verify(game_id)
    assert finding.ok, finding


def test_a_refused_undo_request_changes_nothing(sqlite_url: str) -> None:
    games, timeline, players, game_id = setup_game(sqlite_url, n=2)
    start = games.tables.get(game_id)
    version = start.version
    first = views.active_seats(start.table)[0]
    games.play.act(players[first], game_id, {"type": "get_stones"})
    other = views.active_seats(games.tables.get(game_id).table)[0]
    games.play.act(players[other], game_id, {"type": "get_stones"})
    state = copy.deepcopy(games.tables.get(game_id).table.game)
    timeline.undo.request_undo(players[first], game_id, version)
    game = timeline.undo.answer_undo(players[other], game_id, False)
    assert game.table.undo_request is None and game.table.game == state
    assert timeline.audit.verify(game_id).ok


def test_bots_accept_and_the_human_takes_back_at_once(sqlite_url: str) -> None:
    games, timeline, players, game_id = setup_game(sqlite_url, n=3, bots=2)
    rng = random.Random(4)
    for _ in range(3):
        table = games.tables.get(game_id).table
        if 0 in views.active_seats(table):
            version = games.tables.get(game_id).version
            state = copy.deepcopy(table.game)
            games.play.act(players[0], game_id, rng.choice(views.legal_actions(table, players[0])))
            after = games.tables.get(game_id).table
            if after.barrier > version:  # the action drew or revealed: not undoable
                continue
            game = timeline.undo.request_undo(players[0], game_id, version)
            assert game.table.undo_request is None  # no human had to be asked
            assert game.table.game == state or 0 not in views.active_seats(game.table)
            return
    pytest.skip("the human never had a reversible turn in this seed")


def test_undo_never_crosses_a_market_draw_or_a_reveal(sqlite_url: str) -> None:
    """Imhotep §9, §14: taking the face-down pair reveals it to its taker; a new round reveals
    a round card and deals the market from the draw pile: neither can be taken back."""
    games, timeline, players, game_id = setup_game(sqlite_url, options={"sides": "B"}, seed="draw")
    rng = random.Random(1)
    for _ in range(400):
        game = games.tables.get(game_id)
        if game.table.status != tables.ACTIVE:
            break
        version = game.version
        seat = act_once(games, players, game_id, rng)
        now = games.tables.get(game_id).version
        drawn = [
            e
            for e in games.tables.events(game_id, after=version)
            if e.type in ("pair_taken", "round_started", "card_drawn")
        ]
        if drawn:
            with pytest.raises(PapyrusError) as refused:
                timeline.undo.request_undo(players[seat], game_id, version)
            assert refused.value.code == "ILLEGAL_ACTION"
            assert "random draw or a reveal" in refused.value.message
            assert games.tables.get(game_id).version == now
            return
    raise AssertionError("no draw happened")


def test_a_ranked_table_forbids_undo(sqlite_url: str) -> None:
    games, timeline, players, game_id = setup_game(sqlite_url, options={"undo": False})
    seat = views.active_seats(games.tables.get(game_id).table)[0]
    games.play.act(players[seat], game_id, {"type": "get_stones"})
    assert codes(timeline.undo.request_undo, players[seat], game_id, None) == "FORBIDDEN"
    assert games.tables.get(game_id).table.options == {**games.tables.get(game_id).table.options}


def test_amun_re_offering_can_be_taken_back_only_before_the_reveal(sqlite_url: str) -> None:
    """Amun-Re R11.1-R11.3: a committed offering is secret until every seat has committed; it
    can be taken back before the reveal, never after."""
    games, timeline, players, game_id = setup_game(sqlite_url, kind="amun_re", n=3, seed="offer")
    rng = random.Random(3)
    for _ in range(2000):
        table = games.tables.get(game_id).table
        view = views.state(table, players[0])
        if view["phase"] == "offering" and all(not c for c in view["offering"]["committed"]):
            break
        act_once(games, players, game_id, rng)
    else:
        raise AssertionError("never reached an offering")
    seat = views.active_seats(table)[0]
    version = games.tables.get(game_id).version
    # undo versions are numbers of the caller's log (other seats' private steps are not in it)
    number = numbering.timeline(games.tables, games.tables.get(game_id), players[seat]).version
    state = copy.deepcopy(table.game)
    legal = views.legal_actions(table, players[seat])
    games.play.act(players[seat], game_id, next(a for a in legal if a["type"].startswith("commit")))
    assert games.tables.get(game_id).table.game != state
    game = timeline.undo.request_undo(players[seat], game_id, number)
    assert game.table.game == state  # taken back at once: nobody else acted
    for s in views.active_seats(game.table):  # now everybody commits: the reveal follows
        legal = views.legal_actions(games.tables.get(game_id).table, players[s])
        games.play.act(players[s], game_id, next(a for a in legal if a["type"].startswith("commit")))
    events = games.tables.events(game_id, after=version)
    assert any(e.type == "offering_revealed" for e in events)
    assert codes(timeline.undo.request_undo, players[seat], game_id, number) == "ILLEGAL_ACTION"


# -- audit: hash chain, seed, shuffles ------------------------------------------------------------


def finish(games: Application, players: list[Caller], game_id: str, seed: int = 0) -> None:
    rng = random.Random(seed)
    while games.tables.get(game_id).table.status == tables.ACTIVE:
        act_once(games, players, game_id, rng)


def tamper(url: str, game_id: str, version: int, change: Any) -> None:
    """Change one stored event's JSON directly in the database, behind the server's back."""
    if url.startswith("sqlite"):
        db = sqlite3.connect(url.removeprefix("sqlite:///"))
        key = (game_id.replace("-", ""), version)
        where = "WHERE originator_id = ? AND originator_version = ?"
        (raw,) = db.execute(f"SELECT state FROM stored_events {where}", key).fetchone()
        state = json.loads(raw)
        change(state)
        db.execute(
            f"UPDATE stored_events SET state = ? {where}", (json.dumps(state).encode(), *key)
        )
        db.commit()
        db.close()
        return
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        where = "WHERE originator_id = %s AND originator_version = %s"
        row = db.execute(f"SELECT state FROM papyrus_events {where}", (game_id, version)).fetchone()
        assert row is not None
        state = json.loads(bytes(row[0]))
        change(state)
        db.execute(
            f"UPDATE papyrus_events SET state = %s {where}",
            (json.dumps(state).encode(), game_id, version),
        )


def test_tampering_with_one_stored_event_is_named_by_verify_log(database_url: str) -> None:
    games, timeline, players, game_id = setup_game(database_url, n=2)
    finish(games, players, game_id)
    assert timeline.audit.verify(game_id).ok
    target = 40
    assert games.tables.events(game_id)[target - 1].type not in tables.TABLE_EVENTS

    def cheat(state: dict) -> None:  # type: ignore[type-arg]
        state["data"] = {**state["data"], "tampered": True}

    tamper(database_url, game_id, target, cheat)
    finding = Application(open_store(database_url)).audit.verify(game_id)
    assert not finding.ok and finding.version == target
    assert "hash" in (finding.reason or "")


def test_a_seed_that_does_not_match_its_commitment_is_detected(sqlite_url: str) -> None:
    games, _timeline, _players, game_id = setup_game(sqlite_url, n=2)
    entries = games.tables.events(game_id)
    forged = entries[0].__class__(
        **{**entries[0].content(), "data": {**entries[0].data, "seed": "other"}, "hash": ""}
    )
    from domain.audit import verify
    from domain.registry import rules_for

    finding = verify([forged, *entries[1:]], rules_for)
    assert not finding.ok and finding.version == 1 and "commitment" in (finding.reason or "")


def test_a_shuffle_not_derived_from_the_seed_is_detected(sqlite_url: str) -> None:
    """Re-seal a log whose setup shuffle was changed: the chain holds, the rules do not."""
    from domain.audit import verify
    from domain.registry import rules_for

    games, _timeline, _players, game_id = setup_game(sqlite_url, n=2)
    entries = games.tables.events(game_id)
    seed = entries[0].data["seed"]
    prepared = next(i for i, e in enumerate(entries) if e.type == "game_prepared")
    deck = list(entries[prepared].data["deck"])
    deck[0], deck[1] = deck[1], deck[0]
    changed = [
        *entries[:prepared],
        entries[prepared].__class__(
            **{
                **entries[prepared].content(),
                "data": {**entries[prepared].data, "deck": deck},
                "hash": "",
            }
        ),
        *entries[prepared + 1 :],
    ]
    resealed, prev = [], entries[0].hash
    for e in changed[1:]:
        e = e.__class__(**{**e.content(), "hash": ""})
        e = e.__class__(
            **{**e.content(), "hash": entry_hash(e, prev, seed, entries[0].data.get("seed_salt"))}
        )
        resealed.append(e)
        prev = e.hash
    finding = verify([entries[0], *resealed], rules_for)
    assert not finding.ok and finding.version == entries[prepared].version
    assert "rules" in (finding.reason or "")


# -- export, import, replays, forks, over the API ---------------------------------------------------


EXPORT = "query($g: ID!) { exportGame(gameId: $g) }"
IMPORT = "mutation($d: JSON!) { importGame(document: $d) { id status version result { scores winners } } }"
VERIFY = "query($g: ID!) { verifyLog(gameId: $g) { ok checkedEvents badVersion reason } }"


@pytest.mark.parametrize("kind,seats", [("IMHOTEP", 2), ("AMUN_RE", 3)])
def test_export_import_compare_over_graphql_and_rest(server, kind: str, seats: int) -> None:  # type: ignore[no-untyped-def]
    players = seated(server.url, seats)
    game_id = create_table(players, kind, seed=f"export-{kind}")
    final = play_graphql(players, game_id, random.Random(5))
    assert final["status"] == "FINISHED"
    assert players[0].gql(VERIFY, {"g": game_id})["verifyLog"]["ok"] is True
    document = players[0].gql(EXPORT, {"g": game_id})["exportGame"]
    assert document == players[0].rest("GET", f"/games/{game_id}/export").json()
    assert document["seed"] == f"export-{kind}"
    imported = players[1].gql(IMPORT, {"d": document})["importGame"]
    assert imported["id"] != game_id and imported["status"] == "FINISHED"
    assert imported["result"] == {
        "scores": final["result"]["scores"],
        "winners": final["result"]["winners"],
    }
    again = players[0].gql(EXPORT, {"g": imported["id"]})["exportGame"]
    assert again["events"] == document["events"]  # identical events, hashes and times
    rest = players[0].rest("POST", "/games/import", json=document)
    assert rest.status_code == 201, rest.text

    edited = copy.deepcopy(document)
    edited["events"][10]["data"] = {**edited["events"][10]["data"], "edited": 1}
    failure = players[0].error(IMPORT, {"d": edited})
    assert failure.code == "BAD_INPUT" and "Event 11" in str(failure) and "hash" in str(failure)
    response = players[0].rest("POST", "/games/import", json=edited)
    assert response.status_code == 422 and "Event 11" in response.json()["detail"]
    edited = copy.deepcopy(document)
    edited["result"]["scores"][0] += 1
    assert "result" in str(players[0].error(IMPORT, {"d": edited}))


def test_replay_steps_through_a_finished_game_and_verify_over_rest(server) -> None:  # type: ignore[no-untyped-def]
    players = seated(server.url, 2)
    game_id = create_table(players, "IMHOTEP")
    final = play_graphql(players, game_id, random.Random(1))
    steps = []
    after = 0
    while True:
        page = (
            Client(server.url)
            .rest("GET", f"/games/{game_id}/replay?after={after}&limit=200")
            .json()["items"]
        )
        if not page:
            break
        steps += page
        after = page[-1]["event"]["version"]
    assert [s["event"]["version"] for s in steps] == list(range(1, final["version"] + 1))
    assert steps[-1]["state"]["game_over"] is True
    assert "hidden" in steps[5]["state"]  # the game is over: everything is revealed
    report = Client(server.url).rest("GET", f"/games/{game_id}/verify").json()
    # a finished game's head is signed (tests/service/test_signing.py)
    signed = report.pop("signature")
    assert report.pop("signedBy") == (signed["keyId"] if signed else None)
    assert report == {
        "ok": True,
        "checkedEvents": final["version"],
        "badVersion": None,
        "reason": None,
    }
    graphql = players[0].gql(
        "query($g: ID!) { game(id: $g) { replay(after: 3, first: 2) { event { version } state } } }",
        {"g": game_id},
    )
    assert [s["event"]["version"] for s in graphql["game"]["replay"]] == [4, 5]


def test_spectator_time_travel_never_shows_a_secret_hidden_at_that_version(server) -> None:  # type: ignore[no-untyped-def]
    players = seated(server.url, 2)
    game_id = create_table(players, "IMHOTEP", {"sides": "B"})
    rng = random.Random(8)
    for _ in range(30):
        game = players[0].gql("query($g: ID!) { game(id: $g) { activeSeats } }", {"g": game_id})[
            "game"
        ]
        seat = game["activeSeats"][0]
        legal = players[seat].gql(
            "query($g: ID!) { game(id: $g) { legalActions } }", {"g": game_id}
        )["game"]["legalActions"]
        players[seat].gql(
            "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { id } } }",
            {"g": game_id, "a": rng.choice(legal)},
        )
    spectator = Client(server.url)
    past = spectator.gql(
        "query($g: ID!) { game(id: $g) { version replay(first: 200) { state } stateAt(version: 10) } }",
        {"g": game_id},
    )["game"]
    for step in past["replay"]:
        assert "hidden" not in step["state"]
        assert step["state"] == {} or step["state"]["market"].get("pair") is None
    assert "hidden" not in past["stateAt"]


def test_a_fork_starts_from_the_finished_game_at_that_version(server) -> None:  # type: ignore[no-untyped-def]
    players = seated(server.url, 2)
    game_id = create_table(players, "IMHOTEP")
    play_graphql(players, game_id, random.Random(2))
    mutation = (
        "mutation($g: ID!, $v: Int!) { forkGame(gameId: $g, atVersion: $v) "
        "{ id status forkedFrom { gameId version } } }"
    )
    for at in range(30, 1, -1):  # the first version from 30 down that ends an action
        answer = players[0].raw(mutation, {"g": game_id, "v": at})
        if not answer.get("errors"):
            break
        assert "middle of an action" in answer["errors"][0]["message"]
    fork = answer["data"]["forkGame"]
    source_state = Client(server.url).rest("GET", f"/games/{game_id}/state?version={at}").json()
    assert fork["status"] == "OPEN" and fork["forkedFrom"] == {"gameId": game_id, "version": at}
    for seat, player in enumerate(players):
        player.gql(
            "mutation($g: ID!, $s: Int) { joinGame(gameId: $g, seat: $s) { id } }",
            {"g": fork["id"], "s": seat},
        )
    forked = players[0].gql(
        "query($g: ID!) { game(id: $g) { status state } verifyLog(gameId: $g) { ok } }",
        {"g": fork["id"]},
    )
    assert forked["game"]["status"] == "ACTIVE"

    def strip(state: dict) -> dict:  # type: ignore[type-arg]
        """The public board: the revealed extras of a finished game's views aside."""
        kept = {k: v for k, v in state.items() if k not in ("viewer", "pending", "hidden")}
        kept["market"] = {k: v for k, v in state["market"].items() if k != "pair"}
        return kept

    assert strip(forked["game"]["state"]) == strip(source_state)
    assert forked["verifyLog"]["ok"] is True
    running = create_table(players, "IMHOTEP")
    failure = register(server.url, "Outsider").error(
        "mutation($g: ID!) { forkGame(gameId: $g, atVersion: 5) { id } }", {"g": running}
    )
    assert failure.code == "FORBIDDEN"  # a running game: its players only


def test_anybody_forks_a_finished_amun_re_game_over_rest(server) -> None:  # type: ignore[no-untyped-def]
    """Forks, Amun-Re: a finished game is public, so an outsider may fork it; the
    fork replays the source up to that version (same public board), unranked, marked."""
    players = seated(server.url, 3)
    game_id = create_table(players, "AMUN_RE", {"statues": True})
    play_rest(players, game_id, random.Random(6))
    outsider = register(server.url, "Outsider")
    for at in range(40, 1, -1):  # the first version from 40 down that is a command start
        response = outsider.rest("POST", f"/games/{game_id}/fork", json={"atVersion": at})
        if response.status_code == 201:
            break
        assert response.json()["code"] == "BAD_INPUT" and "middle" in response.json()["detail"]
    fork = response.json()
    assert fork["status"] == "OPEN" and fork["mySeat"] is None
    assert fork["forkedFrom"] == {"gameId": game_id, "version": at, "seats": None}
    joined = outsider.rest("POST", f"/games/{fork['id']}/seats", json={"seat": 0})
    assert joined.status_code == 200, joined.text
    for seat in (1, 2):  # a table needs a person: the outsider plays seat 0, bots the others
        added = outsider.rest("POST", f"/games/{fork['id']}/bots", json={"seat": seat})
        assert added.status_code in (200, 201), added.text
    source = Client(server.url).rest("GET", f"/games/{game_id}/state?version={at}").json()
    # the fork's start (version 5, after its creation and three seats) plus the source's game
    # events up to `at` (which followed the source's own creation, seats and start): version `at`
    # of the fork is version `at` of the source; the outsider and two bots then finish the fork
    rng = random.Random(6)
    while wait_game(outsider, fork["id"])["status"] == "ACTIVE":
        mine = outsider.rest("GET", f"/games/{fork['id']}").json()
        action = {"action": rng.choice(mine["legalActions"]), "expectedVersion": mine["version"]}
        played = outsider.rest("POST", f"/games/{fork['id']}/actions", json=action)
        assert played.status_code == 200, played.text
    finished = outsider.rest("GET", f"/games/{fork['id']}").json()
    assert finished["status"] == "FINISHED"
    spectator = Client(server.url)  # the outsider now sits in the fork: another viewer there
    assert spectator.rest("GET", f"/games/{fork['id']}/state?version={at}").json() == source
    assert outsider.rest("GET", f"/games/{fork['id']}/verify").json()["ok"] is True


def swap_deal(entry: dict, state: dict) -> dict:  # type: ignore[type-arg]
    return {**entry, "data": {"state": state}} if entry["type"] == "fork_dealt" else entry


def reseal(events: list[dict], seed: str) -> list[dict]:  # type: ignore[type-arg]
    """Recompute every hash, as a forger who knows the revealed seed (and its salt) can."""
    from domain.log import GENESIS, Entry

    prev, out = GENESIS, []
    salt = events[0]["data"].get("seed_salt")
    for raw in events:
        entry = Entry(**{**raw, "hash": ""})
        out.append({**raw, "hash": entry_hash(entry, prev, seed, salt)})
        prev = out[-1]["hash"]
    return out


@pytest.mark.parametrize(
    "break_it",
    [
        lambda events: events[1].update(data={}),  # a seat taken by nobody
        lambda events: events[0].update(data={**events[0]["data"], "kind": "chess"}),
        lambda events: events[0].update(data={**events[0]["data"], "seats": "two"}),
        lambda events: events[5].update(data=[1, 2]),
    ],
)
def test_a_resealed_malformed_document_is_refused_not_a_crash(
    sqlite_url: str, break_it: Any
) -> None:
    """The seed of a finished game is public, so a forger can re-seal any edit: the rules check
    must still say which event is wrong, never fail with an internal error."""
    games, timeline, players, game_id = setup_game(sqlite_url, n=2)
    finish(games, players, game_id)
    document = timeline.archive.export(game_id)
    events = copy.deepcopy(document["events"])
    break_it(events)
    document["events"] = reseal(events, document["seed"])
    with pytest.raises(PapyrusError) as refused:
        timeline.archive.import_game(players[0], document)
    assert refused.value.code == "BAD_INPUT"
    assert "Event" in refused.value.message


# -- forks of a running game, on what the forking seats may see ------------------------------


def hidden_pool(kind: str, state: dict) -> list:  # type: ignore[type-arg]
    """What nobody sees while the game runs (from a revealed view): the re-dealt items."""
    if kind == "imhotep":
        return state["hidden"]["draw_pile"] + state["market"].get("pair", [])
    return state["hidden"]["draw_pile"]


@pytest.mark.parametrize(
    ("kind", "n", "options"), [("imhotep", 3, {"sides": "B"}), ("amun_re", 4, {})]
)
def test_a_player_forks_a_running_game_on_what_their_seat_may_see(
    sqlite_url: str,
    kind: str,
    n: int,
    options: dict,  # type: ignore[type-arg]
) -> None:
    """forkGame: a player of a running game gets a sandbox that starts from the game
    as their seat saw it (Imhotep §14, Amun-Re R7.9/§17), with everything hidden from them
    re-dealt from the fork's own seed; they keep their seat, the others are open."""
    games, timeline, players, game_id = setup_game(sqlite_url, kind, n, options, seed="fork")
    outsider = games.accounts.register_player("Outsider")[0]
    rng = random.Random(4)
    for _ in range(25):
        act_once(games, players, game_id, rng)
    at = games.tables.get(game_id).version
    assert codes(timeline.forks.fork, outsider, game_id, at) == "FORBIDDEN"
    assert codes(timeline.forks.fork, players[1], game_id, 2) == "BAD_INPUT"  # not running then
    log = timeline.audit.entries(game_id)
    inside = next(  # an action's own event followed by a step of the same action
        a.version
        for a, b in itertools.pairwise(log)
        if a.by_seat is not None and a.command is not None and b.command == a.command
    )
    assert codes(timeline.forks.fork, players[1], game_id, inside) == "BAD_INPUT"
    fork = timeline.forks.fork(players[1], game_id, at)
    fork_id = str(fork.id)
    assert fork.table.status == tables.OPEN
    assert timeline.audit.verify(fork_id).ok  # waiting for players is not a bad log
    assert fork.table.forked_from == {"game_id": game_id, "version": at, "seats": [1]}
    assert views.seats_of(fork.table, players[1]) == [1] and fork.table.free_seats() == [
        s for s in range(n) if s != 1
    ]
    for seat in fork.table.free_seats():
        games.seating.add_bot(players[1], fork_id, seat, "random")
    settle_bots(games, fork_id)
    started = games.tables.get(fork_id).table
    assert started.status in (tables.ACTIVE, tables.FINISHED)
    dealt = next(e for e in timeline.audit.entries(fork_id) if e.type == "fork_dealt")
    mine_then = views.state(games.tables.at_version(fork_id, dealt.version).table, players[1])
    source_then = views.state(games.tables.at_version(game_id, at).table, players[1])
    if kind == "amun_re" and source_then["phase"] == "offering":  # others commit again
        for key in ("to_act", "offering", "decision"):
            mine_then.pop(key), source_then.pop(key)
    assert mine_then == source_then
    shown = [views.event(started, e, players[1]) for e in timeline.audit.entries(fork_id)]
    assert next(e for e in shown if e["type"] == "fork_dealt")["data"] == {"state": mine_then}
    # the deal follows from the source and the fork's seed: a re-sealed forged deal is named
    # (the log up to the fork's start; what the bots did after it is checked by the rules)
    start = max(e.version for e in timeline.audit.entries(fork_id) if e.command == FORK)
    logged = [
        {n: getattr(e, n) for n in ENTRY_FIELDS}
        for e in timeline.audit.entries(fork_id)
        if e.version <= start
    ]
    seed = logged[0]["data"]["seed"]
    assert timeline.audit.check([Entry(**e) for e in reseal(logged, seed)], trusted=True).ok
    forged_state = copy.deepcopy(dealt.data["state"])
    pile = forged_state["draw"]
    k = next(i for i in range(1, len(pile)) if pile[i] != pile[0])
    pile[0], pile[k] = pile[k], pile[0]
    forged = [Entry(**e) for e in reseal([swap_deal(e, forged_state) for e in logged], seed)]
    finding = timeline.audit.check(forged, trusted=True)
    assert (finding.ok, finding.version) == (False, dealt.version)
    assert "from its source" in str(finding.reason)
    # an outside document is never compared with a running source: that would be an oracle
    # on its secrets (the forged deal could be a guess at them). True or forged, it is refused
    # with the same answer until the source is over.
    honest = timeline.audit.check([Entry(**e) for e in reseal(logged, seed)], trusted=False)
    guessed = timeline.audit.check(forged, trusted=False)
    assert not honest.ok and (honest.version, honest.reason) == (guessed.version, guessed.reason)
    assert "not over yet" in str(honest.reason)
    # play both to the end: the fork's hidden items were re-dealt, not copied
    while games.tables.get(fork_id).table.status == tables.ACTIVE:
        table = games.tables.get(fork_id).table
        seat = views.active_seats(table)[0]
        assert seat == 1, "the bots play every other seat"
        games.play.act(players[1], fork_id, rng.choice(views.legal_actions(table, players[1])))
        settle_bots(games, fork_id)
    exported = timeline.archive.export(fork_id)
    with pytest.raises(PapyrusError, match="not over yet"):  # no verdict on a running source
        timeline.archive.import_game(players[0], exported)
    while games.tables.get(game_id).table.status == tables.ACTIVE:
        act_once(games, players, game_id, rng)
    assert not timeline.audit.check(forged, trusted=False).ok  # the source is public now: checked
    assert timeline.audit.check([Entry(**e) for e in reseal(logged, seed)], trusted=False).ok
    revealed_source = views.state(games.tables.at_version(game_id, at).table, Caller(), revealed=True)
    revealed_fork = views.state(
        games.tables.at_version(fork_id, dealt.version).table, Caller(), revealed=True
    )
    source_pool, fork_pool = hidden_pool(kind, revealed_source), hidden_pool(kind, revealed_fork)
    assert len(source_pool) == len(fork_pool) and source_pool != fork_pool
    assert timeline.audit.verify(fork_id).ok
    copy_ = timeline.archive.import_game(players[0], exported)
    assert [e.hash for e in timeline.audit.entries(str(copy_.id))] == [
        e.hash for e in timeline.audit.entries(fork_id)
    ]
    assert timeline.audit.verify(str(copy_.id)).ok


@pytest.mark.parametrize(("kind", "options"), [("IMHOTEP", {"sides": "B"}), ("AMUN_RE", {})])
def test_forking_a_running_game_over_graphql_and_rest(server, kind: str, options: dict) -> None:  # type: ignore[no-untyped-def,type-arg]
    """Forks of a running game: players only, their seat kept, the
    position as they saw it, nothing hidden from them in the fork's state or events."""
    players = seated(server.url, 3)
    outsider = register(server.url, "Outsider")
    game_id = create_table(players, kind, options)
    rng = random.Random(5)
    query = "query($g: ID!) { game(id: $g) { version activeSeats legalActions } }"
    for _ in range(20):
        seat = players[0].gql(query, {"g": game_id})["game"]["activeSeats"][0]
        legal = players[seat].gql(query, {"g": game_id})["game"]["legalActions"]
        players[seat].gql(
            "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { id } } }",
            {"g": game_id, "a": rng.choice(legal)},
        )
    at = players[0].gql(query, {"g": game_id})["game"]["version"]
    fork_mutation = (
        "mutation($g: ID!, $v: Int!) { forkGame(gameId: $g, atVersion: $v) "
        "{ id status mySeat forkedFrom { gameId version seats } } }"
    )
    refused = outsider.error(fork_mutation, {"g": game_id, "v": at})
    assert refused.code == "FORBIDDEN" and "player" in str(refused)
    assert Client(server.url).error(fork_mutation, {"g": game_id, "v": at}).code == (
        "UNAUTHENTICATED"
    )
    problem = outsider.rest("POST", f"/games/{game_id}/fork", json={"atVersion": at})
    assert problem.status_code == 403 and problem.json()["code"] == "FORBIDDEN"

    # each player forks at a version of its own log (without other seats' private steps)
    at = players[2].gql(query, {"g": game_id})["game"]["version"]
    fork = players[2].gql(fork_mutation, {"g": game_id, "v": at})["forkGame"]
    assert fork["status"] == "OPEN" and fork["mySeat"] == 2
    assert fork["forkedFrom"] == {"gameId": game_id, "version": at, "seats": [2]}
    at_0 = players[0].gql(query, {"g": game_id})["game"]["version"]
    rest_fork = players[0].rest("POST", f"/games/{game_id}/fork", json={"atVersion": at_0})
    assert rest_fork.status_code == 201, rest_fork.text
    assert rest_fork.json()["forkedFrom"] == {"gameId": game_id, "version": at_0, "seats": [0]}
    assert rest_fork.json()["mySeat"] == 0
    taken = outsider.error(
        "mutation($g: ID!) { joinGame(gameId: $g, seat: 2) { id } }", {"g": fork["id"]}
    )
    assert taken.code == "CONFLICT"  # the forking player's seat is theirs

    for seat in (0, 1):
        players[2].gql(
            "mutation($g: ID!, $s: Int) { addBot(gameId: $g, seat: $s) { id } }",
            {"g": fork["id"], "s": seat},
        )
    wait_game(players[2], fork["id"])  # the bots play on in their own commands
    events = players[2].rest("GET", f"/games/{fork['id']}/events?limit=100").json()["items"]
    dealt = next(e for e in events if e["type"] == "fork_dealt")
    source_view = players[2].rest("GET", f"/games/{game_id}/state?version={at}").json()
    fork_view = (
        players[2].rest("GET", f"/games/{fork['id']}/state?version={dealt['version']}").json()
    )
    assert dealt["data"] == {"state": fork_view}  # the event shows the position as seen
    if kind == "AMUN_RE" and source_view["phase"] == "offering":  # the others commit again
        for key in ("to_act", "offering", "decision"):
            source_view.pop(key), fork_view.pop(key)
    assert fork_view == source_view
    secret = ("hidden", "secret", '"hand"', '"pair"')
    for viewer in (outsider, Client(server.url)):
        seen = viewer.gql(
            "query($g: ID!) { game(id: $g) { state events(first: 100) { edges { node { data } } } } }",
            {"g": fork["id"]},
        )["game"]
        text = json.dumps(seen)
        assert not any(word in text for word in secret), "a secret of the fork leaked"
    found = players[2].gql(
        "query($g: ID!) { verifyLog(gameId: $g) { ok } game(id: $g) { forkedFrom { seats } } }",
        {"g": fork["id"]},
    )
    assert found == {"verifyLog": {"ok": True}, "game": {"forkedFrom": {"seats": [2]}}}


def test_a_player_holding_every_seat_gets_a_fork_that_starts_at_once(sqlite_url: str) -> None:
    """Forks: a hot-seat player forks on what all their seats see; it starts immediately.
    An abandoned game never reveals its secrets, so it too is forked on what the seats saw."""
    games = Application(open_store(sqlite_url))
    timeline = games
    alone = games.accounts.register_player("Alone")[0]
    game_id = str(games.seating.create_game(alone, "imhotep", 2, {}, "hot").id)
    games.seating.join_game(alone, game_id, 0)
    games.seating.join_game(alone, game_id, 1)
    rng = random.Random(1)
    for _ in range(12):
        act_once(games, [alone, alone], game_id, rng)
    at = games.tables.get(game_id).version
    fork = timeline.forks.fork(alone, game_id, at)
    assert fork.table.status == tables.ACTIVE
    assert fork.table.forked_from == {"game_id": game_id, "version": at, "seats": [0, 1]}
    source = games.tables.at_version(game_id, at).table
    assert views.state(fork.table, alone) == views.state(source, alone)
    assert fork.table.game.draw != source.game.draw  # hidden from both seats: re-dealt
    assert sorted(fork.table.game.draw) == sorted(source.game.draw)
    began = next(e.version for e in timeline.audit.entries(str(fork.id)) if e.type == "game_started")
    with pytest.raises(PapyrusError, match="part of this fork's start"):
        timeline.forks.fork(alone, str(fork.id), began)
    games.seating.abandon_game(alone, game_id, "lunch")
    again = timeline.forks.fork(alone, game_id, at)
    assert again.table.forked_from["seats"] == [0, 1]  # type: ignore[index]
    assert timeline.audit.verify(str(again.id)).ok and timeline.audit.verify(str(fork.id)).ok


def finished_fork_document(
    url: str,
) -> tuple[Application, Caller, dict[str, Any], dict[str, Any]]:
    """A finished game, a fork of it at a version that ends an action, played out by its
    forking player and a bot (a table needs a person), and that fork's export."""
    games, timeline, players, game_id = setup_game(url, "imhotep", 2, seed="doc")
    rng = random.Random(3)
    while games.tables.get(game_id).table.status == tables.ACTIVE:
        act_once(games, players, game_id, rng)
    log = timeline.audit.entries(game_id)
    at = next(
        a.version
        for a, b in itertools.pairwise(log)
        if a.version > 40 and b.command != a.command and b.type not in tables.TABLE_EVENTS
    )
    fork = str(timeline.forks.fork(players[0], game_id, at).id)
    assert timeline.audit.verify(fork).ok  # open, nobody seated yet
    games.seating.join_game(players[0], fork, 0)
    games.seating.add_bot(players[0], fork, 1, "random")
    settle_bots(games, fork)
    while games.tables.get(fork).table.status == tables.ACTIVE:
        act_once(games, [players[0], players[0]], fork, rng)  # seat 0: the bot settles seat 1
    return timeline, players[0], timeline.archive.export(game_id), timeline.archive.export(fork)


def edited(document: dict[str, Any], change: Any) -> dict[str, Any]:
    events = copy.deepcopy(document["events"])
    change(events)
    return {**document, "events": reseal(events, document["seed"])}


def test_an_imported_fork_must_start_exactly_as_its_source(sqlite_url: str) -> None:
    """importGame of forks: without its (finished) source here a fork's start could be
    anything, so it is refused; a re-sealed copy whose copied part differs from the source is
    named; a re-sealed game that claims to be a fork but starts by itself is named too."""
    timeline, player, plain, document = finished_fork_document(sqlite_url)
    assert str(timeline.archive.import_game(player, document).id)
    copied = next(e for e in document["events"] if e["command"] == "fork" and e["automatic"])

    def nudge(events: list[dict]) -> None:  # type: ignore[type-arg]
        events[copied["version"] - 1]["automatic"] = False  # as if a seat had chosen it

    with pytest.raises(PapyrusError, match=f"Event {copied['version']} .*not its source game"):
        timeline.archive.import_game(player, edited(document, nudge))

    def elsewhere(events: list[dict]) -> None:  # type: ignore[type-arg]
        events[0]["data"]["forked_from"]["game_id"] = "00000000-0000-4000-8000-000000000000"

    with pytest.raises(PapyrusError, match="not on this server"):
        timeline.archive.import_game(player, edited(document, elsewhere))

    def by_itself(events: list[dict]) -> None:  # type: ignore[type-arg]
        for e in events:
            if e["command"] == "fork":
                e["command"] = "start:1"

    with pytest.raises(PapyrusError, match="does not hold") as refused:
        timeline.archive.import_game(player, edited(document, by_itself))
    assert refused.value.code == "BAD_INPUT"

    def claims_fork(events: list[dict]) -> None:  # type: ignore[type-arg]
        source = document["events"][0]["data"]["forked_from"]
        events[0]["data"]["forked_from"] = {**source, "seats": [0]}

    with pytest.raises(PapyrusError, match="only a fork"):  # a bad input, never a hang
        timeline.archive.import_game(player, edited(plain, claims_fork))

    def relabelled(events: list[dict]) -> None:  # type: ignore[type-arg]
        last = next(e["command"] for e in reversed(events) if e["command"])
        for e in events:  # the last action of a plain game, posing as copied steps
            if e["command"] == last:
                e["command"] = "fork"

    with pytest.raises(PapyrusError, match="only a fork's start may come from another game"):
        timeline.archive.import_game(player, edited(plain, relabelled))


@pytest.mark.parametrize(
    "source",
    [
        lambda s: {**s, "version": str(s["version"])},
        lambda s: {**s, "version": s["version"] + 0.5},
        lambda s: {**s, "game_id": s["game_id"].upper()},
        lambda s: {**s, "extra": 1},
        lambda s: {**s, "seats": "0"},
        lambda s: {**s, "seats": [0, 0]},
        lambda s: {**s, "seats": [5]},
        lambda s: {**s, "seats": [True]},
        lambda s: {**s, "seats": []},
    ],
)
def test_a_malformed_fork_source_is_refused(sqlite_url: str, source: Any) -> None:
    """importGame: ``forkedFrom`` must be exactly what forkGame writes (it is served as is)."""
    timeline, player, _, document = finished_fork_document(sqlite_url)

    def change(events: list[dict]) -> None:  # type: ignore[type-arg]
        events[0]["data"]["forked_from"] = source(events[0]["data"]["forked_from"])

    with pytest.raises(PapyrusError, match=r"Event 1 .*malformed") as refused:
        timeline.archive.import_game(player, edited(document, change))
    assert refused.value.code == "BAD_INPUT"


def test_an_imported_fork_must_start_where_a_fork_may(sqlite_url: str) -> None:
    """importGame: a fork source version where forkGame refuses (the end of the game) is named."""
    timeline, player, plain, document = finished_fork_document(sqlite_url)
    finished = next(e["version"] for e in plain["events"] if e["type"] == "game_finished")

    def at_the_end(events: list[dict]) -> None:  # type: ignore[type-arg]
        events[0]["data"]["forked_from"]["version"] = finished

    with pytest.raises(PapyrusError, match="cannot be forked"):
        timeline.archive.import_game(player, edited(document, at_the_end))


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(options={**d["options"], "wrath_of_the_pharaoh": True}),
        lambda d: d.update(
            options={**d["options"], "sides": dict.fromkeys(d["options"]["sides"], "B")}
        ),
    ],
    ids=["wrath", "sides"],
)
def test_a_fork_must_keep_its_source_table(sqlite_url: str, change: Any) -> None:
    """A fork's start replayed on another table (other options) is not what the source gives,
    even though its copied events are the source's."""
    timeline, _, _, document = finished_fork_document(sqlite_url)
    start = max(e["version"] for e in document["events"] if e["command"] == "fork")
    logged = copy.deepcopy([e for e in document["events"] if e["version"] <= start])
    change(logged[0]["data"])
    finding = timeline.audit.check([Entry(**e) for e in reseal(logged, document["seed"])], trusted=True)
    assert (finding.ok, finding.version) == (False, 1)
    assert "not its source's" in str(finding.reason)
