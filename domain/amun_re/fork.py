"""A sandbox that starts from a running game as some seats see it (``Rules.fork``).

``fork_event(state, seats, rng)`` keeps everything the forking ``seats`` may see (R7.9, §17) and
re-deals from ``rng`` every item hidden from all of them, sizes kept. "Others" are the seats not
in ``seats``. Decisions, item by item (the view allow-list of ``view.py`` against §17):

* **Favour cards** (R7.9): the draw pile and the others' hands are pooled (the discard pile is
  face up and kept), dealt back into the draw pile and the others' hands in the same numbers (in
  seat order). The forking seats' hands are kept.
* **Tomb tiles** (Afterlife, R7.9, R16.1.1): the tomb stack and the others' collections likewise;
  the tomb discard pile and the tombs are public and kept.
* **Statue deck** (R7.9): hidden from everyone, its content is known (the statues not on the
  board): shuffled.
* **Province deck and province set** (R7.9, §17 "unused province cards: never"): with 3–4
  players the set of provinces in the game is secret except the provinces revealed at least once
  (``seen``). The new set is ``seen`` plus a random sample of the unseen provinces (the set keeps
  its size); the deck becomes the new set minus the provinces revealed in this kingdom (public),
  shuffled. With 5 players every province is in the set and only the order changes.
* **Secret commitments** (R11.1, R15.1, §17): during ``offering`` and ``final_sale`` an other
  seat's commitment (``committed``, cards ``marked`` for sale, ``adjust``ment sign and, in the
  Offering, ``offer`` and ``greed``) is secret: it is withdrawn, and that seat must commit again
  in the sandbox (its hand was re-dealt anyway). In the final sale ``offer`` holds the round-6
  Offering, public since its reveal (the view's ``last_offering``), and is kept. The forking
  seats keep their commitments; outside these two phases nothing is secret there (the reveal made
  it public, and it clears marks, adjustments and Greed).
* **Gold** (R7.9, D-46): another seat's gold is never shown to others, even though it could be
  reconstructed from the public transactions, so the sandbox must not carry it either (whoever
  takes that seat in the fork, or anybody once the fork is over, would read it). Nor may it be
  derived from the forking seats' own gold, which is just as secret: whoever takes an open seat
  would read it off his own gold (a first version gave every other seat the forking seats' mean
  gold; a review found that). Every other seat's gold is a function of public information
  only: the 20 gold every player starts with (R6.4, ``data.START_GOLD``), within what the board
  shows of it: at least its standing bid minus its Favour cards (R9.6 condition 6: the bid stays
  affordable) and, for the player visibly selling to pay his bid (R9.8), less than that bid.
  The bank ``ledger`` (not in any view, but in the fork's log once it is over) starts afresh:
  all the gold held is booked as start gold. Keeping the source's ledger would let anybody
  subtract their way back to the real total (a review found that).
* **Nothing else is hidden**: ``pending`` / ``pending_kind`` (farmers or stones to place),
  ``tomb_paid`` (items already discarded for an extra placement, each discarded face up),
  ``thoth_pending``, ``green``, bids, the board, VP, statues, the Pharaoh and the results are
  public and name no hidden card or tile; the Thoth card, the tile to place and the card to
  discard are chosen from the (re-dealt) hand or collection only when the seat acts.

Every pool is put in data order before shuffling, and the unseen provinces are sampled from data
order, so the result depends only on what the seats may see and on ``rng`` — never on where the
hidden items really were. Deductions from the history (card counting: cards drawn by others
before a reshuffle, Scheme cards that did not score at a kingdom scoring, R13.7) are not taken
into account: hidden items are re-dealt uniformly.

The event ``fork_dealt`` records the whole starting position (``snapshot``), so a replay never
re-rolls; ``restore`` is its inverse and ``load`` is its ``evolve``.
"""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

from domain.amun_re import data
from domain.amun_re.auction import payer
from domain.amun_re.state import NONE, State, clear_commitment, hand_size
from domain.contract import FORK_DEALT, JSON, Event

#: phases whose commitments are secret until their reveal (R11.1, R15.1)
SECRET_PHASES = ("offering", "final_sale")

_FIELDS = tuple(f.name for f in fields(State))


def _copy(value: Any) -> Any:
    """A deep copy of a JSON value (lists and string-keyed dicts of primitives)."""
    if type(value) is list:
        return [_copy(v) for v in value]
    if type(value) is dict:
        if not all(type(k) is str for k in value):
            raise TypeError(f"a state dict must have string keys: {sorted(map(repr, value))}")
        return {k: _copy(v) for k, v in value.items()}
    if value is None or type(value) in (bool, int, str):
        return value
    raise TypeError(f"not a JSON value in the state: {value!r}")


def snapshot(state: State) -> JSON:
    """Every field of the state as JSON values (a fresh structure, nothing shared)."""
    return {name: _copy(getattr(state, name)) for name in _FIELDS}


def restore(d: JSON) -> State:
    """The state a ``snapshot`` describes (a fresh object, nothing shared with ``d``)."""
    return State(**{name: _copy(d[name]) for name in _FIELDS})


def load(state: State, d: dict[str, Any], seat: int | None = None) -> None:
    """``evolve`` of ``fork_dealt``: the state becomes the recorded position (in place)."""
    position = restore(d["state"])
    for name in _FIELDS:
        setattr(state, name, getattr(position, name))


def fork_event(state: State, seats: list[int], rng: random.Random) -> Event:
    """Keep what ``seats`` may see, re-deal everything hidden from all of them (module
    docstring)."""
    s = state.clone()
    forking = set(seats)
    others = [x for x in range(s.seats) if x not in forking]
    s.draw, hands = _redeal(s.draw, [s.hands[x] for x in others], data.CARDS, rng)
    for x, hand in zip(others, hands, strict=True):
        s.hands[x] = hand
    s.tomb_stack, collections = _redeal(
        s.tomb_stack, [s.collection[x] for x in others], data.TOMB_TILES, rng
    )
    for x, collection in zip(others, collections, strict=True):
        s.collection[x] = collection
    s.statue_deck = sorted(s.statue_deck, key=data.STATUE_INDEX.__getitem__)
    rng.shuffle(s.statue_deck)
    _redeal_provinces(s, rng)
    _assume_gold(s, state, others)
    if s.phase in SECRET_PHASES:
        for x in others:
            clear_commitment(s, x)
    return Event(FORK_DEALT, {"state": snapshot(s)})


def _assume_gold(s: State, state: State, others: list[int]) -> None:
    """D-46: other seats' gold from public information only (module docstring)."""
    selling = payer(state)  # public: that player is seen selling to pay (R9.8)
    for x in others:
        gold = data.START_GOLD
        card = s.bid_on[x]
        if s.phase in ("auction", "resolution") and card != NONE and s.standing[card] == x:
            gold = max(gold, s.bid_value[x] - hand_size(s, x))
        if x == selling:
            gold = min(gold, s.bid_value[x] - 1)
        s.gold[x] = gold
    s.ledger = dict.fromkeys(s.ledger, 0)
    s.ledger["start"] = sum(s.gold)


def _redeal(
    pile: list[str], counts: list[list[int]], ids: tuple[str, ...], rng: random.Random
) -> tuple[list[str], list[list[int]]]:
    """Pool a face-down pile (ids, top first) with some holdings (counts by index), shuffle the
    pool from data order and deal it back in the same sizes: the pile first, then each holding."""
    index = {item: i for i, item in enumerate(ids)}
    pool = [index[item] for item in pile]
    for held in counts:
        pool += [i for i, n in enumerate(held) for _ in range(n)]
    pool.sort()
    rng.shuffle(pool)
    new_pile = [ids[i] for i in pool[: len(pile)]]
    k = len(pile)
    new_counts = []
    for held in counts:
        size = sum(held)
        dealt = [0] * len(ids)
        for i in pool[k : k + size]:
            dealt[i] += 1
        new_counts.append(dealt)
        k += size
    return new_pile, new_counts


def _redeal_provinces(s: State, rng: random.Random) -> None:
    """R6.2 / R7.9: a new secret province set around the provinces seen, and a new deck order."""
    everything = range(len(data.PROVINCES))
    seen = [p for p in everything if s.seen[p]]
    unseen = [p for p in everything if not s.seen[p]]
    this_kingdom = set(s.province_set) - set(s.deck)  # revealed since the kingdom began: public
    s.province_set = sorted(seen + rng.sample(unseen, len(s.province_set) - len(seen)))
    s.deck = [p for p in s.province_set if p not in this_kingdom]
    rng.shuffle(s.deck)
