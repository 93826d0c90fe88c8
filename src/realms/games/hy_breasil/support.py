"""§6.4: the support phase — connection, then at most two units per area.

If the nation's areas are not all connected, it keeps the connected part with the most
units (the owner breaks ties).  The rest becomes a new nation — when a token set is
free and the rest spans two or more areas — "immediately assigned" by §5.3 (before the
parent's support limit, so its owner is settled first) and playing from the next nation
phase on;
otherwise the rest is emptied.  Then the owner removes units above twice the number of
areas, one at a time, from areas holding two or more (RULINGS HB-Q102).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from realms.core.decision import Decision

from .connect import bits, components, link_masks, territories
from .abilities import support_limit as ability_limit
from .steps import STEPS
from .state import units

if TYPE_CHECKING:
    from .state import HBState, Nation


def parts(s: "HBState", n: "Nation") -> list[int]:
    """The connected parts of the nation's land (bitmasks), most units first.  Adjacent
    areas are always connected, so land that is one territory is one part (the usual
    case, answered from the territory memo)."""
    if not n.land:
        return []
    groups = territories(n.land, s.board)
    if len(groups) == 1:
        return groups
    links = link_masks(s, n.land, s.abilities_on and "navigation" in n.abilities)
    groups = components(n.land, links)
    if len(groups) == 1:
        return groups
    ranked = sorted([(-strength(n, g), g) for g in groups])
    return [g for _, g in ranked]


def strength(n: "Nation", part: int) -> int:
    """The nation's units in the areas of ``part``."""
    total = 0
    for a, c in n.units.items():
        if part >> a & 1:
            total += c
    return total


def support_limit(s: "HBState", n: "Nation") -> int:
    """§6.4: twice as many units as areas (2.5 times with Taxation, §9.3.1)."""
    return ability_limit(s, n, n.land.bit_count())


@STEPS.step("support")
def support(s: "HBState", nid: int) -> Decision | None:
    n = s.alive(nid)
    if n is None:
        return None
    groups = parts(s, n)
    if len(groups) > 1:
        top = strength(n, groups[0])
        tied = [g for g in groups if strength(n, g) == top]
        if len(tied) == 1:  # one strongest part: kept, as the engine would apply it
            s.then(("support_limit", nid))
            _detach(s, n, tied[0])
            return None
        return _ask_part(s, n, tied)
    s.then(("support_limit", nid))
    return None


def _ask_part(s: "HBState", n: "Nation", tied: list[int]) -> Decision:
    """§6.4: the owner breaks a tie between the strongest parts (asked from its own
    function: compiled, a function holding a closure makes its frame on every call)."""
    keys = tuple(s.board.ids[bits(g)[0]] for g in tied)

    def label(key: str) -> str:
        g = next(g for g in tied if s.board.ids[bits(g)[0]] == key)
        return "Keep " + ", ".join(s.board.names[a] for a in bits(g))

    return Decision(n.owner, "hb.keep-part", keys,
                    f"The {n.name} are split into parts of equal strength: which part do they keep?",
                    "§6.4", label)


@STEPS.on_answer("support")
def support_answer(s: "HBState", player: int, key: str, nid: int) -> None:
    n = s.nations[nid]
    a = s.board.index[key]
    keep = next(g for g in parts(s, n) if (g >> a) & 1)
    s.then(("support_limit", nid))
    _detach(s, n, keep)


def _detach(s: "HBState", n: "Nation", keep: int) -> None:
    """Everything outside ``keep`` becomes a new nation, or is emptied (§6.4)."""
    rest = [a for a in s.land_areas(n) if not (keep >> a) & 1]
    b = s.board
    names = ", ".join(b.names[a] for a in rest)
    if len(rest) >= 2 and s.free_sets:
        new = s.create_nation(like=n)
        for a in rest:
            s.transfer(n, new, a, n.units[a])
        s.log("nation-splits", f"Cut off from {s.who(n)}, {names} form the {new.name}.",
              nation=n.id, new_nation=new.id, areas=[b.ids[a] for a in rest])
        s.then(("assign", new.id, ()))
    else:
        for a in rest:
            s.remove_units(n, a, n.units[a])
        s.log("areas-abandoned", f"{s.Who(n)} abandon {names}, cut off from their land.",
              nation=n.id, areas=[b.ids[a] for a in rest])


@STEPS.step("support_limit")
def support_limit_step(s: "HBState", nid: int) -> Decision | None:
    n = s.alive(nid)
    if n is None:
        return None
    limit = support_limit(s, n)
    excess = n.board - limit
    if excess <= 0:
        return None
    crowded = [a for a in s.land_areas(n) if n.units[a] >= 2]
    return Decision(n.owner, "hb.support-remove", tuple(s.board.ids[a] for a in crowded),
                    f"The {n.name} can support only {limit} units: remove one ({excess} too many) from which area?",
                    "§6.4", s.label_area)


@STEPS.on_answer("support_limit")
def support_limit_answer(s: "HBState", player: int, key: str, nid: int) -> None:
    n = s.nations[nid]
    s.remove_units(n, s.board.index[key], 1)
    if n.board <= support_limit(s, n):
        _log_removed(s, n)
    else:
        s.then(("support_limit", nid))


def _log_removed(s: "HBState", n: "Nation") -> None:
    s.log("unsupported", f"{s.Who(n)} cannot feed all their people; they shrink to "
          f"{units(n.board)}.", nation=n.id, units=n.board)
