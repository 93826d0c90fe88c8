"""The shared conformance kit on Brian Boru: random games to the end for 3, 4 and 5
players, with every invariant after every answer and the hidden-information check (no
view shows another player's hand, picks, packet, the leftover or the discard pile)."""

import pytest

from realms.core.conformance import check_game
from realms.games.brian_boru import GAME

KINDS = {"bb.first-town", "bb.draft", "bb.active-town", "bb.lead", "bb.play", "bb.secondary",
         "bb.spend", "bb.expand", "bb.place-town", "bb.lose-town", "bb.monastery", "bb.princess",
         "bb.unviking"}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_conformance_a_few_seeds(players):
    """The fast tier's share of the 200-seed runs (slow tier)."""
    report = check_game(GAME, {"players": players}, range(200, 215), deep_every=97)
    assert report.games == 15


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5])
def test_conformance_200_seeds(players):
    report = check_game(GAME, {"players": players}, range(200), deep_every=97)
    assert report.games == 200
    assert report.decisions > 200 * 150
    assert KINDS <= report.kinds, KINDS - report.kinds
