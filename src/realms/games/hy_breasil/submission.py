"""§9.2 Submission: a nation may submit to the nation that attacks it.

The defender is offered submission before the first round of every battle.  If it
submits, the attacker withdraws all its units (as in an attacker's retreat; units with
no land to go to stay where their move began, the move spent: RULINGS HB-Q30), the two
may not attack each other, half the VP the submitted nation earns (rounded up, per
award) go to its master's owner, and the master gains its abilities.  Submission ends
when the submitted nation's event is Strong leader or Reinforcements, when the master is
removed, submits to a third nation or has a Civil war; on Weak leader the submitted
nation is absorbed into its master.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from realms.core.decision import Decision

from .abilities import pass_to_master
from .steps import STEPS
from .board import EMPTY

if TYPE_CHECKING:
    from .state import HBState, Nation


def may_submit(s: "HBState", att: "Nation", dfd: "Nation") -> bool:
    """§9.2: not if the defender is already submitted, nor to a submitted attacker."""
    return s.submission_on and dfd.master == EMPTY and att.master == EMPTY


def submit(s: "HBState", att: "Nation", dfd: "Nation") -> None:
    dfd.master = att.id
    s.log("submission", f"{s.Who(dfd)} submit to {s.who(att)}.", nation=dfd.id, master=att.id)
    for other in s.nations.values():
        if other.master == dfd.id:
            free(s, other, f"their master submitted to the {att.name}")
    pass_to_master(s, dfd, att)
    s.then(("withdraw", att.id))  # runs first: the master's units leave the battle area


def free(s: "HBState", n: "Nation", why: str) -> None:
    n.master = EMPTY
    s.log("submission-ends", f"{s.Who(n)} are free again: {why}.", nation=n.id)


def servants(s: "HBState", n: "Nation") -> list["Nation"]:
    return [o for o in s.nations.values() if o.master == n.id]


@STEPS.step("withdraw")
def withdraw(s: "HBState", nid: int) -> Decision | None:
    """§9.2: the attacker withdraws every unit from the area by the attacker-retreat rules
    (§6.3.2): to neighbouring land that is empty or its own.  Units with nowhere to go
    "must stay" (§6.3.2): out of the area, where their move began, their move spent, as
    each unit moves only once a phase (§6.3.3; RULINGS HB-Q30)."""
    from .combat import retreat_targets

    bt = s.battle
    assert bt is not None, "a submission's withdrawal follows its battle"
    att = s.nations[nid]
    if bt[3] == 0:
        s.battle = None
        return None
    targets = retreat_targets(s, 0)
    if not targets:
        _stay(s, att)
        return None
    return Decision(att.owner, "hb.withdraw", tuple(s.board.ids[a] for a in targets),
                    f"The {att.name} must withdraw from {s.board.names[bt[0]]}: move a unit to which area?",
                    "§9.2", s.label_area, {"nation": nid, "area": s.board.ids[bt[0]]})


def _stay(s: "HBState", att: "Nation") -> None:
    """HB-Q30: no land to withdraw to, so the units stay where they stood before the
    attack (``battle[11:]``, one start area per unit moved in), their move spent (§6.3.3):
    units left so at sea are lost when the phase ends (HB-Q18)."""
    from .combat import STARTS
    from .state import and_list, units, verb

    bt = s.battle
    assert bt is not None, "a submission's withdrawal follows its battle"
    starts = bt[STARTS:]
    moved = s.moved
    for a in starts:
        att.units[a] = att.units.get(a, 0) + 1
        s.occupy(a, att)
        moved[a] = moved.get(a, 0) + 1
    bt[3] = 0
    s.battle = None
    b = s.board
    where = sorted(set(starts))
    count = len(starts)
    s.log("withdraw-stay", f"{s.Who(att)} have no land to withdraw to from {b.names[bt[0]]}; "
          f"{units(count)} {verb(count, 'stay', 'stays')} in {and_list([b.names[a] for a in where])}.",
          nation=att.id, area=b.ids[bt[0]], units=count, areas=[b.ids[a] for a in where])


@STEPS.on_answer("withdraw")
def withdraw_answer(s: "HBState", player: int, key: str, nid: int) -> None:
    _withdraw_one(s, s.nations[nid], s.board.index[key])
    s.then(("withdraw", nid))


def _withdraw_one(s: "HBState", att: "Nation", dst: int) -> None:
    from .combat import log_retreat

    bt = s.battle
    assert bt is not None, "a submission's withdrawal follows its battle"
    bt[3] -= 1
    bt.pop()
    log_retreat(s, att, "withdraw", bt[0], dst)
    att.units[dst] = att.units.get(dst, 0) + 1
    s.occupy(dst, att)
    s.moved[dst] = s.moved.get(dst, 0) + 1


def on_event(s: "HBState", n: "Nation", event: str) -> bool:
    """Submission's reactions to the event a nation keeps; True if the nation is absorbed."""
    if n.master != EMPTY:
        if event in ("strong-leader", "reinforcements"):
            free(s, n, "a new leader rises" if event == "strong-leader" else "reinforcements arrive")
        elif event == "weak-leader":
            master = s.nations[n.master]
            s.log("absorption", f"{s.Who(n)} are absorbed into {s.who(master)}.", nation=n.id, master=master.id)
            s.then(("absorb", n.id))
            return True
    if event == "civil-war":
        for o in servants(s, n):
            free(s, o, f"civil war divides the {n.name}")
    return False


@STEPS.step("absorb")
def absorb(s: "HBState", nid: int) -> Decision | None:
    """§9.2 Weak leader: the submitted nation's units are replaced by its master's; what
    the master's pool cannot replace is removed (RULINGS HB-Q34: the master's owner picks
    the areas to take first)."""
    n = s.alive(nid)
    if n is None:
        return None
    master = s.nations[n.master]
    areas = s.land_areas(n)
    if not areas:
        return None
    if master.pool >= n.board or master.pool == 0:  # the order of the areas changes nothing
        for a in areas:
            _take(s, n, master, a)
        return None
    return Decision(master.owner, "hb.absorb-area", tuple(s.board.ids[a] for a in areas),
                    f"The {master.name} absorb the {n.name} but can replace only {master.pool} of their "
                    f"{n.board} units: which area first?", "§9.2", s.label_area)


@STEPS.on_answer("absorb")
def absorb_answer(s: "HBState", player: int, key: str, nid: int) -> None:
    n = s.nations[nid]
    _take(s, n, s.nations[n.master], s.board.index[key])
    if s.alive(nid) is not None:
        s.then(("absorb", nid))


def _take(s: "HBState", n: "Nation", master: "Nation", area: int) -> None:
    s.transfer(n, master, area, min(n.units[area], master.pool))
