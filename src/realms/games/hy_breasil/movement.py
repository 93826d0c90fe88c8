"""§6.3 and §6.3.3: the movement and combat phase.

Units move one at a time.  A step between two land areas both occupied by the nation
is type A (free); every other step — into or out of a sea, into empty or enemy land —
is type B, at most two per move (RULINGS HB-Q16).  Occupation is judged on the board as
it stands when the unit starts its move (RULINGS HB-Q17).  A unit stops on entering
another nation's land, which starts a battle there (§6.3.1); while that battle is
pending only more units for it may move.  No unit may end its phase at sea: units at
sea must land while they can, and those that cannot are lost (RULINGS HB-Q18).
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from realms.core.decision import Decision

from .steps import STEPS
from .state import units

if TYPE_CHECKING:
    from .state import HBState, Nation

EMPTY = -1
MAX_B_STEPS = 2


def reach(s: "HBState", nid: int, src: int) -> dict[int, int]:
    """Areas a unit in ``src`` can reach, with the type-B steps used (0-1 breadth-first).

    Passing on from another nation's land is impossible (the unit stops there), and so is
    a third type-B step.  The result includes seas (crossed, never ended in) and ``src``.
    """
    b = s.board
    sea = b.is_sea
    an = s.area_nation
    nbrs = b.nbrs
    dist = {src: 0}
    queue = deque((src,))
    while queue:
        u = queue.popleft()
        d = dist[u]
        if sea[u]:
            u_own = False
        else:
            owner = an[u]
            if owner != nid and owner != EMPTY:
                continue
            u_own = owner == nid
        for v in nbrs[u]:
            if u_own and not sea[v] and an[v] == nid:
                if d < dist.get(v, 3):
                    dist[v] = d
                    queue.appendleft(v)
            elif d < MAX_B_STEPS and d + 1 < dist.get(v, 3):
                dist[v] = d + 1
                queue.append(v)
    return dist


def move_options(s: "HBState", n: "Nation") -> tuple[list[tuple[int, int]], bool]:
    """The legal (source, destination) moves, and whether the phase may end now.

    Sources are areas holding units that have not moved yet this phase.  Under Weak
    leader no move may enter another nation's land (§6.1).  With a battle pending, only
    moves into its area are legal (§6.3.1).
    """
    b = s.board
    sea = b.is_sea
    an = s.area_nation
    moved = s.moved
    nid = n.id
    target = s.battle[0] if s.battle is not None else EMPTY
    moves: list[tuple[int, int]] = []
    may_end = True
    for src in sorted(n.units):
        if n.units[src] - moved.get(src, 0) <= 0:
            continue
        cost = reach(s, nid, src)
        found = False
        for dst, c in cost.items():
            if dst == src or sea[dst]:
                continue
            owner = an[dst]
            if target != EMPTY:
                if dst != target:
                    continue
            elif owner != nid and owner != EMPTY and n.weak:
                continue
            moves.append((src, dst))
            found = True
        if sea[src] and found:
            may_end = False
    moves.sort()
    return moves, may_end


@STEPS.step("movement_phase")
def movement_phase(s: "HBState", nid: int, k: int) -> None:
    n = s.alive(nid)
    if n is None:
        return
    s.moved = {}
    s.then(("move", nid, k), ("end_movement", nid, k))


def _label(s: "HBState", key: str) -> str:
    if key == "done":
        return "End movement"
    if key == "fight":
        return "Start the battle"
    b = s.board
    src, dst = b.parse_move(key)
    owner = s.area_nation[dst]
    text = f"{b.names[src]} → {b.names[dst]}"
    if owner != EMPTY and s.current != owner and owner in s.nations and s.nations[owner].id != s.current:
        text += f" (attack the {s.nations[owner].name})"
    return text


@STEPS.step("move")
def move(s: "HBState", nid: int, k: int) -> Decision | None:
    n = s.alive(nid)
    if n is None:
        return None
    moves, may_end = move_options(s, n)
    b = s.board
    keys = [b.move_key(a, d) for a, d in moves]
    if s.battle is not None:
        if not keys:
            s.then(("fight", nid), ("move", nid, k))
            return None
        keys.append("fight")
        prompt = f"Move more units of the {n.name} into {b.names[s.battle[0]]}, or start the battle."
    else:
        if not keys:
            return None
        if may_end:
            keys.append("done")
        prompt = f"Move a unit of the {n.name}" + (" (strong leader, second phase)" if k == 2 else "") + "."
    return Decision(n.owner, "hb.move", tuple(keys), prompt, "§6.3", lambda key: _label(s, key))


@STEPS.on_answer("move")
def move_answer(s: "HBState", player: int, key: str, nid: int, k: int) -> None:
    if key == "done":
        return
    if key == "fight":
        s.then(("fight", nid), ("move", nid, k))
        return
    n = s.nations[nid]
    src, dst = s.board.parse_move(key)
    owner = s.area_nation[dst]
    if owner != EMPTY and owner != nid:
        if s.battle is None:
            defender = s.nations[owner]
            s.battle = [dst, nid, owner, 0, 0, defender.units[dst], 0, 0, n.owner, defender.owner]
        left = n.units[src] - 1
        if left:
            n.units[src] = left
        else:
            del n.units[src]
            if not s.board.is_sea[src]:
                s.area_nation[src] = EMPTY
        s.battle[3] += 1
    else:
        s.shift(n, src, dst)
        s.moved[dst] = s.moved.get(dst, 0) + 1
    s.then(("move", nid, k))


@STEPS.step("end_movement")
def end_movement(s: "HBState", nid: int, k: int) -> None:
    """§6.3: units left at sea are lost (RULINGS HB-Q18); Strong leader moves again (§6.1)."""
    n = s.alive(nid)
    if n is None:
        return
    for a in [a for a in n.units if s.board.is_sea[a]]:
        count = n.units[a]
        s.log("lost-at-sea", f"The sea swallows {units(count)} of {s.who(n)} in {s.board.names[a]}.",
              nation=nid, area=s.board.ids[a], units=count)
        s.remove_units(n, a, count)
        if s.alive(nid) is None:
            return
    if k < n.phases:
        s.then(("movement_phase", nid, k + 1))
