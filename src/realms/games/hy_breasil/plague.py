"""§6.1 Plague: the nation loses a die's worth of units; its owner may strike neighbours.

RULINGS HB-Q12: the neighbour removals are one total (up to the die) over all other
nations — the owner's other nations included — in the areas bordering an area where
the nation lost units; they are optional, one unit at a time.  "Areas that border"
include seas: this turn's invaders wait at sea until their nation plays (RULINGS
HB-Q19), and a sea may hold several nations, so a sea is picked first and then, if
more than one nation there may be struck, the nation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from realms.core.decision import Decision

from .connect import bits, spread
from .races import plague_immune
from .steps import STEPS
from .state import units, verb
from .board import EMPTY

if TYPE_CHECKING:
    from .state import HBState, Nation


@STEPS.step("plague")
def plague(s: "HBState", nid: int) -> None:
    n = s.nations[nid]
    roll: int = s.dice.d6()
    if n.board <= roll:
        mask = _mask(n.units)
        s.log("plague", f"Plague ({roll}) wipes out {s.who(n)}.", nation=nid, roll=roll, units=n.board)
        owner = n.owner
        s.eliminate(n)
        s.then(("plague_neighbours", nid, owner, roll, mask))
        return
    s.log("plague", f"Plague strikes {s.who(n)}: {units(roll)} {verb(roll, 'perish', 'perishes')}.",
          nation=nid, roll=roll, units=roll)
    s.then(("plague_own", nid, roll, 0, roll))


@STEPS.step("plague_own")
def plague_own(s: "HBState", nid: int, left: int, mask: int, roll: int) -> Decision | None:
    """The owner chooses which units the plague takes, one at a time."""
    n = s.nations[nid]
    areas = sorted(n.units)
    return Decision(n.owner, "hb.plague-own", tuple(s.board.ids[a] for a in areas),
                    f"Plague: remove a unit of the {n.name} ({left} more) from which area?",
                    "§6.1", s.label_area)


@STEPS.on_answer("plague_own")
def plague_own_answer(s: "HBState", player: int, key: str, nid: int, left: int, mask: int, roll: int) -> None:
    n = s.nations[nid]
    a = s.board.index[key]
    s.remove_units(n, a, 1)
    mask |= 1 << a
    if left > 1:
        s.then(("plague_own", nid, left - 1, mask, roll))
    else:
        s.then(("plague_neighbours", nid, n.owner, roll, mask))


def _mask(areas) -> int:
    out = 0
    for a in areas:
        out |= 1 << a
    return out


def _victims(s: "HBState", nid: int, area: int) -> list["Nation"]:
    """The nations the plague of nation ``nid`` may strike in ``area``: in land its
    holder, at sea every nation with units there (several may share a sea, HB-Q19);
    never the plagued nation itself, nor lizardmen (§9.1)."""
    found: list["Nation"] = []
    if s.board.is_sea[area]:
        for o in s.nations.values():
            if area in o.units and _strikable(s, nid, o):
                found.append(o)
        if len(found) > 1:
            found.sort(key=_nation_id)
    else:
        holder = s.area_nation[area]
        if holder != EMPTY and _strikable(s, nid, s.nations[holder]):
            found.append(s.nations[holder])
    return found


def _strikable(s: "HBState", nid: int, o: "Nation") -> bool:
    """Whether the plague of nation ``nid`` may strike ``o`` (never itself, nor lizardmen)."""
    return o.id != nid and not plague_immune(s, o)


def _nation_id(o: "Nation") -> int:
    return o.id


def _targets(s: "HBState", nid: int, mask: int) -> list[int]:
    """Areas, land or sea, bordering ``mask`` that hold units the plague may strike."""
    out = []
    for a in bits(spread(mask, s.board.nbr_mask)):  # ascending, as adjacency is symmetric
        if _victims(s, nid, a):
            out.append(a)
    return out


@STEPS.step("plague_neighbours")
def plague_neighbours(s: "HBState", nid: int, owner: int, left: int, mask: int) -> Decision | None:
    targets = _targets(s, nid, mask)
    if not targets or left <= 0:
        return None
    b = s.board

    def label(key: str) -> str:
        if key == "stop":
            return "Stop removing"
        a = b.index[key]
        return f"{b.names[a]} ({', '.join(o.name for o in _victims(s, nid, a))})"

    return Decision(owner, "hb.plague-neighbour", ("stop",) + tuple(b.ids[a] for a in targets),
                    f"Plague spreads: remove up to {left} more {'unit' if left == 1 else 'units'} of neighbouring nations?",
                    "§6.1", label)


@STEPS.on_answer("plague_neighbours")
def plague_neighbours_answer(s: "HBState", player: int, key: str, nid: int, owner: int, left: int, mask: int) -> None:
    if key == "stop":
        return
    a = s.board.index[key]
    victims = _victims(s, nid, a)
    if len(victims) == 1:
        _strike(s, victims[0], a)
        s.then(("plague_neighbours", nid, owner, left - 1, mask))
    else:
        s.then(("plague_sea_nation", nid, owner, left, mask, a))


@STEPS.step("plague_sea_nation")
def plague_sea_nation(s: "HBState", nid: int, owner: int, left: int, mask: int, area: int) -> Decision:
    """Several nations share the sea picked: the owner picks whose unit the plague takes."""
    victims = _victims(s, nid, area)
    names = {str(o.id): o.name for o in victims}
    return Decision(owner, "hb.plague-sea-nation", tuple(names),
                    f"Plague spreads to {s.board.names[area]}: remove a unit of which nation?",
                    "§6.1", names.__getitem__, {"area": s.board.ids[area]})


@STEPS.on_answer("plague_sea_nation")
def plague_sea_nation_answer(s: "HBState", player: int, key: str, nid: int, owner: int, left: int,
                             mask: int, area: int) -> None:
    _strike(s, s.nations[int(key)], area)
    s.then(("plague_neighbours", nid, owner, left - 1, mask))


def _strike(s: "HBState", victim: "Nation", area: int) -> None:
    s.log("plague-spreads", f"The plague spreads to {s.who(victim)} in {s.board.names[area]}.",
          nation=victim.id, area=s.board.ids[area])
    s.remove_units(victim, area, 1)
