"""Brian Boru's statistics: points by source, watched in each game and summed over many.

:class:`BrianBoruWatcher` keeps a game line's ``stats``; :func:`points_by_source` reads
those of many lines; ``report.py`` draws and describes the figure.
"""

from __future__ import annotations

import re

from realms.core.stats import Watcher, rounded

from .steps import GAME_ID

# --------------------------------------------------------------------------- Brian Boru


def factions(state) -> list[dict]:
    """What each seat was dealt (``Game.factions``): its place in the order of play from
    the starting player the die chose (Setup: "the starting player", then clockwise); no
    seat leaves the game."""
    first = state.first_player
    return [{"place from the starting player": (p - first) % state.n + 1 if first >= 0 else None,
             "survives": True} for p in range(state.n)]



def point_source(why: str) -> str:
    """A Brian Boru scoring reason as a source: ``claim token of Munster`` → ``claim
    tokens``, ``towns in 5 regions`` → ``regions``; other reasons are their own source."""
    if why.startswith("half the claim token"):
        return "claim tokens (shared)"
    if why.startswith("claim token"):
        return "claim tokens"
    if re.fullmatch(r"towns in \d+ regions?", why):
        return "regions"
    return why


class BrianBoruWatcher(Watcher):
    """Points by source and seat (``points``: ``{source: [points of seat 0, …]}``):
    ``starting points`` (what players hold before anything is scored), each scoring
    reason (:func:`point_source`), ``paid away`` (points lost paying for an action
    without coins), and ``other`` for anything these do not explain (none so far)."""

    kind = GAME_ID

    def __init__(self) -> None:
        self.points: dict[str, list[int]] = {}
        self.start: list[int] | None = None

    def on_event(self, state, e) -> None:
        if self.start is None:
            self.start = list(state.points)
        if e.kind == "points":
            row = self.points.setdefault(point_source(e.data["why"]), [0] * len(state.names))
            row[e.data["player"]] += e.data["points"]
        elif e.kind == "pay" and "points" in e.data:
            row = self.points.setdefault("paid away", [0] * len(state.names))
            row[e.data["player"]] -= e.data["points"]

    def finish(self, state) -> None:
        res = state.result()
        n = len(res["players"])
        start = (self.start or []) + [0] * (n - len(self.start or []))
        if any(start):
            self.points["starting points"] = start
        totals = [0] * n
        for row in self.points.values():
            row.extend([0] * (n - len(row)))
            for p in range(n):
                totals[p] += row[p]
        rest = [res["scores"][name] - totals[p] for p, name in enumerate(res["players"])]
        if any(rest):
            self.points["other"] = rest

    def data(self) -> dict:
        return {"kind": self.kind, "points": dict(sorted(self.points.items()))}



def points_by_source(lines: list[dict]) -> dict:
    """Brian Boru: mean points per game from each source, by seat and in all, and each
    source's share of all points scored."""
    stats = [ln["stats"] for ln in lines if ln.get("stats", {}).get("kind") == GAME_ID]
    games = len(stats)
    sums: dict[str, list[float]] = {}
    for st in stats:
        for source, row in st["points"].items():
            acc = sums.setdefault(source, [])
            if len(acc) < len(row):
                acc.extend([0] * (len(row) - len(acc)))
            for i, v in enumerate(row):
                acc[i] += v
    grand = sum(sum(v) for v in sums.values())
    return {"games": games, "sources": {
        s: {"per_game_by_seat": [rounded(v / games, 3) for v in row], "per_game": rounded(sum(row) / games, 3),
            "share": rounded(sum(row) / grand) if grand else None}
        for s, row in sorted(sums.items(), key=lambda kv: -sum(kv[1]))} if games else {}}


