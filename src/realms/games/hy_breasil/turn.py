"""The turn sequence (§4): invasion, nation phase in cup order, victory points (§7)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Protocol

from .steps import STEPS
from .board import EMPTY

if TYPE_CHECKING:
    from .state import HBState, Nation

#: no nations, for the permissions and spared nations that last a turn (one shared empty
#: set: compiled, ``frozenset()`` makes a new one every time)
NO_NATIONS: Final[frozenset[int]] = frozenset()


class Scores(Protocol):
    """What :func:`award_vp` adds VP to: a game state, or a tally of projected VP
    (``evaluate._Tally``).  (A protocol, so that the compiled module does not insist on an
    ``HBState``.)"""

    nations: "dict[int, Nation]"
    vp: list[int]


@STEPS.step("turn")
def turn(s: "HBState") -> None:
    """§4: the phases of a turn, in order."""
    s.log("turn", f"Turn {s.turn} begins.", number=s.turn, vp=list(s.vp))
    s.then(("membership",), ("invasion",), ("fill_cup",), ("nation_phase",), ("victory",), ("end_turn",))


@STEPS.step("fill_cup")
def fill_cup(s: "HBState") -> None:
    """§6: every nation in play has its token in the nation order cup (RULINGS HB-Q7)."""
    s.cup = sorted(s.nations)


@STEPS.step("nation_phase")
def nation_phase(s: "HBState") -> None:
    """§6: draw a token from the cup; that nation takes its turn; repeat until empty."""
    if not s.cup:
        return
    drawn: int = s.dice.below(len(s.cup))
    nid = s.cup.pop(drawn)
    s.then(("nation_turn", nid), ("nation_phase",))


@STEPS.step("nation_turn")
def nation_turn(s: "HBState", nid: int) -> None:
    """§6.1–6.4: events, population increase, movement and combat, support."""
    n = s.alive(nid)
    if n is None:
        return
    s.current = nid
    n.phases, n.weak, n.fervour, n.famine = 1, False, False, False
    s.then(("event", nid), ("prophesy", nid), ("population", nid), ("movement_phase", nid, 1),
           ("cities", nid), ("support", nid), ("end_nation_turn", nid))


def turn_of(s: "HBState") -> tuple[int, int]:
    """The game turn and the nation whose turn it is (§6: the nations take their turns one
    at a time, in cup order; ``EMPTY`` outside them, as in the invasion phase), so that a
    search scores a position where a nation's turn ends (``Game.turn_of``)."""
    return s.turn, s.current


@STEPS.step("end_nation_turn")
def end_nation_turn(s: "HBState", nid: int) -> None:
    n = s.alive(nid)
    if n is not None:
        n.first_turn = False
        n.phases, n.weak, n.fervour, n.famine = 1, False, False, False
        n.permits, n.spared = NO_NATIONS, NO_NATIONS
    s.current = EMPTY


def last_turn(s: "HBState") -> bool:
    """Whether this turn ends the game by its length (§3; a VP target is not known in advance)."""
    o = s.options
    return (o["turns"] is not None and s.turn >= o["turns"]) or s.turn >= o["max_turns"]


def nation_vp(s: "HBState", n: "Nation") -> int:
    """§7: one VP per land area; §9.3.1 Capital: 3 for the nation's own capital."""
    vp = s.tables.vp_per_area * n.land.bit_count()
    if n.capital != EMPTY and (n.land >> n.capital) & 1:
        vp += s.tables.capital_vp - s.tables.vp_per_area
    return vp


@STEPS.step("victory")
def victory(s: "HBState") -> None:
    """§7: one VP per land area a player's nations occupy.

    §11 Random scoring turns: only on a die of 4+, and always on the last turn
    (RULINGS HB-Q46).  §9.2: half of a submitted nation's VP, rounded up, go to the
    owner of the nation it submitted to (RULINGS HB-Q32).
    """
    if s.variant == "random-scoring" and not last_turn(s):
        roll: int = s.dice.d6()
        if roll < s.tables.scoring_roll:
            s.log("no-scoring", f"Scoring roll {roll}: no victory points this turn.", roll=roll)
            return
        s.log("scoring", f"Scoring roll {roll}: victory points are awarded.", roll=roll)
    gained = [0] * len(s.names)
    for n in s.nations.values():
        _award(s.vp, s.nations, n, nation_vp(s, n), gained)
    # "(+k)": the whole turn's gain, the Civilization VP of the turn included
    start: list[int] | None = None
    for e in reversed(s.events):
        if e.kind == "turn":
            start = e.data.get("vp")
            break
    if start is None:  # a position set up without its turn's start
        start = [v - g for v, g in zip(s.vp, gained)]
    turn_gained = [now - before for now, before in zip(s.vp, start)]
    scores = ", ".join(f"{name} {s.vp[p]} (+{turn_gained[p]})" for p, name in enumerate(s.names))
    s.log("victory-points", f"Victory points after turn {s.turn}: {scores}.", gained=gained, vp=list(s.vp),
          turn_gained=turn_gained)


def award_vp(s: Scores, n: "Nation", vp: int, gained: list[int] | None = None) -> None:
    """Give ``vp`` earned by nation ``n`` to its owner, less a submitted nation's share."""
    _award(s.vp, s.nations, n, vp, gained)


def _award(totals: list[int], nations: "dict[int, Nation]", n: "Nation", vp: int,
           gained: list[int] | None) -> None:
    """:func:`award_vp` into the VP ``totals`` (compiled, typed: read through the
    protocol, each attribute costs a lookup by name)."""
    if vp <= 0 or n.owner < 0:
        return
    master = nations.get(n.master) if n.master != EMPTY else None
    if master is not None and master.owner >= 0:
        half = (vp + 1) // 2
        _add(totals, n.owner, vp - half, gained)
        _add(totals, master.owner, half, gained)
    else:
        _add(totals, n.owner, vp, gained)


def _add(totals: list[int], player: int, amount: int, gained: list[int] | None) -> None:
    totals[player] += amount
    if gained is not None:
        gained[player] += amount


@STEPS.step("end_turn")
def end_turn(s: "HBState") -> None:
    """§3, §7: stop at the agreed length, else move the Turn token on (RULINGS HB-Q1)."""
    target = s.options["vp_target"]
    if last_turn(s) or (target is not None and max(s.vp) >= target):
        s.over = True
        res = s.result()
        who = " and ".join(res["winners"])
        s.log("game-over", f"The game ends after turn {s.turn}; {who} {'wins' if len(res['winners']) == 1 else 'share the victory'}.",
              winners=res["winners"])
        return
    s.turn += 1
    s.then(("turn",))
