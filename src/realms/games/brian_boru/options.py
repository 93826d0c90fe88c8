"""Game options: 3 to 5 players (rulebook, Setup), or their names — nothing else.

Players and names are the options every game has, declared and checked once by
``realms.core.options``; Brian Boru adds none of its own.

>>> from realms.games.brian_boru import GAME
>>> GAME.normalize_options({"players": 3})
{'players': 3, 'names': ['P1', 'P2', 'P3']}
"""

from __future__ import annotations

from realms.core.options import Option

MIN_PLAYERS, MAX_PLAYERS = 3, 5
OPTIONS: tuple[Option, ...] = ()
