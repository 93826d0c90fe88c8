"""Scenario helpers for the version² rules tests.

A test asks for the ``v2`` fixture and builds a position with plain assignments:

    s = v2.game(players=2)                  # the board of 2 players, empty, nothing pending
    a, b = v2.pair("meadows", "mountains")  # two adjacent fields of those terrains
    v2.own(s, 0, a, units=[v2.inf()] * 3)   # player 0 holds a with 3 infantry
    d = v2.run(s, ("act", 0))               # push frames and run the machine
    d = v2.answer(s, "attack:%d" % b)       # answer the pending decision
    s.dice = v2.script(3, 0, ...)           # scripted die rolls (below(n) answers, in order)
"""

from __future__ import annotations

import pytest

from realms.core.decision import Decision
from realms.games.version2 import GAME
from realms.games.version2.board import TERRAIN_CODE, default_board
from realms.games.version2.state import NOBODY, V2State


class Script:
    """Dice answering ``below(n)`` from a list, ``shuffled`` keeping the order."""

    def __init__(self, rolls):
        self.rolls = list(rolls)

    def below(self, n: int) -> int:
        assert self.rolls, "the scripted dice ran out"
        v = self.rolls.pop(0)
        assert 0 <= v < n, f"scripted {v} for below({n})"
        return v

    def shuffled(self, items):
        return list(items)

    def pick(self, items):
        return items[self.below(len(items))]

    def clone(self):
        return Script(self.rolls)

    def fingerprint(self):
        return list(self.rolls)


class V2:
    NOBODY = NOBODY

    @staticmethod
    def game(players: int = 2, kind: str = "capitol", seed: int = 0, turn: int = 1) -> V2State:
        """A game on the shipped board with no field owned, no unit, no treasure, missions
        that never win ("none"), player 0 active and nothing pending."""
        s = GAME.new_game({"players": players, "type": kind}, seed)
        size = s.board.size
        s.owner = [NOBODY] * size
        s.capitol = [NOBODY] * size
        s.warehouse = [0] * size
        s.units = [[] for _ in range(size)]
        s.treasure = [0] * players
        s.missions = [("none",)] * players
        s._moves = {}
        s._own = {}
        s.order = list(range(players))
        s.first = 0
        s.active = 0
        s.turn = turn
        s.restart()
        s.events.clear()
        s.answers.clear()
        return s

    @staticmethod
    def board(players: int = 2):
        return default_board(players)

    @classmethod
    def pair(cls, ta: str, tb: str, players: int = 2) -> tuple[int, int]:
        """Two adjacent fields of terrains ``ta`` and ``tb`` on the shipped board."""
        b = cls.board(players)
        for f in range(b.size):
            if b.terrain[f] == TERRAIN_CODE[ta]:
                for g in b.adj[f]:
                    if b.terrain[g] == TERRAIN_CODE[tb]:
                        return f, g
        raise LookupError(f"no {ta} next to {tb}")

    @classmethod
    def field(cls, terrain: str, players: int = 2) -> int:
        b = cls.board(players)
        return b.terrain.index(TERRAIN_CODE[terrain])

    @staticmethod
    def own(s: V2State, p: int, *fields: int, units=()) -> None:
        for f in fields:
            s.set_owner(f, p)
            if units:
                s.set_units(f, list(units))

    @staticmethod
    def inf(mp: int = 1, exp: int = 0) -> tuple:
        return (0, mp, exp)

    @staticmethod
    def cav(mp: int = 2, exp: int = 0) -> tuple:
        return (1, mp, exp)

    @staticmethod
    def art(mp: int = 1, exp: int = 0) -> tuple:
        return (2, mp, exp)

    @staticmethod
    def script(*rolls) -> Script:
        return Script(rolls)

    @staticmethod
    def run(s: V2State, *frames: tuple) -> Decision | None:
        """Replace the stack by ``frames`` and run; the first pending decision (or None)."""
        s.restart(*frames)
        return s.pending()[0] if s.pending() else None

    @staticmethod
    def answer(s: V2State, key: str) -> Decision | None:
        d = s.pending()[0]
        s.apply(d.player, key)
        return s.pending()[0] if s.pending() else None

    @staticmethod
    def kinds(s: V2State) -> list[str]:
        return [e.kind for e in s.events]


@pytest.fixture
def v2() -> type[V2]:
    return V2
