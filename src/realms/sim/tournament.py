"""Bots against bots: many games with the seats rotated, and each bot's win share."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from realms.core.game import Game

from .runner import run_game


@dataclass
class Standing:
    bot: str
    games: int = 0
    wins: float = 0.0
    score_total: float = 0.0
    seats: dict = field(default_factory=dict)

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """Wilson 95% interval of the win share."""
        n = self.games
        if n == 0:
            return (0.0, 1.0)
        p = self.share
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    def to_json(self) -> dict:
        """``seats`` played, ``wins`` (a shared win split), ``win_share`` with its Wilson
        ``win_share_ci95``, and the mean score (``mean_vp``: VP, or the game's points)."""
        lo, hi = self.interval()
        return {"seats": self.games, "wins": round(self.wins, 4),
                "win_share": round(self.share, 4), "win_share_ci95": [round(lo, 4), round(hi, 4)],
                "mean_vp": round(self.score_total / self.games, 3) if self.games else 0.0}


def tournament(game: Game, options: dict, bots: list[str], games: int, seed: int) -> list[Standing]:
    """Play ``games`` games, rotating the bot line-up one seat each game.

    A shared victory counts as a fraction of a win for each winner.  With more seats
    than bots the line-up repeats (``random,greedy`` at four seats: r, g, r, g).
    """
    standings = {b: Standing(b) for b in dict.fromkeys(bots)}
    players = options.get("players") or len(options.get("names") or []) or len(bots)
    for i in range(games):
        line_up = [bots[(seat + i) % len(bots)] for seat in range(players)]
        state = run_game(game, dict(options, players=players), seed + i, line_up)
        tally(standings, line_up, state.result())
    return list(standings.values())


def tally(standings: dict[str, Standing], line_up, result: dict) -> None:
    """Count one game for the bots of ``line_up`` (in seat order) from its ``result``
    (``players``, ``scores``, ``winners``): a shared victory is a fraction of a win each."""
    names = result["players"]
    winners = set(result["winners"])
    for seat, bot in enumerate(line_up):
        st = standings[bot]
        st.games += 1
        st.score_total += result["scores"][names[seat]]
        if names[seat] in winners:
            st.wins += 1 / len(winners)
