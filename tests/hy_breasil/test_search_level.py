"""The lobby's Hy Breasil ``search (hard)``: the search measured stronger than ``auto``
(benchmarks/RESULTS.md, paired against ``auto`` at the same seat, three ``auto``)."""

from __future__ import annotations

from realms.core.agents import SeatView
from realms.games.hy_breasil import GAME
from realms.search.ismcts import ISMCTSBot
from realms.search.value import shipped
from realms.sim.runner import make_bots


def test_the_lobby_s_hard_searches_to_the_nation_s_turn_end_with_the_shipped_value():
    """``search (hard)`` plays each answer out to the end of the nation turn (§6: a
    nation's phases 6.1–6.4 make its turn) and scores it there with the model shipped
    in the package, overruling ``auto`` at one standard error."""
    hard = [spec for spec, label in GAME.bot_variants.items() if label.endswith("(hard)")]
    assert len(hard) == 1
    s = GAME.new_game({"players": 4}, 1)
    d = s.first_pending()
    bot = make_bots(GAME, [hard[0]], 4, 1)[d.player]
    assert isinstance(bot, ISMCTSBot) and bot.to_turn_end and bot.value == "learned" and bot.z == 1
    answer = bot.choose(d, SeatView(s, d.player))
    assert bot._model is shipped(GAME.id) and 0 <= answer < len(d.keys)

