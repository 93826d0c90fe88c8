"""Seeded chance that lives inside a game state.

Rules code never touches the global ``random`` module or the clock: every roll comes
from the state's own :class:`Dice`, so a record (seed + answers) replays to the same
state on any machine.  Only :meth:`random.Random.random` is used, because it is the one
method whose sequence Python guarantees to keep stable across versions for an integer
seed; every other draw is derived from it here.
"""

from __future__ import annotations

import random
from typing import Sequence, TypeVar

T = TypeVar("T")


class Dice:
    """A reproducible source of die rolls and random picks."""

    __slots__ = ("_rng", "_random")

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
        """An independent copy that will produce the same future rolls."""
        other = Dice.__new__(Dice)
        # seeded with a constant, then overwritten: ``Random()`` would first seed itself
        # from the operating system (a system call, and a GIL release, per clone)
        other._rng = random.Random(0)
        other._rng.setstate(self._rng.getstate())
        other._random = other._rng.random
        return other

    def fingerprint(self) -> list[int]:
        """The generator's full internal state as plain integers (for state hashes)."""
        version, internal, gauss = self._rng.getstate()
        return [version, *internal, 0 if gauss is None else 1]
