"""§9.3 Civilization abilities.

A Civilization result gives an ability of the owner's choice instead of 5 VP; with all
seven owned the event is rerolled without a token.  A master gains every ability its
submitted nations have or gain, each with a civilization token of its own (RULINGS
HB-Q35); nations split off by civil war or disconnection keep their parent's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from realms.core.decision import Decision

from .connect import bits
from .steps import STEPS
from .board import EMPTY

if TYPE_CHECKING:
    from .state import HBState, Nation

NAMES = {
    "capital": "Capital",
    "navigation": "Navigation",
    "food-preservation": "Food preservation",
    "taxation": "Taxation",
    "diplomacy": "Diplomacy",
    "prophecy": "Prophecy",
    "city-building": "City building",
}


def has(s: "HBState", n: "Nation", ability: str) -> bool:
    return s.abilities_on and ability in n.abilities


def all_owned(s: "HBState", n: "Nation") -> bool:
    return len(n.abilities) == len(s.tables.abilities)


@STEPS.step("choose_ability")
def choose_ability(s: "HBState", nid: int) -> Decision | None:
    n = s.alive(nid)
    if n is None:
        return None
    left = tuple(a for a in s.tables.abilities if a not in n.abilities)
    return Decision(n.owner, "hb.ability", left, f"Civilization: which ability do the {n.name} gain?",
                    "§9.3", NAMES.__getitem__)


@STEPS.on_answer("choose_ability")
def choose_ability_answer(s: "HBState", player: int, key: str, nid: int) -> None:
    gain(s, s.nations[nid], key, "civilization")


def gain(s: "HBState", n: "Nation", ability: str, how: str) -> None:
    """``n`` gains ``ability``; a master gains it too (§9.3), with its own token."""
    n.abilities = n.abilities | {ability}
    s.log("ability", f"{s.Who(n)} gain {NAMES[ability]} ({how}).", nation=n.id, ability=ability, how=how)
    if ability == "capital":
        s.then(("choose_capital", n.id))
    elif ability == "prophecy":
        prophesy(s, n)
    master = s.nations.get(n.master) if n.master != EMPTY else None
    if master is not None and ability not in master.abilities:
        s.then(("civ_token", master.id, "ability"), ("master_gains", master.id, ability))


def pass_to_master(s: "HBState", servant: "Nation", master: "Nation") -> None:
    """§9.3: on submission the master gains every ability the submitted nation has."""
    for ability in s.tables.abilities:
        if ability in servant.abilities and ability not in master.abilities:
            s.then(("civ_token", master.id, "ability"), ("master_gains", master.id, ability))


@STEPS.step("master_gains")
def master_gains(s: "HBState", nid: int, ability: str) -> None:
    n = s.alive(nid)
    if n is not None and ability not in n.abilities:
        gain(s, n, ability, "submission")


@STEPS.step("choose_capital")
def choose_capital(s: "HBState", nid: int) -> Decision | None:
    """§9.3.1 Capital: an area the nation occupies, chosen at once (RULINGS HB-Q36)."""
    n = s.alive(nid)
    if n is None or n.capital != EMPTY or not n.land:
        return None
    areas = s.land_areas(n)
    return Decision(n.owner, "hb.capital", tuple(s.board.ids[a] for a in areas),
                    f"Choose the capital of the {n.name} (3 VP for them while they hold it).", "§9.3.1",
                    s.label_area)


@STEPS.on_answer("choose_capital")
def choose_capital_answer(s: "HBState", player: int, key: str, nid: int) -> None:
    _set_capital(s, s.nations[nid], s.board.index[key])


def _set_capital(s: "HBState", n: "Nation", area: int) -> None:
    n.capital = area
    s.log("capital", f"{s.Who(n)} make {s.board.names[area]} their capital.", nation=n.id,
          area=s.board.ids[area])


def prophesy(s: "HBState", n: "Nation") -> None:
    """§9.3.1 Prophecy: roll the random event of the nation's next turn now."""
    roll: int = s.dice.d6()
    n.prophecy = s.tables.event_for(roll + n.civ)
    s.log("prophecy", f"The seers of the {n.name} foretell {n.prophecy.replace('-', ' ')} (rolled {roll}+{n.civ}).",
          nation=n.id, event=n.prophecy, roll=roll)


@STEPS.step("prophesy")
def prophesy_step(s: "HBState", nid: int) -> None:
    """After the events phase a prophetic nation foretells its next turn's event."""
    n = s.alive(nid)
    if n is not None and has(s, n, "prophecy") and n.prophecy is None:
        prophesy(s, n)


def support_limit(s: "HBState", n: "Nation", areas: int) -> int:
    """§6.4: twice the areas; §9.3.1 Taxation: 2.5 times, rounded down."""
    if has(s, n, "taxation"):
        return s.tables.taxation_units_per_two_areas * areas // 2
    return s.tables.units_per_area * areas


def free_city_tokens(s: "HBState") -> int:
    """§9.3: one set of tokens is set aside for cities."""
    return s.set_size - bin(s.cities).count("1")


def city_sites(s: "HBState", n: "Nation") -> list[int]:
    """Areas where a city may be built: 4+ armies (a city left alone is removed, so three
    must go and one must stay: RULINGS HB-Q41) and no city yet."""
    need = s.tables.city_cost + 1
    return [a for a in s.land_areas(n) if n.units[a] >= need and not (s.cities >> a) & 1]


@STEPS.step("cities")
def cities(s: "HBState", nid: int) -> Decision | None:
    """§9.3.1 City building, just before the support phase: 3 armies for a city token."""
    n = s.alive(nid)
    if n is None or not has(s, n, "city-building") or free_city_tokens(s) == 0:
        return None
    sites = city_sites(s, n)
    if not sites:
        return None
    return Decision(n.owner, "hb.city", ("done",) + tuple(s.board.ids[a] for a in sites),
                    f"Build a city for the {n.name} (3 armies become a city token)?", "§9.3.1",
                    lambda k: "No more cities" if k == "done" else f"Build a city in {s.label_area(k)}")


@STEPS.on_answer("cities")
def cities_answer(s: "HBState", player: int, key: str, nid: int) -> None:
    if key == "done":
        return
    n = s.nations[nid]
    a = s.board.index[key]
    s.remove_units(n, a, s.tables.city_cost)
    s.cities |= 1 << a
    s.log("city-built", f"{s.Who(n)} build a city in {s.board.names[a]}.", nation=nid, area=key)
    s.then(("cities", nid))


__all__ = ["bits"]
