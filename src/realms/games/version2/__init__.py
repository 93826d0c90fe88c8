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
from .options import normalize_options
from .state import V2State


def _draw(state: V2State | None, options: dict) -> str:
    from .draw import draw

    return draw(state, options)


def _advice(view: dict, decisions: list) -> list[dict]:
    from .advice import advice

    return advice(view, decisions)


def _bots() -> dict:
    from .bots import GeneralBot

    return {"general": GeneralBot}


GAME = Game(
    id="version2",
    name="version²",
    min_players=2,
    max_players=6,
    state_class=V2State,
    normalize_options=normalize_options,
    invariants=INVARIANTS,
    hidden=hidden,
    bots=_bots(),
    draw=_draw,
    advice=_advice,
    score_name="fields",
    turn_word="turn",
    hidden_information=True,
)

__all__ = ["GAME", "V2State"]
