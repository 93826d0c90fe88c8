"""The exact battle odds (exact.py, 2.3.4) against the game's own battle steps: the Markov
chain over the battle's counts gives, for armies of every kind, what many battles fought
by battle.py give — each chance within the Monte Carlo's sampling error, and the mean
survivors of each arm and fight-turns too."""

from __future__ import annotations

import dataclasses
import math

import pytest

from realms.games.version2.exact import NotExact, exact_odds
from realms.games.version2.odds import ArmyError, battle_odds, monte_carlo, parse_army
from realms.games.version2.rules import ARMS, load_rules

R = load_rules()
TRIALS = 3000

#: attacker, defender, terrain, extras (capitol, warehouse, orders), rules changed
CASES = [
    ("6i,2c,2a", "7i,1c,2a", "woodland", {}, {}),             # the benchmark's 10 v 10 mixed
    ("4i,1c,2a", "3i", "mountains", {"capitol": True}, {}),    # the example
    ("9i", "3i", "ford", {}, {}),                              # reserve, majority, desperation
    ("3i,3a", "2i,2c,2a", "meadows", {"orders": "foot"}, {}),  # guns at foot troops
    ("2i,3a", "4i,2a", "meadows", {"orders": "artillery", "warehouse": True}, {}),
    ("3a", "2i", "meadows", {}, {}),                           # guns alone are lost (V2-Q103)
    ("5i+2,2c+2", "6i+1,1a+1", "woodland", {}, {}),            # veterans on both sides
    ("6i,2c", "5i,3c", "meadows", {}, {"round_limit": 2}),     # break-offs: infantry // 3 lost
]


def _close(exact: float, sampled: float, se: float, what: str) -> None:
    """A mean of many battles agrees with the exact value within 4.5 standard errors."""
    assert abs(exact - sampled) <= 4.5 * max(se, 1 / TRIALS), \
        f"{what}: exact {exact:.4f}, sampled {sampled:.4f} (se {se:.4f})"


@pytest.mark.parametrize("att, dfd, terrain, extra, changed", CASES)
def test_2_3_4_exact_odds_equal_the_battle_code(att, dfd, terrain, extra, changed):
    rules = dataclasses.replace(R, **changed) if changed else R
    a, d = parse_army(att), parse_army(dfd)
    e = exact_odds(a, d, terrain, rules=rules, **extra)
    m = monte_carlo(a, d, terrain, trials=TRIALS, seed=11, rules=rules, **extra)
    assert e["exact"] and not m["exact"] and e["unresolved"] < 1e-6
    for k in ("conquest", "attacker_breaks_off", "both_destroyed"):
        _close(e[k], m[k], math.sqrt(e[k] * (1 - e[k]) / TRIALS), k)
    for side, army in (("attacker_survivors", a), ("defender_survivors", d)):
        for arm, v in e[side].items():
            n = sum(1 for u in army if ARMS[u[0]] == arm)   # a spread of at most n: sd <= n / 2
            _close(v, m[side][arm], n / 2 / math.sqrt(TRIALS), f"{side} {arm}")
    _close(e["mean_rounds"], m["mean_rounds"], 2.5 / math.sqrt(TRIALS), "fight-turns")
    if changed.get("round_limit"):
        assert e["attacker_breaks_off"] > 0.2   # the case does test break-offs


def test_2_3_4_exact_chances_add_up():
    e = exact_odds(parse_army("5i,2a"), parse_army("5i,1c,1a"), "meadows")
    lost = e["defender_holds"] - e["attacker_breaks_off"]
    assert abs(e["conquest"] + e["attacker_breaks_off"] + lost - 1) < 1e-12
    assert 0 <= e["both_destroyed"] <= lost


def test_2_3_4_4_mixed_experience_is_left_to_monte_carlo():
    """The chain needs each side's units to share one experience; otherwise the calculator
    fights the battles through the game's code, and says so."""
    with pytest.raises(NotExact, match="attacker"):
        exact_odds(parse_army("3i+1,2i"), parse_army("3i"), "meadows")
    r = battle_odds("3i+1,2i", "3i", trials=200, seed=1)
    assert not r["exact"] and r["method"].startswith("Monte Carlo")
    assert battle_odds("5i", "3i")["exact"]
    with pytest.raises(ArmyError, match="no exact odds"):
        battle_odds("3i+1,2i", "3i", method="exact")


def test_a_battle_under_way_counts_on_from_its_fight_turn_and_its_starting_sizes():
    """The odds between fight-turns (``--fought``, ``--start``): 6 infantry against 4 with
    29 of the 30 fight-turns fought have one left before the attacker breaks off (V2-Q26),
    so he breaks off far more often than in a fresh battle; the chain and the game's own
    battle steps (Monte Carlo) agree on it."""
    from realms.games.version2.odds_cli import compute

    fresh, _ = compute({"attacker": "6i", "defender": "4i", "start": "6,4"})
    late, _ = compute({"attacker": "6i", "defender": "4i", "fought": 29, "start": "6,4"})
    assert fresh["method"] == late["method"] == "exact"
    assert fresh["chances"]["attacker_breaks_off"] < 1e-6 < 0.5 < late["chances"]["attacker_breaks_off"]
    mc, _ = compute({"attacker": "6i", "defender": "4i", "fought": 29, "start": "6,4", "method": "monte-carlo",
                     "trials": 3000, "seed": 1})
    lo, hi = mc["interval_95"]["attacker_breaks_off"]
    assert lo <= late["chances"]["attacker_breaks_off"] <= hi
    from realms.core.game import CalculatorError

    with pytest.raises(CalculatorError, match="--start must be two counts"):
        compute({"attacker": "6i", "defender": "4i", "start": "6"})


def test_each_fight_turn_of_a_battle_going_on_carries_the_calculator_s_values():
    """Each fight-turn's line of a battle still going on carries the battle as the calculator
    takes it (the page's odds beside the battle panel, between rounds); the calculator
    accepts them and counts on from that fight-turn."""
    from realms.core.agents import RandomBot
    from realms.core.match import play
    from realms.games.version2 import GAME
    from realms.games.version2.odds_cli import compute

    found = []
    for seed in range(1, 40):
        s = play(GAME.new_game({"players": 3, "turn_limit": 8}, seed), [RandomBot(i) for i in range(3)])
        found += [e.data["battle"] for e in s.events
                  if (e.data.get("battle") or {}).get("round") and "odds" in e.data["battle"]]
        if len(found) >= 3:
            break
    assert found, "no battle lasted two fight-turns"
    for b in found[:3]:
        assert b["odds"]["fought"] == b["round"]
        data, _ = compute({**b["odds"], "method": "monte-carlo", "trials": 200})
        assert abs(sum(data["chances"][k] for k in ("conquest", "attacker_breaks_off", "attacker_destroyed")) - 1) < 1e-9
