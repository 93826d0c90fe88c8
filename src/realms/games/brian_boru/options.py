"""Game options: 3 to 5 players (rulebook, Setup), or their names."""

from __future__ import annotations

from realms.core.game import OptionError

KNOWN = ("players", "names")
MIN_PLAYERS = 3
MAX_PLAYERS = 5


def normalize_options(raw: dict) -> dict:
    """Check ``raw`` and return the full option set ``{"players": n, "names": [...]}``.

    >>> normalize_options({"players": 3})
    {'players': 3, 'names': ['P1', 'P2', 'P3']}
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
    players = raw.get("players", len(names) if names is not None else 4)
    if not isinstance(players, int) or isinstance(players, bool):
        raise OptionError(f"option 'players' must be a whole number, got {players!r}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OptionError(f"option 'players' must be {MIN_PLAYERS}..{MAX_PLAYERS} (Brian Boru is for 3 to 5 players), got {players}")
    if names is None:
        names = [f"P{i + 1}" for i in range(players)]
    elif len(names) != players:
        raise OptionError(f"option 'names' has {len(names)} names for {players} players")
    return {"players": players, "names": list(names)}
