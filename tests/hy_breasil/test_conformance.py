"""The shared conformance kit on Hy Breasil: random playouts with every invariant.

The fast tier plays a few seeds of each kind of game and the slow tier the rest of them
(:func:`share`), so ``--all`` (CI) plays every seed listed here; the slow tier also plays
200 seeds of the default game (4 players, 15 turns) and of all advanced rules;
REALMS_SOAK=1 plays 2000.
"""

import os

import pytest

from realms.core.conformance import check_game
from realms.games.hy_breasil import GAME

SOAK = os.environ.get("REALMS_SOAK") == "1"
ALL_RULES = ["races", "submission", "abilities"]


def share(seeds: range, fast: int) -> list:
    """``seeds`` as two runs: the first ``fast`` in the fast suite, the rest in the slow
    tier, so the fast suite plays a share of each kind of game and ``--all`` all of them."""
    return [pytest.param(seeds[:fast], id="fast"),
            pytest.param(seeds[fast:], marks=pytest.mark.slow, id="rest")]


def test_conformance_a_few_seeds_of_the_default_game_and_all_advanced_rules():
    """The fast tier's share of the two 200-seed runs below."""
    assert check_game(GAME, {"players": 4, "turns": 15}, range(4), deep_every=211).games == 4
    assert check_game(GAME, {"players": 4, "turns": 15, "rules": ALL_RULES}, range(4), deep_every=293).games == 4


@pytest.mark.slow
def test_conformance_200_seeds_default_game():
    """§1–8: 200 random games to the end; invariants after every answer (HB-Q2 tokens,
    one nation per area, nobody left at sea, VP never decrease, nation limit)."""
    report = check_game(GAME, {"players": 4, "turns": 15}, range(200), deep_every=211)
    assert report.games == 200
    assert report.decisions > 200 * 500
    for kind in ("hb.entry-sea", "hb.move", "hb.assign-hits", "hb.retreat", "hb.event", "hb.place",
                 "hb.plague-own", "hb.civil-war-area", "hb.nation-limit", "hb.support-remove"):
        assert kind in report.kinds, kind


@pytest.mark.parametrize("seeds", share(range(1000, 1012), 4))
@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_conformance_other_player_counts(players, seeds):
    """§5.3: every player count from 2 to 6."""
    report = check_game(GAME, {"players": players, "turns": 8}, seeds, deep_every=53)
    assert report.games == len(seeds)


@pytest.mark.parametrize("seeds", share(range(10), 4))
def test_conformance_vp_target_and_small_sets(seeds):
    """§3 VP-target games; §1 fewer/smaller token sets (the cascade and set exhaustion)."""
    assert check_game(GAME, {"players": 3, "vp_target": 60}, [2000 + s for s in seeds],
                      deep_every=71).games == len(seeds)
    assert check_game(GAME, {"players": 4, "turns": 10, "sets": 5, "set_size": 12}, [3000 + s for s in seeds],
                      deep_every=71).games == len(seeds)


@pytest.mark.slow
def test_conformance_soak():
    """Long soak: 2000 seeds with REALMS_SOAK=1, else a bounded 40."""
    n = 2000 if SOAK else 40
    report = check_game(GAME, {"players": 4, "turns": 15}, range(10_000, 10_000 + n), deep_every=997)
    assert report.games == n


@pytest.mark.slow
def test_conformance_200_seeds_all_advanced_rules():
    """§9.1–9.3 all on: 200 random games with every invariant, city tokens and
    submitted pairs included."""
    report = check_game(GAME, {"players": 4, "turns": 15, "rules": ALL_RULES}, range(200), deep_every=293)
    assert report.games == 200
    for kind in ("hb.ability", "hb.capital", "hb.city", "hb.diplomacy", "hb.submit", "hb.withdraw"):
        assert kind in report.kinds, kind


@pytest.mark.parametrize("seeds", share(range(500, 515), 5))
@pytest.mark.parametrize("rules", [["races"], ["submission"], ["abilities"], ["races", "abilities"]])
def test_conformance_each_rule_alone(rules, seeds):
    """HB-Q47: each advanced rule alone, and in combination."""
    report = check_game(GAME, {"players": 3, "turns": 10, "rules": rules}, seeds, deep_every=89)
    assert report.games == len(seeds)


VARIANTS = [
    {"players": 4, "turns": 12, "variant": "random-scoring", "rules": ALL_RULES},
    {"names": ["Ana", "Bo", "Cy"], "turns": 12, "variant": "continuous", "rules": ALL_RULES,
     "joins": [[3, "Dana"], [5, "Eve"], [9, "Bo"]], "leaves": [[4, "Bo"], [7, "Ana"]]},
]


@pytest.mark.parametrize("options", VARIANTS)
def test_conformance_variants(options):
    """§10 continuous play and §11 random scoring with every advanced rule: 4 seeds here,
    the slow tier plays 60 (these among them)."""
    report = check_game(GAME, options, range(700, 704), deep_every=131)
    assert report.games == 4


@pytest.mark.slow
@pytest.mark.parametrize("options", VARIANTS)
def test_conformance_variants_soak(options):
    report = check_game(GAME, options, range(700, 760), deep_every=131)
    assert report.games == 60


def test_every_race_ability_submission_absorption_and_city_occurs():
    """In 20 random-bot games with all advanced rules, every race and ability,
    submissions, absorptions and cities all occur (the first 6 of them show them all)."""
    from realms.core.agents import RandomBot, bot_seed
    from realms.core.match import play
    from realms.games.hy_breasil.tables import ABILITIES, RACES

    races, abilities = set(), set()
    totals = {"submissions": 0, "absorptions": 0, "cities_built": 0}
    for seed in range(20):
        s = GAME.new_game({"players": 4, "turns": 15, "rules": ALL_RULES}, seed)
        play(s, [RandomBot(bot_seed(seed, i)) for i in range(4)])
        res = s.result()
        races |= set(res["races"])
        abilities |= set(res["abilities"])
        for key in totals:
            totals[key] += res[key]
    assert races == set(RACES)
    assert abilities == set(ABILITIES)
    assert all(v > 0 for v in totals.values()), totals
