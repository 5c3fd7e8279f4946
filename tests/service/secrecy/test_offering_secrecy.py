"""Amun-Re R11.1 / R11.2 / §17 over the API: during the Offering nothing another seat (or a
spectator) can read tells a seat's commitment, gold or private steps before the reveal — not the
state, the events, their number or versions, the time of the last change, the legal actions,
REST, the subscription, the summaries or an error message.

Two tables are played identically from the same seed; only one secret of seat 0 differs. Every
read path of every other caller must answer the same on both tables
(``tests.service.secrecy.reads``: ids, hashes and times normalised, nothing else)."""

from __future__ import annotations

import base64
import random
from typing import Any

from tests.client import Client
from tests.service.play import create_table, seated
from tests.service.secrecy.reads import EVENT, assert_alike, check_times, everything, legal, rest

READ = "query($g: ID!) { game(id: $g) { version status activeSeats legalActions state } }"
ACT = "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { version } } }"
UNDO = "mutation($g: ID!) { requestUndo(gameId: $g) { version } }"
ACT_SEEN = (
    "mutation($g: ID!, $a: JSON!, $v: Int) { act(gameId: $g, action: $a, expectedVersion: $v) "
    f"{{ game {{ version updatedAt state legalActions }} events {{ {EVENT} }} }} }}"
)


def to_offering(players: list[Client], game_id: str, rng: random.Random) -> None:
    for _ in range(5000):
        game = players[0].gql(READ, {"g": game_id})["game"]
        if game["state"].get("phase") == "offering" and len(game["activeSeats"]) == len(players):
            return
        seat = rng.choice(game["activeSeats"])
        legal = players[seat].gql(READ, {"g": game_id})["game"]["legalActions"]
        players[seat].gql(ACT, {"g": game_id, "a": rng.choice(legal)})
    raise AssertionError("no offering reached")


def read_all(callers: dict[str, Client], ws_url: str, game_id: str) -> dict[str, Any]:
    seen = {name: everything(caller, ws_url, game_id) for name, caller in callers.items()}
    for each in seen.values():
        check_times(each)
    return seen


def test_other_seats_cannot_tell_a_commitment_before_the_reveal(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """R11.1: seat 0 offers 1 gold on one table and its most (after marking a card) on the
    other; seat 1 and a spectator read the same everywhere, errors included."""
    players = seated(sqlite_server.url, 3)
    callers = {"seat 1": players[1], "spectator": Client(sqlite_server.url)}
    seen = []
    for gold in (1, 2):
        game_id = create_table(players, "AMUN_RE", seed="same-seed")
        to_offering(players, game_id, random.Random(4))
        actions = legal(players[0], game_id)
        commits = [a for a in actions if a["type"] == "commit_gold"]
        choice = commits[0] if gold == 1 else commits[-1]
        marks = [a for a in actions if a["type"] == "mark_for_sale"]
        if gold == 2 and marks:  # a private step too, on one table only
            players[0].gql(ACT, {"g": game_id, "a": marks[0]})
            actions = legal(players[0], game_id)
            choice = [a for a in actions if a["type"] in ("commit_gold", "commit_theft")][-1]
        players[0].gql(ACT, {"g": game_id, "a": choice})
        views = read_all(callers, sqlite_server.ws_url, game_id)
        failure = players[1].error(ACT, {"g": game_id, "a": {"type": "commit_gold", "gold": 999}})
        views["seat 1"]["error"] = (failure.code, str(failure))
        seen.append(views)
    assert_alike(*seen, "seat 0's commitment")


def test_r11_2_other_seats_cannot_count_the_cards_marked_for_sale(server) -> None:  # type: ignore[no-untyped-def]
    """R11.1 / R11.2 / §17: not only which cards a seat marks for sale stays secret until the
    reveal, but how many. Seat 0 marks no card on one table and two on the other, then both
    commit the same gold; seat 1 then acts on the version it read before seat 0's private steps
    (a harmless simultaneous step, so accepted on both tables: ``act`` expectedVersion) and
    commits. Before and after, seat 1, seat 2 and a spectator read exactly the same on every
    read path: versions, event numbers, cursors, ``updatedAt`` (the time of their last visible
    event), replay, ``stateAt`` (and its bounds), the subscription, the summaries, verifyLog,
    REST, and what ``act`` answers seat 1."""
    players = seated(server.url, 3)
    callers = {"seat 1": players[1], "seat 2": players[2], "spectator": Client(server.url)}
    tables = []
    for marks in (0, 2):
        game_id = create_table(players, "AMUN_RE", seed="marks")
        to_offering(players, game_id, random.Random(29))  # seat 0 then holds two cards
        seat_1_read = players[1].gql(READ, {"g": game_id})["game"]["version"]
        marked = 0
        for _ in range(marks):
            mark = next(a for a in legal(players[0], game_id) if a["type"] == "mark_for_sale")
            players[0].gql(ACT, {"g": game_id, "a": mark})
            marked += 1
        assert marked == marks
        marking = read_all(callers, server.ws_url, game_id)
        players[0].gql(ACT, {"g": game_id, "a": {"type": "commit_gold", "gold": 1}})
        committed = read_all(callers, server.ws_url, game_id)
        commit = {"type": "commit_gold", "gold": 1}
        own = next((a for a in legal(players[1], game_id) if a["type"] == "mark_for_sale"), commit)
        answers = [players[1].gql(ACT_SEEN, {"g": game_id, "a": own, "v": seat_1_read})["act"]]
        if own != commit:
            now = answers[0]["game"]["version"]  # seat 1's own mark is in its log
            answers.append(players[1].gql(ACT_SEEN, {"g": game_id, "a": commit, "v": now})["act"])
        answered = read_all(callers, server.ws_url, game_id)
        answered["seat 1"]["act"] = answers
        stale = players[1].error(ACT_SEEN, {"g": game_id, "a": own, "v": 2})
        answered["seat 1"]["stale"] = (stale.code, str(stale))
        tables.append((marking, committed, answered))
    (a_marking, a_committed, a_answered), (b_marking, b_committed, b_answered) = tables
    assert_alike(a_marking, b_marking, "how many cards seat 0 marked (before its commitment)")
    assert_alike(a_committed, b_committed, "how many cards seat 0 marked (after its commitment)")
    assert_alike(a_answered, b_answered, "how many cards seat 0 marked (after seat 1 acted)")
    # the seat that marked sees its own steps in its own log
    own_log = players[0].gql(
        "query($g: ID!) { game(id: $g) { version events(first: 200) { nodes { type } } } }",
        {"g": game_id},
    )["game"]
    assert [e["type"] for e in own_log["events"]["nodes"]].count("sale_marked") == 2
    assert own_log["version"] == b_answered["spectator"]["game"]["version"] + 2


CAN_UNDO = "query($g: ID!) { game(id: $g) { canUndo { allowed immediate toVersion reason } } }"


def test_r11_2_a_seat_takes_back_its_own_step_and_never_another_seats_private_one(  # type: ignore[no-untyped-def]
    sqlite_server,
) -> None:
    """Undo policy with R11.1 / §17: seat 1 marks a card, then seat 0 marks none or two (in
    secret), then seat 1 takes its mark back. Whether it may, and how, does not depend on seat
    0's private steps (they do not count as "another seat acted since"), the undo takes back
    seat 1's step only (seat 0's marks stay), and afterwards every other caller reads the same
    on both tables (an undo of private steps is itself private)."""
    players = seated(sqlite_server.url, 3)
    callers = {"seat 1": players[1], "seat 2": players[2], "spectator": Client(sqlite_server.url)}
    tables = []
    for marks in (0, 2):
        game_id = create_table(players, "AMUN_RE", seed="marks")
        to_offering(players, game_id, random.Random(106))  # seats 0 and 1 hold cards
        own = next(a for a in legal(players[1], game_id) if a["type"] == "mark_for_sale")
        players[1].gql(ACT, {"g": game_id, "a": own})
        for _ in range(marks):
            mark = next(a for a in legal(players[0], game_id) if a["type"] == "mark_for_sale")
            players[0].gql(ACT, {"g": game_id, "a": mark})
        status = players[1].gql(CAN_UNDO, {"g": game_id})["game"]["canUndo"]
        assert status["allowed"] and status["immediate"], status
        players[1].gql(UNDO, {"g": game_id})
        mine = players[1].gql(READ, {"g": game_id})["game"]["state"]["you"]
        assert mine["marked_for_sale"] == {}  # its own step is taken back
        theirs = players[0].gql(READ, {"g": game_id})["game"]["state"]["you"]
        assert sum(theirs["marked_for_sale"].values()) == marks  # seat 0's stay
        seen = read_all(callers, sqlite_server.ws_url, game_id)
        seen["seat 1"]["canUndo before"] = status
        tables.append(seen)
    assert_alike(*tables, "how many cards seat 0 marked (around seat 1's undo)")


POSITIONS = "query { readModels { storePosition readModels { name position } } }"
LISTED = "query { gameSummaries(first: 1) { edges { cursor } } }"


def positions_shown(client: Client) -> dict[str, Any]:
    """Every position a caller is shown: GraphQL and REST, the store's and each read model's,
    and the cursor of the newest game in the listing."""
    cursor = client.gql(LISTED)["gameSummaries"]["edges"][0]["cursor"]
    return {
        "graphql": client.gql(POSITIONS)["readModels"],
        "rest": rest(client, "/read-models"),
        "newest game": base64.urlsafe_b64decode(cursor).decode(),
    }


def test_no_position_shown_counts_another_seats_private_steps(server) -> None:  # type: ignore[no-untyped-def]
    """R11.1 / R11.2 / §17 on the read models' positions (issue #20): the store position, each
    read model's and the listing's cursors count the game entries everybody sees, so seat 0's
    marks for sale move none of them; its public commitment moves each by one, and a table
    made after the marks is listed right after the one made before them."""
    players = seated(server.url, 3)
    spectator = Client(server.url)
    game_id = create_table(players, "AMUN_RE", seed="marks")
    to_offering(players, game_id, random.Random(29))  # seat 0 then holds two cards
    before = positions_shown(spectator)
    for _ in range(2):
        mark = next(a for a in legal(players[0], game_id) if a["type"] == "mark_for_sale")
        players[0].gql(ACT, {"g": game_id, "a": mark})
    assert positions_shown(spectator) == before  # two private steps: nothing moved

    players[0].gql(ACT, {"g": game_id, "a": {"type": "commit_gold", "gold": 1}})
    committed = positions_shown(spectator)
    store = before["graphql"]["storePosition"]
    assert committed["graphql"]["storePosition"] == store + 1  # the commitment, public
    assert committed["rest"]["body"]["storePosition"] == store + 1
    assert {m["position"] for m in committed["graphql"]["readModels"]} == {store + 1}

    players[1].gql("mutation { createGame(input: {kind: IMHOTEP, seats: 2}) { id } }")
    listed = positions_shown(spectator)
    assert listed["graphql"]["storePosition"] == store + 2
    kind, _, seq = listed["newest game"].partition(":")
    assert (kind, int(seq)) == ("game", store + 2)  # the table made after the marks
