"""The shared conformance kit on Brittania: random games to the end at 2 to 12 players,
every invariant after every answer (grain never negative, outputs 0–30, every state
held by one player or independent, capitals held, orders within 30), and the hidden
check: no view or decision of a seat shows another seat's orders before the turn
resolves (BR-Q29).

REALMS_SOAK=1 plays 200 seeds at every player count from 2 to 12 (about 30 s a seed for
all eleven counts on one core); CI plays a bounded few (more where games are short)."""

import os

import pytest

from realms.core.conformance import check_game
from realms.games.brittania import GAME

SOAK = os.environ.get("REALMS_SOAK") == "1"
KINDS = {"br.start", "br.trait", "br.name", "br.order", "br.grain"}


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 13))
def test_conformance(players):
    """200 seeds with REALMS_SOAK=1, else 4 (2 to 4 players), 2 (5 to 8) or 1 (9 to 12)."""
    seeds = 200 if SOAK else 4 if players <= 4 else 2 if players <= 8 else 1
    report = check_game(GAME, {"players": players}, range(seeds), deep_every=23 if seeds < 10 else 97)
    assert report.games == seeds
    assert KINDS <= report.kinds, KINDS - report.kinds


@pytest.mark.parametrize("seeds", [range(3, 4), pytest.param(range(4, 6), marks=pytest.mark.slow)],
                         ids=["fast", "rest"])
def test_conformance_short_games_with_newcomers(seeds):
    """Short games at 12 players reach the capital and newcomer decisions too (each of
    these seeds reaches both: one in the fast suite, the others in the slow tier)."""
    report = check_game(GAME, {"players": 12, "turns": 8}, seeds, deep_every=31)
    assert report.games == len(seeds)
    assert {"br.capital", "br.newcomer"} <= report.kinds
