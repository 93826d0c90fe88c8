"""Fixtures and a small scenario builder for the Hy Breasil rules tests.

A test asks for the ``hb`` fixture and builds a position with the state's own primitives:

    s = hb.game(players=2)                         # an empty board, scripted dice
    star = hb.nation(s, 0, {q: 4})                 # create_nation + add_units
    moon = hb.nation(s, 1, {p: 2})
    s.dice.push(2, 4, 6, 3, 4)                     # the dice that will be rolled
    d = hb.run(s, ("move", star.id, 1))            # push frames and run the machine
    d = hb.answer(s, hb.mv(q, p))                  # answer the pending decision

Chance is steered by :class:`ScriptedDice`: every draw takes the next scripted item and
fails the test loudly if the script runs out or the item does not fit the draw, so a
test also pins *which* dice the rules roll, in which order.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from itertools import combinations
from typing import Iterable

import pytest

from realms.games.hy_breasil import GAME
from realms.games.hy_breasil.board import load_board
from realms.games.hy_breasil.combat import AU, AW, DU, DW
from realms.games.hy_breasil.invariants import INVARIANTS
from realms.games.hy_breasil.state import EMPTY, HBState, Nation
from realms.games.hy_breasil.steps import STEPS

BOARD = load_board("hy-breasil")


class ScriptedDice:
    """A stand-in for :class:`realms.core.dice.Dice` that follows a script.

    - ``d6()`` takes an int 1..6;
    - ``_random()`` (combat rolls ``int(r() * 6) + 1``) takes an int die face ``d`` and
      returns ``(d - 0.5) / 6``, or a float returned as is;
    - ``below(n)`` takes an int in ``0..n-1``;
    - ``pick(items)`` takes the *item* to pick (it must be one of ``items``);
    - ``shuffled(items)`` takes the whole new order.

    ``calls`` logs every draw as ``(kind, argument, result)``.
    """

    def __init__(self, *items) -> None:
        self.script: deque = deque(items)
        self.calls: list[tuple] = []

    def push(self, *items) -> None:
        self.script.extend(items)

    @property
    def left(self) -> list:
        return list(self.script)

    def _next(self, what: str):
        if not self.script:
            raise AssertionError(f"dice script exhausted: the rules asked for {what}")
        return self.script.popleft()

    def d6(self) -> int:
        v = self._next("d6()")
        assert isinstance(v, int) and 1 <= v <= 6, f"d6() scripted with {v!r}"
        self.calls.append(("d6", None, v))
        return v

    def roll(self, n: int) -> list[int]:
        return [self.d6() for _ in range(n)]

    def _random(self) -> float:
        v = self._next("a combat die")
        if isinstance(v, int):
            assert 1 <= v <= 6, f"combat die scripted with {v!r}"
            self.calls.append(("die", None, v))
            return (v - 0.5) / 6
        self.calls.append(("random", None, v))
        return float(v)

    def below(self, n: int) -> int:
        v = self._next(f"below({n})")
        assert isinstance(v, int) and 0 <= v < n, f"below({n}) scripted with {v!r}"
        self.calls.append(("below", n, v))
        return v

    def pick(self, items):
        items = list(items)
        v = self._next(f"pick({items})")
        assert v in items, f"pick({items}) scripted with {v!r}"
        self.calls.append(("pick", tuple(items), v))
        return v

    def shuffled(self, items):
        items = list(items)
        v = list(self._next(f"shuffled({items})"))
        assert sorted(v) == sorted(items), f"shuffled({items}) scripted with {v!r}"
        self.calls.append(("shuffled", tuple(items), tuple(v)))
        return v

    def kinds(self) -> list[str]:
        return [c[0] for c in self.calls]

    def clone(self) -> "ScriptedDice":
        other = ScriptedDice(*self.script)
        other.calls = list(self.calls)
        return other

    def fingerprint(self) -> list[int]:
        return [0, 0, 0, 0, 0, 0]


class HB:
    """Scenario helpers (one instance per test, through the ``hb`` fixture)."""

    board = BOARD
    steps = STEPS
    EMPTY = EMPTY

    # -- games and nations -------------------------------------------------------------
    @staticmethod
    def game(players: int = 2, seed: int = 0, turn: int = 2, **options) -> HBState:
        """A game with nothing on the board, an empty stack and scripted dice.

        ``turn`` defaults to 2 (a normal turn: §5.2 invasion, no §5.1).
        """
        if "vp_target" not in options:
            options.setdefault("turns", 15)
        s = GAME.new_game({"players": players, **options}, seed)
        for n in list(s.nations.values()):
            s.eliminate(n)  # the turn-1 nation already created: off the board (§8)
        assert not any(a != EMPTY for a in s.area_nation) and sorted(s.free_sets) == list(range(s.n_sets))
        s.set_uses = [0] * s.n_sets
        s.cup = []
        s.next_id = 1
        s.current = EMPTY
        s.moved = {}
        s.battle = None
        s.restart()
        s.events.clear()
        s.answers.clear()
        s.turn = turn
        s.dice = ScriptedDice()
        return s

    @classmethod
    def nation(
        cls,
        s: HBState,
        owner: int,
        units: dict | None = None,
        *,
        civ: int = 0,
        start_sea=None,
        first_turn: bool = False,
        cup: bool = False,
    ) -> Nation:
        """A nation owned by ``owner`` with ``units`` ({area: count}), through create_nation/add_units."""
        n = s.create_nation(owner)
        n.civ = civ
        n.pool -= civ
        for area, count in (units or {}).items():
            s.add_units(n, cls.a(area), count)
        n.start_sea = cls.a(start_sea) if start_sea is not None else None
        n.first_turn = first_turn
        if cup:
            s.cup.append(n.id)
        return n

    @classmethod
    def filler(cls, s: HBState, areas: Iterable, owner: int = 1) -> list[Nation]:
        """One unit in each of ``areas``, spread over as few nations as the set size allows."""
        areas = [cls.a(x) for x in areas]
        out: list[Nation] = []
        per = s.set_size - 1
        for i in range(0, len(areas), per):
            out.append(cls.nation(s, owner, {a: 1 for a in areas[i:i + per]}))
        return out

    @staticmethod
    def use_up_sets(s: HBState, keep: int = 0, owner: int = EMPTY) -> list[Nation]:
        """Empty-handed nations on every free set but ``keep`` (no unit on the map)."""
        out = []
        while len(s.free_sets) > keep:
            out.append(s.create_nation(owner))
        return out

    # -- running the machine ---------------------------------------------------------------
    @staticmethod
    def run(s: HBState, *frames: tuple):
        """Replace the stack by ``frames`` and run; the pending decision (or None)."""
        s.restart(*frames)
        return s.first_pending()

    @staticmethod
    def call(s: HBState, step: str, *args):
        """Run one step function alone (frames it schedules stay on the stack)."""
        return STEPS.run[step](s, *args)

    @staticmethod
    def answer(s: HBState, key: str, player: int | None = None):
        """Answer the (single) pending decision; the next pending decision or None."""
        if player is None:
            assert len(s.pending()) == 1, s.pending()
            player = s.first_pending().player
        s.apply(player, key)
        return s.first_pending()

    @staticmethod
    def decision(s: HBState):
        return s.first_pending()

    @staticmethod
    def kinds_logged(s: HBState) -> list[str]:
        return [e.kind for e in s.events]

    @staticmethod
    def logged(s: HBState, kind: str) -> list:
        return [e for e in s.events if e.kind == kind]

    @staticmethod
    def invariants(s: HBState, skip: tuple[str, ...] = ()) -> list[str]:
        """Problems found by the game's declared invariants (an empty list when all hold)."""
        out = []
        for inv in INVARIANTS:
            if inv.__name__ in skip:
                continue
            problem = inv(s, {})
            if problem:
                out.append(f"{inv.__name__}: {problem}")
        return out

    @staticmethod
    def conserved(n: Nation, s: HBState) -> bool:
        """HB-Q2: units on the map + pool + civilization tokens + cup token = set size."""
        return n.board + n.pool + n.civ + 1 == s.set_size and n.pool >= 0

    # -- battles --------------------------------------------------------------------------
    @staticmethod
    def battle_state(s: HBState) -> tuple[int, int, int, int]:
        """The battle's (attackers unhurt, wounded, defenders unhurt, wounded)."""
        bt = s.battle
        return (bt[AU], bt[AW], bt[DU], bt[DW])

    @classmethod
    def attack(cls, s: HBState, att: Nation, src, dst, count: int, dice=()):
        """Move ``count`` units of ``att`` from ``src`` into ``dst`` and start the battle; the
        next pending decision (the defender's submission offer when §9.2 is on)."""
        s.dice.push(*dice)
        d = cls.run(s, ("move", att.id, 1))
        for _ in range(count):
            assert d.kind == "hb.move", d
            d = cls.answer(s, cls.mv(src, dst))
        if d is not None and d.kind == "hb.move" and "fight" in d.keys:
            d = cls.answer(s, "fight")
        return d

    # -- the map ---------------------------------------------------------------------------
    @classmethod
    def connected_land(cls, start: int, k: int, avoid: Iterable[int] = ()) -> list[int]:
        """``k`` land areas connected by adjacency, breadth-first from ``start``."""
        out, frontier = [start], [start]
        while len(out) < k:
            nxt = []
            for u in frontier:
                for v in cls.land_nbrs(u):
                    if v not in out and v not in avoid and len(out) < k:
                        out.append(v)
                        nxt.append(v)
            assert nxt, "ran out of land"
            frontier = nxt
        return out

    @classmethod
    def far_apart(cls, count: int, gap: int = 4, pred=lambda a: True) -> list[int]:
        """``count`` land areas pairwise at least ``gap`` steps apart."""
        chosen: list[int] = []
        for a in cls.land():
            if pred(a) and all(cls.dist(c).get(a, 99) >= gap for c in chosen):
                chosen.append(a)
                if len(chosen) == count:
                    return chosen
        raise AssertionError("map too small")

    @staticmethod
    def a(area) -> int:
        """An area index from an index or an area id."""
        return area if isinstance(area, int) else BOARD.index[area]

    @staticmethod
    def id(area: int) -> str:
        return BOARD.ids[area]

    @classmethod
    def ids(cls, areas: Iterable[int]) -> set[str]:
        return {BOARD.ids[a] for a in areas}

    @classmethod
    def mv(cls, src, dst) -> str:
        return BOARD.move_key(cls.a(src), cls.a(dst))

    @staticmethod
    def dist(src: int, avoid: Iterable[int] = ()) -> dict[int, int]:
        """Steps from ``src`` to every area over the whole map (land and sea), not entering ``avoid``."""
        avoid = frozenset(avoid)
        return dict(_dist(src, avoid))

    @staticmethod
    def adjacent(x: int, y: int) -> bool:
        return y in BOARD.nbrs[x]

    @staticmethod
    def land() -> list[int]:
        return list(BOARD.land)

    @staticmethod
    def of_terrain(*terrains: str) -> list[int]:
        return [a for a in BOARD.land if BOARD.terrain[a] in terrains]

    @staticmethod
    def coast(sea: int) -> list[int]:
        return [a for a in BOARD.nbrs[sea] if not BOARD.is_sea[a]]

    @staticmethod
    def seas_of(area: int) -> list[int]:
        return [a for a in BOARD.nbrs[area] if BOARD.is_sea[a]]

    @staticmethod
    def land_nbrs(area: int) -> list[int]:
        return list(BOARD.land_nbrs[area])

    @staticmethod
    def inland_seas() -> list[int]:
        return [a for a in BOARD.seas if a not in BOARD.entry_seas]

    @staticmethod
    def first(items: Iterable, what: str = "a suitable configuration"):
        for x in items:
            return x
        raise AssertionError(f"the map has no {what}")

    @classmethod
    def pair(cls, pred, domain: Iterable[int] | None = None):
        """The first ordered pair of distinct areas satisfying ``pred``."""
        dom = list(domain) if domain is not None else list(range(BOARD.n))
        return cls.first(((x, y) for x in dom for y in dom if x != y and pred(x, y)), "such pair")

    @staticmethod
    def combos(domain: Iterable[int], k: int):
        return combinations(list(domain), k)


@lru_cache(maxsize=None)
def _dist(src: int, avoid: frozenset) -> dict[int, int]:
    out = {src: 0}
    frontier = [src]
    while frontier:
        nxt = []
        for u in frontier:
            for v in BOARD.nbrs[u]:
                if v not in out and v not in avoid:
                    out[v] = out[u] + 1
                    nxt.append(v)
        frontier = nxt
    return out


@pytest.fixture
def hb() -> HB:
    return HB()


@pytest.fixture(scope="session")
def small_island():
    """The generator's island of seed 1 at the smallest size it offers (16 areas, 4 seas),
    made once: ``mapgen.make``'s answer."""
    from realms.games.hy_breasil import mapgen

    return mapgen.make(1, mapgen.Shape(mapgen.MIN_AREAS, mapgen.MIN_SEAS))
