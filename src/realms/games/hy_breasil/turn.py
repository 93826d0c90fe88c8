"""The turn sequence (§4): invasion, nation phase in cup order, victory points (§7)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .steps import STEPS

if TYPE_CHECKING:
    from .state import HBState

EMPTY = -1


@STEPS.step("turn")
def turn(s: "HBState") -> None:
    """§4: the phases of a turn, in order."""
    s.log("turn", f"Turn {s.turn} begins.", number=s.turn)
    s.then(("invasion",), ("fill_cup",), ("nation_phase",), ("victory",), ("end_turn",))


@STEPS.step("fill_cup")
def fill_cup(s: "HBState") -> None:
    """§6: every nation in play has its token in the nation order cup (RULINGS HB-Q7)."""
    s.cup = sorted(s.nations)


@STEPS.step("nation_phase")
def nation_phase(s: "HBState") -> None:
    """§6: draw a token from the cup; that nation takes its turn; repeat until empty."""
    if not s.cup:
        return
    nid = s.cup.pop(s.dice.below(len(s.cup)))
    s.then(("nation_turn", nid), ("nation_phase",))


@STEPS.step("nation_turn")
def nation_turn(s: "HBState", nid: int) -> None:
    """§6.1–6.4: events, population increase, movement and combat, support."""
    n = s.alive(nid)
    if n is None:
        return
    s.current = nid
    n.phases, n.weak, n.fervour, n.famine = 1, False, False, False
    s.then(("event", nid), ("population", nid), ("movement_phase", nid, 1), ("support", nid),
           ("end_nation_turn", nid))


@STEPS.step("end_nation_turn")
def end_nation_turn(s: "HBState", nid: int) -> None:
    n = s.alive(nid)
    if n is not None:
        n.first_turn = False
        n.phases, n.weak, n.fervour, n.famine = 1, False, False, False
    s.current = EMPTY


@STEPS.step("victory")
def victory(s: "HBState") -> None:
    """§7: one VP per land area a player's nations occupy."""
    per = s.tables.vp_per_area
    gained = [0] * len(s.names)
    for n in s.nations.values():
        gained[n.owner] += per * len(s.land_areas(n))
    for p, g in enumerate(gained):
        s.vp[p] += g
    scores = ", ".join(f"{name} {s.vp[p]} (+{gained[p]})" for p, name in enumerate(s.names))
    s.log("victory-points", f"Victory points after turn {s.turn}: {scores}.", gained=gained, vp=list(s.vp))


@STEPS.step("end_turn")
def end_turn(s: "HBState") -> None:
    """§3, §7: stop at the agreed length, else move the Turn token on (RULINGS HB-Q1)."""
    o = s.options
    target = o["vp_target"]
    if (o["turns"] is not None and s.turn >= o["turns"]) or (
        target is not None and max(s.vp) >= target
    ) or s.turn >= o["max_turns"]:
        s.over = True
        res = s.result()
        who = " and ".join(res["winners"])
        s.log("game-over", f"The game ends after turn {s.turn}; {who} {'wins' if len(res['winners']) == 1 else 'share the victory'}.",
              winners=res["winners"])
        return
    s.turn += 1
    s.then(("turn",))
