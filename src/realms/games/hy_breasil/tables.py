"""The rule tables of Hy Breasil, read from ``data/rules.toml`` and validated at load.

No rule table is retyped in code: the events table (§6.1 table 1), the invasion table
(§5.2), PIPs per terrain (§6.2), hit numbers (§6.3.1) and the nation sets (§2) all come
from the data file.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from realms.core.files import DataFile, FileError, load_toml

DATA = Path(__file__).parent / "data"
TERRAINS = ("plains", "forest", "hills")
EVENTS = (
    "reinforcements",
    "strong-leader",
    "weak-leader",
    "religious-fervour",
    "plague",
    "famine",
    "civil-war",
    "civilization",
)


#: a tables file that cannot be used (the shared error of data files: file, line, field)
TableError = FileError


@dataclass(frozen=True)
class NationSet:
    name: str
    colour: str


RACES = ("human", "dwarf", "elf", "troll", "hogman", "lizardman")
ABILITIES = ("capital", "navigation", "food-preservation", "taxation", "diplomacy", "prophecy", "city-building")


@dataclass(frozen=True)
class Race:
    name: str
    pips: dict[str, int]
    combat_bonus: dict[str, int]
    ignores: frozenset[str]
    plague_immune: bool


@dataclass(frozen=True)
class Tables:
    first_turn_units: int
    later_units_plus: int
    new_nations_by_die: tuple[int, ...]
    event_table: tuple[str, ...]
    first_turn_event: str
    civilization_vp: int
    pips_per_unit: int
    pips: dict[str, int]
    hit_on: int
    attacker_hit_on_rough: int
    rough: frozenset[str]
    units_per_area: int
    vp_per_area: int
    default_sets: int
    default_set_size: int
    default_turns: int
    max_turns: int
    nation_sets: tuple[NationSet, ...]
    race_first_total: int
    race_table: tuple[str, ...]
    races: dict[str, Race]
    abilities: tuple[str, ...]
    capital_vp: int
    food_preservation_max: int
    taxation_units_per_two_areas: int
    city_cost: int
    scoring_roll: int

    def race_for(self, total: int) -> str:
        """Table 2: the race for turn + 2d6 (the last row for anything above)."""
        i = min(max(total - self.race_first_total, 0), len(self.race_table) - 1)
        return self.race_table[i]

    def event_for(self, total: int) -> str:
        """Table 1: the event for die + civilization tokens (12+ is the last row)."""
        return self.event_table[min(max(total, 1), len(self.event_table)) - 1]


def parse_tables(data: dict, source: str, file: DataFile | None = None) -> Tables:
    """The tables of ``data`` (read from ``file`` when given: errors then name its lines)."""
    g = (file or DataFile(data, "", source, TableError)).get
    table = tuple(g("events.table", list))
    for i, ev in enumerate(table, 1):
        if ev not in EVENTS:
            raise TableError(f"{source}: [events.table] row {i}: unknown event {ev!r}")
    if len(table) != 12:
        raise TableError(f"{source}: [events.table] must have 12 rows, has {len(table)}")
    dice = tuple(g("invasion.new_nations_by_die", list))
    if len(dice) != 6 or not all(isinstance(x, int) and x >= 0 for x in dice):
        raise TableError(f"{source}: [invasion.new_nations_by_die] must be 6 counts")
    pips = g("population.pips", dict)
    if set(pips) != set(TERRAINS) or not all(isinstance(v, int) and v >= 0 for v in pips.values()):
        raise TableError(f"{source}: [population.pips] must give PIPs for {', '.join(TERRAINS)}")
    sets = []
    for i, entry in enumerate(g("nation_set", list), 1):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not isinstance(
            entry.get("colour"), str
        ):
            raise TableError(f"{source}: [[nation_set]] #{i} needs a name and a colour")
        sets.append(NationSet(entry["name"], entry["colour"]))
    if len({s.name for s in sets}) != len(sets):
        raise TableError(f"{source}: [[nation_set]] names must be unique")
    rough = frozenset(g("combat.rough", list))
    if not rough <= set(TERRAINS):
        raise TableError(f"{source}: [combat.rough] has unknown terrains {sorted(rough - set(TERRAINS))}")
    first = g("events.first_turn_event", str)
    if first not in EVENTS:
        raise TableError(f"{source}: [events.first_turn_event] unknown event {first!r}")
    race_table = tuple(g("races.table", list))
    for i, r in enumerate(race_table):
        if r not in RACES:
            raise TableError(f"{source}: [races.table] entry {i + 1}: unknown race {r!r}")
    races = {}
    for name in RACES:
        entry = g(f"races.{name}", dict)
        pips_over = entry.get("pips", {})
        bonus = entry.get("combat_bonus", {})
        for what, table_ in (("pips", pips_over), ("combat_bonus", bonus)):
            if not isinstance(table_, dict) or not set(table_) <= set(TERRAINS) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in table_.values()
            ):
                raise TableError(f"{source}: [races.{name}] {what} must map terrains to integers")
        ignores = entry.get("ignores", [])
        if not isinstance(ignores, list) or not set(ignores) <= set(EVENTS):
            raise TableError(f"{source}: [races.{name}] ignores must list events")
        races[name] = Race(name, {**pips, **pips_over}, dict(bonus), frozenset(ignores),
                           bool(entry.get("plague_immune", False)))
    abilities = tuple(g("abilities.list", list))
    if set(abilities) != set(ABILITIES) or len(abilities) != len(ABILITIES):
        raise TableError(f"{source}: [abilities.list] must name the seven abilities of §9.3.1")
    return Tables(
        race_first_total=g("races.first_total", int),
        race_table=race_table,
        races=races,
        abilities=abilities,
        capital_vp=g("abilities.capital_vp", int),
        food_preservation_max=g("abilities.food_preservation_max", int),
        taxation_units_per_two_areas=g("abilities.taxation_units_per_two_areas", int),
        city_cost=g("abilities.city_cost", int),
        scoring_roll=g("random_scoring.scores_on", int),
        first_turn_units=g("invasion.first_turn_units", int),
        later_units_plus=g("invasion.later_units_plus", int),
        new_nations_by_die=dice,
        event_table=table,
        first_turn_event=first,
        civilization_vp=g("events.civilization_vp", int),
        pips_per_unit=g("population.pips_per_unit", int),
        pips=dict(pips),
        hit_on=g("combat.hit_on", int),
        attacker_hit_on_rough=g("combat.attacker_hit_on_rough", int),
        rough=rough,
        units_per_area=g("support.units_per_area", int),
        vp_per_area=g("victory.vp_per_area", int),
        default_sets=g("game.default_sets", int),
        default_set_size=g("game.default_set_size", int),
        default_turns=g("game.default_turns", int),
        max_turns=g("game.max_turns", int),
        nation_sets=tuple(sets),
    )


@lru_cache(maxsize=None)
def load_tables(path: str = str(DATA / "rules.toml")) -> Tables:
    p = Path(path)
    file = load_toml(p, error=TableError, name=p.name)
    return parse_tables(file.data, p.name, file)
