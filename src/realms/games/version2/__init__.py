"""version² (Habel, Domsch, Kirsch): hex conquest with three arms, an economy of
production and warehouses, and secret missions.

>>> from realms.games.version2 import GAME
>>> state = GAME.new_game({"players": 4}, seed=1)
>>> state.pending()[0].kind
'v2.action'
"""

from __future__ import annotations

from realms.core.game import Game

from .invariants import INVARIANTS
from .missions import hidden
from .options import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, check_options
from .state import V2State


def _draw(state: V2State | None, options: dict) -> str:
    from .draw import draw

    return draw(state, options)


def _advice(view: dict, decisions: list) -> list[dict]:
    from .advice import advice

    return advice(view, decisions)


def _describe(view: dict) -> list[str]:
    from .page import describe

    return describe(view)


def _panels(view: dict) -> list[dict]:
    from .page import panels

    return panels(view)


def _controls(view: dict, decision) -> dict:
    from .page import controls

    return controls(view, decision)


def _scores_now(state: V2State) -> list[float]:
    from .analysis import scores_now

    return scores_now(state)


def _evaluate(state: V2State) -> list[float]:
    from .analysis import evaluate

    return evaluate(state)


def _watcher():
    from .analysis import Version2Watcher

    return Version2Watcher()


def _report_sections() -> tuple:
    from .analysis import sections

    return sections()


def _history_measure():
    from .analysis import FieldsHeld

    return FieldsHeld()


def _calculator():
    from .odds_cli import calculator

    return calculator()


def _map_generator():
    from .generate import generator

    return generator()


def _bots() -> dict:
    from .bots import GeneralBot

    return {"general": GeneralBot}


GAME = Game(
    id="version2",
    name="version²",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    state_class=V2State,
    options=OPTIONS,
    check_options=check_options,
    invariants=INVARIANTS,
    hidden=hidden,
    bots=_bots(),
    draw=_draw,
    advice=_advice,
    describe=_describe,
    panels=_panels,
    controls=_controls,
    scores_now=_scores_now,
    evaluate=_evaluate,
    watcher=_watcher,
    report_sections=_report_sections,
    history_measure=_history_measure,
    calculator=_calculator,
    map_generator=_map_generator,
    score_name="fields",
    turn_word="turn",
    # dice in battle and the deal of missions; the others' missions are secret (2.4); one
    # player acts at a time
    chance=True,
    hidden_information=True,
    simultaneous=False,
)

__all__ = ["GAME", "V2State"]
