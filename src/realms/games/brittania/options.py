"""Brittania's own options, declared as a schema (``Game.options``): the last turn (20 in
the rules post; fewer for short games and tests) and the web app's deadline for each
turn's orders.  The number of players (2..12: "A Player (maximum of 12)") and their
names are the shared ``players``/``names`` options, from the game's player range."""

from __future__ import annotations

from realms.core.options import Option

MIN_PLAYERS = 2
MAX_PLAYERS = 12

OPTIONS: tuple[Option, ...] = (
    Option("turns", "int", 20, "The last turn, after which the economic victory is scored "
           "(rules post: 20).", flag="--turns", min=1, max=100),
    Option("deadline_minutes", "int", 0, "In the web app, the minutes players have to send each turn's "
           "orders, after which the turn resolves with the orders sent (a player who sent none gives "
           "none); 0: no deadline, the turn waits for everyone (RULINGS BR-Q102).",
           min=0, max=43200),
)
