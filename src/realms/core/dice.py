"""Seeded chance that lives inside a game state.

Rules code never touches the global ``random`` module or the clock: every roll comes
from the state's own :class:`Dice`, so a record (seed + answers) replays to the same
state on any machine.  Only :meth:`random.Random.random` is used, because it is the one
method whose sequence Python guarantees to keep stable across versions for an integer
seed; every other draw is derived from it here.
"""

from __future__ import annotations

import random
import weakref
from typing import Sequence, TypeVar

T = TypeVar("T")


class Dice:
    """A reproducible source of die rolls and random picks."""

    __slots__ = ("_rng", "_random", "__weakref__")

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an integer, not {type(seed).__name__}")
        self._rng = random.Random(seed)
        self._random = self._rng.random

    def d6(self) -> int:
        """One six-sided die: 1..6."""
        return int(self._random() * 6) + 1

    def roll(self, n: int) -> list[int]:
        """``n`` six-sided dice."""
        r = self._random
        return [int(r() * 6) + 1 for _ in range(n)]

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (``n`` ≥ 1)."""
        if n < 1:
            raise ValueError("below() needs n >= 1")
        return int(self._random() * n)

    def pick(self, items: Sequence[T]) -> T:
        """A uniformly chosen element of a non-empty sequence."""
        return items[int(self._random() * len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A new list with the items in random order (Fisher–Yates)."""
        out = list(items)
        r = self._random
        for i in range(len(out) - 1, 0, -1):
            j = int(r() * (i + 1))
            out[i], out[j] = out[j], out[i]
        return out

    def clone(self) -> "Dice":
        """An independent copy that will produce the same future rolls.

        The two share the generator until they roll: the first roll of each (after a
        clone) takes its own copy of the generator first.  Copying its 625 words costs
        about 30 µs, half a Hy Breasil state's clone, and search often clones a state only
        to reseed it (:meth:`GameState.determinize`) or to look at it.  So a roll
        function taken from ``_random`` serves until the next clone, never across one."""
        other = Dice.__new__(Dice)
        other._rng = self._rng
        _share(self)
        _share(other)
        return other

    def fingerprint(self) -> list[int]:
        """The generator's full internal state as plain integers (for state hashes)."""
        version, internal, gauss = self._rng.getstate()
        return [version, *internal, 0 if gauss is None else 1]


def _share(dice: Dice) -> None:
    """Make the next roll of ``dice``, whose generator another :class:`Dice` also holds,
    first give it a generator of its own in the same state.  Rolls go through
    ``dice._random`` (which a step may have taken before rolling, as ``combat`` does), so
    that is what is replaced; a weak reference keeps ``dice`` out of a reference cycle."""
    ref = weakref.ref(dice)
    shared = dice._rng
    own: random.Random | None = None

    def first_roll() -> float:
        nonlocal own
        if own is None:
            # seeded with a constant, then overwritten: ``Random()`` would first seed
            # itself from the operating system (a system call, and a GIL release)
            own = random.Random(0)
            own.setstate(shared.getstate())
            d = ref()
            if d is not None and d._random is first_roll:
                d._rng = own
                d._random = own.random
        return own.random()

    dice._random = first_roll
