"""§6.1 Civil war: the owner picks half the areas (rounded down) for a new nation.

Both parts must be internally connected (§6.4) "if this is at all possible", else split
into as few groups as possible — counted over both nations together (RULINGS HB-Q13,
land areas only).  The owner picks the areas one at a time, offered only areas that
still lead to a best split.

Which splits are best is a question about the connected pieces of a small graph (the
nation's areas and their §6.4 links), answered by a branch-and-bound search
(:class:`SplitSearch`) that grows the new nation from a picked area through linked areas
and drops every branch whose lower bound on the group count cannot beat (or, when the
owner's choices are listed, reach) the best count.  The search counts the positions it
visits and stops at :data:`WORK_BOUND`; that bound is never reached by a nation of at most
14 areas (every position the default 15-token sets reach), so there the answer is exact;
a bigger nation (the lobby allows sets of up to 40) takes the best split found within the
bound (RULINGS HB-Q110).
"""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING, Final

from realms.core.decision import Decision, popcount

from .connect import bits, components, link_masks
from .steps import STEPS

if TYPE_CHECKING:
    from .state import HBState, Nation

#: the positions a search may visit.  A search decides areas one at a time, each into the
#: new nation or out of it, and stops a branch once either part is full, so a nation of
#: ``n`` areas (``k`` of them to go) has at most ``comb(n + 2, k + 1) - 1`` positions:
#: ``comb(16, 8) - 1`` for 14 areas, the most a 15-token set can hold (RULINGS HB-Q14).
EXACT_AREAS: Final = 14
WORK_BOUND: Final = comb(EXACT_AREAS + 2, EXACT_AREAS // 2 + 1)


class SplitSearch:
    """A bounded search over the splits of ``land`` into ``k`` areas for the new nation
    (those of ``picked`` among them) and the rest, ``links`` being each area's §6.4 links.

    :meth:`best` finds the fewest groups and a split that has them; :meth:`choices`, given
    that count, the union of all splits that have no more.  ``work`` counts the positions
    visited; ``cut`` says the bound stopped the search before it was done."""

    def __init__(self, land: int, links: dict[int, int], k: int, picked: int = 0,
                 bound: int = WORK_BOUND) -> None:
        self.land = land
        self.links = links
        self.k = k
        self.rest = popcount(land) - k
        self.picked = picked
        self.bound = bound
        self.work = 0
        self.cut = False
        self.done = False
        self.target = -1         # <0: looking for the best; else listing splits this good
        self.groups = -1         # the fewest groups found
        self.split = 0           # a split with that many
        self.union = 0           # every area of a split found at most `target` groups
        self.floor = 0           # the root's lower bound: nothing can do better

    def best(self) -> "SplitSearch":
        """Find the fewest groups (and a split with them) among splits that contain ``picked``."""
        self.target = -1
        self._start()
        return self

    def choices(self, target: int) -> "SplitSearch":
        """Find every area of a split containing ``picked`` with at most ``target`` groups."""
        self.target = target
        self._start()
        return self

    def _start(self) -> None:
        free = self.land & ~self.picked
        self.floor = (self._bound_side(self.picked, free, self.k - popcount(self.picked))
                      + self._bound_side(0, free, self.rest))
        self._visit(self.picked, 0)

    def _visit(self, inn: int, out: int) -> None:
        """One position: ``inn`` decided for the new nation, ``out`` for the old."""
        if self.done:
            return
        if self.work >= self.bound:
            self.cut = self.done = True
            return
        self.work += 1
        free = self.land & ~inn & ~out
        need_in = self.k - popcount(inn)
        need_out = self.rest - popcount(out)
        if need_in == 0:
            self._leaf(inn, self.land & ~inn)
            return
        if need_out == 0:
            self._leaf(inn | free, out)
            return
        low = self._bound_side(inn, free, need_in) + self._bound_side(out, free, need_out)
        if self.target < 0:
            if self.groups >= 0 and low >= self.groups:
                return
        elif low > self.target or (inn | free) & ~self.union == 0:
            return  # no split here is good enough, or none adds an area to the choices
        area = self._next_area(inn, free)
        self._visit(inn | area, out)
        self._visit(inn, out | area)

    def _leaf(self, inn: int, out: int) -> None:
        groups = len(components(inn, self.links)) + len(components(out, self.links))
        if self.target < 0:
            if self.groups < 0 or groups < self.groups:
                self.groups, self.split = groups, inn
                self.done = groups <= self.floor
        elif groups <= self.target:
            if self.groups < 0 or groups < self.groups:
                self.groups, self.split = groups, inn
            self.union |= inn

    def _next_area(self, inn: int, free: int) -> int:
        """The area to decide next (as a bit): the lowest free area linked to the new
        nation's areas, so that the new nation grows connected; else the lowest free area."""
        reach = 0
        for a in bits(inn):
            reach |= self.links[a]
        reach &= free
        pool = reach if reach else free
        return pool & -pool

    def _piece(self, seed: int, pool: int) -> int:
        """The connected piece of ``pool`` holding the area ``seed`` (a bit)."""
        piece = seed
        frontier = seed
        links = self.links
        while frontier:
            bit = frontier & -frontier
            frontier ^= bit
            new = links[bit.bit_length() - 1] & pool & ~piece
            piece |= new
            frontier |= new
        return piece

    def _bound_side(self, side: int, free: int, need: int) -> int:
        """At least how many groups one part ends with, holding ``side`` and ``need`` more of
        ``free``: one per connected piece of side-and-free that holds side areas (they can
        only join through free areas), and one more per further piece it has to take when
        those pieces' free areas are too few (largest pieces first)."""
        pool = side | free
        touching = 0
        count = 0
        rest = side
        while rest:
            piece = self._piece(rest & -rest, pool)
            count += 1
            touching |= piece
            rest &= ~piece
        short = need - popcount(touching & free)
        if short > 0:
            spare = [popcount(piece) for piece in components(free & ~touching, self.links)]
            spare.sort(reverse=True)
            for size in spare:
                count += 1
                short -= size
                if short <= 0:
                    break
        return count


def nation_links(s: "HBState", n: "Nation") -> dict[int, int]:
    """The §6.4 links between the nation's land areas on the board as it stands."""
    return link_masks(s, n.land, s.abilities_on and "navigation" in n.abilities)


def best_groups(s: "HBState", n: "Nation") -> int:
    """The fewest groups a split of the nation can leave (the best found within
    :data:`WORK_BOUND`), worked out once per position."""
    cache = s._split_cache
    key = (n.id, s.turn, len(s.events))
    if cache is None or cache[0] != key:
        found = SplitSearch(n.land, nation_links(s, n), popcount(n.land) // 2).best()
        cache = (key, found.groups)
        s._split_cache = cache
    return cache[1]


@STEPS.step("civil_war")
def civil_war(s: "HBState", nid: int) -> None:
    s.then(("civil_war_pick", nid, 0, s.turn))


@STEPS.step("civil_war_pick")
def civil_war_pick(s: "HBState", nid: int, picked: int, turn: int) -> Decision | None:
    """The owner's next area: those of a best split that contains the areas picked so far.
    When only one such split is left, it is taken."""
    n = s.nations[nid]
    k = popcount(n.land) // 2
    links = nation_links(s, n)
    found = SplitSearch(n.land, links, k, picked).choices(best_groups(s, n))
    if found.union == 0:  # the bound stopped the search before it met a split that good
        _split(s, n, SplitSearch(n.land, links, k, picked).best().split)
        return None
    if popcount(found.union) == k:
        _split(s, n, found.union)
        return None
    keys = tuple(s.board.ids[a] for a in bits(found.union & ~picked))
    return Decision(n.owner, "hb.civil-war-area", keys,
                    f"Civil war: choose an area for the breakaway nation ({popcount(picked) + 1} of {k}).",
                    "§6.1", s.label_area)


@STEPS.on_answer("civil_war_pick")
def civil_war_pick_answer(s: "HBState", player: int, key: str, nid: int, picked: int, turn: int) -> None:
    n = s.nations[nid]
    picked |= 1 << s.board.index[key]
    if popcount(picked) == popcount(n.land) // 2:
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
