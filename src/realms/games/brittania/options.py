"""Brittania's own options, declared as a schema (``Game.options``): the last turn (20 in
the rules post; fewer for short games and tests).  The number of players (2..12: "A
Player (maximum of 12)") and their names are the shared ``players``/``names`` options,
from the game's player range."""

from __future__ import annotations

from realms.core.options import Option

MIN_PLAYERS = 2
MAX_PLAYERS = 12

OPTIONS: tuple[Option, ...] = (
    Option("turns", "int", 20, "The last turn, after which the economic victory is scored "
           "(rules post: 20).", flag="--turns", min=1, max=100),
)
