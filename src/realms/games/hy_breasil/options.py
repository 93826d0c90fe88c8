"""Game options (§3 game length, §2 token sets) — validated, with defaults filled in."""

from __future__ import annotations

from realms.core.game import OptionError

from .tables import load_tables

KNOWN = ("players", "names", "turns", "vp_target", "sets", "set_size", "map", "max_turns",
         "rules", "variant", "joins", "leaves")
RULES = ("races", "submission", "abilities")          # §9.1, §9.2, §9.3
VARIANTS = ("continuous", "random-scoring")           # §10, §11


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
    o["rules"] = _rules(o.get("rules", []))
    if "abilities" in o["rules"] and o["sets"] - 1 < players:
        raise OptionError("with 'abilities' one set holds city tokens (§9.3): 'sets' must exceed the players")
    variant = o.setdefault("variant", None)
    if variant is not None and variant not in VARIANTS:
        raise OptionError(f"option 'variant' must be one of {', '.join(VARIANTS)}, got {variant!r}")
    o["joins"], o["leaves"] = _timeline(o, variant)
    return {k: o[k] for k in KNOWN}


def _rules(value) -> list[str]:
    """§9: the advanced rules, any combination (RULINGS HB-Q47), kept in rulebook order."""
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise OptionError("option 'rules' must be a list of rule names")
    unknown = sorted(set(value) - set(RULES))
    if unknown:
        raise OptionError(f"unknown rule(s) {', '.join(unknown)} (known: {', '.join(RULES)})")
    return [r for r in RULES if r in value]


def _timeline(o: dict, variant) -> tuple[list, list]:
    """§10.1: who joins and leaves at the start of which turn; checked for consistency."""
    joins, leaves = o.get("joins") or [], o.get("leaves") or []
    if (joins or leaves) and variant != "continuous":
        raise OptionError("'joins' and 'leaves' need variant 'continuous' (§10)")
    out = []
    for key, items in (("joins", joins), ("leaves", leaves)):
        clean = []
        if not isinstance(items, list):
            raise OptionError(f"option {key!r} must be a list of [turn, name]")
        for item in items:
            if (not isinstance(item, (list, tuple)) or len(item) != 2 or not isinstance(item[0], int)
                    or isinstance(item[0], bool) or item[0] < 2 or not isinstance(item[1], str) or not item[1].strip()):
                raise OptionError(f"option {key!r}: {item!r} must be [turn ≥ 2, name]")
            clean.append([item[0], item[1].strip()])
        out.append(sorted(clean))
    joins, leaves = out
    present = set(o["names"])
    left_at: dict[str, int] = {}
    for turn in sorted({t for t, _ in joins + leaves}):
        for t, name in leaves:
            if t == turn:
                if name not in present:
                    raise OptionError(f"'leaves': {name} is not in the game at turn {turn}")
                present.discard(name)
                left_at[name] = turn
        for t, name in joins:
            if t == turn:
                if name in present:
                    raise OptionError(f"'joins': {name} is already in the game at turn {turn}")
                if left_at.get(name) == turn:
                    raise OptionError(f"'joins': {name} cannot leave and re-enter in turn {turn} (§10.1)")
                present.add(name)
        if not 2 <= len(present) <= 6:
            raise OptionError(f"turn {turn}: {len(present)} players would be in the game (2..6 needed)")
    return joins, leaves
