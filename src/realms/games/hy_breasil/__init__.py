"""Hy Breasil (Torben Mogensen, 2007): nations enter from the sea, grow, split and fall.

>>> from realms.games.hy_breasil import GAME
>>> state = GAME.new_game({"players": 3, "turns": 2}, seed=1)
>>> state.pending()[0].kind
'hb.entry-sea'
"""

from __future__ import annotations

from realms.core.game import Game, lazy

from .bots import AutoBot, GreedyBot
from .invariants import INVARIANTS
from .options import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, check_options
from .state import HBState
from .steps import GAME_ID


def _hidden(state: HBState, player: int | None) -> list:
    """The future dice: the generator's state is never shown to anyone."""
    return [state.dice.fingerprint()[1:5]]


def _draw(state: HBState | None, options: dict) -> str:
    from .board import map_name
    from .draw import draw

    return draw(state, map_name(options))


#: decision kinds before which odds are shown (``advice``)
ADVICE_KINDS = frozenset({"hb.move", "hb.retreat", "hb.submit"})

GAME = Game(
    id=GAME_ID,
    name="Hy Breasil",
    description="Nations enter Hy Breasil from the sea, grow, split and fall; each player guides several in turn. About 15 turns.",
    presets={"a quick game (3 turns)": {"turns": 3}, "the full game": {}},
    rank=0,  # the flagship: first in the lists, and the game the lobby opens on
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    state_class=HBState,
    options=OPTIONS,
    check_options=check_options,
    invariants=INVARIANTS,
    hidden=_hidden,
    draw=_draw,
    palette=lazy(".draw:palette", __package__),
    board=lazy(".draw:board", __package__),
    describe=lazy(".describe:describe", __package__),
    controls=lazy(".controls:controls", __package__),
    advice=lazy(".advice:advice", __package__),
    advice_kinds=ADVICE_KINDS,
    warm=lazy(".advice:warm", __package__),
    bots={"auto": AutoBot, "greedy": GreedyBot},
    # the seat kinds the lobby offers, labelled as measured (benchmarks/RESULTS.md): easy
    # below normal; the auto bot's hard level no stronger than normal over 2,000 paired
    # games, so called what it is, a steadier style
    bot_variants={"auto:level=easy": "auto (easy)", "auto": "auto (normal)", "auto:level=hard": "auto (steady)",
                  "ismcts:iters=32:z=1:horizon=turn:value=learned": "search (hard)"},
    scores_now=lazy(".stats:scores_now", __package__),
    features=lazy(".features:features", __package__),
    evaluate=lazy(".evaluate:evaluate", __package__),
    turn_of=lazy(".turn:turn_of", __package__),
    unsearched=lazy(".movement:reinforcement", __package__),
    watcher=lazy(".stats:HyBreasilWatcher", __package__),
    factions=lazy(".stats:factions", __package__),
    usage=lazy(".stats:usage", __package__),
    report_sections=lazy(".report:sections", __package__),
    history_measure=lazy(".history:LandHeld", __package__),
    calculator=lazy(".odds_cli:calculator", __package__),
    map_generator=lazy(".mapgen:generator", __package__),
    # dice and draws from the cup; nothing hidden but the future; one question at a time
    chance=True,
    hidden_information=False,
    simultaneous=False,
)

__all__ = ["GAME", "HBState"]
