"""Play one game with named bots and summarise it as the CLI's JSON object; follow each
seat's score turn by turn (:class:`ScoreTrack`) for the outcome metrics."""

from __future__ import annotations

from realms.core.engine import GameState
from realms.core.game import Game
from realms.core.lineup import make_bots
from realms.core.match import explained_chronicle, play
from realms.core.stats import Watcher


def run_game(game: Game, options: dict, seed: int, bots: list[str]) -> GameState:
    state = game.new_game(options, seed)
    agents = make_bots(game, bots, len(state.result()["players"]), seed)
    return play(state, agents)


def run_explained(game: Game, options: dict, seed: int, bots: list[str]) -> tuple[GameState, list[str]]:
    """The game of :func:`run_game` (the same answers: explaining changes no choice) and its
    chronicle with the bots' reasons woven in (``realms simulate --explain``)."""
    state = game.new_game(options, seed)
    agents = make_bots(game, bots, len(state.result()["players"]), seed)
    return state, explained_chronicle(state, agents)


class ScoreTrack(Watcher):
    """Each seat's score at every turn end, sampled from ``Game.current_scores`` as the
    turn changes (and at the end): a game line's ``turn_scores``, ``[[turn, [score of
    seat 0, …]], …]``, from which the report counts lead changes and standings."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rows: list[list] = []

    def on_turn_end(self, state, turn: int) -> None:
        self.rows.append([turn, self.game.current_scores(state)])


def summary(state: GameState) -> dict:
    """The JSON summary of a finished (or replayed) game."""
    res = state.result()
    out = {
        "game": state.GAME_ID,
        "seed": state.seed,
        "options": state.options,
        "players": res["players"],
        "turns": res.get("turns"),
        "scores": res["scores"],
        "winner": res["winner"],
        "winners": res["winners"],
        "decisions": len(state.answers),
        "state_hash": state.state_hash(),
        "event_counts": state.event_counts(),
    }
    for key, value in res.items():
        out.setdefault(key, value)
    return out
