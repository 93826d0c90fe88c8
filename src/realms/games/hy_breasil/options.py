"""Game options (§3 game length, §2 token sets, §9 advanced rules, §10–11 variants) as a
schema the shared validator checks, and the checks that tie options together.

Defaults and bounds come from ``data/rules.toml`` (one place for each fact).
"""

from __future__ import annotations

from realms.core.options import Option, OptionError

from .board import DEFAULT_MAP, MAPS
from .tables import load_tables

MIN_PLAYERS, MAX_PLAYERS = 2, 6
RULES = ("races", "submission", "abilities")          # §9.1, §9.2, §9.3
VARIANTS = ("continuous", "random-scoring")           # §10, §11
#: the largest VP target and set size a game may ask for (bounds on the work a game is)
MAX_VP_TARGET = 1000
MAX_SET_SIZE = 40
#: the largest seed of a generated island (``map_seed``)
MAX_MAP_SEED = 2**31 - 1


def _schema() -> tuple[Option, ...]:
    t = load_tables()
    last = t.max_turns
    maps = tuple(sorted(p.stem for p in MAPS.glob("*.toml")))
    return (
        Option("turns", "int", t.default_turns, "Game length in turns (§3); "
               "none with a VP target plays until it is reached.", group="length", flag="--turns",
               min=1, max=last, nullable=True),
        Option("vp_target", "int", None, "Play until a player has this many VP (§3).", group="length",
               flag="--vp-target", min=1, max=MAX_VP_TARGET, nullable=True),
        Option("sets", "int", t.default_sets, "Number of nation token sets (§2); at least the players.",
               group="tokens", flag="--sets", min=2, max=len(t.nation_sets)),
        Option("set_size", "int", t.default_set_size, "Tokens per set (§2).", group="tokens",
               flag="--set-size", min=t.first_turn_units + 1, max=MAX_SET_SIZE),
        Option("map", "file", DEFAULT_MAP, "A bundled map, or (command line only) a path to a map TOML file.",
               group="board", flag="--map", choices=maps),
        Option("map_seed", "int", 0, "Play on a new island made from this seed (as realms map generate "
               "hy-breasil --seed N makes it, at the bundled map's size); 0: the map option's map.",
               group="board", flag="--map-seed", min=0, max=MAX_MAP_SEED),
        Option("max_turns", "int", last, "The game ends after this turn whatever its length "
               "(a VP-target game that is never reached stops here; RULINGS HB-Q1).", group="length",
               min=1, max=last),
        Option("rules", "choices", [], "Advanced rules, any combination (§9).", group="advanced rules",
               flag="--rules", choices=RULES),
        Option("variant", "choice", None, "§10 continuous play or §11 random scoring.", group="variant",
               flag="--variant", choices=VARIANTS, nullable=True),
        Option("joins", "timeline", [], "§10: a player joins at the start of a turn (continuous only).",
               group="variant", flag="--join", min=2, max=last),
        Option("leaves", "timeline", [], "§10: a player leaves at the start of a turn (continuous only).",
               group="variant", flag="--leave", min=2, max=last),
    )


OPTIONS = _schema()


def check_options(o: dict, given: frozenset) -> dict:
    """What ties options together.  Giving only a VP target plays until it is reached (at
    most ``max_turns``, RULINGS HB-Q1); a map is named or generated from a seed, not both;
    the token sets must cover the players (one more with §9.3 abilities, whose city tokens
    take a set); §10.1 joins and leaves must make sense turn by turn."""
    if o["vp_target"] is not None and "turns" not in given:
        o["turns"] = None
    if o["map_seed"] and o["map"] != DEFAULT_MAP:
        raise OptionError("give 'map' or 'map_seed' (an island made from a seed), not both")
    players = o["players"]
    if o["sets"] < players:
        raise OptionError(f"option 'sets' ({o['sets']}) must be at least the number of players ({players})")
    if "abilities" in o["rules"] and o["sets"] - 1 < players:
        raise OptionError("with 'abilities' one set holds city tokens (§9.3): 'sets' must exceed the players")
    _timeline(o)
    return o


def _timeline(o: dict) -> None:
    """§10.1: who joins and leaves at the start of which turn; checked for consistency."""
    joins, leaves = o["joins"], o["leaves"]
    if (joins or leaves) and o["variant"] != "continuous":
        raise OptionError("'joins' and 'leaves' need variant 'continuous' (§10)")
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
        if not MIN_PLAYERS <= len(present) <= MAX_PLAYERS:
            raise OptionError(f"turn {turn}: {len(present)} players would be in the game "
                              f"({MIN_PLAYERS}..{MAX_PLAYERS} needed)")
