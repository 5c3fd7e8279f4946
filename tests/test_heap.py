"""The heap keeper (``service.heap``, issue #14): the survivors of each full collection are
frozen out of the collector's way, and every ``full_seconds`` everything is thawed again so
that a full collection walks the whole heap (a frozen cycle cannot outlive that period)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from service.heap import HeapKeeper


@pytest.fixture
def thawed() -> Iterator[None]:
    """A heap nothing is frozen in, and no automatic collection (another thread's allocations
    could start one) between the test's own."""
    gc.unfreeze()
    gc.disable()
    yield
    gc.enable()
    gc.unfreeze()


def is_frozen(thing: object) -> bool:
    """``gc.get_objects`` walks the collector's generations: a frozen object is in none."""
    return not any(o is thing for o in gc.get_objects())


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_full_collection_freezes_its_survivors_and_the_period_thaws_them(thawed: None) -> None:
    clock = Clock()
    keeper = HeapKeeper(full_seconds=600, clock=clock)
    assert keeper.look() is None and gc.get_freeze_count() == 0  # no full collection yet

    survivors = [[n] for n in range(10_000)]  # tracked objects that outlive a collection
    gc.collect()  # a full collection, as the interpreter runs them
    assert keeper.look() == "frozen"
    assert gc.get_freeze_count() >= len(survivors)
    assert is_frozen(survivors[0]) and is_frozen(survivors[-1])
    assert keeper.look() is None  # nothing new since

    clock.now = 600.0
    assert keeper.look() == "thawed"
    assert gc.get_freeze_count() == 0  # the next full collection walks everything
    assert not is_frozen(survivors[0])


def test_a_frozen_cycle_is_collected_once_thawed(thawed: None) -> None:
    """What freezing costs, and what thawing gives back: a reference cycle frozen while alive
    is not collected while frozen, and is once the period thaws the heap."""
    import weakref

    class Node:
        pass

    clock = Clock()
    keeper = HeapKeeper(full_seconds=600, clock=clock)
    a, b = Node(), Node()
    a.other, b.other = b, a  # type: ignore[attr-defined]
    alive = weakref.ref(a)
    gc.collect()
    assert keeper.look() == "frozen"
    del a, b
    gc.collect()
    assert alive() is not None  # frozen garbage: kept until the thaw
    clock.now = 600.0
    assert keeper.look() == "thawed"
    gc.collect()
    assert alive() is None
