"""The shared conformance kit on version² at 2 to 6 players and all three game types,
with the game's invariants after every answer and missions never shown to another
seat: 4 seeds a type at 2 and 3 players and 2 at 4 to 6 (the longest games), the first
half of them in the fast suite and the rest in the slow tier; the slow soak plays 200
seeds a type and count with REALMS_SOAK=1, else a bounded 10."""

import os

import pytest

from realms.core.conformance import check_game
from realms.games.version2 import GAME

KINDS = {"v2.action", "v2.move", "v2.attack-units", "v2.defend", "v2.offer", "v2.orders"}


@pytest.mark.parametrize("half", ["fast", pytest.param("rest", marks=pytest.mark.slow)])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_conformance(players, half):
    seen: set = set()
    n = 4 if players <= 3 else 2
    seeds = range(n // 2) if half == "fast" else range(n // 2, n)
    for kind in ("capitol", "resistance", "abundance"):
        report = check_game(GAME, {"players": players, "type": kind, "turn_limit": 5}, seeds, deep_every=61)
        assert report.games == len(seeds)
        seen |= report.kinds
    assert {"v2.action", "v2.attack-units", "v2.defend"} <= seen


def test_conformance_reaches_every_decision_kind():
    """Random play reaches every decision kind: Resistance, whose neutral armies always
    face the battle (a random defender with many fields to retreat to rarely does, V2-Q19),
    on two seeds that between them see artillery orders and a battle's third fight-turn."""
    report = check_game(GAME, {"players": 3, "type": "resistance", "turn_limit": 10}, [3, 6], deep_every=211)
    assert KINDS <= report.kinds, KINDS - report.kinds


SOAK = os.environ.get("REALMS_SOAK") == "1"


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_conformance_soak(players):
    seeds = 200 if SOAK else 10
    for kind in ("capitol", "resistance", "abundance"):
        report = check_game(GAME, {"players": players, "type": kind, "turn_limit": 8},
                            range(1000, 1000 + seeds), deep_every=97)
        assert report.games == seeds


def test_a_mission_that_becomes_anothers_reveals_nothing():
    """V2-Q32: P2 is out after three answers (seed 1008, five players), and P1's mission to
    free the world from him becomes "Conquer 28 land fields", which is P4's too. P1's own
    line and view name it; neither tells him anything of P4's, and neither is a leak."""
    report = check_game(GAME, {"players": 5, "type": "capitol", "turn_limit": 8}, [1008], deep_every=97)
    assert report.games == 1
