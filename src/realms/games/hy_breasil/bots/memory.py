"""The auto bot's own memory: Tactics Ratings, Mortal Enemy cubes and deadpiles.

The solitaire rules keep these on the nation sheets (a TR die, coloured cubes, a
deadpile); the bot keeps them here and updates them from what it sees: successive
views.  The view has no list of what happened between two looks, so (AUTO.md,
"What the view lacks") the bot infers:

* a won attack — an area held by a nation in the last view is now held by another
  nation of another colour that is not a part split off from it (civil war or §6.4
  disconnection: a new nation with the same starting sea and civilization tokens, on
  areas that were the parent's) → a cube of the conqueror's colour on the loser
  (AU-Q15, AU-Q16);
* the deadpile — the units a nation of the bot loses between two looks in which none of
  its own turn's non-battle losses can hide (civilization tokens, the support limit,
  splits): while it fights in its own movement phase, and while other nations play
  (battles, a neighbour's plague); AU-Q12.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .look import Look, NationView
from ..board import EMPTY


#: decision kinds of a nation's own movement and combat phase (§6.3)
MOVE_KINDS = frozenset({"hb.move", "hb.retreat", "hb.assign-hits", "hb.withdraw", "hb.submit"})
#: decision kinds of a nation's own turn that come after its movement (§6.3.1 cities, §6.4)
AFTER_MOVE_KINDS = frozenset({"hb.city", "hb.support-remove", "hb.keep-part"})


@dataclass
class NationMemory:
    """What the solitaire rules keep on one nation's sheet."""

    nid: int
    tr: int | None = None
    cubes: dict[int, int] = field(default_factory=dict)
    cube_turn: int = 0
    dead: int = 0
    #: AU-Q12 (normal, hard): units killed lately, halved at each of the nation's turns
    recent: float = 0.0
    # bookkeeping of the last look at the nation (deadpile inference)
    last_tag: str = ""
    last_turn: int = 0
    last_total: int = 0
    expected_after_turn: int | None = None
    turn_started: int = 0

    def decay(self, turn: int) -> int:
        """Phase 1, "Attack Cube removal": one cube from each colour's group per turn of
        the nation (AU-Q17: once per nation turn; turns the bot did not see are caught up)."""
        k = turn - self.cube_turn
        if k <= 0:
            return 0
        removed = 0
        for colour in list(self.cubes):
            left = self.cubes[colour] - k
            removed += min(k, self.cubes[colour])
            if left > 0:
                self.cubes[colour] = left
            else:
                del self.cubes[colour]
        self.cube_turn = turn
        return removed

    def mortal_enemies(self) -> list[int]:
        """§ "Mortal Enemy": the colours with the most cubes (several when tied)."""
        if not self.cubes:
            return []
        top = max(self.cubes.values())
        return sorted(c for c, k in self.cubes.items() if k == top)


def support_limit(n: NationView, areas: int | None = None) -> int:
    """§6.4: two units per area, 2.5 (rounded down) with Taxation (§9.3.1)."""
    k = n.areas if areas is None else areas
    if "taxation" in n.abilities:
        return 5 * k // 2
    return 2 * k


class Memory:
    """Every nation's sheet, and the last view, for the inferences above."""

    def __init__(self) -> None:
        self.sheets: dict[int, NationMemory] = {}
        self._prev: Look | None = None
        #: (turn, nation) of the nation turns the bot has started (Phases 1–2 done)
        self.started: set[tuple[int, int]] = set()

    def sheet(self, nid: int, turn: int) -> NationMemory:
        m = self.sheets.get(nid)
        if m is None:
            m = self.sheets[nid] = NationMemory(nid, cube_turn=turn, turn_started=0)
        return m

    # -- the look ----------------------------------------------------------------------------
    def observe(self, look: Look, kind: str) -> list[tuple[int, int, int]]:
        """Update the sheets from a new view; returns the cubes added, (nation, colour, area)."""
        prev = self._prev
        added: list[tuple[int, int, int]] = []
        for nid in look.nations:
            if nid not in self.sheets:
                self.sheet(nid, look.turn)
        if prev is not None:
            splits = self._splits(prev, look)
            for child, parent in splits.items():
                self._inherit(child, parent, look.turn)
            added = self._conquests(prev, look, splits)
            self._deadpiles(prev, look, kind, splits)
        else:
            self._deadpiles(None, look, kind, {})
        for nid in [k for k in self.sheets if k not in look.nations]:
            del self.sheets[nid]  # §8: a nation removed from play takes its sheet along
        self._prev = look
        return added

    def _splits(self, prev: Look, look: Look) -> dict[int, int]:
        """New nations that are parts split off an old one (civil war, §6.4): child → parent."""
        out = {}
        for nid, n in look.nations.items():
            if nid in prev.nations or not n.land:
                continue
            counts: dict[int, int] = {}
            ok = True
            mask = n.land
            while mask:
                low = mask & -mask
                a = low.bit_length() - 1
                mask ^= low
                was = prev.area_nation[a]
                if was == EMPTY:
                    ok = False
                    break
                counts[was] = counts.get(was, 0) + 1
            if not ok or not counts:
                continue
            parent_id = max(counts, key=lambda k: (counts[k], -k))
            parent = prev.nations.get(parent_id)
            if parent is not None and parent.start_sea == n.start_sea and parent.race == n.race:
                out[nid] = parent_id
        return out

    def _inherit(self, child: int, parent: int, turn: int) -> None:
        """AU-Q10: a part split off keeps the parent's TR and cubes (the same people, the
        same grudges); the dead were the parent's, so its deadpile starts empty."""
        p = self.sheets.get(parent)
        if p is None:
            return
        c = self.sheet(child, turn)
        if c.tr is None:
            c.tr = p.tr
        if not c.cubes:
            c.cubes = dict(p.cubes)
            c.cube_turn = p.cube_turn

    def _conquests(self, prev: Look, look: Look, splits: dict[int, int]) -> list[tuple[int, int, int]]:
        """AU-Q16: an area that went straight from one nation to a nation of another colour
        was won in an attack → a cube of the winner's colour on the loser (AU-Q15)."""
        out = []
        before, now = prev.area_nation, look.area_nation
        for a in look.board.land:
            was, is_ = before[a], now[a]
            if was == is_ or was == EMPTY or is_ == EMPTY:
                continue
            if splits.get(is_) == was:
                continue
            loser = look.nations.get(was)
            winner = look.nations.get(is_)
            if loser is None or winner is None:
                continue
            colour = winner.owner
            old_owner = prev.nations[was].owner if was in prev.nations else loser.owner
            if colour == EMPTY or colour == old_owner or colour == loser.owner:
                continue  # AU-Q15: no cube for the nation's own colour
            m = self.sheet(was, look.turn)
            m.cubes[colour] = m.cubes.get(colour, 0) + 1
            out.append((was, colour, a))
        return out

    def _deadpiles(self, prev: Look | None, look: Look, kind: str, splits: dict[int, int]) -> None:
        """AU-Q12: the killed units of the bot's nations (see the module docstring)."""
        for n in look.mine():
            m = self.sheet(n.id, look.turn)
            total = n.total
            bt = look.battle
            if bt is not None and bt.attacker == n.id:
                total += bt.au + bt.aw
            if look.current == n.id:
                if kind == "hb.event" and (look.turn, n.id) not in self.started:
                    tag = "pre"
                elif kind in MOVE_KINDS:
                    tag = "move"
                elif kind in AFTER_MOVE_KINDS:
                    tag = "after"
                else:
                    tag = "own"
            else:
                tag = "out"
            pt, pturn = m.last_tag, m.last_turn
            lost = 0
            if pt and prev is not None and n.id in prev.nations:
                drop = m.last_total - total
                if pt == "move" and tag == "move" and pturn == look.turn:
                    lost = drop
                elif pt == "out" and tag in ("out", "pre"):
                    lost = drop
                elif pt in ("move", "after") and tag in ("out", "pre") and m.expected_after_turn is not None:
                    moved_away = sum(look.nations[c].total for c, p in splits.items() if p == n.id)
                    lost = m.expected_after_turn - total - moved_away
            if lost > 0:
                m.dead += lost
                m.recent += lost
            if tag in ("move", "after"):
                m.expected_after_turn = min(total, support_limit(n))
            elif tag != "out":
                m.expected_after_turn = None
            # Phase 1 "armies from store before the deadpile": the deadpile is what is left
            # of the dead once new units have used up the store.
            m.dead = max(0, min(m.dead, n.pool))
            m.last_tag, m.last_turn, m.last_total = tag, look.turn, total

