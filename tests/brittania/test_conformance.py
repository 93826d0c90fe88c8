"""The shared conformance kit on Brittania: random games to the end at 2 to 12 players,
every invariant after every answer (grain never negative, outputs 0–30, every state
held by one player or independent, capitals held, orders within 30), and the hidden
check: no view or decision of a seat shows another seat's orders before the turn
resolves (BR-Q29).  Seeds are bounded to keep the suite quick; benchmarks/ plays more."""

import pytest

from realms.core.conformance import check_game
from realms.games.brittania import GAME

KINDS = {"br.start", "br.trait", "br.name", "br.order", "br.grain"}


@pytest.mark.parametrize("players, seeds", [(2, 6), (3, 4), (5, 3), (8, 2), (12, 2)])
def test_conformance(players, seeds):
    report = check_game(GAME, {"players": players}, range(seeds), deep_every=23)
    assert report.games == seeds
    assert KINDS <= report.kinds, KINDS - report.kinds


def test_conformance_short_games_with_newcomers():
    """Short games at 12 players reach the capital and newcomer decisions too."""
    report = check_game(GAME, {"players": 12, "turns": 8}, range(3, 6), deep_every=31)
    assert {"br.capital", "br.newcomer"} <= report.kinds
