"""Options of version² as a declared schema (``core.options.Option``) and the one check
a schema cannot say: the board must exist and fit the players.

Defaults: 4 players, the Capitol game type (I.2), the shipped board for the player count
(option ``map``: none means ``board-<players>``), and a limit of 40 game turns (V2-Q35:
the rulebook has none; bots and simulations need one).
"""

from __future__ import annotations

import re

from realms.core.options import Option, OptionError

from .board import MAPS, BoardError, load_board
from .rules import GAME_TYPES

MIN_PLAYERS, MAX_PLAYERS = 2, 6
#: a shipped board's name says the players it is made for
SHIPPED = re.compile(r"board-(\d+)")

OPTIONS: tuple[Option, ...] = (
    Option("type", "choice", "capitol", "Game type: capitol, resistance or abundance (I.2).",
           group="game", flag="--type", choices=GAME_TYPES),
    Option("map", "file", None, "A bundled board, or (command line only) a path to a board TOML file; "
           "none: the board for the player count.", group="board", flag="--map",
           choices=tuple(sorted(p.stem for p in MAPS.glob("*.toml"))), nullable=True),
    Option("turn_limit", "int", 40, "The game ends after this many game turns (V2-Q35).",
           group="game", flag="--turn-limit", min=4, max=1000),
)


def check_options(o: dict, given: frozenset) -> dict:
    """The board (none: ``board-<players>``) loads, is not a shipped board made for fewer
    players, and has room for every player.

    >>> check_options({"players": 2, "map": None}, frozenset())["map"]
    'board-2'
    """
    board = o["map"] or f"board-{o['players']}"
    try:
        b = load_board(board)
    except BoardError as exc:
        raise OptionError(f"option 'map': {exc}") from None
    made_for = SHIPPED.fullmatch(board)
    if made_for and int(made_for.group(1)) < o["players"]:
        raise OptionError(f"option 'map': {board} is the board for {made_for.group(1)} players, "
                          f"not {o['players']}")
    if len(b.land) < 3 * o["players"]:
        raise OptionError(f"option 'map': {board} has {len(b.land)} land fields, too few for {o['players']} players")
    return {**o, "map": board}
