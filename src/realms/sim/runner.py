"""Play one game with named bots and summarise it as the CLI's JSON object; follow each
seat's score turn by turn (:class:`ScoreTrack`) for the outcome metrics."""

from __future__ import annotations

from realms.core.agents import Agent, bot_seed, generic_bots, parse_bot
from realms.core.engine import GameState
from realms.core.game import Game, OptionError
from realms.core.match import explained_chronicle, play

from .stats import Watcher


def bot_names(game: Game) -> list[str]:
    return sorted({*generic_bots(), *game.bots})


def make_bots(game: Game, spec: list[str], players: int, seed: int) -> list[Agent]:
    """One agent per seat from ``spec`` (one name for all seats, or one per seat)."""
    if len(spec) == 1:
        spec = spec * players
    if len(spec) != players:
        raise OptionError(f"--bots names {len(spec)} bots for {players} players (give one, or one per seat)")
    factories = {**generic_bots(), **game.bots}
    agents = []
    for seat, written in enumerate(spec):
        try:
            name, params = parse_bot(written)
        except ValueError as exc:
            raise OptionError(str(exc)) from None
        if name not in factories:
            raise OptionError(f"unknown bot {name!r} (known: {', '.join(bot_names(game))})")
        try:
            agents.append(factories[name](bot_seed(seed, seat), **params))
        except (TypeError, ValueError) as exc:  # a parameter the bot does not take, or a bad value
            if not params:
                raise
            raise OptionError(f"bot {written[:60]!r}: {exc}") from None
    return agents


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
