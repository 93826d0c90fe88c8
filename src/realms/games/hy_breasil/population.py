"""§6.2: the population increase phase.

PIPs by terrain (3 plains, 2 forest or hills); one new unit per 7 PIPs, from the unused
tokens, at most one per occupied area; mandatory; unused PIPs are lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from realms.core.decision import Decision

from .abilities import has
from .races import area_pips
from .steps import STEPS
from .state import units

if TYPE_CHECKING:
    from .state import HBState, Nation


def pips(s: "HBState", n: "Nation") -> int:
    """§6.2: the nation's population increase points (none under Famine)."""
    return _pips(s, n, s.land_areas(n))


def _pips(s: "HBState", n: "Nation", areas: list[int]) -> int:
    """:func:`pips` of the nation holding ``areas``."""
    if n.famine:
        return 0
    total = 0
    if s.races_on and n.race is not None:
        for a in areas:
            total += area_pips(s, n, a)
        return total
    table = s.board.pips
    for a in areas:
        total += table[a]
    return total


def _new_units(s: "HBState", n: "Nation", total: int, areas: int) -> int:
    """§6.2: one unit per 7 PIPs (``total``: §9.3.1 Food preservation adds the PIPs saved
    last turn, RULINGS HB-Q38: also under Famine), limited by unused tokens and one per
    occupied area (``areas``)."""
    return min(min(total // s.tables.pips_per_unit, n.pool), areas)


@STEPS.step("population")
def population(s: "HBState", nid: int) -> None:
    n = s.alive(nid)
    if n is None:
        return
    areas = s.land_areas(n)
    total = _pips(s, n, areas) + n.saved
    count = _new_units(s, n, total, len(areas))
    n.saved = 0
    if has(s, n, "food-preservation"):
        n.saved = min(total - count * s.tables.pips_per_unit, s.tables.food_preservation_max)
    if count == 0:
        return
    if count == len(areas):
        for a in areas:
            s.add_units(n, a, 1)
        _logged(s, n, count)
        return
    s.then(("place", nid, count, 0, count))


def _logged(s: "HBState", n: "Nation", count: int) -> None:
    s.log("population", f"{s.Who(n)} grow by {units(count)}.", nation=n.id, units=count)


@STEPS.step("place")
def place(s: "HBState", nid: int, left: int, done: int, total: int) -> Decision | None:
    n = s.nations[nid]
    free = [a for a in s.land_areas(n) if not (done >> a) & 1]
    if left >= len(free):
        for a in free:
            s.add_units(n, a, 1)
        _logged(s, n, total)
        return None
    return Decision(n.owner, "hb.place", tuple(s.board.ids[a] for a in free),
                    f"Place a new unit of the {n.name} ({left} to place, one per area).",
                    "§6.2", s.label_area)


@STEPS.on_answer("place")
def place_answer(s: "HBState", player: int, key: str, nid: int, left: int, done: int, total: int) -> None:
    n = s.nations[nid]
    a = s.board.index[key]
    s.add_units(n, a, 1)
    done |= 1 << a
    if left > 1:
        s.then(("place", nid, left - 1, done, total))
    else:
        _logged(s, n, total)

