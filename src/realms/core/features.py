"""Helpers for a game's ``features`` hook (``Game.features``): a seat's standing among
the others, on scales that do not depend on the number of seats or the game's length."""

from __future__ import annotations


def shares(values: list[float]) -> list[float]:
    """Each seat's share of the total (equal shares while the total is nought)."""
    clipped = [max(0.0, float(v)) for v in values]
    total = sum(clipped)
    if total <= 0:
        return [1 / len(values)] * len(values)
    return [v / total for v in clipped]


def leads(values: list[float]) -> list[float]:
    """Each seat's margin over the best of the others, as a fraction of the mean
    (positive for the leader alone, 0 for a tie at the top)."""
    vals = [float(v) for v in values]
    mean = max(1e-9, sum(abs(v) for v in vals) / len(vals))
    out = []
    for i, v in enumerate(vals):
        best = max((w for j, w in enumerate(vals) if j != i), default=0.0)
        out.append((v - best) / mean)
    return out


def mine(view: dict, players: int) -> list[float]:
    """1 for the viewing seat (``view["you"]``), 0 for the others: what the viewer sees of
    itself (a hand, orders) is more than of the others."""
    you = view.get("you")
    return [1.0 if p == you else 0.0 for p in range(players)]
