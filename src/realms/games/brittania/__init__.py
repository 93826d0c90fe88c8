"""Brittania: the play-by-forum game of conquest in Britain and Ireland about 900–1000
(../shared/rules/brittania-pbf.txt) for up to 12 players, whose orders are written at the
same time and kept hidden until the turn resolves.

>>> from realms.games.brittania import GAME
>>> state = GAME.new_game({"players": 3}, seed=1)
>>> state.pending()[0].kind
'br.start'
"""

from __future__ import annotations

from realms.core.game import Game, lazy

from .invariants import INVARIANTS
from .options import MAX_PLAYERS, MIN_PLAYERS, OPTIONS
from .orders import ORDER_KINDS, no_answer
from .state import BRState, bot_view, turn_of
from .steps import GAME_ID


def _hidden(state: BRState, player: int | None) -> list:
    """The orders of every other seat while they are being written (BR-Q29)."""
    return [state.order_json(p, o) for p in range(state.n) if p != player for o in state.orders[p]]


def _draw(state: BRState | None, options: dict) -> str:
    from .draw import draw

    return draw(state)


def _gm():
    from .gm import MASTER

    return MASTER


def _bots() -> dict:
    from .bots import Steward

    return {"steward": Steward}


#: decision kinds before which odds are shown (``advice``): the grain of a conquest
ADVICE_KINDS = frozenset({"br.grain"})

GAME = Game(
    id=GAME_ID,
    name="Brittania",
    description="Conquest in Britain and Ireland about 900–1000: orders written at the same time, hidden until the turn resolves. 20 turns.",
    presets={"a quick game (5 turns)": {"turns": 5}, "the full game (20 turns)": {}},
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    state_class=BRState,
    options=OPTIONS,
    invariants=INVARIANTS,
    hidden=_hidden,
    bots=_bots(),
    # the seat kinds the lobby offers, labelled as measured (benchmarks/RESULTS.md)
    bot_variants={"random": "random (easy)", "steward": "steward (normal)",
                  "ismcts:iters=16:z=1.5:horizon=turn:value=learned": "search (hard)"},
    features=lazy(".features:features", __package__),
    unsearched_kinds=frozenset({"br.grain", "br.name"}),
    bot_view=bot_view,
    turn_of=turn_of,
    draw=_draw,
    palette=lazy(".draw:palette", __package__),
    board=lazy(".draw:board", __package__),
    advice=lazy(".advice:advice", __package__),
    advice_kinds=ADVICE_KINDS,
    panels=lazy(".describe:panels", __package__),
    describe=lazy(".describe:describe", __package__),
    controls=lazy(".controls:controls", __package__),
    no_answer=no_answer,
    history_measure=lazy(".history:StatesHeld", __package__),
    factions=lazy(".stats:factions", __package__),
    usage=lazy(".stats:usage", __package__),
    gm=_gm,
    score_name="economic score",
    private_kinds=ORDER_KINDS,
    open_from=lambda s: s.orders_from if s.phase == "orders" else len(s.answers),
    final=lambda s, p, key: key == "done" and any(d.player == p and d.kind == "br.order" for d in s.pending()),
    chance=True,
    hidden_information=True,
    simultaneous=True,
)

__all__ = ["GAME", "BRState"]
