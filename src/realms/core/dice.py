"""Seeded chance that lives inside a game state.

Rules code never touches the global ``random`` module or the clock: every roll comes
from the state's own :class:`Dice`, so a record (seed + answers) replays to the same
state on any machine.  Only :meth:`random.Random.random` is used, because it is the one
method whose sequence Python guarantees to keep stable across versions for an integer
seed; every other draw is derived from it here.
"""

from __future__ import annotations

import random
from typing import Callable, Sequence, TypeVar

T = TypeVar("T")


class Dice:
    """A reproducible source of die rolls and random picks."""

    __slots__ = ("_rng", "_shared", "_draw")
    _shared: bool

    def __init__(self, seed: int, shares: "Dice | None" = None) -> None:
        """Dice seeded with ``seed``; or, for :meth:`clone` (``seed`` then unused), dice
        that take over the generator of ``shares`` until they roll."""
        if shares is not None:
            self._rng: random.Random = shares._rng
            #: the generator's ``random``, bound once (compiled, a method looked up at
            #: every roll costs about as much as the roll)
            self._draw: Callable[[], float] = self._rng.random
            #: the generator is another Dice's too: copied before the next roll
            self._shared = shares._shared = True
            return
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an integer, not {type(seed).__name__}")
        self._rng = random.Random(seed)
        self._draw = self._rng.random
        self._shared = False

    def _random(self) -> float:
        """A uniform float in ``[0, 1)``: the one draw every other is derived from (a step
        may take it to roll with, as ``combat`` does)."""
        if self._shared:
            self._own()
        return self._draw()

    def d6(self) -> int:
        """One six-sided die: 1..6."""
        return int(self._random() * 6) + 1

    def roll(self, n: int) -> list[int]:
        """``n`` six-sided dice."""
        return [int(self._random() * 6) + 1 for _ in range(n)]

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
        for i in range(len(out) - 1, 0, -1):
            j = int(self._random() * (i + 1))
            out[i], out[j] = out[j], out[i]
        return out

    def clone(self) -> "Dice":
        """An independent copy that will produce the same future rolls.

        The two share the generator until they roll: the first roll of each (after a
        clone) takes its own copy of the generator first.  Copying its 625 words costs
        about 30 µs, half a Hy Breasil state's clone, and search often clones a state only
        to reseed it (:meth:`GameState.determinize`) or to look at it."""
        return Dice(0, shares=self)

    def __copy__(self) -> "Dice":
        """:meth:`clone`: ``copy.copy`` and ``copy.deepcopy`` of anything holding dice (a
        bot, a state) work whether this class is compiled or not."""
        return self.clone()

    def __deepcopy__(self, memo: dict) -> "Dice":
        return self.clone()

    def _own(self) -> None:
        """A generator of its own, in the shared one's state.  Seeded with a constant,
        then overwritten: ``Random()`` would first seed itself from the operating system
        (a system call, and a GIL release)."""
        own = random.Random(0)
        own.setstate(self._rng.getstate())
        self._rng = own
        self._draw = own.random
        self._shared = False

    def fingerprint(self) -> list[int]:
        """The generator's full internal state as plain integers (for state hashes)."""
        version, internal, gauss = self._rng.getstate()
        return [version, *internal, 0 if gauss is None else 1]
