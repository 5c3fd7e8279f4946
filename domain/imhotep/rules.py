"""Imhotep on the rules contract (``domain.contract.Rules``): ``RULES``.

Who acts (§10.1): the owner of the pending decision, else the current player (§5.2), else nobody
(after §13). ``decide`` checks the action (§6, §9.6, §10.2), then resolves everything that needs no
further choice (``domain.imhotep.flow``) on a copy of the state; automatic single-option steps
(C-1, §11.3) are left to ``domain.engine``.
"""

from __future__ import annotations

import random

from domain.contract import JSON, Event, NotYourTurn, Outcome, Rules
from domain.imhotep import decisions, fork, options, view
from domain.imhotep.errors import DecisionPending, GameIsOver, MalformedAction
from domain.imhotep.evolve import evolve
from domain.imhotep.flow import advance, setup_events
from domain.imhotep.state import State, new_state, pending
from domain.imhotep.turns import TURN_TYPES, decide_turn, legal_turn

ACTION_TYPES = TURN_TYPES + tuple(t for ts in decisions.OPTION_TYPES.values() for t in ts)

#: turn events after which nothing else can follow but the next turn (no copy needed)
_SELF_CONTAINED = frozenset({"stones_taken", "stone_placed", "hammer_played", "chisel_played"})


#: events that record a random outcome or make a hidden card public (§3, §9.1, §9.2, §14)
IRREVERSIBLE = frozenset(
    {
        "game_prepared",  # the shuffled deck and round stack
        "round_started",  # reveals a round card and deals cards from the draw pile
        "discard_reshuffled",
        "card_drawn",
        "pair_taken",  # its taker sees the face-down pair
        "card_kept",  # the pair becomes public
        "market_cleared",  # an unclaimed pair is discarded face up
        "players_ranked",
        fork.FORK_DEALT,  # a fork's re-dealt starting position
    }
)


class ImhotepRules:
    """The Imhotep rules object (spec ``imhotep.md``)."""

    kind = "imhotep"
    version = "imhotep-1"
    min_seats = 2
    max_seats = 4

    def normalize_options(self, seats: int, options_: JSON) -> JSON:
        return options.normalize_options(seats, options_)

    def setup(self, seats: int, options_: JSON, rng: random.Random) -> list[Event]:
        return setup_events(new_state(seats, options_), rng)

    def initial(self, seats: int, options_: JSON) -> State:
        return new_state(seats, options_)

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event)

    def active_seats(self, state: State) -> list[int]:
        if state.over or state.round == 0:  # finished, or not set up yet
            return []
        frame = pending(state)
        if frame is not None:
            return [decisions.owner(frame)]
        return [] if state.stack else [state.current]

    def legal_actions(self, state: State, seat: int) -> list[JSON]:
        if state.over or state.round == 0:
            return []
        frame = pending(state)
        if frame is not None:
            return decisions.options(state, frame) if seat == decisions.owner(frame) else []
        if state.stack or seat != state.current:
            return []
        return legal_turn(state, seat)

    def decide(self, state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
        if state.over:
            raise GameIsOver("the game is over", rule="§13")
        if state.round == 0:
            raise NotYourTurn("the game has not been set up yet", rule="§3")
        if not isinstance(action, dict) or action.get("type") not in ACTION_TYPES:
            raise MalformedAction(
                f"unknown action; actions are {', '.join(ACTION_TYPES)}", rule="§11"
            )
        frame = pending(state)
        if frame is None:
            if state.stack or seat != state.current:
                raise NotYourTurn(f"it is seat {state.current}'s turn", rule="§10.1")
            if action["type"] not in TURN_TYPES:
                raise DecisionPending("no decision is pending; take a turn action", rule="§5.2")
            event = decide_turn(state, seat, action)
            if event.type in _SELF_CONTAINED or (
                event.type == "turn_passed" and state.passes + 1 < state.n
            ):
                return [event]
        else:
            owner = decisions.owner(frame)
            if seat != owner:
                raise NotYourTurn(f"seat {owner} must decide now", rule="§10.1")
            event = decisions.decide_option(state, seat, frame, action)
        scratch = state.copy()
        out = [event]
        evolve(scratch, event)
        advance(scratch, rng, out, seat)
        return out

    def view(self, state: State, seat: int | None, full: bool = False) -> JSON:
        return view.view(self, state, seat, full)

    def view_event(self, event: Event, seat: int | None, full: bool = False) -> Event | None:
        if event.type == fork.FORK_DEALT and not full:  # the position as this seat sees it
            position = fork.restore(event.data["state"])
            return Event(event.type, {"state": self.view(position, seat)}, event.seat)
        return view.view_event(event, seat, full)

    def fork(self, state: State, seats: list[int], rng: random.Random) -> Event:
        return fork.fork_event(state, seats, rng)

    def is_irreversible(self, event: Event) -> bool:
        """Shuffles, draws and reveals (§14): an undo never goes back across them."""
        return event.type in IRREVERSIBLE

    def scores(self, state: State) -> list[int]:
        return list(state.scores)

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        return Outcome(list(state.scores), list(state.winners), list(state.ranks))


RULES: Rules[State] = ImhotepRules()
