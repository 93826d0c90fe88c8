"""Options of version²: a plain list of option specs (name, type, default, bounds, help)
and :func:`normalize_options`, which checks raw options against them and fills defaults.

Defaults: 4 players, the Capitol game type (I.2), the shipped board for the player count
(option ``map``, the name the CLI and web app use for a game's board), and a limit of 40
game turns (V2-Q35: the rulebook has none; bots and simulations need one).
"""

from __future__ import annotations

from realms.core.game import OptionError

from .board import BoardError, load_board
from .rules import GAME_TYPES

MIN_PLAYERS, MAX_PLAYERS = 2, 6

#: name, type, default (None: derived), bounds or choices, help
OPTIONS: tuple[dict, ...] = (
    {"name": "players", "type": "int", "default": 4, "min": MIN_PLAYERS, "max": MAX_PLAYERS,
     "help": "number of players (2.2)"},
    {"name": "names", "type": "list[str]", "default": None,
     "help": "player names (sets players; default P1, P2, …)"},
    {"name": "type", "type": "choice", "default": "capitol", "choices": list(GAME_TYPES),
     "help": "game type: capitol, resistance or abundance (I.2)"},
    {"name": "map", "type": "str", "default": None,
     "help": "board name (board-4) or path to a board TOML file (default: the board for the player count)"},
    {"name": "turn_limit", "type": "int", "default": 40, "min": 4, "max": 1000,
     "help": "the game ends after this many game turns (V2-Q35)"},
)
KNOWN = tuple(o["name"] for o in OPTIONS)
_SPEC = {o["name"]: o for o in OPTIONS}


def _int(raw: dict, name: str) -> int:
    spec = _SPEC[name]
    v = raw.get(name, spec["default"])
    if not isinstance(v, int) or isinstance(v, bool):
        raise OptionError(f"option {name!r} must be a whole number, got {v!r}")
    if not spec["min"] <= v <= spec["max"]:
        raise OptionError(f"option {name!r} must be {spec['min']}..{spec['max']} ({spec['help']}), got {v}")
    return v


def normalize_options(raw: dict) -> dict:
    """Check ``raw`` and return every option filled in.

    >>> normalize_options({"players": 2})["names"]
    ['P1', 'P2']
    """
    unknown = sorted(set(raw) - set(KNOWN))
    if unknown:
        raise OptionError(f"unknown option(s) {', '.join(unknown)} (known: {', '.join(KNOWN)})")
    names = raw.get("names")
    if names is not None:
        if not isinstance(names, list) or not all(isinstance(x, str) and x.strip() for x in names):
            raise OptionError("option 'names' must be a list of non-empty names")
        names = [x.strip() for x in names]
        if len(set(names)) != len(names):
            raise OptionError("option 'names' has duplicate names")
    players = _int({"players": len(names)} if names is not None and "players" not in raw else raw, "players")
    if names is None:
        names = [f"P{i + 1}" for i in range(players)]
    elif len(names) != players:
        raise OptionError(f"option 'names' has {len(names)} names for {players} players")
    kind = raw.get("type", "capitol")
    if kind not in GAME_TYPES:
        raise OptionError(f"option 'type' must be one of {', '.join(GAME_TYPES)}, got {kind!r}")
    board = raw.get("map") or f"board-{players}"
    if not isinstance(board, str):
        raise OptionError(f"option 'map' must be a board name or path, got {board!r}")
    try:
        b = load_board(board)
    except BoardError as exc:
        raise OptionError(f"option 'map': {exc}") from None
    if len(b.land) < 3 * players:
        raise OptionError(f"option 'map': {board} has {len(b.land)} land fields, too few for {players} players")
    return {"players": players, "names": names, "type": kind, "map": board,
            "turn_limit": _int(raw, "turn_limit")}
