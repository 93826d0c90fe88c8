"""§6.1 Plague: the nation loses a die's worth of units; its owner may strike neighbours.

RULINGS HB-Q12: the neighbour removals are one total (up to the die) over all other
nations — the owner's other nations included — in land areas bordering an area where
the nation lost units; they are optional, one unit at a time.  No unit is at sea during
the events phase (units never end a turn at sea), so seas play no part.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from realms.core.decision import Decision

from .races import plague_immune
from .steps import STEPS
from .state import units
from .board import EMPTY

if TYPE_CHECKING:
    from .state import HBState


@STEPS.step("plague")
def plague(s: "HBState", nid: int) -> None:
    n = s.nations[nid]
    roll = s.dice.d6()
    if n.board <= roll:
        mask = n.land  # land only: seas never border for the plague (RULINGS HB-Q12)
        s.log("plague", f"Plague ({roll}) wipes out {s.who(n)}.", nation=nid, roll=roll, units=n.board)
        owner = n.owner
        s.eliminate(n)
        s.then(("plague_neighbours", nid, owner, roll, mask))
        return
    s.log("plague", f"Plague strikes {s.who(n)}: {units(roll)} perish.", nation=nid, roll=roll, units=roll)
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


def _targets(s: "HBState", nid: int, mask: int) -> list[int]:
    nbr = s.board.nbr_mask
    an = s.area_nation
    return [a for a in s.board.land if an[a] != EMPTY and an[a] != nid and nbr[a] & mask
            and not plague_immune(s, s.nations[an[a]])]


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
        return f"{b.names[a]} ({s.nations[s.area_nation[a]].name})"

    return Decision(owner, "hb.plague-neighbour", ("stop",) + tuple(b.ids[a] for a in targets),
                    f"Plague spreads: remove up to {left} more units of neighbouring nations?",
                    "§6.1", label)


@STEPS.on_answer("plague_neighbours")
def plague_neighbours_answer(s: "HBState", player: int, key: str, nid: int, owner: int, left: int, mask: int) -> None:
    if key == "stop":
        return
    a = s.board.index[key]
    victim = s.nations[s.area_nation[a]]
    s.log("plague-spreads", f"The plague spreads to {s.who(victim)} in {s.board.names[a]}.",
          nation=victim.id, area=key)
    s.remove_units(victim, a, 1)
    s.then(("plague_neighbours", nid, owner, left - 1, mask))
