"""How good a running position is for each seat, for search (``Game.evaluate``).

Points come in lumps at a round's end and most of them at the game's end (Scoring), so
the points now say little about a position a few answers into a round.  The evaluation
scores the position as if the game ended now — the points so far plus the final scoring
of the board as it stands (coins, the active town marker, renown, claim tokens, towns in
regions) on a copy — and gives each seat its share of those points.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from .scoring import final_scoring

if TYPE_CHECKING:
    from .state import BBState


def projected_points(s: "BBState") -> list[int]:
    """Each seat's points if the game ended now (the state itself is left unchanged)."""
    if s.over:
        return list(s.points)
    copy = cast("BBState", s.clone())  # a clone is of the state's own class
    final_scoring(copy)
    return list(copy.points)


def evaluate(s: "BBState") -> list[float]:
    """Each seat's share of the projected points (equal shares while nobody has any)."""
    points = [max(0, p) for p in projected_points(s)]
    total = sum(points)
    if total <= 0:
        return [1 / len(points)] * len(points)
    return [p / total for p in points]
