"""Game options, declared as plain option specs (name, type, default, bounds, help) and
checked by :func:`normalize_options`: up to 12 players ("A Player (maximum of 12)"), their
names, and the last turn (20 in the rules post; fewer for short games and tests)."""

from __future__ import annotations

from realms.core.game import OptionError

MIN_PLAYERS = 2
MAX_PLAYERS = 12

OPTIONS: tuple[dict, ...] = (
    {"name": "players", "type": "int", "default": 4, "min": MIN_PLAYERS, "max": MAX_PLAYERS,
     "help": "number of players (rules post: a maximum of 12)"},
    {"name": "names", "type": "list[str]", "default": None,
     "help": "the players' names, one per seat (default P1, P2, …)"},
    {"name": "turns", "type": "int", "default": 20, "min": 1, "max": 100,
     "help": "the last turn, after which the economic victory is scored (rules post: 20)"},
)
KNOWN = tuple(o["name"] for o in OPTIONS)


def _whole(raw: dict, spec: dict) -> int:
    value = raw.get(spec["name"], spec["default"])
    if not isinstance(value, int) or isinstance(value, bool):
        raise OptionError(f"option {spec['name']!r} must be a whole number, got {value!r}")
    if not spec["min"] <= value <= spec["max"]:
        raise OptionError(f"option {spec['name']!r} must be {spec['min']}..{spec['max']} ({spec['help']}), got {value}")
    return value


def normalize_options(raw: dict) -> dict:
    """Check ``raw`` and return the full option set.

    >>> normalize_options({"players": 3})
    {'players': 3, 'names': ['P1', 'P2', 'P3'], 'turns': 20}
    """
    unknown = sorted(set(raw) - set(KNOWN))
    if unknown:
        raise OptionError(f"unknown option(s) {', '.join(unknown)} (known: {', '.join(KNOWN)})")
    spec = {o["name"]: o for o in OPTIONS}
    names = raw.get("names")
    if names is not None:
        if not isinstance(names, list) or not all(isinstance(x, str) and x.strip() for x in names):
            raise OptionError("option 'names' must be a list of non-empty names")
        names = [x.strip() for x in names]
        if len(set(names)) != len(names):
            raise OptionError("option 'names' has duplicate names")
    players = _whole({"players": len(names), **raw} if names is not None else raw, spec["players"])
    if names is None:
        names = [f"P{i + 1}" for i in range(players)]
    elif len(names) != players:
        raise OptionError(f"option 'names' has {len(names)} names for {players} players")
    return {"players": players, "names": names, "turns": _whole(raw, spec["turns"])}
