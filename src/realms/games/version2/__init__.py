"""version² (Habel, Domsch, Kirsch): hex conquest with three arms, an economy of
production and warehouses, and secret missions.

>>> from realms.games.version2 import GAME
>>> state = GAME.new_game({"players": 4}, seed=1)
>>> state.pending()[0].kind
'v2.action'
"""

from __future__ import annotations

from realms.core.game import Game, lazy

from .invariants import INVARIANTS
from .missions import hidden
from .options import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, check_options
from .state import V2State, bot_view, turn_of
from .steps import GAME_ID


def _bots() -> dict:
    from .bots import GeneralBot

    return {"general": GeneralBot}


#: decision kinds before which odds are shown (``advice``): an attack's units, a defence, a
#: peace offer in battle
ADVICE_KINDS = frozenset({"v2.attack-units", "v2.defend", "v2.offer"})

GAME = Game(
    id=GAME_ID,
    name="version²",
    description="Hex conquest with infantry, cavalry and artillery, production and warehouses, and secret missions. Up to 40 turns.",
    presets={"a quick game (10 turns)": {"turn_limit": 10}, "the full game (40 turns)": {}},
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    state_class=V2State,
    options=OPTIONS,
    check_options=check_options,
    invariants=INVARIANTS,
    hidden=hidden,
    bots=_bots(),
    # the seat kinds the lobby offers, labelled as measured (benchmarks/RESULTS.md)
    bot_variants={"random": "random (easy)", "general": "general (normal)",
                  "ismcts:iters=32:z=1:horizon=turn:turns=4:value=learned": "search (hard)"},
    unsearched_kinds=frozenset({"v2.attack-units"}),
    bot_view=bot_view,
    turn_of=turn_of,
    draw=lazy(".draw:draw", __package__),
    palette=lazy(".draw:palette", __package__),
    board=lazy(".draw:board", __package__),
    advice=lazy(".advice:advice", __package__),
    advice_kinds=ADVICE_KINDS,
    describe=lazy(".page:describe", __package__),
    panels=lazy(".page:panels", __package__),
    controls=lazy(".page:controls", __package__),
    scores_now=lazy(".analysis:scores_now", __package__),
    features=lazy(".features:features", __package__),
    evaluate=lazy(".analysis:evaluate", __package__),
    watcher=lazy(".analysis:Version2Watcher", __package__),
    factions=lazy(".analysis:factions", __package__),
    usage=lazy(".analysis:usage", __package__),
    report_sections=lazy(".analysis:sections", __package__),
    history_measure=lazy(".analysis:FieldsHeld", __package__),
    calculator=lazy(".odds_cli:calculator", __package__),
    map_generator=lazy(".generate:generator", __package__),
    score_name="fields",
    turn_word="turn",
    # dice in battle and the deal of missions; the others' missions are secret (2.4); one
    # player acts at a time
    chance=True,
    hidden_information=True,
    simultaneous=False,
)

__all__ = ["GAME", "V2State"]
