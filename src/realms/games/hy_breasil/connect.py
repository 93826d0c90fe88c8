"""Connection between a nation's areas (§6.4), shared by the support phase and civil war.

§6.4: two areas of a nation are connected if a unit could move from one to the other
under §6.3, or through a chain of such moves ending in the nation's areas.  A move may
use at most two type-B steps and cannot pass through another nation's land, so two
areas are *linked* when they are adjacent, or both border one passable area — an empty
land area or a sea (RULINGS HB-Q23) — on the board as it stands.  Connection is then
reachability over links.  Everything works on bitmasks of area indices.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .state import HBState


class Adjacency(Protocol):
    """What :func:`territories` reads of a board: a :class:`.board.Board`, or anything with
    its neighbour masks and memo.  (A protocol, so that the compiled module does not insist
    on a ``Board``.)"""

    nbr_mask: tuple[int, ...]
    territory_memo: dict[int, list[int]]


def passable_mask(s: "HBState") -> int:
    """Seas and empty land: the areas a connecting move may cross."""
    b = s.board
    return b.sea_mask | (b.land_mask & ~s.occupied)


def territories(own: int, board: Adjacency) -> list[int]:
    """The groups of own land joined by adjacency (type-A steps), memoised per map by mask."""
    return territories_in(own, board.nbr_mask, board.territory_memo)


def territories_in(own: int, nbr: tuple[int, ...], memo: dict[int, list[int]]) -> list[int]:
    """:func:`territories` given the board's neighbour masks and memo (compiled, read
    once by a caller that has them typed, instead of through the protocol)."""
    hit = memo.get(own)
    if hit is not None:
        return hit
    comps = []
    rest = own
    while rest:
        comp = rest & -rest
        grow = comp
        while grow:
            grow = spread(grow, nbr) & own & ~comp
            comp |= grow
        comps.append(comp)
        rest &= ~comp
    if len(memo) > 4_096:  # a bigger memo saves few flood fills and costs the garbage
        memo.clear()       # collector's full passes more (12% of the time at 200,000)
    memo[own] = comps
    return comps


def link_masks(s: "HBState", land: int, navigation: bool = False) -> dict[int, int]:
    """:func:`links` of a nation's ``land`` on the board as it stands: seas and empty land
    are passable; with Navigation (§9.3.1, "this counts also for connections") two
    adjacent seas count as one passable area."""
    b = s.board
    return links(land, b.nbr_mask, passable_mask(s), b.sea_mask if navigation else 0)


def links(land: int, nbr: tuple[int, ...], hop: int, seas: int = 0) -> dict[int, int]:
    """For each area of ``land``, the bitmask of the others it is linked to: those adjacent
    to it, and those bordering a passable area (of ``hop``) that borders it (RULINGS
    HB-Q23).  ``seas``: the seas that pass on to their neighbouring seas (Navigation)."""
    out: dict[int, int] = {}
    for x in bits(land):
        nx = nbr[x]
        reach = nx & hop
        if seas and reach & seas:
            reach |= spread(reach & seas, nbr) & seas
        out[x] = (nx | spread(reach, nbr)) & land & ~(1 << x)
    return out


def components(mask: int, links: dict[int, int]) -> list[int]:
    """The connected groups (as bitmasks) of the areas in ``mask``."""
    groups = []
    while mask:
        low = mask & -mask
        group = low
        frontier = low
        while frontier:
            bit = frontier & -frontier
            frontier ^= bit
            new = links[bit.bit_length() - 1] & mask & ~group
            group |= new
            frontier |= new
        groups.append(group)
        mask &= ~group
    return groups


def bits(mask: int) -> list[int]:
    """The area indices in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def spread(mask: int, nbr: tuple[int, ...]) -> int:
    """Every area adjacent to an area of ``mask`` (``nbr``: each area's neighbour mask)."""
    out = 0
    while mask:
        low = mask & -mask
        out |= nbr[low.bit_length() - 1]
        mask ^= low
    return out
