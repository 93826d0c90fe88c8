"""§6.1 Civil war: the owner picks half the areas (rounded down) for a new nation.

Both parts must be internally connected (§6.4) if at all possible, else split into as
few groups as possible — counted over both nations together (RULINGS HB-Q13, land areas
only).  The owner picks the areas one at a time, offered only areas that still lead to
a best split; the best splits are found by trying every split of the nation's areas
(a nation has at most 14 units, so at most C(14,7) = 3432 splits).
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from realms.core.decision import Decision

from .connect import bits, components, link_masks
from .steps import STEPS

if TYPE_CHECKING:
    from .state import HBState, Nation


def best_splits(s: "HBState", n: "Nation") -> list[int]:
    """Bitmasks of the area sets the new nation may take, fewest groups first."""
    areas = s.land_areas(n)
    k = len(areas) // 2
    links = link_masks(s, n.land, s.abilities_on and "navigation" in n.abilities)
    full = n.land
    best, found = None, []
    for combo in combinations(areas, k):
        m = 0
        for a in combo:
            m |= 1 << a
        groups = len(components(m, links)) + len(components(full & ~m, links))
        if best is None or groups < best:
            best, found = groups, [m]
        elif groups == best:
            found.append(m)
    return found


@STEPS.step("civil_war")
def civil_war(s: "HBState", nid: int) -> None:
    n = s.nations[nid]
    s.then(("civil_war_pick", nid, 0, s.turn))


def _splits(s: "HBState", n: "Nation") -> list[int]:
    cache = s._split_cache
    key = (n.id, s.turn, len(s.events))
    if cache is None or cache[0] != key:
        cache = (key, best_splits(s, n))
        s._split_cache = cache
    return cache[1]


@STEPS.step("civil_war_pick")
def civil_war_pick(s: "HBState", nid: int, picked: int, turn: int) -> Decision | None:
    n = s.nations[nid]
    fits = [m for m in _splits(s, n) if m & picked == picked]
    if len(fits) == 1:
        _split(s, n, fits[0])
        return None
    choices = 0
    for m in fits:
        choices |= m & ~picked
    keys = tuple(s.board.ids[a] for a in bits(choices))
    k = len(s.land_areas(n)) // 2
    return Decision(n.owner, "hb.civil-war-area", keys,
                    f"Civil war: choose an area for the breakaway nation ({bin(picked).count('1') + 1} of {k}).",
                    "§6.1", s.label_area)


@STEPS.on_answer("civil_war_pick")
def civil_war_pick_answer(s: "HBState", player: int, key: str, nid: int, picked: int, turn: int) -> None:
    n = s.nations[nid]
    picked |= 1 << s.board.index[key]
    k = len(s.land_areas(n)) // 2
    if bin(picked).count("1") == k:
        _split(s, n, picked)
    else:
        s.then(("civil_war_pick", nid, picked, turn))


def _split(s: "HBState", n: "Nation", mask: int) -> None:
    """The chosen areas' units become a new nation with as many civilization tokens."""
    new = s.create_nation(like=n)
    for a in bits(mask):
        s.transfer(n, new, a, n.units[a])
    s.cup.append(new.id)
    names = ", ".join(s.board.names[a] for a in bits(mask))
    s.log("civil-war", f"Civil war! The {new.name} break away from {s.who(n)}, taking {names}.",
          nation=n.id, new_nation=new.id, areas=[s.board.ids[a] for a in bits(mask)])
    s.then(("assign", new.id, ()))
