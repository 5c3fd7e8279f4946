"""Scarab (``tests/plugin_game/scarab``, rules ``scarab/RULES.md``): a third game that the
platform finds only through the entry-point group ``papyrus.games``, played through the same
engine, views, forks, typed views and bots as the shipped games.

The folder is put on ``sys.path`` by the ``scarab`` fixture for one test at a time and taken off
again (with the registry's cache cleared both ways and the ``scarab`` modules forgotten), so no
other test ever sees a third game.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from collections import Counter
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from domain import actions, registry, table
from domain.contract import FORK_DEALT, BadAction, BadOptions, Event, IllegalAction, NotYourTurn
from domain.engine import apply_events, play, replay
from domain.randomness import rng_for
from domain.registry import GameModule

# imported while only the shipped games are registered: the package builds its ``GameView``
# union at import, which must never include Scarab for the rest of the session
from service.api.graphql.gameviews.derivation import ViewShapeError, derive
from service.app.bots import evaluation
from service.app.bots.levels import LEVELS, Budget, choose_action, determinize

FOLDER = Path(__file__).resolve().parent
#: random games per seat count (2, 3, 4 seats)
GAMES = 100
DECK = Counter(v for v in range(1, 11) for _ in range(2))


@pytest.fixture
def scarab() -> Iterator[GameModule]:
    """Scarab's folder on ``sys.path`` for one test: the registry is read afresh while it is
    there and after it is gone."""
    sys.path.insert(0, str(FOLDER))
    registry.games.cache_clear()
    try:
        yield registry.game("scarab")
    finally:
        sys.path.remove(str(FOLDER))
        for name in [n for n in sys.modules if n == "scarab" or n.startswith("scarab.")]:
            del sys.modules[name]
        registry.games.cache_clear()


def opening(game: GameModule, seats: int, seed: int) -> tuple[list[Event], Any]:
    rules = game.rules
    options = rules.normalize_options(seats, {})
    events = rules.setup(seats, options, rng_for(str(seed), 1))
    return events, apply_events(rules, rules.initial(seats, options), events)


def positions(game: GameModule, seats: int, seed: int) -> Iterator[tuple[Any, list[Event]]]:
    """Every position of one random game (from the deal on), with the events so far."""
    rules = game.rules
    events, state = opening(game, seats, seed)
    rng = random.Random(seed)
    yield state, events
    while rules.outcome(state) is None:
        seat = rng.choice(rules.active_seats(state))
        steps, state = play(rules, state, seat, rng.choice(rules.legal_actions(state, seat)), rng)
        events = events + [step.event for step in steps]
        yield state, events


def games(game: GameModule, per_seats: int = GAMES) -> Iterator[tuple[int, int]]:
    for seats in range(game.rules.min_seats, game.rules.max_seats + 1):
        for seed in range(per_seats):
            yield seats, seed


def cards(state: Any) -> Counter[int]:
    """Every card of the game, wherever it is: always the whole deck (R1)."""
    everywhere = [c for hand in state.hands for c in hand] + state.deck + state.played
    return Counter(everywhere + state.discards)


def test_scarab_is_not_registered_without_its_folder() -> None:
    assert "scarab" not in registry.kinds()
    assert "scarab" not in entry_points(group=registry.GROUP).names


def test_the_registry_lists_scarab_after_the_shipped_games(scarab: GameModule) -> None:
    assert registry.kinds() == ("imhotep", "amun_re", "scarab")
    (entry,) = entry_points(group=registry.GROUP, name="scarab")
    assert entry.value == "scarab.game:GAME"
    assert entry.dist is not None and entry.dist.name == "papyrus-scarab"
    assert (scarab.name, scarab.order) == ("Scarab", 3)
    assert registry.rules_for("scarab") is scarab.rules
    assert actions.catalog_for("scarab") is scarab.actions
    board = scarab.board(scarab.rules.version)
    assert board["game"] == "scarab" and board["rulesVersion"] == "scarab-1"
    assert sum(c["count"] for c in board["cards"]) == board["deckSize"] == 20
    assert any(s["title"] == "scarab.play" for s in actions.any_action_schemas())


def test_random_games_end_and_replay_without_a_re_roll(scarab: GameModule) -> None:
    """R2-R6: every game ends after 20 turns with an outcome; every legal action validates
    against the catalog; replaying the events gives the live state; a decision does not
    depend on the rng (the draws follow the recorded shuffle)."""
    rules = scarab.rules
    schemas = {
        spec.name: jsonschema.Draft202012Validator(actions.json_schema(spec))
        for spec in scarab.actions.actions
    }
    for seats, seed in games(scarab):
        turns = 0
        for state, events in positions(scarab, seats, seed):
            assert cards(state) == DECK
            for seat in rules.active_seats(state):
                legal = rules.legal_actions(state, seat)
                assert len(legal) >= 2  # never automatic
                for action in legal:
                    schemas[action["type"]].validate(action)
                action = legal[seed % len(legal)]
                assert rules.decide(state, seat, action, random.Random(1)) == rules.decide(
                    state, seat, action, random.Random(2)
                )
                turns += 1
            assert replay(rules, seats, {}, events) == state
        outcome = rules.outcome(state)
        assert outcome is not None and turns == 20 and state.deck == []
        assert outcome.scores == rules.scores(state) and min(outcome.ranks) == 1
        assert {s for s, r in enumerate(outcome.ranks) if r == 1} == set(outcome.winners)
        json.dumps(rules.view(state, None, True))


def test_a_replay_draws_nothing(scarab: GameModule, monkeypatch: pytest.MonkeyPatch) -> None:
    *_, (state, events) = positions(scarab, 3, 7)

    def no_draw(*args: Any) -> Any:
        raise AssertionError("evolve drew randomness")

    for name in ("random", "getrandbits", "shuffle", "choice", "randrange"):
        monkeypatch.setattr(random.Random, name, no_draw)
    assert replay(scarab.rules, 3, {}, events) == state


def test_a_seat_never_sees_another_hand_or_the_deck(scarab: GameModule) -> None:
    """R7: a view names its own hand only and no order of the draw pile; re-dealing everything
    hidden from the seat changes nothing it sees, its legal actions included."""
    rules = scarab.rules
    differing = 0
    for seats, seed in games(scarab, 10):
        for number, (state, _) in enumerate(positions(scarab, seats, seed)):
            for seat in [*range(seats), None]:
                view = rules.view(state, seat)
                assert "hidden" not in view
                assert [p["seat"] for p in view["players"] if "hand" in p] == (
                    [] if seat is None else [seat]
                )
                if seat is None:
                    continue
                other = determinize(rules, state, seat, random.Random(f"{seed}:{number}"))
                assert rules.view(other, seat) == view
                assert rules.legal_actions(other, seat) == rules.legal_actions(state, seat)
                differing += other != state
    assert differing > 100  # the re-deals really moved hidden cards


def test_view_event_hides_a_draw_from_the_other_seats(scarab: GameModule) -> None:
    rules = scarab.rules
    *_, (_, events) = positions(scarab, 4, 3)
    dealt, draws = events[0], [e for e in events if e.type == "card_drawn"]
    assert len(draws) == 20 - 3 * 4
    for seat in [0, 1, 2, 3, None]:
        shown = rules.view_event(dealt, seat)
        assert shown is not None and shown.data.get("hand") == (
            None if seat is None else dealt.data["hands"][seat]
        )
        assert shown.data["hand_counts"] == [3] * 4 and "deck" not in shown.data
        for draw in draws:
            seen = rules.view_event(draw, seat)
            assert seen == draw if seat == draw.seat else seen == Event("card_drawn", {}, draw.seat)
            assert rules.view_event(draw, seat, True) == draw
    public = [e for e in events if e.type != "card_drawn"][1:]
    assert all(rules.view_event(e, s) == e for e in public for s in (0, None))


def test_fork_depends_only_on_what_the_seats_see(scarab: GameModule) -> None:
    """R9: two states a seat cannot tell apart fork alike; a fork keeps what the seat sees,
    the sizes of everything hidden, and the whole deck."""
    rules = scarab.rules
    for seats, seed in games(scarab, 8):
        for number, (state, _) in enumerate(positions(scarab, seats, seed)):
            if rules.outcome(state) is not None:
                break
            seat = rules.active_seats(state)[0]
            one = determinize(rules, state, seat, random.Random(f"one:{number}"))
            two = determinize(rules, state, seat, random.Random(f"two:{number}"))
            event = rules.fork(one, [seat], random.Random(number))
            assert event == rules.fork(two, [seat], random.Random(number))
            assert event.type == FORK_DEALT and rules.is_irreversible(event)
            forked = rules.evolve(rules.initial(seats, {}), event)
            assert rules.view(forked, seat) == rules.view(state, seat)
            assert [len(h) for h in forked.hands] == [len(h) for h in state.hands]
            assert cards(forked) == DECK
            assert rules.view_event(event, seat) == Event(
                FORK_DEALT, {"state": rules.view(forked, seat)}
            )
            everyone = rules.fork(state, list(range(seats)), random.Random(number))
            assert everyone.data["state"]["hands"] == state.hands  # only the deck is hidden


def test_the_typed_view_is_derived_and_reads_every_view(scarab: GameModule) -> None:
    derived = derive(scarab.view)
    assert derived.root.__name__ == "ScarabState"
    assert {"ScarabPlayer", "ScarabPending", "ScarabOutcome", "ScarabHidden"} <= set(
        derived.by_name
    )
    rules = scarab.rules
    for seats, seed in games(scarab, 5):
        for state, _ in positions(scarab, seats, seed):
            for seat in [*range(seats), None]:
                assert derived.read(rules.view(state, seat)).game == "scarab"
        typed = derived.read(rules.view(state, None, True))
        outcome = rules.outcome(state)
        assert outcome is not None and typed.outcome.winners == outcome.winners
        assert typed.hidden.draw_pile == []
    with pytest.raises(ViewShapeError):
        derived.read({**rules.view(state, 0), "deck": [1, 2]})


def test_undo_stops_at_the_deal_the_draws_and_the_end(scarab: GameModule) -> None:
    """R8: only a play or a discard with no draw after it may be taken back."""
    rules = scarab.rules
    *_, (_, events) = positions(scarab, 2, 11)
    irreversible = {e.type for e in events if table.is_irreversible(rules, e)}
    assert irreversible == {"cards_dealt", "card_drawn", "game_ended"}
    last_turns = [e for e in events[-5:] if e.type in ("card_played", "card_discarded")]
    assert last_turns and not any(rules.is_irreversible(e) for e in last_turns)


def test_refusals_name_their_rule(scarab: GameModule) -> None:
    rules = scarab.rules
    with pytest.raises(BadOptions):
        rules.normalize_options(5, {})
    with pytest.raises(BadOptions):
        rules.normalize_options(2, {"jokers": True})
    _, state = opening(scarab, 2, 5)
    held = state.hands[0][0]
    missing = next(v for v in range(1, 11) if v not in state.hands[0])
    with pytest.raises(NotYourTurn):
        rules.decide(state, 1, {"type": "play", "card": state.hands[1][0]}, random.Random())
    for bad in ({"type": "pass"}, {"type": "play"}, {"type": "play", "card": True},
                {"type": "play", "card": held, "also": 1}, {"type": "discard", "card": 11}):  # fmt: skip
        with pytest.raises(BadAction) as refused:
            rules.decide(state, 0, bad, random.Random())
        assert refused.value.rule == "R3"
    with pytest.raises(IllegalAction, match=f"holds no {missing}"):
        rules.decide(state, 0, {"type": "discard", "card": missing}, random.Random())
    *_, (over, _) = positions(scarab, 2, 5)
    with pytest.raises(IllegalAction, match="over"):
        rules.decide(over, over.current, {"type": "play", "card": 1}, random.Random())


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_bots_of_every_level_play_whole_games(scarab: GameModule, seats: int) -> None:
    """Every level (random, greedy, mcts) plays whole games on its own seats, leaves the state
    alone, and chooses alike on two states its seat cannot tell apart."""
    rules = scarab.rules
    budget = Budget(iterations=16)
    for first in range(len(LEVELS)):
        levels = [LEVELS[(first + s) % len(LEVELS)] for s in range(seats)]
        seed = f"bots:{seats}:{first}"
        _, state = opening(scarab, seats, first)
        version = 2
        while rules.outcome(state) is None:
            seat = rules.active_seats(state)[0]
            before = copy.deepcopy(state)
            action = choose_action(levels[seat], rules, state, seat, seed, version, budget)
            assert state == before and action in rules.legal_actions(state, seat)
            twin = determinize(rules, state, seat, random.Random(version))
            assert choose_action(levels[seat], rules, twin, seat, seed, version, budget) == action
            assert len(evaluation.projected(rules, state)) == seats
            steps, state = play(rules, state, seat, action, rng_for(seed, version))
            version += len(steps)
        assert rules.outcome(state) is not None
