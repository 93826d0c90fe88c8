"""Exact battle odds: hand-computed battles, properties, and agreement with the
game's own combat code played by Monte Carlo.

Rulebook: §6.3.1 combat, §6.3.2 retreat, §6.1 Religious fervour, §9.1 races, §9.3.1
cities.  Rulings: HB-Q201 (policy ``best``), HB-Q202 (retreat thresholds), HB-Q203
(outcomes and survivors), HB-Q42 (cities in combat).
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest

from realms.games.hy_breasil.odds import (
    OUTCOMES,
    Battle,
    OddsError,
    hit_chances,
    monte_carlo,
    odds_table,
    solve,
    solve_position,
)
from realms.games.hy_breasil.tables import load_tables

EXACT = 1e-12


def close(x: float, y, tol: float = EXACT) -> bool:
    return abs(x - float(y)) <= tol


def test_one_against_one_on_plains_by_hand():
    """§6.3.1, 1 v 1 on plains: both hit on 4+ (p = 1/2).  Write a side's health as
    2·unhurt + wounded; each hit takes one point.  From (a, d) = (2, 2) each round ends
    in (1,1), (2,1), (1,2) with 1/4 each, or stays with 1/4, so V(2,2) is the average of
    those three:
      V(1,1): one die each; A-only, D-only, both hit are equally likely → A 1/3, mutual 1/3.
      V(2,1): A hits (1/2) → A wins; else D hits (1/4) → (1,1); stay 1/4.
              A = (1/2 + 1/4·1/3)/(3/4) = 7/9, mutual = (1/4·1/3)/(3/4) = 1/9.
      V(1,2): mirror: A = 1/9, mutual = 1/9.
      V(2,2): A = (1/3 + 7/9 + 1/9)/3 = 11/27, mutual = (1/3 + 1/9 + 1/9)/3 = 5/27,
              D = 11/27 by symmetry.
    Rounds: E(1,1) = 1/(3/4) = 4/3; E(2,1) = (1 + 1/4·4/3)/(3/4) = 16/9;
            E(2,2) = (1 + 1/4·(4/3 + 16/9 + 16/9))/(3/4) = 80/27.
    """
    r = solve(1, 1)
    assert close(r.attacker_wins, F(11, 27))
    assert close(r.defender_wins, F(11, 27))
    assert close(r.mutual, F(5, 27))
    assert r.attacker_retreats == r.defender_retreats == 0
    assert close(r.expected_rounds, F(80, 27))
    assert close(r.expected_attackers_left, F(11, 27))
    assert r.attackers_left == pytest.approx((16 / 27, 11 / 27), abs=EXACT)


def test_two_against_one_on_plains_by_hand():
    """§6.3.1, 2 v 1 on plains, health (4, 2); the attacker rolls two dice (hits ≥ 1 with
    3/4), the defender one (1/2).  Reusing V(2,1) = 7/9, V(2,2) = 11/27 from 1 v 1:
      V(3,1): any attacker hit wins (3/4); else D hits → (2,1) (1/8); stay 1/8:
              A = (3/4 + 1/8·7/9)·8/7 = 61/63.
      V(3,2): 2 hits (1/4) win; 1 hit & D miss (1/4) → (3,1); 1 hit & D hit (1/4) → (2,1);
              0 hits & D hit (1/8) → (2,2); stay 1/8:
              A = (1/4 + 1/4·61/63 + 1/4·7/9 + 1/8·11/27)·8/7 = 1115/1323.
      V(4,1): A = (3/4 + 1/8·61/63)·8/7 = 439/441.
      V(4,2): A = (1/4 + 1/4·439/441 + 1/4·61/63 + 1/8·1115/1323)·8/7 = 8957/9261,
      and likewise mutual = 131/9261, defender 173/9261.
    """
    r = solve(2, 1)
    assert close(r.attacker_wins, F(8957, 9261))
    assert close(r.mutual, F(131, 9261))
    assert close(r.defender_wins, F(173, 9261))


def test_star_and_moon_round_from_the_rulebook():
    """§6.3.1 example: "star" attacks with 3 against "moon"'s 2 on plains.  Star rolls two
    hits (3 dice: 3/8), moon one (2 dice: 1/2): star kills one moon army, moon wounds one
    star army.  (The rulebook then says "one unhurt and one wounded star army" — with 3
    units it must be two unhurt and one wounded.)  In hills star's 4 would not count:
    the attacker hits on 5+ (1/3), the defender still on 4+.

    The answer for 3 v 2 must be the average, over the first round's rolls, of the answers
    from the positions they lead to (greedy: kill wounded first, two hits kill).
    """
    t = load_tables()
    assert hit_chances(Battle(3, 2, terrain="hills")).attacker == pytest.approx((7 - t.attacker_hit_on_rough) / 6)
    assert hit_chances(Battle(3, 2, terrain="hills")).defender == pytest.approx((7 - t.hit_on) / 6)
    star_moon = solve_position(2, 1, 1, 0)  # the example's position after its round
    assert 0 < star_moon.attacker_wins < 1

    def binom(n, k):
        return math.comb(n, k) / 2**n

    total = 0.0
    stay = binom(3, 0) * binom(2, 0)
    for ha in range(4):
        for hd in range(3):
            if ha == hd == 0:
                continue
            dh = max(4 - ha, 0)  # moon's health 4, greedy
            ah = max(6 - hd, 0)  # star's health 6
            if ah == 0 or dh == 0:
                win = 1.0 if ah and not dh else 0.0
            else:
                win = solve_position(ah // 2, ah % 2, dh // 2, dh % 2).attacker_wins
            if (ha, hd) == (2, 1):
                assert (ah // 2, ah % 2, dh // 2, dh % 2) == (2, 1, 1, 0)
                win_example = win
            total += binom(3, ha) * binom(2, hd) * win
    assert win_example == star_moon.attacker_wins
    assert close(solve(3, 2).attacker_wins, total / (1 - stay))


def test_outcomes_sum_to_one_and_distributions_match():
    """The five outcomes partition every battle (HB-Q203)."""
    for kw in (dict(), dict(terrain="forest", fervour=True), dict(city=True, terrain="hills"),
               dict(attacker_retreat_below=3, defender_retreat_below=4, attacker_race="troll",
                    defender_race="hogman", terrain="hills"),
               dict(policy="best", attacker_retreat_below=2, defender_retreat_below=3)):
        for a, d in ((1, 1), (4, 3), (7, 9)):
            r = solve(a, d, **kw)
            assert abs(r.total() - 1) <= EXACT, (a, d, kw)
            assert abs(sum(r.attackers_left) - 1) <= EXACT
            assert abs(sum(r.defenders_left) - 1) <= EXACT
            assert close(r.expected_attackers_left, sum(k * p for k, p in enumerate(r.attackers_left)))
            if not kw.get("attacker_retreat_below"):  # nobody left = the attacker lost the area
                assert close(r.attackers_left[0], r.defender_wins + r.mutual)


def test_engines_agree():
    """The greedy grid solver and the general solver give the same numbers."""
    for kw in (dict(), dict(terrain="hills", city=True, fervour=True),
               dict(terrain="forest", defender_race="hogman", attacker_retreat_below=3, defender_retreat_below=2)):
        for a, d in ((1, 3), (5, 4), (8, 8)):
            g, h = solve(a, d, engine="grid", **kw), solve(a, d, engine="general", **kw)
            for k in OUTCOMES + ("expected_attackers_left", "expected_defenders_left", "expected_rounds",
                                 "city_captured"):
                assert close(getattr(g, k), getattr(h, k)), (a, d, kw, k)
            assert g.defenders_left == pytest.approx(h.defenders_left, abs=EXACT)


def test_more_attackers_never_hurt_under_greedy():
    """Monotonicity: one more attacker never lowers, one more defender never raises, the
    attacker's chance of taking the area (§6.3.1, greedy)."""
    for kw in (dict(), dict(terrain="hills"), dict(city=True)):
        t = odds_table(9, **kw)
        assert (t[1:, :] >= t[:-1, :] - EXACT).all()
        assert (t[:, 1:] <= t[:, :-1] + EXACT).all()


def test_rough_terrain_lowers_and_fervour_raises_the_attackers_chance():
    """§6.3.1: 5+ in forest and hills; §6.1 Religious fervour: +1 to the attacker's dice."""
    for a, d in ((3, 2), (6, 6), (10, 7)):
        plains = solve(a, d).attacker_wins
        assert solve(a, d, terrain="forest").attacker_wins < plains
        assert solve(a, d, terrain="hills").attacker_wins < plains
        assert solve(a, d, fervour=True).attacker_wins > plains
        # fervour cancels the rough terrain exactly: 5+ with +1 is 4+
        assert close(solve(a, d, terrain="forest", fervour=True).attacker_wins, plains)


def test_races_in_their_terrain():
    """§9.1: troll +1 in hills, hogman +1 in forest, attacking or defending; nothing
    elsewhere."""
    assert close(solve(5, 4, terrain="hills", attacker_race="troll").attacker_wins, solve(5, 4).attacker_wins)
    assert close(solve(5, 4, terrain="plains", attacker_race="troll").attacker_wins, solve(5, 4).attacker_wins)
    assert solve(5, 4, terrain="forest", defender_race="hogman").defender_wins > \
        solve(5, 4, terrain="forest").defender_wins
    assert close(solve(5, 4, terrain="hills", defender_race="hogman").defender_wins,
                 solve(5, 4, terrain="hills").defender_wins)
    # HB-Q21: bonuses add up — fervour and troll in hills hit on 3+
    assert hit_chances(Battle(1, 1, terrain="hills", fervour=True, attacker_race="troll")).attacker == \
        pytest.approx(4 / 6)


def test_city():
    """§9.3.1: a city adds a die (4+, no terrain or race benefit) and cannot be hit while
    an army stands; it is taken over when it alone survives, so once the armies are gone
    the battle is over (HB-Q42).  1 v 1 on plains with a city: the defender rolls two dice
    while its army stands.  By hand, from health (1, 1): the attacker's die hits with 1/2,
    the defender's two dice hit at least once with 3/4, nobody hits with 1/8 — attacker
    wins (1/2·1/4)/(7/8) = 1/7, mutual (1/2·3/4)/(7/8) = 3/7, defender 3/7.  The whole
    battle is checked against the same recursion in exact fractions.
    """
    r = solve(1, 1, city=True)
    # exact recursion over health (a, d), the defender rolling an extra city die
    from functools import lru_cache

    @lru_cache(None)
    def V(a, d):
        if a == 0 or d == 0:
            return (F(1) if a and not d else F(0), F(1) if not a and not d else F(0))
        na, nd = (a + 1) // 2, (d + 1) // 2 + 1
        num_w, num_m, stay = F(0), F(0), F(0)
        for ha in range(na + 1):
            for hd in range(nd + 1):
                p = F(math.comb(na, ha), 2**na) * F(math.comb(nd, hd), 2**nd)
                if ha == hd == 0:
                    stay += p
                    continue
                w, m = V(max(a - hd, 0), max(d - ha, 0))
                num_w += p * w
                num_m += p * m
        return num_w / (1 - stay), num_m / (1 - stay)

    assert V(1, 1) == (F(1, 7), F(3, 7))
    w, m = V(2, 2)
    assert close(r.attacker_wins, w)
    assert close(r.mutual, m)
    assert r.attacker_wins < solve(1, 1).attacker_wins
    big = solve(8, 3, city=True, terrain="forest")
    assert 0 < big.city_captured < big.attacker_takes_area
    with pytest.raises(OddsError, match="city"):
        solve(3, 0, city=True)


def test_city_gets_no_terrain_benefit():
    """§9.3.1, HB-Q42, HB-Q204: a city "does not get benefits from terrain", so in hills
    the attacker's die hits the army on 5+ (1/3) but the city on 4+ (1/2): a 4 (1/6) is
    a hit only for the city, usable once the armies are gone.  Checked against a
    recursion by hand in exact fractions over health (a, d), greedy: the chance that the
    attacker takes the area and that the city falls with it."""
    from functools import lru_cache

    @lru_cache(None)
    def V(a, d, four=F(1, 6)):  # four: the chance of a die that hits only the city
        if a == 0 or d == 0:
            return (F(1) if a and not d else F(0)), F(0)
        na, nd = (a + 1) // 2, (d + 1) // 2 + 1  # the defender's armies and the city die
        take, falls, stay = F(0), F(0), F(0)
        for ha in range(na + 1):
            for c in range(na - ha + 1):
                pa = F(math.factorial(na), math.factorial(ha) * math.factorial(c) * math.factorial(na - ha - c))
                pa *= F(1, 3) ** ha * four ** c * (F(2, 3) - four) ** (na - ha - c)
                for hd in range(nd + 1):
                    p = pa * F(math.comb(nd, hd), 2**nd)
                    if ha == hd == 0:
                        stay += p
                        continue
                    a2, d2 = max(a - hd, 0), max(d - ha, 0)
                    t, f = V(a2, d2, four)
                    take += p * t
                    falls += p * (f + (1 if a2 and not d2 and ha - d + c >= 2 else 0))
        return take / (1 - stay), falls / (1 - stay)

    ch = hit_chances(Battle(2, 1, terrain="hills", city=True))
    assert (ch.attacker, ch.attacker_on_city, ch.city) == pytest.approx((1 / 3, 1 / 2, 1 / 2))
    for a, d in ((1, 1), (2, 1), (4, 2), (5, 3)):
        take, falls = V(2 * a, 2 * d)
        for engine in ("grid", "general"):
            r = solve(a, d, city=True, terrain="hills", engine=engine)
            assert close(r.attacker_takes_area, take), (a, d, engine)
            assert close(r.city_captured, take - falls), (a, d, engine)
    # the 4s matter: the city falls more often than if it kept the terrain's 5+
    assert falls > V(10, 6, F(0))[1] > 0


def test_retreat_threshold_before_the_first_round_and_wounded_stay():
    """§6.3.2 and HB-Q202: a threshold is checked only at the end of a round (never
    before the first), and wounded units cannot retreat.  1 v 1 on plains, the defender
    retreating below 2 units: after round one
      both hit (1/4): both wounded, nobody can retreat → V(1,1): A 1/3, mutual 1/3, D 1/3;
      attacker hit only (1/4): the wounded defender stays → V(2,1): A 7/9, M 1/9, D 1/9;
      defender hit only, or no hit (1/2): the unhurt defender retreats.
    defender_retreats = 1/2, attacker_wins = 1/12 + 7/36 = 5/18, mutual = defender_wins
    = 1/12 + 1/36 = 1/9; rounds 1 + 1/4·4/3 + 1/4·16/9 = 16/9; the defender's survivors
    1/2 + 1/9 = 11/18 (retreated units count, HB-Q203).
    """
    r = solve(1, 1, defender_retreat_below=2)
    assert close(r.defender_retreats, F(1, 2))
    assert close(r.attacker_wins, F(5, 18))
    assert close(r.mutual, F(1, 9))
    assert close(r.defender_wins, F(1, 9))
    assert close(r.expected_rounds, F(16, 9))
    assert close(r.expected_defenders_left, F(11, 18))
    assert close(r.attacker_takes_area, F(5, 18) + F(1, 2))


def test_best_policy():
    """HB-Q201: without retreats greedy is already a best reply here; with thresholds a
    side may wound instead of kill, and ``best`` differs."""
    for kw in (dict(), dict(terrain="forest"), dict(city=True)):
        for a, d in ((3, 3), (5, 4)):
            assert close(solve(a, d, policy="best", **kw).attacker_wins, solve(a, d, **kw).attacker_wins)
    kw = dict(attacker_retreat_below=3, defender_retreat_below=3)
    best, greedy = solve(6, 4, policy="best", **kw), solve(6, 4, **kw)
    assert abs(best.total() - 1) <= EXACT
    assert best.defender_holds_area > greedy.defender_holds_area
    # a battle in progress with several wounded units (greedy kills those first)
    assert close(solve_position(3, 3, 2, 2).attacker_wins, solve_position(3, 3, 2, 2, policy="best").attacker_wins)
    with pytest.raises(OddsError, match="at most"):
        solve(40, 40, policy="best")


@pytest.mark.parametrize("bad, match", [
    (dict(attackers=-1), "negative"), (dict(defenders=201), "at most 200"),
    (dict(terrain="swamp"), "terrain"), (dict(attacker_race="orc"), "race"),
    (dict(policy="clever"), "policy"),
])
def test_bad_input(bad, match):
    kw = dict(attackers=2, defenders=2) | bad
    with pytest.raises(OddsError, match=match):
        solve(**kw)


def _agree(exact, mc, runs):
    """Each outcome's frequency within 4.5 binomial standard errors of the exact chance
    (plus 1/runs for chances near 0 or 1): a false alarm about once in 150,000 checks."""
    for k in OUTCOMES + (("city_captured",) if exact.battle.city else ()):
        p = getattr(exact, k)
        bound = 4.5 * math.sqrt(p * (1 - p) / runs) + 1 / runs
        assert abs(getattr(mc, k) - p) <= bound, (k, p, getattr(mc, k), bound)
    # the mean round count: a loose check (no variance is kept) that catches a broken count
    assert abs(mc.expected_rounds - exact.expected_rounds) <= 0.15 * exact.expected_rounds


@pytest.mark.parametrize("a, d, kw", [
    (5, 4, dict()),
    (6, 6, dict(terrain="forest", fervour=True)),
    (7, 5, dict(attacker_retreat_below=3, defender_retreat_below=3, terrain="hills")),
    (5, 4, dict(policy="best", attacker_retreat_below=3, defender_retreat_below=4)),
    (6, 4, dict(city=True, terrain="hills")),
    (5, 5, dict(attacker_race="hogman", defender_race="troll", terrain="forest")),
])
def test_exact_agrees_with_the_games_combat_code(a, d, kw):
    """§6.3.1–6.3.2: the game's own combat steps, played 1,500 times, agree with the exact
    answer within a sound statistical bound."""
    runs = 1500
    mc = monte_carlo(a, d, runs=runs, seed=7, **kw)
    _agree(solve(a, d, **kw), mc, runs)
    assert abs(mc.total() - 1) <= 1e-9
