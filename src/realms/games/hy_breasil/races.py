"""§9.1 Races: rolled for each nation entering in the invasion phase.

Two dice plus the turn index table 2; in the first turn no two nations share a race
(reroll until they differ).  The races' abilities live in ``data/rules.toml``: PIPs per
terrain (§6.2), +1 to combat dice in a terrain (attacking or defending), and the
lizardmen's indifference to Famine and Plague.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import HBState, Nation


def roll_race(s: "HBState", n: "Nation", turn: int, taken: frozenset[str] = frozenset()) -> None:
    """Give ``n`` a race from table 2 with ``turn`` added to 2d6, avoiding ``taken``."""
    t = s.tables
    while True:
        dice = s.dice.d6() + s.dice.d6()
        race = t.race_for(turn + dice)
        if race not in taken:
            break
    n.race = race
    s.log("race", f"The {n.name} are {_article(race)} {race} people (rolled {dice}+{turn}).",
          nation=n.id, name=n.name, race=race, roll=dice)


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def first_turn_races(s: "HBState") -> frozenset[str]:
    """§9.1: races already given to nations this first turn (no duplicates allowed)."""
    return frozenset(n.race for n in s.nations.values() if n.race)


def combat_bonus(s: "HBState", n: "Nation | None", area: int) -> int:
    """§9.1: +1 to a troll's dice in hills, a hogman's in forest, attacking or defending."""
    terrain = s.board.terrain[area]
    if not s.races_on or n is None or n.race is None or terrain is None:
        return 0
    return s.tables.races[n.race].combat_bonus.get(terrain, 0)


def ignores(s: "HBState", n: "Nation", event: str) -> bool:
    """§9.1 Lizardman: Famine and Plague have no effect (RULINGS HB-Q28: nor its spread)."""
    return s.races_on and n.race is not None and event in s.tables.races[n.race].ignores


def plague_immune(s: "HBState", n: "Nation") -> bool:
    """§9.1: a plagued nation cannot remove neighbouring lizardman units."""
    return s.races_on and n.race is not None and s.tables.races[n.race].plague_immune


def area_pips(s: "HBState", n: "Nation", area: int) -> int:
    """§6.2 PIPs of ``area`` for ``n``, with its race's own values (§9.1)."""
    terrain = s.board.terrain[area]
    if s.races_on and n.race is not None and terrain is not None:
        return s.tables.races[n.race].pips[terrain]
    return s.board.pips[area]
