"""How good a running position is for each seat, for search (``Game.evaluate``).

VP come only at each turn's end (§7), so within a turn the VP so far do not change with
what the nations do.  The evaluation projects them: the VP so far plus what the land held
now would score (:func:`turn.nation_vp`, a submitted nation's share going to its master as
§9.2 says) at each scoring still to come, this turn's included; each seat gets its share
of the projected VP.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .turn import award_vp, nation_vp

if TYPE_CHECKING:
    from .state import HBState


def scorings_left(s: "HBState") -> int:
    """The turn-end scorings still to come, this turn's included (1 when the game's end
    is not known in advance: a VP target)."""
    o = s.options
    last = o["turns"] if o["turns"] is not None else None
    if last is None:
        return 1
    return max(1, min(last, o["max_turns"]) - s.turn + 1)


class _Tally:
    """Where :func:`turn.award_vp` adds a scoring's VP instead of the state's own totals."""

    def __init__(self, s: "HBState") -> None:
        self.nations = s.nations
        self.vp = [0] * len(s.names)


def projected_vp(s: "HBState") -> list[float]:
    """Each seat's VP so far plus the land it holds now scored at every scoring left (the
    VP themselves once the game is over)."""
    if s.is_over():
        return [float(v) for v in s.vp]
    tally = _Tally(s)
    for n in s.nations.values():
        award_vp(tally, n, nation_vp(s, n))
    left = scorings_left(s)
    return [v + g * left for v, g in zip(s.vp, tally.vp)]


def evaluate(s: "HBState") -> list[float]:
    """Each seat's share of the projected VP (equal shares while nobody has any)."""
    points = [max(0.0, float(p)) for p in projected_vp(s)]
    total = sum(points)
    if total <= 0:
        return [1 / len(points)] * len(points)
    return [p / total for p in points]
