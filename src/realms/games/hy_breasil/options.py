"""Game options (§3 game length, §2 token sets) — validated, with defaults filled in."""

from __future__ import annotations

from realms.core.game import OptionError

from .tables import load_tables

KNOWN = ("players", "names", "turns", "vp_target", "sets", "set_size", "map", "max_turns")


def _int(opts: dict, key: str, lo: int, hi: int | None = None) -> int:
    v = opts[key]
    if not isinstance(v, int) or isinstance(v, bool):
        raise OptionError(f"option {key!r} must be a whole number, got {v!r}")
    if v < lo or (hi is not None and v > hi):
        rng = f"{lo}..{hi}" if hi is not None else f"at least {lo}"
        raise OptionError(f"option {key!r} must be {rng}, got {v}")
    return v


def normalize_options(raw: dict) -> dict:
    """Check ``raw`` and return the full option set.

    ``turns`` (default 15) and ``vp_target`` are the two game lengths of §3; giving only
    a VP target plays until it is reached (at most ``max_turns``, RULINGS HB-Q1).
    """
    t = load_tables()
    unknown = sorted(set(raw) - set(KNOWN))
    if unknown:
        raise OptionError(f"unknown option(s) {', '.join(unknown)} (known: {', '.join(KNOWN)})")
    o = dict(raw)
    names = o.get("names")
    if names is not None:
        if not isinstance(names, list) or not all(isinstance(x, str) and x.strip() for x in names):
            raise OptionError("option 'names' must be a list of non-empty names")
        if len(set(names)) != len(names):
            raise OptionError("option 'names' has duplicate names")
        o.setdefault("players", len(names))
    o.setdefault("players", 4)
    players = _int(o, "players", 2, 6)
    if names is None:
        names = [f"P{i + 1}" for i in range(players)]
    elif len(names) != players:
        raise OptionError(f"option 'names' has {len(names)} names for {players} players")
    o["names"] = list(names)
    o.setdefault("vp_target", None)
    if o["vp_target"] is not None:
        _int(o, "vp_target", 1)
        o.setdefault("turns", None)
    else:
        o.setdefault("turns", t.default_turns)
    if o["turns"] is not None:
        _int(o, "turns", 1)
    o.setdefault("max_turns", t.max_turns)
    _int(o, "max_turns", 1)
    o.setdefault("sets", t.default_sets)
    _int(o, "sets", 2, len(t.nation_sets))
    if o["sets"] < players:
        raise OptionError(f"option 'sets' ({o['sets']}) must be at least the number of players ({players})")
    o.setdefault("set_size", t.default_set_size)
    _int(o, "set_size", t.first_turn_units + 1)
    o.setdefault("map", "hy-breasil")
    if not isinstance(o["map"], str) or not o["map"]:
        raise OptionError("option 'map' must be a map name or a path to a map file")
    return {k: o[k] for k in KNOWN}
