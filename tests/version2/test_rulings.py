"""One test per ruling of src/realms/games/version2/RULINGS.md that is not pinned by a
rules test elsewhere (RULINGS.md names the test of each)."""

from __future__ import annotations

import dataclasses
import math

from realms.games.version2 import GAME
from realms.games.version2.board import TERRAIN_CODE, hex_distance
from realms.games.version2.missions import land_target
from realms.games.version2.modifiers import factor, side_modifiers
from realms.games.version2.rules import load_rules

R = load_rules()


def _attack(v2, s, a, b, rolls, *adds):
    v2.run(s, ("act", 0))
    d = v2.answer(s, f"attack:{b}")
    for k in adds or ([f"all:{a}"] if f"all:{a}" in d.keys else [next(k for k in d.keys if k.startswith("add:"))]):
        v2.answer(s, k)
    s.dice = v2.script(*rolls)
    return v2.answer(s, "go")


def test_v2_q3_starting_treasures():
    """2.3.1: Capitol 10, Resistance 15, and the second "Capitol" is Abundance: 0."""
    for kind, money in (("capitol", 10), ("resistance", 15), ("abundance", 0)):
        s = GAME.new_game({"players": 3, "type": kind}, 1)
        assert [s.treasure[p] for p in range(3) if p != s.first] == [money, money]


def test_v2_q4_abundance_dealt_from_the_first_player():
    """Abundance: the neutral fields are dealt at random, one to each player in turn from
    the first player, so he never has fewer than the others."""
    for seed in range(8):
        s = GAME.new_game({"players": 3, "type": "abundance"}, seed)
        counts = [s.field_count(p) for p in range(3)]
        assert counts[s.first] == max(counts)
    a = GAME.new_game({"players": 3, "type": "abundance"}, 1)
    b = GAME.new_game({"players": 3, "type": "abundance"}, 2)
    assert a.owner != b.owner


def test_v2_q5_capitols_on_randomly_chosen_land_fields():
    """I.2: "every player will get a randomly chosen land hex-field" — no distance kept
    between capitols: over seeds they fall side by side too; never on a ford, never two on
    one field."""
    gaps = set()
    for seed in range(30):
        s = GAME.new_game({"players": 6}, seed)
        caps = [f for f in s.board.land if s.capitol[f] != -1]
        assert len(caps) == 6 and all(s.board.terrain[f] >= 2 for f in caps)
        gaps |= {hex_distance(s.board.coords[a], s.board.coords[b]) for a in caps for b in caps if a < b}
    assert {1, 2} <= gaps


def test_v2_q6_neutral_armies_never_choose(v2):
    """Resistance: neutral armies never retreat or change orders; only the attacker is
    asked every third fight-turn; their ground counts for them."""
    s = v2.game(kind="resistance")
    a, b = v2.pair("meadows", "meadows")
    v2.own(s, 0, a, units=[v2.inf()] * 3)
    s.set_units(b, [v2.inf()] * 3)
    d = _attack(v2, s, a, b, [1] * 24 + [0, 1, 0, 0] * 3)
    assert d.kind == "v2.offer" and d.player == 0
    s.dice.rolls = [0, 1, 0, 0] * 9
    d = v2.answer(s, "fight")
    assert d.kind == "v2.offer" and d.player == 0 and s.battle["round"] == 6
    assert side_modifiers(R, [3, 3], [3, 3], 1, R.terrain_mod[TERRAIN_CODE["woodland"]])[1] == 10


def test_v2_q8_treasure_carries_over(v2):
    """2.3.2 "one can save up": what is not spent stays in the treasure (2.3.5's "get
    lost" would leave nothing for the warehouses' shares to hold)."""
    s = v2.game()
    f = v2.field("meadows")
    v2.own(s, 0, f)
    s.treasure[0] = 7
    v2.run(s, ("act", 0))
    v2.answer(s, "end")                  # player 1, holding nothing, can only end his turn
    assert s.active == 0 and s.treasure[0] == 7 + s.board.index[f]


def test_v2_q10_q11_recruit_and_build_on_a_field_conquered_this_turn(v2):
    s = v2.game()
    a, b = v2.pair("meadows", "meadows")
    v2.own(s, 0, a, units=[v2.inf()])
    s.treasure[0] = 9
    d = _attack(v2, s, a, b, [])
    assert f"recruit:{b}:i" in d.keys and f"build:{b}" in d.keys
    v2.answer(s, f"recruit:{b}:c")
    d = v2.answer(s, f"recruit:{b}:c")
    assert len(s.units[b]) == 3 and f"build:{b}" in d.keys


def test_v2_q12_plunder_rounds_down(v2):
    """The loser's treasure at that moment, the loot rounded down: 10 × 2/3 → 6."""
    s = v2.game()
    a, b = v2.pair("meadows", "meadows")
    v2.own(s, 0, a, units=[v2.inf()])
    v2.own(s, 1, b, v2.field("woodland"))
    s.capitol[b] = 1
    s.warehouse[b] = 1
    s.warehouse[v2.field("woodland")] = 1
    s.treasure[1] = 10
    _attack(v2, s, a, b, [])
    assert s.treasure == [6, 4]


def test_v2_q13_fallen_capitols_warehouse_may_be_pulled_down(v2):
    """The capitol's warehouse stands when the capitol falls (it is the conqueror's now),
    and may then be pulled down."""
    s = v2.game()
    a, b = v2.pair("meadows", "meadows")
    v2.own(s, 0, a, units=[v2.inf()])
    v2.own(s, 1, b, v2.field("woodland"))
    s.capitol[b] = 1
    s.warehouse[b] = 1
    d = _attack(v2, s, a, b, [])
    assert s.capitol[b] == v2.NOBODY and s.warehouse[b] == 1 and f"pull:{b}" in d.keys


def test_v2_q16_cavalry_attacks_twice(v2):
    """2.3.3: an attack spends a move point; a cavalry with one left may attack again from
    the conquered field ("or even attack two times in a row"), and then no more: "for
    every move-point it has, either attack or move"."""
    s = v2.game()
    a, b = v2.pair("meadows", "meadows")
    c = next(g for g in s.board.adj[b] if g != a and s.board.terrain[g] >= 2 and g not in s.board.adj[a])
    v2.own(s, 0, a, units=[v2.cav()])
    s.treasure[0] = 50                   # the turn goes on after the attacks
    d = _attack(v2, s, a, b, [])
    assert s.units[b] == [v2.cav(1)] and f"attack:{c}" in d.keys
    d = _attack(v2, s, b, c, [])
    assert s.units[c] == [v2.cav(0)]
    assert not any(k.startswith("attack:") for k in d.keys)   # no third attack


def test_v2_q17_negative_move_points_defend_but_do_not_attack(v2):
    """2.3.3: a unit with no move points cannot attack ("that would mean the unit cannot
    attack any more"); the hint "units are always able to attack – even if they've got
    no more move-points left" is its attack in battle (2.3.4.2: "the attackers as well as
    the defenders attack their opponents"): it fights as a defender."""
    s = v2.game()
    a, b = v2.pair("meadows", "meadows")
    v2.own(s, 0, a, units=[v2.inf(-1)])
    v2.own(s, 1, b, units=[v2.inf()])
    s.treasure = [50, 50]                # the turns go on
    d = v2.run(s, ("act", 0))
    assert f"attack:{b}" not in d.keys
    s.active = 1
    v2.run(s, ("act", 1))
    v2.answer(s, f"attack:{a}")
    v2.answer(s, f"add:{b}:i1.0")
    s.dice = v2.script(3, 0, 0, 3)       # the defender's unit strikes 4 against 1; the reply 1 against 4
    v2.answer(s, "go")
    assert s.owner[a] == 0 and s.units[a] == [v2.inf(-1, exp=1)] and not s.units[b]


def test_v2_q18_units_from_several_fields(v2):
    """2.3.4.2: "A hex-field can be attacked by units of several adjacent hex-fields" —
    any subset of them, picked unit by unit."""
    s = v2.game()
    a, b = v2.pair("meadows", "meadows")
    c = next(g for g in s.board.adj[b] if g in s.board.adj[a] and s.board.terrain[g] >= 2)
    v2.own(s, 0, a, units=[v2.inf(), v2.inf()])
    v2.own(s, 0, c, units=[v2.cav()])
    v2.run(s, ("act", 0))
    d = v2.answer(s, f"attack:{b}")
    assert {f"all:{a}", f"add:{a}:i1.0", f"add:{c}:c2.0", "cancel"} <= set(d.keys) and "go" not in d.keys
    v2.answer(s, f"add:{a}:i1.0")
    v2.answer(s, f"add:{c}:c2.0")
    v2.answer(s, "go")
    assert s.units[b] == [v2.inf(0), v2.cav(1)] and s.units[a] == [v2.inf()]


def test_v2_q19_retreat_to_any_field_he_owns(v2):
    """2.3.4.2: the enemy "retreats voluntarily to another hex-field he already owns" —
    near or far, all his units together, each losing a move point; owning no other
    field, he must face the battle (no decision is asked)."""
    s = v2.game()
    a, b = v2.pair("meadows", "meadows")
    v2.own(s, 0, a, units=[v2.inf()])
    v2.own(s, 1, b, units=[v2.inf()])
    s.treasure[0] = 50                   # the turn goes on after the attack
    d = _attack(v2, s, a, b, [3, 0, 3, 0])
    assert d.kind == "v2.action"                       # no v2.defend was asked
    far = next(f for f in s.board.land if hex_distance(s.board.coords[f], s.board.coords[b]) > 3)
    v2.own(s, 1, far)
    b2 = next(g for g in s.board.adj[a] if s.owner[g] == v2.NOBODY and s.board.terrain[g] >= 2)
    v2.own(s, 1, b2, units=[v2.inf(), v2.cav()])
    v2.own(s, 0, a, units=[v2.inf()] * 3)
    d = _attack(v2, s, a, b2, [])
    assert d.kind == "v2.defend" and f"retreat:{far}" in d.keys and f"retreat:{b}" in d.keys
    v2.answer(s, f"retreat:{far}")
    assert s.units[far] == [v2.inf(0), v2.cav(1)] and s.owner[b2] == 0


def test_v2_q20_artillery_at_foot_troops_three_defend_themselves(v2):
    """2.3.4.2: "if it attacks the foot troops, three units have to defend themselves":
    the gun attacks once (one roll, 2.3.4.3) and each of three foot units defends itself
    against it; each whose total is less is destroyed."""
    from realms.games.version2.battle import artillery_fire

    s = v2.game()
    b = {"side": [[v2.art() + (0,)], [v2.inf() + (1,)] * 4], "orders": ["foot", "random"]}
    kills = [set(), set()]
    s.dice = v2.script(2, 2, 3, 0)            # shot 3 × 2 × 100 = 600; defences 300, 400, 100
    artillery_fire(s, b, [0, 0], kills)
    assert kills == [set(), {0, 1, 2}] and not s.dice.rolls
    kills = [set(), set()]
    s.dice = v2.script(0, 0, 1, 3)            # shot 1 × 2 × 100 = 200; defences 100, 200, 400
    artillery_fire(s, b, [0, 0], kills)
    assert kills == [set(), {0}] and not s.dice.rolls
    b["side"][1].append(v2.art() + (1,))
    kills = [set(), set()]
    s.dice = v2.script(0, 3, 0, 0, 0, 3)      # at artillery: 100 < 800; its reply 400 ≥ 200
    b["orders"][0] = "artillery"
    artillery_fire(s, b, [0, 0], kills)
    assert kills == [set(), {4}] and not s.dice.rolls


def test_v2_q24_reserve_destroys_artillery(v2):
    """A reserve destroys reserve // 3 of the enemy's artillery every fight-turn (any foot
    troops of the larger army's reserve count); the foot battle never hits artillery."""
    from realms.games.version2.battle import foot_battle

    s = v2.game()
    for attackers, guns, hit in ((9, 1, 1), (8, 2, 1), (5, 2, 0)):
        b = {"side": [[v2.inf() + (0,)] * attackers, [v2.inf() + (1,)] + [v2.art() + (1,)] * guns]}
        kills = [set(), set()]
        s.dice = v2.script(*[0] * 8)           # 3 attacks on the one, its 1 reply: all warded off
        foot_battle(s, b, [0, 0], kills)
        assert not kills[0] and len(kills[1]) == hit and 0 not in kills[1] and not s.dice.rolls


def test_v2_q26_round_limit(v2):
    """A battle that reaches the round limit ends with the attacker breaking off."""
    s = v2.game()
    s.rules = dataclasses.replace(R, round_limit=2)
    a, b = v2.pair("meadows", "meadows")
    v2.own(s, 0, a, units=[v2.inf()] * 3)
    v2.own(s, 1, b, units=[v2.inf()] * 3)
    _attack(v2, s, a, b, [1] * 24)
    assert "break-off" in v2.kinds(s) and s.battle is None
    assert s.units[a] == [v2.inf(-1)] * 2 and s.units[b] == [v2.inf(exp=1)] * 3


def test_v2_q28_each_modifier_pulls_its_way():
    """2.3.4.4: majority up, minority down, desperation up again, morale down, tiredness
    down for both sides, terrain ford < meadows < woodland < mountains for the defender,
    capitol above a building, experience up with shrinking gains, superiority up."""
    base = side_modifiers(R, [6, 6], [6, 6], 1, 0)
    assert base == [0, 0]
    major = side_modifiers(R, [9, 6], [9, 6], 1, 0)
    assert major[0] > 0 > major[1]
    far = side_modifiers(R, [3, 12], [3, 12], 1, 0)
    assert far[0] > major[1]                                     # desperation beats minority
    assert far[0] > 0 and side_modifiers(R, [4, 6], [4, 6], 1, 0)[0] < 0
    assert side_modifiers(R, [3, 3], [6, 3], 1, 0)[0] < 0       # morale after losing half
    tired = side_modifiers(R, [6, 6], [6, 6], 5, 0)
    assert tired[0] == tired[1] < 0                              # any unit fighting long tires
    t = R.terrain_mod
    assert t[TERRAIN_CODE["ford"]] < t[TERRAIN_CODE["meadows"]] < t[TERRAIN_CODE["woodland"]] < t[TERRAIN_CODE["mountains"]]
    assert R.mod["capitol"] > R.mod["building"] > 0
    gains = [b - a for a, b in zip(R.experience, R.experience[1:])]
    assert all(g > 0 for g in gains) and gains == sorted(gains, reverse=True)
    assert factor(R, 0, 3, 0) > factor(R, 0, 3, 2)               # superior units
    # none dominates: with a D4 unequal rolls stand at least 4:3 apart, so no single
    # modifier (under a third) can do more than decide equal rolls
    singles = [R.mod[k] for k in ("majority", "minority", "desperation", "morale_loss", "superior",
                                  "building", "capitol", "tiredness_max")] + list(t) + [R.experience[-1]]
    assert max(abs(x) for x in singles) < 100 / 3


def test_v2_q31_mission_targets_adapted():
    """2.4.1: "Conquer 2/Number of players land hex-fields!" — with two players every land
    field; warehouses on 1/N of the land fields."""
    for players in (2, 3, 4, 6):
        s = GAME.new_game({"players": players}, 0)
        assert land_target(s) == math.ceil(2 * len(s.board.land) / players)
        if players == 2:
            assert land_target(s) == len(s.board.land)
        warehouses = [m for m in s.missions if m[0] == "warehouses"]
        assert all(m[1] == math.ceil(len(s.board.land) / players) for m in warehouses)


def test_v2_q31_army_with_two_players_is_twice(v2):
    from realms.games.version2.missions import fulfilled

    s = v2.game(players=2)
    a, b = v2.pair("meadows", "woodland")
    v2.own(s, 0, a, units=[v2.inf()] * 4)
    v2.own(s, 1, b, units=[v2.inf()] * 2)
    s.missions[0] = ("army",)
    assert fulfilled(s, 0)
    s.set_units(b, [v2.inf()] * 3)
    assert not fulfilled(s, 0)


def test_v2_q103_artillery_alone_is_lost(v2):
    """An army of artillery alone attacked by foot troops is destroyed without fighting."""
    s = v2.game()
    a, b = v2.pair("meadows", "meadows")
    v2.own(s, 0, a, units=[v2.inf()])
    v2.own(s, 1, b, units=[v2.art()] * 2)
    _attack(v2, s, a, b, [0, 3] * 2)
    assert s.owner[b] == 0 and "guns-lost" in v2.kinds(s)


def test_v2_q28_reference_battles_pull_the_way_the_table_says():
    """The directions of RULINGS.md's reference table, recomputed with fewer battles
    through the game's own battle steps (odds.py)."""
    from realms.games.version2.odds import battle_odds, without

    def conquest(att, dfd, terrain="meadows", off=(), **kw):
        rules = without(R, off) if off else None
        return battle_odds(att, dfd, terrain, trials=600, seed=5, rules=rules, **kw)

    plain = conquest("6i", "6i")["conquest"]
    assert conquest("6i", "6i", "mountains")["conquest"] < plain - 0.2
    assert conquest("6i", "6i", "ford")["conquest"] > plain + 0.2
    assert conquest("6i", "6i", capitol=True)["conquest"] < plain - 0.2
    assert conquest("9i", "6i")["conquest"] > conquest("9i", "6i", off=("majority", "minority"))["conquest"]
    desperate = conquest("4i", "12i")["defender_survivors"]["infantry"]
    assert desperate < conquest("4i", "12i", off=("desperation",))["defender_survivors"]["infantry"]
    assert conquest("6i+1", "6i")["conquest"] > plain + 0.2
    # tiredness on both sides (V2-Q28): equally tired equal armies fight as fresh ones
    tired = conquest("12i", "12i")["conquest"]
    assert abs(tired - conquest("12i", "12i", off=("tiredness_per_round",))["conquest"]) < 0.001
    # three foot units defend themselves against each gun (V2-Q20): 12.9% with one
    # defender in three
    assert conquest("4i,3a", "8i", orders="foot")["conquest"] > 0.6
