"""Bots against bots: many games at the game's player count with the seats rotated, and
each bot's win share."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from realms.core.game import Game, OptionError

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


def players_of(game: Game, options: dict, seed: int) -> int:
    """The player count a game with ``options`` has: ``players`` or ``names`` if given,
    else the game's default (not the number of bots named)."""
    return len(game.new_game(options, seed).result()["players"])


def line_up(bots: list[str], players: int, game_index: int) -> tuple[str, ...]:
    """The bots of each seat in game ``game_index`` of a tournament: the bots listed fill
    the first seats and the last one fills the rest (``auto,random`` at four seats: one
    auto against three random), and the whole line-up moves one seat on each game, so
    every bot sits every seat equally often over ``players`` games."""
    if not bots:
        raise OptionError("--bots names no bot")
    if len(bots) > players:
        raise OptionError(f"--bots names {len(bots)} bots for {players} seats (at most one a seat)")
    base = list(bots) + [bots[-1]] * (players - len(bots))
    return tuple(base[(seat + game_index) % players] for seat in range(players))


def tournament(game: Game, options: dict, bots: list[str], games: int, seed: int) -> list[Standing]:
    """Play ``games`` games at the game's player count (:func:`players_of`), the line-up
    of :func:`line_up` moving one seat each game.  A shared victory counts as a fraction
    of a win for each winner."""
    standings = {b: Standing(b) for b in dict.fromkeys(bots)}
    players = players_of(game, options, seed)
    for i in range(games):
        seats = line_up(bots, players, i)
        state = run_game(game, options, seed + i, list(seats))
        tally(standings, seats, state.result())
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
