"""The ``general`` bot: it plays legal games through the contract and wins at
least 90% of 4-player Capitol games against three random bots (20 seeds here, the
seat rotating)."""

from __future__ import annotations

from realms.core.agents import RandomBot, bot_seed
from realms.core.match import play
from realms.games.version2 import GAME
from realms.games.version2.bots import GeneralBot


def _games(kind: str, n: int) -> int:
    wins = 0
    for g in range(n):
        seat = g % 4
        bots = [GeneralBot(bot_seed(g, i)) if i == seat else RandomBot(bot_seed(g, i)) for i in range(4)]
        s = play(GAME.new_game({"players": 4, "type": kind}, g), bots)
        wins += s.winners == [seat]
    return wins


def test_general_beats_three_random_bots():
    assert _games("capitol", 20) >= 18


def test_general_plays_every_game_type_and_count():
    for players in (2, 3, 5, 6):
        for kind in ("capitol", "resistance", "abundance"):
            s = play(GAME.new_game({"players": players, "type": kind, "turn_limit": 12}, players),
                     [GeneralBot(i) for i in range(players)])
            assert s.over and s.winners


def test_general_is_registered():
    assert GAME.bots["general"] is GeneralBot
