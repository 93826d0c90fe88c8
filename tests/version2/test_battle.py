"""The battle (2.3.4): non-violent conquest, the defender's choice, fighting groups, the
duel, artillery, retreats, conquest, plunder and experience.  Die rolls are scripted
(``v2.script``: the answers of ``below(4)``, so 0 is a rolled 1); on meadows against
meadows no terrain modifier applies."""

from __future__ import annotations

from realms.games.version2.state import NOBODY


def _battle(v2, att, dfd, terrain=("meadows", "meadows")):
    s = v2.game()
    a, b = v2.pair(*terrain)
    v2.own(s, 0, a, units=att)
    v2.own(s, 1, b, units=dfd)
    return s, a, b


def _attack(v2, s, a, b, rolls):
    v2.run(s, ("act", 0))
    d = v2.answer(s, f"attack:{b}")
    d = v2.answer(s, f"all:{a}" if f"all:{a}" in d.keys else next(k for k in d.keys if k.startswith("add:")))
    s.dice = v2.script(*rolls)
    return v2.answer(s, "go")


def test_2_3_4_3_mutual_destruction(v2):
    """2.3.4.3: a unit is destroyed only after it has attacked itself, "so it is possible
    that 2 units destroy each other and no unit survives"."""
    s, a, b = _battle(v2, [v2.inf()], [v2.inf()])
    d = _attack(v2, s, a, b, [3, 0, 3, 0])
    assert s.units[a] == [] and s.units[b] == [] and s.owner[b] == 1
    assert "battle-void" in v2.kinds(s) and d.kind == "v2.action" and not s.dice.rolls


def test_2_3_4_3_equal_totals_ward_off(v2):
    """2.3.4.3: "If the total defend-value is equal or greater than the total attack-value,
    the attack is warded off"; the defender who holds gains experience (2.3.4.4)."""
    s, a, b = _battle(v2, [v2.inf()], [v2.inf()])
    _attack(v2, s, a, b, [1, 1, 1, 1,        # round 1: 2 against 2 both ways
                          3, 0, 0, 3])       # round 2: the defender's attack destroys the attacker
    assert s.units[a] == [] and s.units[b] == [v2.inf(exp=1)] and s.owner[b] == 1


def test_2_3_4_2_fighting_groups_three_to_one_and_reserve(v2):
    """2.3.4.2: groups up to 3:1, excessive units form the reserve (V2-Q22, V2-Q23): 7
    against 2 fight in two groups of 3:1 with one in reserve, so 6 + 2 duels (16 rolls).
    The majority has +10, the far outnumbered +15 (minority −10, desperation +25), so the
    attackers' 2s beat the defenders' 1s and the defenders' 1s fail against 2s; the
    winners move in with experience."""
    s, a, b = _battle(v2, [v2.inf()] * 7, [v2.inf()] * 2)
    group = [1, 0] * 3 + [0, 1]
    _attack(v2, s, a, b, group * 2)
    assert not s.dice.rolls
    assert s.owner[b] == 0 and s.units[b] == [v2.inf(0, exp=1)] * 7 and s.units[a] == []


def test_2_3_4_3_artillery_lost_with_its_foot_troops(v2):
    """2.3.4.3 special case: artillery is hit by artillery fire only, and "if the foot troops
    of an enemy are destroyed completely, any artilleries are destroyed without any
    further fighting"."""
    s, a, b = _battle(v2, [v2.inf()], [v2.inf(), v2.art()])
    _attack(v2, s, a, b, [0, 3,      # the defender's gun fires at the foot: 2×110 against 4×90
                          0, 3,      # the defender's infantry attacks: 110 against 360
                          3, 0])     # the attacker's infantry: 360 against 110
    assert "guns-lost" in v2.kinds(s)
    assert s.owner[b] == 0 and s.units[b] == [v2.inf(0, exp=1)]


def test_2_3_4_2_artillery_fires_every_second_turn_and_retreat_offer(v2):
    """2.3.4.2: artillery fire opens rounds 1 and 3, not 2 (V2-Q21); every third fight-turn
    both sides may retreat (V2-Q25): after round 3 the attacker is asked."""
    s, a, b = _battle(v2, [v2.inf(), v2.art()], [v2.inf()])
    d = _attack(v2, s, a, b, [0, 3, 0, 0, 0, 1,     # round 1: fire (2 rolls), foot (4)
                              0, 0, 0, 1,           # round 2: foot only
                              0, 3, 0, 0, 0, 1])    # round 3: fire again, foot
    assert not s.dice.rolls and s.battle["round"] == 3
    assert d.kind == "v2.offer" and d.player == 0 and list(d.keys) == ["fight", "complete", "immediate"]


#: from the third fight-turn the attacker is tired (−5 a round): in a 1:1 group the
#: defender's attack rolls a 1 against the attacker's 2, the attacker's a 1 against a 1
TIRED_GROUP = [0, 1, 0, 0]


def _three_rounds_of_ties():
    """3 inf + 1 art against 3 inf, no one hit: fire (1 shot, 3 defenders) in rounds 1 and
    3, three 1:1 groups (12 rolls) each round."""
    fire = [0, 3, 3, 3]
    return fire + [0] * 12 + [0] * 12 + fire + TIRED_GROUP * 3


def test_2_3_4_2_immediate_retreat(v2):
    """2.3.4.2: an immediate retreat: the foot troops flee at once, the artillery is
    destroyed, the infantry loses a third (V2-Q25: rounded down), every unit a move point."""
    s, a, b = _battle(v2, [v2.inf()] * 3 + [v2.art()], [v2.inf()] * 3)
    d = _attack(v2, s, a, b, _three_rounds_of_ties())
    assert d.kind == "v2.offer"
    v2.answer(s, "immediate")
    assert s.units[a] == [v2.inf(-1)] * 2
    assert s.owner[b] == 1 and s.units[b] == [v2.inf(exp=1)] * 3 and s.battle is None


def test_2_3_4_2_complete_retreat(v2):
    """2.3.4.2: a complete retreat: the artillery retreats first, the foot troops follow
    after three more fight-turns, losing a third of the infantry."""
    s, a, b = _battle(v2, [v2.inf()] * 3 + [v2.art()], [v2.inf()] * 3)
    _attack(v2, s, a, b, _three_rounds_of_ties())
    s.dice.rolls = TIRED_GROUP * 9                 # rounds 4, 5, 6: foot only, no one hit
    v2.answer(s, "complete")
    assert not s.dice.rolls and s.battle is None
    assert s.units[a] == [v2.inf(-1)] * 2 + [v2.art(-1)]
    assert s.units[b] == [v2.inf(exp=1)] * 3


def test_2_3_4_2_cavalry_flees_unharmed(v2):
    s, a, b = _battle(v2, [v2.cav()] * 3, [v2.inf()] * 3)
    _attack(v2, s, a, b, [0] * 24 + TIRED_GROUP * 3)
    v2.answer(s, "immediate")
    assert s.units[a] == [v2.cav(0)] * 3             # 2 − 1 (attack) − 1 (retreat)


def test_2_3_4_2_defender_retreats_before_battle(v2):
    """2.3.4.2: the enemy may retreat to a field he owns; his units are safe but lose a
    move point; the attacker conquers without a battle and without experience."""
    s, a, b = _battle(v2, [v2.inf()] * 2, [v2.inf(0), v2.cav()])
    c = next(g for g in s.board.adj[b] if g != a and s.board.terrain[g] >= 2)
    v2.own(s, 1, c)
    s.treasure[0] = 50                   # the turn goes on after the attack
    d = _attack(v2, s, a, b, [])
    assert d.kind == "v2.defend" and d.player == 1 and list(d.keys) == ["face", f"retreat:{c}"]
    v2.answer(s, f"retreat:{c}")
    assert s.units[c] == [v2.inf(-1), v2.cav(1)]
    assert s.owner[b] == 0 and s.units[b] == [v2.inf(0)] * 2


def test_2_3_4_2_conquest_moves_everyone_in(v2):
    """2.3.4.2: the attacker conquers and all attacking units, artillery too, are stationed
    on the field (V2-Q27); they gain experience for the battle won (2.3.4.4)."""
    s, a, b = _battle(v2, [v2.inf(), v2.inf(), v2.art()], [v2.inf()])
    _attack(v2, s, a, b, [3, 0] + [0] * 4 + [0, 1])   # the gun hits; the foot duels all fail
    assert s.owner[b] == 0
    assert s.units[b] == [v2.inf(0, exp=1)] * 2 + [v2.art(0, exp=1)]


def test_2_3_4_1_non_violent_conquest(v2):
    """2.3.4.1: a hostile field without units changes owner without resistance; the
    attackers move in; no experience."""
    s, a, b = _battle(v2, [v2.inf(), v2.cav()], [])
    _attack(v2, s, a, b, [])
    assert s.owner[b] == 0 and s.units[b] == [v2.inf(0), v2.cav(1)]
    assert "conquest" in v2.kinds(s)


def _capitol_raid(v2, extra_warehouses):
    s, a, b = _battle(v2, [v2.inf()], [])
    s.capitol[b] = 1
    s.warehouse[b] = 1
    others = [f for f in s.board.land if s.owner[f] == NOBODY][:extra_warehouses + 1]
    v2.own(s, 1, *others)
    for f in others[:extra_warehouses]:
        s.warehouse[f] = 1
    s.treasure[1] = 30
    _attack(v2, s, a, b, [])
    return s, b


def test_2_3_5_plunder_two_thirds(v2):
    """2.3.5: "if a player owns a warehouse and loses his capitol, two thirds of his
    production resources fall into the hands of the enemy" (V2-Q12: 2 shares of 3)."""
    s, b = _capitol_raid(v2, 1)
    assert s.treasure == [20, 10]
    assert s.capitol[b] == NOBODY and s.warehouse[b] == 1 and s.capitols_taken[0] == 1


def test_2_3_5_plunder_half(v2):
    """2.3.5: "if he owns 2 additional warehouses and the capitol gets lost, he loses half"."""
    s, b = _capitol_raid(v2, 2)
    assert s.treasure == [15, 15]


def test_2_3_3_a_move_point_for_every_attack(v2):
    """2.3.3: "for every move-point it has, either attack or move": an infantry that has
    moved "cannot attack any more", nor can one without move points; its attack spends
    its move point, so it attacks once (V2-Q15, V2-Q16)."""
    s, a, b = _battle(v2, [v2.inf(0), v2.inf()], [])
    v2.own(s, 1, s.board.land[-1])                     # player 1 stays in the game
    s.treasure[0] = 50                                 # the turn goes on after the attack
    d = v2.run(s, ("act", 0))
    assert f"attack:{b}" in d.keys
    d = v2.answer(s, f"attack:{b}")
    assert [k for k in d.keys if k.startswith(("add:", "all:"))] == [f"add:{a}:i1.0"]   # not the moved one
    v2.answer(s, f"add:{a}:i1.0")
    d = v2.answer(s, "go")
    assert s.units[b] == [v2.inf(0)] and s.units[a] == [v2.inf(0)]
    assert not any(k.startswith("attack:") for k in d.keys)


def test_2_3_4_3_each_fight_turn_tells_its_attack_dice_and_which_hit(v2):
    """2.3.4.3, told: a fight-turn's chronicle line carries each side's attack rolls (the
    rolled faces, a die of ``rules.die`` sides) and whether each destroyed the unit it
    attacked, for the page's battle panel (core/events.py).  One infantry against one:
    the defender (the larger side, or the other of two alike, 2.3.4.2) attacks first and
    rolls a 4 against the attacker's 1, destroying it; the attacker's 1 against the
    defender's 4 is warded off."""
    s, a, b = _battle(v2, [v2.inf()], [v2.inf()])
    _attack(v2, s, a, b, [3, 0,      # the defender's 4 against the attacker's 1: destroyed
                          0, 3])     # the attacker's 1 against the defender's 4: warded off
    (round_1,) = [e.data["battle"] for e in s.events if (e.data.get("battle") or {}).get("round") == 1]
    assert round_1["dice"] == [[1], [4]] and round_1["hit"] == [[False], [True]]
    assert round_1["die"] == s.rules.die == 4 and round_1["lost"] == [1, 0]
