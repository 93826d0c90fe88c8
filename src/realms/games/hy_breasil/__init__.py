"""Hy Breasil (Torben Mogensen, 2007): nations enter from the sea, grow, split and fall.

>>> from realms.games.hy_breasil import GAME
>>> state = GAME.new_game({"players": 3, "turns": 2}, seed=1)
>>> state.pending()[0].kind
'hb.entry-sea'
"""

from __future__ import annotations

from realms.core.game import Game

from .bots import AutoBot, GreedyBot
from .invariants import INVARIANTS
from .options import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, check_options
from .state import HBState


def _hidden(state: HBState, player: int | None) -> list:
    """The future dice: the generator's state is never shown to anyone."""
    return [state.dice.fingerprint()[1:5]]


def _describe(view: dict) -> list[str]:
    from .describe import describe

    return describe(view)


def _draw(state: HBState | None, options: dict) -> str:
    from .draw import draw

    return draw(state, options.get("map", "hy-breasil"))


def _controls(view: dict, decision) -> dict:
    from .controls import controls

    return controls(view, decision)


def _advice(view: dict, decisions: list) -> list[dict]:
    from .advice import advice

    return advice(view, decisions)


def _warm() -> None:
    from .advice import warm

    warm()


def _scores_now(state: HBState) -> list[float]:
    from .stats import scores_now

    return scores_now(state)


def _evaluate(state: HBState) -> list[float]:
    from .evaluate import evaluate

    return evaluate(state)


def _watcher():
    from .stats import HyBreasilWatcher

    return HyBreasilWatcher()


def _report_sections() -> tuple:
    from .report import sections

    return sections()


def _history_measure():
    from .history import LandHeld

    return LandHeld()


def _calculator():
    from .odds_cli import calculator

    return calculator()


def _map_generator():
    from .mapgen import generator

    return generator()


GAME = Game(
    id="hy-breasil",
    name="Hy Breasil",
    rank=0,  # the flagship: first in the lists, and the game the lobby opens on
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    state_class=HBState,
    options=OPTIONS,
    check_options=check_options,
    invariants=INVARIANTS,
    hidden=_hidden,
    draw=_draw,
    describe=_describe,
    controls=_controls,
    advice=_advice,
    warm=_warm,
    bots={"auto": AutoBot, "greedy": GreedyBot},
    scores_now=_scores_now,
    evaluate=_evaluate,
    watcher=_watcher,
    report_sections=_report_sections,
    history_measure=_history_measure,
    calculator=_calculator,
    map_generator=_map_generator,
    # dice and draws from the cup; nothing hidden but the future; one question at a time
    chance=True,
    hidden_information=False,
    simultaneous=False,
)

__all__ = ["GAME", "HBState"]
