"""The shared conformance kit on Hy Breasil: random playouts with every invariant.

CI plays 200 seeds of the default game (4 players, 15 turns) plus shorter games for the
other player counts and game lengths; REALMS_SOAK=1 plays 2000 seeds.
"""

import os

import pytest

from realms.core.conformance import check_game
from realms.games.hy_breasil import GAME

SOAK = os.environ.get("REALMS_SOAK") == "1"


def test_conformance_200_seeds_default_game():
    """§1–8: 200 random games to the end; invariants after every answer (HB-Q2 tokens,
    one nation per area, nobody left at sea, VP never decrease, nation limit)."""
    report = check_game(GAME, {"players": 4, "turns": 15}, range(200), deep_every=211)
    assert report.games == 200
    assert report.decisions > 200 * 500
    for kind in ("hb.entry-sea", "hb.move", "hb.assign-hits", "hb.retreat", "hb.event", "hb.place",
                 "hb.plague-own", "hb.civil-war-area", "hb.nation-limit", "hb.support-remove"):
        assert kind in report.kinds, kind


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_conformance_other_player_counts(players):
    """§5.3: every player count from 2 to 6."""
    report = check_game(GAME, {"players": players, "turns": 8}, range(1000, 1012), deep_every=53)
    assert report.games == 12


def test_conformance_vp_target_and_small_sets():
    """§3 VP-target games; §1 fewer/smaller token sets (the cascade and set exhaustion)."""
    check_game(GAME, {"players": 3, "vp_target": 60}, range(2000, 2010), deep_every=71)
    check_game(GAME, {"players": 4, "turns": 10, "sets": 5, "set_size": 12}, range(3000, 3010), deep_every=71)


@pytest.mark.slow
def test_conformance_soak():
    """Long soak: 2000 seeds with REALMS_SOAK=1, else a bounded 40."""
    n = 2000 if SOAK else 40
    report = check_game(GAME, {"players": 4, "turns": 15}, range(10_000, 10_000 + n), deep_every=997)
    assert report.games == n
