"""The options of a player's turn (2.3): every recruit (2.3.2), warehouse to build or pull
down (2.3.5), unit move (2.3.3) and attack (2.3.4) open to him now, plus ending the turn.

They are found in one pass over the player's fields and kept as :class:`RunKeys`: runs
of options whose key strings are made only when read, so a bot that answers by index
never builds the hundred strings it does not use (the engine's speed target).
Order: ``end``, then per field in board order its recruits, build or pull, and moves,
then the attacks by target.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from realms.core.decision import LazyKeys

from .board import NOBODY
from .rules import ARM_LETTER
from .state import unit_class

if TYPE_CHECKING:
    from .state import V2State


class RunKeys(LazyKeys):
    """Option keys as runs ``(count, make, arg)``; ``make(arg, i)`` is the run's i-th key."""

    __slots__ = ("runs", "_n")

    def __init__(self, runs: list[tuple[int, Callable, object]], n: int) -> None:
        self.runs = runs
        self._n = n
        self._list = None
        self._set = None

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return self._all()[i]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        for count, make, arg in self.runs:
            if i < count:
                return make(arg, i)
            i -= count
        raise IndexError(i)

    def _build(self) -> list[str]:
        return [make(arg, i) for count, make, arg in self.runs for i in range(count)]


def _end(arg, i):
    return "end"


def _recruit(arg, i):
    f, letters = arg
    return f"recruit:{f}:{letters[i]}"


def _build(arg, i):
    return f"build:{arg}"


def _pull(arg, i):
    return f"pull:{arg}"


def _move(arg, i):
    """The first class's moves are ``F>T`` (:func:`.movement.apply_one`), the others
    ``move:F:T:CLASS``, all movers together ``move:F:T:all``."""
    f, dests, classes = arg
    k = len(dests)
    j = i // k
    if j == 0:
        return f"{f}>{dests[i % k]}"
    c = classes[j]
    return f"move:{f}:{dests[i % k]}:{c if c == 'all' else unit_class(c)}"


def _attack(arg, i):
    return f"attack:{arg[i]}"


def field_moves(us: list, near: tuple, owner: list, p: int) -> tuple:
    """The classes of the units on a field that can move (2.3.3) — and ``all`` where two
    or more can, to move them together — its own neighbours they can move to, and the
    foreign neighbours they can attack if any unit can: the same units, as an attack
    spends a move point as a move does (V2-Q15).  Equal units are one
    class, so the work is per class, not per unit (stacks grow large)."""
    classes = set(us)
    movers: list = sorted([u for u in classes if u[1] > 0])
    if movers and (len(movers) > 1 or us.count(movers[0]) > 1):
        movers.append("all")
    dests = [g for g in near if owner[g] == p]
    if not movers:
        return movers, dests, ()
    return movers, dests, tuple(g for g in near if owner[g] != p)


#: per rules and treasure (capped where nothing more opens), the recruits open per
#: terrain code and whether a warehouse is affordable
_OPEN: dict = {}


def open_by_money(rules, money: int) -> tuple:
    """Per terrain code, the recruits open with ``money`` (2.3.2): ``"i"`` one infantry,
    ``"i:max"`` as many as the treasure pays for (where that is two or more); and whether
    a warehouse can be built (2.3.5).  Memoised: few treasures differ in what they open."""
    top = max(max(rules.cost) * 2, rules.warehouse_cost)
    key = (id(rules), money if money < top else top)
    hit = _OPEN.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1], hit[2]
    by_terrain = [tuple([ARM_LETTER[a] for a in range(3) if t in rules.recruit_on[a] and rules.cost[a] <= money]
                        + [ARM_LETTER[a] + ":max" for a in range(3)
                           if t in rules.recruit_on[a] and 2 * rules.cost[a] <= money])
                  for t in range(5)]
    can_build = money >= rules.warehouse_cost
    _OPEN[key] = (rules, by_terrain, can_build)
    return by_terrain, can_build


def action_keys(s: "V2State", p: int) -> RunKeys:
    rules = s.rules
    board = s.board
    owner, units, wh, cap = s.owner, s.units, s.warehouse, s.capitol
    terrain, adj = board.terrain, board.adj
    by_terrain, can_build = open_by_money(rules, s.treasure[p])
    moves = s._moves
    runs: list = [(1, _end, None)]
    append = runs.append
    n = 1
    targets: set[int] = set()
    for f in s.own_fields(p):
        t = terrain[f]
        if t >= 2:
            letters = by_terrain[t]
            if letters:
                append((len(letters), _recruit, (f, letters)))
                n += len(letters)
            if not wh[f]:
                if can_build:
                    append((1, _build, f))
                    n += 1
            elif cap[f] == NOBODY:
                append((1, _pull, f))
                n += 1
        if not units[f]:
            continue
        cached = moves.get(f)
        if cached is None:
            cached = moves[f] = field_moves(units[f], adj[f], owner, p)
        movers, dests, foreign = cached
        if foreign:
            targets.update(foreign)
        if movers and dests:
            c = len(movers) * len(dests)
            append((c, _move, (f, dests, movers)))
            n += c
    if targets:
        order = sorted(targets)
        append((len(order), _attack, order))
        n += len(order)
    return RunKeys(runs, n)
