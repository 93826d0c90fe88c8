"""What games may use of the shared statistics: the arithmetic of intervals and
summaries, and the :class:`Watcher` a game's ``Game.watcher`` hook returns.

A simulation (``realms.sim``) taps a state's append-only event list with :func:`watch`:
the watcher sees every event as it is logged, with the live state beside it, the end of
every turn, and every decision with the index answered.  What :meth:`Watcher.data`
returns goes under a game line's ``"stats"`` key.  Nothing in the rules code knows it is
watched.

Intervals are 95%: Wilson's for shares (wins, rates), the normal approximation
(mean ± 1.96·sd/√n) for means.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Callable, Iterable, Sequence

Z95 = 1.96


# =========================================================================== arithmetic


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of the share ``successes / n`` (fractional successes allowed:
    a shared victory counts as a fraction of a win)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float], z: float = Z95, bounds: tuple[float, float] | None = None) -> dict:
    """``n``, ``mean``, ``sd`` (sample) and the 95% interval ``ci95`` of the mean, clipped
    to ``bounds`` (the metric's range: a share's interval never passes 1)."""
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": None, "sd": None, "ci95": [None, None]}
    m = sum(values) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = z * sd / math.sqrt(n) if n > 1 else 0.0
    lo, hi = m - half, m + half
    if bounds is not None:
        lo, hi = max(bounds[0], lo), min(bounds[1], hi)
    return {"n": n, "mean": rounded(m), "sd": rounded(sd), "ci95": [rounded(lo), rounded(hi)]}


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear-interpolation quantile (numpy's default) of already sorted values."""
    if not sorted_values:
        raise ValueError("quantile of no values")
    pos = (len(sorted_values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def describe(values: Sequence[float], bounds: tuple[float, float] | None = None) -> dict:
    """Mean with its interval (clipped to ``bounds``), and the five-number summary of
    ``values`` (rounded as the figures keep numbers)."""
    out = mean_ci(values, bounds=bounds)
    if values:
        s = sorted(values)
        out.update({"min": _kept(s[0]), "q1": rounded(quantile(s, 0.25)), "median": rounded(quantile(s, 0.5)),
                    "q3": rounded(quantile(s, 0.75)), "max": _kept(s[-1])})
    return out


def counts(values: Iterable) -> dict:
    """``{value: how often}``, keys as strings in ascending value order (JSON objects)."""
    c = Counter(values)
    return {str(k): c[k] for k in sorted(c)}


def _kept(x):
    """An observed value as the figures keep it: integers as they are, fractions rounded."""
    return x if isinstance(x, int) else rounded(x)


def rounded(x: float | None, nd: int = 4) -> float | None:
    """``x`` to ``nd`` decimals, as the figures keep numbers (``None`` stays ``None``)."""
    return None if x is None else round(x, nd)


# =========================================================================== watching


class Watcher:
    """Sees one game being played; :meth:`data` is what its line keeps under ``"stats"``."""

    kind = "generic"

    def on_event(self, state, event) -> None:
        """``event`` is about to be appended to ``state.events``."""

    def on_decision(self, state, decision, index: int) -> None:
        """``decision`` is about to be answered with option ``index``."""

    def on_turn_end(self, state, turn: int) -> None:
        """Turn ``turn`` is over; ``state`` is as it ended (its own turn counter may
        already show the next turn)."""

    def finish(self, state) -> None:
        """The game is over (after the last :meth:`on_turn_end`)."""

    def data(self) -> dict:
        return {"kind": self.kind}


class _Tap(list):
    """An event list that tells a callback about each event before appending it."""

    __slots__ = ("callback",)
    callback: Callable[[Any], None]

    def append(self, event) -> None:  # noqa: D401 - list API
        self.callback(event)
        list.append(self, event)


class Watch:
    """The tap on one state; :func:`watch` makes it, :meth:`close` ends it."""

    def __init__(self, state, watcher: Watcher) -> None:
        self.state = state
        self.watcher = watcher
        self.turn = None
        self.closed = False
        earlier = list(state.events)
        tap = _Tap(earlier)
        tap.callback = self._event
        state.events = tap
        for e in earlier:  # events logged before the tap (the game's opening)
            self._event(e)

    def _event(self, event) -> None:
        if self.turn is not None and event.turn != self.turn:
            self.watcher.on_turn_end(self.state, self.turn)
        self.turn = event.turn
        self.watcher.on_event(self.state, event)

    def close(self) -> None:
        """The game is over: the last turn ends and the watcher finishes."""
        if self.closed:
            return
        self.closed = True
        if self.turn is not None:
            self.watcher.on_turn_end(self.state, self.turn)
        self.watcher.finish(self.state)
        self.state.events = list(self.state.events)


def watch(state, watcher: Watcher) -> Watch:
    """Tap ``state``'s events for ``watcher`` (events already logged are shown first)."""
    return Watch(state, watcher)


class Several(Watcher):
    """Several watchers on one game, each told everything in turn."""

    def __init__(self, *watchers: Watcher) -> None:
        self.watchers = watchers

    def on_event(self, state, event) -> None:
        for w in self.watchers:
            w.on_event(state, event)

    def on_decision(self, state, decision, index: int) -> None:
        for w in self.watchers:
            w.on_decision(state, decision, index)

    def on_turn_end(self, state, turn: int) -> None:
        for w in self.watchers:
            w.on_turn_end(state, turn)

    def finish(self, state) -> None:
        for w in self.watchers:
            w.finish(state)
