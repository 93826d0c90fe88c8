"""Hy Breasil advanced rules (§9.1 races, §9.2 submission, §9.3 civilization abilities)
and variants (§10 continuous play, §11 random scoring), shared/rules/hy-breasil.txt.

Every ruling of the "Advanced rules" part of RULINGS.md has its named test here
(``test_hb_q26_…`` to ``test_hb_q109_…``); the other tests pin the small rules of the
issue one by one.  Positions are built with the ``hb`` scenario builder (conftest.py):
nations are created with the state's own primitives, the dice are scripted, and the
step machine is run from the frame under test.
"""

from __future__ import annotations

import json
from itertools import combinations

import pytest

from realms.core.agents import RandomBot, bot_seed
from realms.core.game import OptionError
from realms.core.match import play
from realms.games.hy_breasil import GAME
from realms.games.hy_breasil.abilities import free_city_tokens, support_limit as ability_support_limit
from realms.games.hy_breasil.board import EMPTY
from realms.games.hy_breasil.combat import (
    AREA, ATT, DEF, AU, AW, DU, DW, DEF_RETREATED, ATT_OWNER, DEF_OWNER, CITY, attacker_needs, defender_needs,
)
from realms.games.hy_breasil.invariants import INVARIANTS
from realms.games.hy_breasil.invasion import invader_turn
from realms.games.hy_breasil.movement import Reach
from realms.games.hy_breasil.population import pips
from realms.games.hy_breasil.support import parts
from realms.games.hy_breasil.tables import ABILITIES, RACES
from realms.sim.runner import run_game, summary

ALL_RULES = ["races", "submission", "abilities"]

#: §9.1 table 2, copied from the rulebook (turn + 2d6 → race; 26+ is human).
TABLE_2 = {
    3: "lizardman", 4: "hogman", 5: "troll", 6: "hogman", 7: "elf", 8: "lizardman", 9: "dwarf",
    10: "hogman", 11: "troll", 12: "human", 13: "elf", 14: "lizardman", 15: "dwarf", 16: "hogman",
    17: "troll", 18: "human", 19: "elf", 20: "lizardman", 21: "dwarf", 22: "human", 23: "troll",
    24: "elf", 25: "dwarf", 26: "human",
}


# -- small scenario pieces ----------------------------------------------------------------


def terrain_pair(hb, terrain, nbrs=1):
    """(p, q): land ``p`` of ``terrain`` and an adjacent land area ``q``; ``p`` has at
    least ``nbrs`` land neighbours."""
    return hb.pair(lambda x, y: hb.board.terrain[x] == terrain and hb.adjacent(x, y)
                   and len(hb.land_nbrs(x)) >= nbrs, hb.land())


def one_of(hb, terrain, skip=()):
    return hb.first(a for a in hb.of_terrain(terrain) if a not in skip)


def finish(hb, s, d, prefer=("done", "accept", "stay", "stop", "refuse", "fight")):
    """Answer the remaining decisions with the first preferred key (else the first key)."""
    guard = 0
    while d is not None:
        d = hb.answer(s, next((k for k in prefer if k in d.keys), d.keys[0]))
        guard += 1
        assert guard < 500
    return d


def vp_gain(hb, s, frame=("victory",)):
    before = list(s.vp)
    hb.run(s, frame)
    return [a - b for a, b in zip(s.vp, before)]


def first_free_sea_route(hb):
    """(x, A, B, y, z): land x on sea A; sea B next to A; land y on B, not on A, three
    steps from x over the whole map; sea C next to B but not A; land z on C only, four
    steps from x (x → A → B → C → z)."""
    b = hb.board
    for x in hb.land():
        dx = hb.dist(x)
        for sea_a in hb.seas_of(x):
            for sea_b in (v for v in b.nbrs[sea_a] if b.is_sea[v]):
                ys = [y for y in hb.coast(sea_b) if dx[y] == 3 and sea_a not in b.nbrs[y]]
                for sea_c in (v for v in b.nbrs[sea_b] if b.is_sea[v] and v != sea_a and v not in b.nbrs[sea_a]):
                    zs = [z for z in hb.coast(sea_c) if dx[z] == 4]
                    if ys and zs:
                        return x, sea_a, sea_b, ys[0], zs[0]
    raise AssertionError("no sea route on the map")


def diplomacy_triple(hb):
    """(x, y, z): y adjacent to x and z; z not adjacent to x and y their only common
    neighbour — so x reaches z in one move only by crossing y as its own (type A)."""
    b = hb.board
    for x in hb.land():
        for y in hb.land_nbrs(x):
            for z in hb.land_nbrs(y):
                if z == x or z in b.nbrs[x]:
                    continue
                if set(b.nbrs[x]) & set(b.nbrs[z]) == {y}:
                    return x, y, z
    raise AssertionError("no such triple")


# == §9.1 Races ================================================================================
@pytest.mark.parametrize("turn,d1,d2", [(1, 1, 1), (2, 1, 1), (2, 3, 4), (5, 5, 6), (9, 3, 3),
                                        (13, 6, 6), (14, 6, 6), (20, 6, 6), (30, 1, 1)])
def test_race_is_table_2_with_the_turn_added_to_two_dice(hb, turn, d1, d2):
    """§9.1: a nation entering in the invasion phase rolls two dice, adds the current
    turn and reads table 2; 26 or more is human."""
    s = hb.game(players=2, turn=turn, rules=["races"])
    s.dice.push(d1, d2, 3, 0)  # race dice, then §5.2 units die and the player drawn
    d = hb.run(s, ("new_nation",))
    assert d.kind == "hb.entry-sea"
    (n,) = s.nations.values()
    total = turn + d1 + d2
    assert n.race == TABLE_2[min(total, 26)]
    assert [c[2] for c in s.dice.calls[:2]] == [d1, d2]
    (e,) = hb.logged(s, "race")
    assert e.data["race"] == n.race and e.data["nation"] == n.id


def test_races_only_with_the_rule(hb):
    """§9 (HB-Q47): without the races rule no race is rolled — no dice, no race."""
    s = hb.game(players=2, turn=3)
    s.dice.push(3, 0)  # only the units die and the player drawn
    hb.run(s, ("new_nation",))
    (n,) = s.nations.values()
    assert n.race is None and s.dice.left == [] and hb.logged(s, "race") == []


def test_first_turn_races_all_different(hb):
    """§9.1: in the first turn no two nations may be of the same race: reroll until the
    races differ."""
    s = hb.game(players=3, turn=1, rules=["races"])
    sea = hb.board.entry_seas[0]
    s.dice.push([0, 1, 2])
    s.dice.push(1, 1)                # 1 + 2 = 3: lizardman
    d = hb.run(s, ("invasion",))
    s.dice.push(1, 1, 1, 2)          # lizardman again → reroll; 1 + 3 = 4: hogman
    d = hb.answer(s, hb.id(sea))
    s.dice.push(1, 1, 2, 1, 3, 3)    # lizardman, hogman → reroll; 1 + 6 = 7: elf
    d = hb.answer(s, hb.id(sea))
    assert d.kind == "hb.entry-sea" and d.player == 2
    assert hb.answer(s, hb.id(sea)) is None
    by_owner = {n.owner: n.race for n in s.nations.values()}
    assert by_owner == {0: "lizardman", 1: "hogman", 2: "elf"}
    assert s.dice.left == []


def test_later_turns_may_repeat_a_race(hb):
    """§9.1: the no-duplicate rule is for the first turn only; later invaders may share
    a race with nations in play."""
    s = hb.game(players=2, turn=2, rules=["races"])
    old = hb.nation(s, 0, {hb.land()[0]: 2})
    old.race = "elf"
    s.dice.push(2, 3, 4, 1)  # 2 + 5 = 7: elf, no reroll
    hb.run(s, ("new_nation",))
    new = max(s.nations.values(), key=lambda n: n.id)
    assert new.race == "elf" and s.dice.left == []


@pytest.mark.parametrize("race,expected", [
    ("human", {"plains": 4, "forest": 2, "hills": 2}),
    ("dwarf", {"plains": 3, "forest": 2, "hills": 3}),
    ("elf", {"plains": 3, "forest": 3, "hills": 2}),
    ("troll", {"plains": 2, "forest": 1, "hills": 2}),
    ("hogman", {"plains": 2, "forest": 2, "hills": 1}),
    ("lizardman", {"plains": 3, "forest": 2, "hills": 2}),
])
def test_race_pips(hb, race, expected):
    """§9.1: human 4 PIPs for plains; dwarf 3 for hills; elf 3 for forest; troll only 2
    for plains and 1 for forest; hogman only 2 for plains and 1 for hills; the other
    terrains keep the §6.2 values (3 plains, 2 forest or hills)."""
    s = hb.game(players=2, rules=["races"])
    got = {}
    for terrain in ("plains", "forest", "hills"):
        n = hb.nation(s, 0, {one_of(hb, terrain): 1})
        n.race = race
        got[terrain] = pips(s, n)
    assert got == expected


def test_hb_q26_race_pips(hb):
    """HB-Q26 (§9.1): troll hills and hogman forest stay at 2 PIPs — only the terrains the
    text names change — and the race values count only with the races rule."""
    s = hb.game(players=2, rules=["races"])
    troll = hb.nation(s, 0, {one_of(hb, "hills"): 1})
    troll.race = "troll"
    hog = hb.nation(s, 0, {one_of(hb, "forest"): 1})
    hog.race = "hogman"
    assert pips(s, troll) == 2 and pips(s, hog) == 2
    # a human nation on two plains: 8 PIPs grow one unit (6 would grow none, §6.2)
    two = [a for a in hb.of_terrain("plains")][:2]
    human = hb.nation(s, 1, {a: 1 for a in two})
    human.race = "human"
    assert pips(s, human) == 8
    finish(hb, s, hb.run(s, ("population", human.id)))
    assert human.board == 3
    s.races_on = False  # the same nation without the races rule: §6.2 values
    assert pips(s, human) == 6 and pips(s, troll) == 2


def test_hb_q26_troll_bonus_in_hills(hb):
    """HB-Q26 (§9.1): a troll adds one to its combat dice when fighting in hills, both
    attacking and defending (a 4 hits in hills as attacker, a 3 as defender); not in
    forest; and the bonus adds to Religious fervour (HB-Q21)."""
    hills = terrain_pair(hb, "hills")
    forest = terrain_pair(hb, "forest")
    for race, (p, q), die, wounded in (("troll", hills, 4, 1), (None, hills, 4, 0),
                                       ("troll", forest, 4, 0), ("hogman", hills, 4, 0)):
        s = hb.game(players=2, rules=["races"])
        att = hb.nation(s, 0, {q: 2})
        att.race = race
        hb.nation(s, 1, {p: 2})
        hb.attack(s, att, q, p, 1, dice=(die, 1, 1))
        assert hb.battle_state(s) == (1, 0, 2 - wounded, wounded), (race, hb.board.terrain[p])
    # defending in hills: the troll's 3 hits an attacker
    p, q = hills
    for race, hit in (("troll", 1), ("elf", 0)):
        s = hb.game(players=2, rules=["races"])
        att = hb.nation(s, 0, {q: 2})
        dfd = hb.nation(s, 1, {p: 2})
        dfd.race = race
        hb.attack(s, att, q, p, 1, dice=(1, 3, 1))
        assert hb.battle_state(s) == (1 - hit, hit, 2, 0)
    s = hb.game(players=2, rules=["races"])
    troll = hb.nation(s, 0, {q: 2})
    troll.race = "troll"
    assert attacker_needs(s, p, troll) == 4 and defender_needs(s, p, troll) == 3
    troll.fervour = True
    assert attacker_needs(s, p, troll) == 3
    s.races_on = False
    assert defender_needs(s, p, troll) == 4 and attacker_needs(s, p, troll) == 4


def test_hogman_bonus_in_forest_attacking_and_defending(hb):
    """§9.1 Hogman: adds one to combat die rolls when fighting in forest, both when
    attacking or defending; not in hills."""
    p, q = terrain_pair(hb, "forest")
    s = hb.game(players=2, rules=["races"])
    att = hb.nation(s, 0, {q: 2})
    att.race = "hogman"
    dfd = hb.nation(s, 1, {p: 2})
    dfd.race = "hogman"
    # attacker's 4 hits (needs 4 instead of 5); defender's 3 hits (needs 3 instead of 4)
    hb.attack(s, att, q, p, 1, dice=(4, 3, 2))
    assert hb.battle_state(s) == (0, 1, 1, 1)
    h, _ = terrain_pair(hb, "hills")
    assert attacker_needs(s, h, att) == 5 and defender_needs(s, h, dfd) == 4


def test_lizardmen_ignore_famine(hb):
    """§9.1 Lizardman: Famine has no effect — the nation still grows (other races starve)."""
    areas = hb.of_terrain("plains")[:3]
    for race, grown in (("lizardman", 1), ("human", 0)):
        s = hb.game(players=2, rules=["races"])
        n = hb.nation(s, 0, {a: 1 for a in areas})
        n.race = race
        hb.run(s, ("do_event", n.id, "famine"))
        assert n.famine is (race != "lizardman")
        finish(hb, s, hb.run(s, ("population", n.id)))
        assert n.board == 3 + grown
    assert [e.data["event"] for e in hb.logged(s, "event-ignored")] == []


def test_hb_q28_lizardmen_ignore_plague_and_its_spread(hb):
    """HB-Q28 (§9.1): a lizardman nation ignores Plague entirely — no die, no losses of
    its own and no removals in neighbouring areas; Famine likewise."""
    s = hb.game(players=2, rules=["races"])
    x = hb.first(a for a in hb.land() if len(hb.land_nbrs(a)) >= 2)
    y = hb.land_nbrs(x)[0]
    liz = hb.nation(s, 0, {x: 3})
    liz.race = "lizardman"
    other = hb.nation(s, 1, {y: 3})
    assert hb.run(s, ("do_event", liz.id, "plague")) is None
    assert s.dice.calls == []
    assert liz.units == {x: 3} and other.units == {y: 3}
    assert [e.data["event"] for e in hb.logged(s, "event-ignored")] == ["plague"]
    assert hb.run(s, ("do_event", liz.id, "famine")) is None and not liz.famine


def test_plague_cannot_remove_neighbouring_lizardmen(hb):
    """§9.1 Lizardman: a nation that gets Plague can not remove neighbouring lizardman
    units — only the other neighbours are offered."""
    s = hb.game(players=3, rules=["races"])
    x = hb.first(a for a in hb.land() if len(hb.land_nbrs(a)) >= 2)
    y1, y2 = hb.land_nbrs(x)[:2]
    sick = hb.nation(s, 0, {x: 4})
    sick.race = "human"
    liz = hb.nation(s, 1, {y1: 2})
    liz.race = "lizardman"
    elf = hb.nation(s, 2, {y2: 2})
    elf.race = "elf"
    s.dice.push(2)
    d = hb.run(s, ("do_event", sick.id, "plague"))
    assert d.kind == "hb.plague-neighbour" and set(d.keys) == {"stop", hb.id(y2)}
    hb.answer(s, hb.id(y2))
    assert liz.units == {y1: 2} and elf.units == {y2: 1}
    # without the races rule the same lizardman nation is an ordinary neighbour
    s2 = hb.game(players=3)
    sick2 = hb.nation(s2, 0, {x: 4})
    liz2 = hb.nation(s2, 1, {y1: 2})
    liz2.race = "lizardman"
    s2.dice.push(2)
    d = hb.run(s2, ("do_event", sick2.id, "plague"))
    assert hb.id(y1) in d.keys


def test_hb_q27_split_nation_keeps_race(hb):
    """HB-Q27 (§9.1): nations made by civil war or by disconnection keep their parent's
    race (no race roll); the turn-1 no-duplicate rule binds only the game's first turn —
    a §10 newcomer may share a race."""
    s = hb.game(players=2, rules=["races"])
    x, y = hb.pair(hb.adjacent, hb.land())
    old = hb.nation(s, 0, {x: 2, y: 2})
    old.race = "dwarf"
    s.dice.push(1)  # the new nation goes to player 1
    d = hb.run(s, ("civil_war", old.id))
    hb.answer(s, hb.id(y))
    new = s.nations[s.area_nation[y]]
    assert new is not old and new.race == "dwarf" and hb.logged(s, "race") == []
    # disconnection (§6.4)
    s = hb.game(players=2, rules=["races"])
    a, z = hb.far_apart(2, gap=5)
    n = hb.nation(s, 0, {a: 3, hb.land_nbrs(a)[0]: 2, z: 1, hb.land_nbrs(z)[0]: 1})
    n.race = "hogman"
    s.dice.push(0)
    hb.run(s, ("support", n.id))
    split = s.nations[s.area_nation[z]]
    assert split is not n and split.race == "hogman" and hb.logged(s, "race") == []
    # a §10 newcomer rolls with his own turn count and may repeat a race in play
    s = hb.game(players=2, turn=4, rules=["races"], variant="continuous", joins=[[4, "Dana"]])
    elf = hb.nation(s, 0, {hb.land()[0]: 2})
    elf.race = "elf"
    s.markers = [3, 3, 0]
    s.dice.push(2, 4)  # Dana's marker 1 + 6 = 7: elf, kept
    d = hb.run(s, ("membership",))
    assert d.kind == "hb.entry-sea" and d.player == 2
    dana = next(n for n in s.nations.values() if n.owner == 2)
    assert dana.race == "elf" and s.dice.left == []


# == §9.2 Submission ===========================================================================
def _duel(hb, rules=("submission",), players=2, attackers=4, defenders=2, nbrs=3, terrain="plains"):
    s = hb.game(players=players, rules=list(rules))
    p, q = terrain_pair(hb, terrain, nbrs)
    att = hb.nation(s, 0, {q: attackers})
    dfd = hb.nation(s, 1, {p: defenders})
    return s, p, q, att, dfd


def test_hb_q29_submission_offered_before_first_round(hb):
    """HB-Q29 (§9.2): the defender is offered submission when the attacker starts the
    battle — after all the units it wants have moved in, before any die of the first
    round — and again before every later battle."""
    s, p, q, att, dfd = _duel(hb)
    d = hb.run(s, ("move", att.id, 1))
    d = hb.answer(s, hb.mv(q, p))
    assert d.kind == "hb.move" and "fight" in d.keys and hb.mv(q, p) in d.keys  # not offered yet
    d = hb.answer(s, hb.mv(q, p))
    d = hb.answer(s, "fight")
    assert d.kind == "hb.submit" and d.player == 1 and set(d.keys) == {"fight", "submit"}
    assert " 2 units" in d.prompt and s.dice.calls == []
    s.dice.push(1, 1, 6, 6)  # the first round: the attackers miss, the defenders hit twice
    d = hb.answer(s, "fight")
    assert s.dice.kinds() == ["die"] * 4 and s.dice.left == []
    assert d.kind == "hb.assign-hits" and d.player == 1
    assert dfd.master == EMPTY and [e.kind for e in hb.logged(s, "battle")] == ["battle"]


def test_submission_offered_again_for_every_battle(hb):
    """§9.2: if the defender does not submit the battle is fully resolved; when there are
    more battles later the defender is, again, given a chance to submit."""
    s, p, q, att, dfd = _duel(hb, attackers=3, defenders=2)
    d = hb.attack(s, att, q, p, 1)
    assert d.kind == "hb.submit"
    s.dice.push(1, 6, 6)  # the lone attacker misses and takes two hits: killed
    d = hb.answer(s, "fight")
    assert s.battle is None and dfd.units == {p: 2} and att.units == {q: 2}
    assert d.kind == "hb.move"
    d = hb.answer(s, hb.mv(q, p))
    d = hb.answer(s, "fight")
    assert d.kind == "hb.submit" and d.player == 1
    assert dfd.master == EMPTY


def test_no_submission_without_the_rule(hb):
    """§9 (HB-Q47): without the submission rule the battle starts at once."""
    s, p, q, att, dfd = _duel(hb, rules=())
    d = hb.attack(s, att, q, p, 2, dice=(1, 1, 1, 1))
    assert s.dice.kinds() == ["die"] * 4
    assert d is None or d.kind != "hb.submit"


def test_submit_attacker_withdraws_all_units(hb):
    """§9.2: if the defender submits, the attacker must immediately withdraw all its
    units from the contested area, by the rules of attacker retreats (to adjacent land
    that is empty or its own); the defender keeps its units; they are submitted."""
    s, p, q, att, dfd = _duel(hb, attackers=4, defenders=2, nbrs=3)
    d = hb.attack(s, att, q, p, 3)
    assert d.kind == "hb.submit"
    d = hb.answer(s, "submit")
    targets = {hb.id(a) for a in hb.land_nbrs(p) if s.area_nation[a] in (EMPTY, att.id)}
    assert d.kind == "hb.withdraw" and d.player == 0 and set(d.keys) == targets
    assert hb.id(q) in targets and len(targets) >= 2
    other = next(k for k in d.keys if k != hb.id(q))
    d = hb.answer(s, other)
    d = hb.answer(s, hb.id(q))
    d = hb.answer(s, hb.id(q))
    assert s.battle is None
    assert att.units == {q: 3, hb.a(other): 1} and att.board == 4
    assert dfd.units == {p: 2} and s.area_nation[p] == dfd.id
    assert dfd.master == att.id and att.master == EMPTY
    assert s.dice.calls == []  # no round was rolled
    assert [e.kind for e in hb.logged(s, "submission")] == ["submission"]
    # the withdrawn units have moved: only the unit that never moved may still go
    assert d.kind == "hb.move"
    assert {k.split(">")[0] for k in d.keys if ">" in k} == {hb.id(q)}
    assert s.moved[q] == 2 and s.moved[hb.a(other)] == 1
    assert hb.invariants(s) == []


def test_hb_q30_units_with_nowhere_to_withdraw_stay(hb):
    """HB-Q30 (§9.2, §6.3.2, §6.3.3): the attacker withdraws by the rules of attacker
    retreats: with no adjacent empty or own land its units "must stay" — where their move
    began, at sea or on the land they set out from — and their move is spent ("each unit
    can move only once during the movement and combat phase"): only the units that never
    moved may still move, and those left at sea are lost when the phase ends (HB-Q18)."""
    s = hb.game(players=3, rules=["submission"])
    sea, p, home = hb.first(
        ((sea, p, h) for sea in hb.board.seas for p in hb.coast(sea) for h in hb.coast(sea)
         if p != h and not hb.adjacent(p, h)), "two coasts of one sea, apart")
    att = hb.nation(s, 0, {sea: 5, home: 2})
    dfd = hb.nation(s, 1, {p: 2})
    hb.filler(s, [a for a in hb.land_nbrs(p)], owner=2)
    d = hb.run(s, ("move", att.id, 1), ("end_movement", att.id, 1))
    for src in (sea, sea, sea, home):
        d = hb.answer(s, hb.mv(src, p))
    d = hb.answer(s, "fight")
    assert d.kind == "hb.submit"
    d = hb.answer(s, "submit")
    assert s.battle is None and dfd.master == att.id
    assert att.units == {sea: 5, home: 2} and att.board == 7 and att.pool == 15 - 1 - 7
    assert dfd.units == {p: 2} and s.area_nation[home] == att.id
    (stay,) = hb.logged(s, "withdraw-stay")
    assert stay.data["units"] == 4 and set(stay.data["areas"]) == hb.ids([sea, home])
    # their move is spent: the three that withdrew to sea and the one back home have moved
    assert s.moved[sea] == 3 and s.moved[home] == 1
    assert d.kind == "hb.move" and "done" not in d.keys   # two at sea never moved: they must land
    moves = [k for k in d.keys if ">" in k]
    assert not [k for k in moves if hb.a(k.split(">")[1]) == p]
    for _ in range(2):
        landing = next(k for k in d.keys if ">" in k and hb.a(k.split(">")[0]) == sea)
        d = hb.answer(s, landing)
    # the home unit that never moved may still go; the one that withdrew there may not
    assert {hb.a(k.split(">")[0]) for k in d.keys if ">" in k} == {home} and att.units[sea] == 3
    d = hb.answer(s, "done")
    lost = hb.logged(s, "lost-at-sea")
    assert [e.data["units"] for e in lost] == [3] and sea not in att.units
    assert hb.invariants(s) == []


def test_hb_q33_partners_cannot_enter_each_others_land(hb):
    """HB-Q33 (§9.2): once a nation has submitted, neither it nor its master may move into
    the other's land (that would be an attack); other nations stay open to both, and
    Plague removals between them remain possible."""
    s = hb.game(players=3, rules=["submission"])
    x = hb.first(a for a in hb.land() if len(hb.land_nbrs(a)) >= 3)
    y, z = hb.land_nbrs(x)[:2]
    master = hb.nation(s, 0, {x: 3})
    servant = hb.nation(s, 1, {y: 3})
    third = hb.nation(s, 2, {z: 1})
    for n, other in ((master, servant), (servant, master)):
        d = hb.run(s, ("move", n.id, 1))
        src = next(iter(n.units))
        assert hb.mv(src, next(iter(other.units))) in d.keys
    servant.master = master.id
    d = hb.run(s, ("move", master.id, 1))
    assert hb.mv(x, y) not in d.keys and hb.mv(x, z) in d.keys
    d = hb.run(s, ("move", servant.id, 1))
    assert hb.mv(y, x) not in d.keys
    assert not [k for k in d.keys if ">" in k and hb.a(k.split(">")[1]) == x]
    # Plague is not an attack: the servant's plague may strike its master next door
    s.dice.push(1)
    d = hb.run(s, ("do_event", servant.id, "plague"))
    assert d.kind == "hb.plague-neighbour" and hb.id(x) in d.keys
    assert third.units == {z: 1}


def test_hb_q32_half_the_vp_rounded_up_to_the_master(hb):
    """HB-Q32 (§9.2): half the VP a submitted nation earns while submitted, rounded up,
    go to its master's owner — per award (each victory points phase, each Civilization
    bonus); between nations of one player nothing changes."""
    s = hb.game(players=3, rules=["submission"])
    land = hb.land()
    master = hb.nation(s, 0, {land[0]: 1})
    servant = hb.nation(s, 1, {land[10]: 1, land[20]: 1, land[30]: 1})
    s.vp = [10, 10, 10]
    assert vp_gain(hb, s) == [1, 3, 0]  # before submission: 1 and 3
    servant.master = master.id
    assert vp_gain(hb, s) == [1 + 2, 1, 0]  # 3 VP: 2 (rounded up) to the master
    s.remove_units(servant, land[30], 1)
    s.remove_units(servant, land[20], 1)
    assert vp_gain(hb, s) == [1 + 1, 0, 0]  # 1 VP: the master gets it all (½ rounded up)
    assert hb.run(s, ("do_event", servant.id, "civilization")) is None
    assert s.vp == [10 + 1 + 3 + 2 + 3, 10 + 3 + 1 + 0 + 2, 10]  # 5 VP: 3 and 2
    # VP earned before the submission stay where they are; a same-owner pair changes nothing
    mine = hb.nation(s, 2, {land[40]: 1, land[41]: 1})
    mine.master = hb.nation(s, 2, {land[45]: 1}).id
    before = s.vp[2]
    vp_gain(hb, s)
    assert s.vp[2] == before + 3


def test_cannot_submit_if_already_submitted(hb):
    """§9.2: a nation can not submit if it is already submitted to another nation —
    the battle starts without an offer."""
    s, p, q, att, dfd = _duel(hb, players=3)
    third = hb.nation(s, 2, {hb.far_apart(1)[0]: 1})
    dfd.master = third.id
    d = hb.attack(s, att, q, p, 2, dice=(1, 1, 1, 1))
    assert s.dice.kinds() == ["die"] * 4  # the first round was rolled straight away
    assert dfd.master == third.id and hb.logged(s, "submission") == []
    assert d is None or d.kind != "hb.submit"


def test_cannot_submit_to_a_submitted_attacker(hb):
    """§9.2: nor can a nation submit if the attacking nation is itself submitted."""
    s, p, q, att, dfd = _duel(hb, players=3)
    third = hb.nation(s, 2, {hb.far_apart(1)[0]: 1})
    att.master = third.id
    d = hb.attack(s, att, q, p, 2, dice=(1, 1, 1, 1))
    assert s.dice.kinds() == ["die"] * 4
    assert dfd.master == EMPTY and (d is None or d.kind != "hb.submit")


def _pair(hb, players=3, rules=("submission",), servant_units=None, master_units=None):
    s = hb.game(players=players, rules=list(rules))
    a, b = hb.far_apart(2, gap=4)
    master = hb.nation(s, 0, master_units or {a: 2, hb.land_nbrs(a)[0]: 2}, start_sea=hb.board.entry_seas[0])
    servant = hb.nation(s, 1, servant_units or {b: 2, hb.land_nbrs(b)[0]: 2}, start_sea=hb.board.entry_seas[1])
    servant.master = master.id
    return s, master, servant


@pytest.mark.parametrize("event", ["strong-leader", "reinforcements"])
def test_submission_ends_on_strong_leader_or_reinforcements(hb, event):
    """§9.2: submission ends when the submitted nation rolls Strong leader or
    Reinforcements; the event itself still happens."""
    s, master, servant = _pair(hb)
    s.dice.push(3)  # the reinforcements die (unused for Strong leader)
    hb.run(s, ("do_event", servant.id, event))
    assert servant.master == EMPTY
    assert [e.data["nation"] for e in hb.logged(s, "submission-ends")] == [servant.id]
    if event == "strong-leader":
        assert servant.phases == 2
    else:
        assert servant.units[hb.board.entry_seas[1]] == 3


@pytest.mark.parametrize("event", ["religious-fervour", "famine", "civilization", "plague"])
def test_other_events_keep_the_submission(hb, event):
    """§9.2: only the listed events end a submission."""
    s, master, servant = _pair(hb)
    s.dice.push(1)
    finish(hb, s, hb.run(s, ("do_event", servant.id, event)), prefer=("stop",))
    assert servant.master == master.id


def test_submission_ends_when_the_master_is_eliminated(hb):
    """§9.2, §8: submission ends when the nation submitted to is eliminated from play."""
    s, master, servant = _pair(hb)
    for a in list(master.units):
        s.remove_units(master, a, master.units[a])
    assert master.id not in s.nations and servant.master == EMPTY
    assert hb.invariants(s) == []


def test_submission_ends_when_the_master_submits_to_a_third_nation(hb):
    """§9.2: submission ends when the master submits to a third nation (which the master
    may do: it is not itself submitted)."""
    s = hb.game(players=3, rules=["submission"])
    p, q = terrain_pair(hb, "plains", 2)
    third = hb.nation(s, 2, {q: 3})
    master = hb.nation(s, 0, {p: 2})
    servant = hb.nation(s, 1, {hb.far_apart(1)[0]: 2})
    servant.master = master.id
    d = hb.attack(s, third, q, p, 1)
    assert d.kind == "hb.submit" and d.player == 0
    hb.answer(s, "submit")
    assert master.master == third.id and servant.master == EMPTY
    assert [e.data["nation"] for e in hb.logged(s, "submission-ends")] == [servant.id]


def test_submission_ends_when_the_master_has_a_civil_war(hb):
    """§9.2: submission ends when the master gets a Civil war event; the breakaway
    nation is not a master either."""
    s, master, servant = _pair(hb)
    s.dice.push(2)
    d = hb.run(s, ("do_event", master.id, "civil-war"))
    finish(hb, s, d)
    assert servant.master == EMPTY
    assert len(s.nations) == 3
    assert all(n.master == EMPTY for n in s.nations.values())


def test_hb_q31_kept_event_ends_submission(hb):
    """HB-Q31 (§9.2): the event the nation keeps, after rerolls, is the one that counts:
    a rerolled Weak leader does not absorb, a rerolled Strong leader does not free; a
    Prophecy counts when its event happens; a master's impossible Civil war (rerolled)
    frees nobody."""
    s, master, servant = _pair(hb)
    s.dice.push(6)  # 6 + 0: Weak leader
    d = hb.run(s, ("event", servant.id))
    assert d.kind == "hb.event" and d.player == 1 and s.waiting_frame()[2] == "weak-leader"
    s.dice.push(2)  # 2 + 1 token: Religious fervour
    hb.answer(s, "reroll")
    assert s.waiting_frame()[2] == "religious-fervour"
    hb.answer(s, "accept")
    assert servant.id in s.nations and servant.master == master.id and servant.fervour
    s.dice.push(1)  # 1 + 1 token: Strong leader
    hb.run(s, ("event", servant.id))
    assert s.waiting_frame()[2] == "strong-leader"
    s.dice.push(2)  # 2 + 2: Civilization (5 VP without abilities)
    hb.answer(s, "reroll")
    hb.answer(s, "accept")
    assert servant.master == master.id and not hb.logged(s, "submission-ends")
    # a prophecy of Strong leader frees the nation when it happens
    servant.prophecy = "strong-leader"
    hb.run(s, ("event", servant.id))
    assert servant.master == master.id  # not yet: the owner may still reroll
    hb.answer(s, "accept")
    assert servant.master == EMPTY
    # the master's Civil war is impossible (one area): rerolled, the servant stays
    s2, m2, sv2 = _pair(hb, master_units={hb.land()[0]: 3})
    s2.dice.push(6)
    m2.civ = 2  # 6 + 2 = 8: Civil war, impossible with one area
    m2.pool -= 2
    s2.dice.push(1)  # 1 + 2 = 3: Religious fervour
    hb.run(s2, ("event", m2.id))
    assert s2.waiting_frame()[2] == "religious-fervour" and sv2.master == m2.id


def test_absorption_on_weak_leader(hb):
    """§9.2: a submitted nation rolling Weak leader is absorbed: all its units are
    replaced by units of the controlling nation; the absorbed nation no longer exists
    and its tokens are returned (§8)."""
    s, master, servant = _pair(hb)
    areas = dict(servant.units)
    pool = master.pool
    assert hb.run(s, ("do_event", servant.id, "weak-leader")) is None
    assert servant.id not in s.nations and servant.set in s.free_sets
    for a, c in areas.items():
        assert master.units[a] == c and s.area_nation[a] == master.id
    assert master.pool == pool - sum(areas.values())
    assert not master.weak  # the absorbed nation's weak leader is not the master's
    assert [e.data["nation"] for e in hb.logged(s, "absorption")] == [servant.id]
    assert hb.conserved(master, s) and hb.invariants(s) == []


def test_hb_q34_absorption_replaces_units_as_the_pool_allows(hb):
    """HB-Q34 (§9.2): when the controlling nation has too few spare units, its owner picks
    the areas to take over one at a time (each replaced as far as the pool goes); the
    rest are removed.  Cities stay with their areas; a city in an area left empty goes;
    the absorbed nation's capital and saved PIPs are lost with it."""
    s = hb.game(players=3, rules=["submission", "abilities"])
    base, b = hb.far_apart(2, gap=5)
    land = [base] + hb.land_nbrs(base)[:3]
    master = hb.nation(s, 0, {land[0]: 3, land[1]: 3, land[2]: 3, land[3]: 2})
    assert master.pool == 3
    b2, b3 = hb.land_nbrs(b)[:2]
    servant = hb.nation(s, 1, {b: 2, b2: 4, b3: 1})
    servant.master = master.id
    servant.capital, servant.saved = b, 4
    s.cities = (1 << b) | (1 << b2)
    d = hb.run(s, ("do_event", servant.id, "weak-leader"))
    assert d.kind == "hb.absorb-area" and d.player == 0 and set(d.keys) == hb.ids([b, b2, b3])
    d = hb.answer(s, hb.id(b2))  # 3 of the 4 units there can be replaced
    assert d is None
    assert master.units[b2] == 3 and master.pool == 0
    assert b not in master.units and b3 not in master.units
    assert s.area_nation[b] == EMPTY and s.area_nation[b3] == EMPTY
    assert servant.id not in s.nations
    assert (s.cities >> b2) & 1 and not (s.cities >> b) & 1
    assert master.capital == EMPTY and master.saved == 0
    assert hb.invariants(s) == []
    # a master with an empty pool takes nothing: the absorbed units are all removed
    s = hb.game(players=3, rules=["submission"])
    master = hb.nation(s, 0, {land[0]: 4, land[1]: 4, land[2]: 3, land[3]: 3})
    assert master.pool == 0
    servant = hb.nation(s, 1, {b: 2, b2: 2})
    servant.master = master.id
    assert hb.run(s, ("do_event", servant.id, "weak-leader")) is None
    assert servant.id not in s.nations and s.area_nation[b] == s.area_nation[b2] == EMPTY
    assert master.board == 14 and hb.invariants(s) == []


def test_civil_war_of_a_submitted_nation(hb):
    """§9.2: if a submitted nation gets Civil war, the new nation is not submitted; the
    original nation is still submitted."""
    s, master, servant = _pair(hb)
    s.dice.push(2)
    finish(hb, s, hb.run(s, ("do_event", servant.id, "civil-war")))
    (new,) = [n for n in s.nations.values() if n not in (master, servant)]
    assert servant.master == master.id and new.master == EMPTY


# == §9.3 Civilization abilities ===============================================================


def test_civilization_gives_an_ability_instead_of_5_vp(hb):
    """§9.3, §6.1: with civilization abilities a Civilization result gives the nation an
    ability of its owner's choice instead of 5 VP; the civilization token is still
    taken (it marks the ability)."""
    s = hb.game(players=2, rules=["abilities"])
    n = hb.nation(s, 1, {hb.land()[0]: 3})
    s.vp = [4, 4]
    d = hb.run(s, ("do_event", n.id, "civilization"))
    assert d.kind == "hb.ability" and d.player == 1 and list(d.keys) == list(ABILITIES)
    assert (n.civ, n.pool) == (1, 10)
    assert hb.answer(s, "taxation") is None
    assert n.abilities == {"taxation"} and s.vp == [4, 4]
    (e,) = hb.logged(s, "ability")
    assert e.data == {"nation": n.id, "ability": "taxation", "how": "civilization"}
    # the next Civilization offers only the abilities not yet owned
    d = hb.run(s, ("do_event", n.id, "civilization"))
    assert list(d.keys) == [a for a in ABILITIES if a != "taxation"]
    # with one left it is gained without a question
    n.abilities = frozenset(a for a in ABILITIES if a != "navigation")
    assert hb.run(s, ("do_event", n.id, "civilization")) is None
    assert n.abilities == set(ABILITIES)


def test_rerolling_by_choice_takes_a_token_but_gives_no_ability(hb):
    """§9.3: a civilization token taken to reroll an event is just set aside — no ability."""
    s = hb.game(players=2, rules=["abilities"])
    n = hb.nation(s, 0, {hb.land()[0]: 3})
    s.dice.push(6, 2)  # Weak leader, then 2 + 1 = 3: Religious fervour
    hb.run(s, ("event", n.id))
    hb.answer(s, "reroll")
    assert n.civ == 1 and n.abilities == frozenset()
    assert s.waiting_frame()[2] == "religious-fervour"


def test_hb_q107_all_abilities_reroll_without_token(hb):
    """HB-Q107 (§9.3, §6.1): the token is taken first (from the pool, else from the
    board), then the ability chosen; with all seven owned the event is rerolled at once
    and no token is taken."""
    s = hb.game(players=2, rules=["abilities"])
    x, y = hb.pair(hb.adjacent, hb.land())
    n = hb.nation(s, 0, {x: 7, y: 7})
    assert n.pool == 0
    d = hb.run(s, ("do_event", n.id, "civilization"))
    assert d.kind == "hb.civ-token-from-board" and set(d.keys) == hb.ids([x, y])
    d = hb.answer(s, hb.id(y))
    assert (n.civ, n.units[y], n.pool) == (1, 6, 0)
    assert d.kind == "hb.ability"
    hb.answer(s, "navigation")
    n.abilities = frozenset(ABILITIES)
    civ, pool, board = n.civ, n.pool, n.board
    s.dice.push(2)  # the free reroll: 2 + 1 token = 3
    d = hb.run(s, ("do_event", n.id, "civilization"))
    assert (n.civ, n.pool, n.board) == (civ, pool, board)
    assert s.waiting_frame() == ("event_choice", n.id, "religious-fervour", 2)
    assert "event-reroll-free" in hb.kinds_logged(s)


def test_hb_q35_master_gains_abilities_with_tokens(hb):
    """HB-Q35 (§9.3): on submission the master gains every ability the submitted nation
    has and has not itself, each with a civilization token of its own; it also gains
    those the submitted nation gains while submitted; it keeps them after the
    submission ends."""
    s = hb.game(players=2, rules=["submission", "abilities"])
    p, q = terrain_pair(hb, "plains", 2)
    master = hb.nation(s, 0, {q: 4})
    servant = hb.nation(s, 1, {p: 2}, start_sea=hb.board.entry_seas[0])
    master.abilities = frozenset({"navigation"})
    servant.abilities = frozenset({"navigation", "taxation"})
    d = hb.attack(s, master, q, p, 2)
    d = hb.answer(s, "submit")
    while d is not None and d.kind == "hb.withdraw":
        d = hb.answer(s, hb.id(q))
    assert servant.master == master.id
    assert master.abilities == {"navigation", "taxation"}
    assert (master.civ, master.pool, master.board) == (1, 9, 4)
    assert [(e.data["nation"], e.data["ability"], e.data["how"]) for e in hb.logged(s, "ability")] == [
        (master.id, "taxation", "submission")]
    # an ability gained while submitted passes on too
    d = hb.run(s, ("do_event", servant.id, "civilization"))
    assert d.kind == "hb.ability" and d.player == 1
    hb.answer(s, "diplomacy")
    assert "diplomacy" in servant.abilities and "diplomacy" in master.abilities
    assert master.civ == 2
    # the submission ends; the master keeps what it gained
    s.dice.push(1)
    hb.run(s, ("do_event", servant.id, "reinforcements"))
    assert servant.master == EMPTY and master.abilities == {"navigation", "taxation", "diplomacy"}
    assert hb.conserved(master, s) and hb.conserved(servant, s)


def test_abilities_pass_to_split_off_nations(hb):
    """§9.3: a nation created by Civil war or by disconnection in the support phase gets
    the same abilities as the nation it split from (and its race and capital: HB-Q27,
    HB-Q36), but no saved PIPs and no prophecy of its own yet (HB-Q38, HB-Q40)."""
    s = hb.game(players=2, rules=["races", "abilities"])
    x, y = hb.pair(hb.adjacent, hb.land())
    old = hb.nation(s, 0, {x: 2, y: 2}, civ=3)
    old.abilities = frozenset({"navigation", "taxation", "prophecy"})
    old.race, old.capital, old.saved, old.prophecy = "elf", x, 5, "famine"
    s.dice.push(1)
    hb.run(s, ("civil_war", old.id))
    hb.answer(s, hb.id(y))
    new = s.nations[s.area_nation[y]]
    assert new is not old and new.abilities == old.abilities and new.civ == 3
    assert (new.race, new.capital, new.saved, new.prophecy) == ("elf", x, 0, None)
    # disconnection
    s = hb.game(players=2, rules=["abilities"])
    a, z = hb.far_apart(2, gap=5)
    n = hb.nation(s, 0, {a: 3, hb.land_nbrs(a)[0]: 2, z: 1, hb.land_nbrs(z)[0]: 1}, civ=2)
    n.abilities = frozenset({"city-building", "diplomacy"})
    s.dice.push(1)
    hb.run(s, ("support", n.id))
    split = s.nations[s.area_nation[z]]
    assert split is not n and split.abilities == {"city-building", "diplomacy"} and split.civ == 2


# -- Capital --------------------------------------------------------------------------------
def test_hb_q36_capital_scores_three_while_held(hb):
    """HB-Q36 (§9.3.1 Capital): the capital is chosen at once among the nation's areas and
    counts 3 VP for that nation while it holds it (1 VP for anyone else); a lost capital
    is never re-chosen but can be retaken; a split-off nation inherits it; a master
    gaining Capital chooses its own at once."""
    s = hb.game(players=3, rules=["submission", "abilities"])
    a, b, c = hb.connected_land(hb.land()[0], 3)
    n = hb.nation(s, 0, {a: 1, b: 2, c: 1})
    d = hb.run(s, ("do_event", n.id, "civilization"))
    d = hb.answer(s, "capital")
    assert d.kind == "hb.capital" and d.player == 0 and set(d.keys) == hb.ids([a, b, c])
    assert hb.answer(s, hb.id(b)) is None
    assert n.capital == b
    assert vp_gain(hb, s) == [1 + 3 + 1, 0, 0]
    # lost to another nation: 1 VP for the captor, none extra for the former owner
    s.remove_units(n, b, 2)
    other = hb.nation(s, 1, {b: 2})
    assert vp_gain(hb, s) == [2, 1, 0]
    assert hb.run(s, ("choose_capital", n.id)) is None and n.capital == b  # never re-chosen
    # retaken: 3 VP again
    s.remove_units(other, b, 2)
    s.add_units(n, b, 1)
    assert vp_gain(hb, s) == [5, 0, 0]
    # split-off nation inherits the capital
    heir = s.create_nation(2, like=n)
    assert heir.capital == b
    # a master gaining Capital through submission chooses its own among its areas
    x, y = hb.far_apart(2, gap=4, pred=lambda v: min(hb.dist(v)[w] for w in (a, b, c)) >= 3)
    master = hb.nation(s, 1, {x: 1, hb.land_nbrs(x)[0]: 1})
    servant = hb.nation(s, 2, {y: 1})
    servant.abilities, servant.capital = frozenset({"capital"}), y
    from realms.games.hy_breasil.submission import submit
    s.battle = [y, master.id, servant.id, 0, 0, 1, 0, 0, 1, 2, 0]
    submit(s, master, servant)
    d = hb.run(s, *s.next_frames())
    assert d.kind == "hb.capital" and d.player == 1
    assert set(d.keys) == hb.ids([x, hb.land_nbrs(x)[0]])


def test_several_nations_may_share_a_capital_area(hb):
    """§9.3.1 Capital: several nations may choose the same area as capital; each scores 3
    for it only while it holds it."""
    s = hb.game(players=2, rules=["abilities"])
    a, b = hb.pair(hb.adjacent, hb.land())
    n1 = hb.nation(s, 0, {a: 1})
    n2 = hb.nation(s, 1, {b: 1})
    for n in (n1, n2):
        n.abilities, n.capital = frozenset({"capital"}), a
    assert vp_gain(hb, s) == [3, 1]
    s.remove_units(n1, a, 1)
    s.remove_units(n2, b, 1)
    n1 = hb.nation(s, 0, {b: 1})
    n2 = hb.nation(s, 1, {a: 1})
    n2.abilities, n2.capital = frozenset({"capital"}), a
    assert vp_gain(hb, s) == [1, 3]


# -- Navigation ----------------------------------------------------------------------------
def test_hb_q37_navigation_two_seas_as_one(hb):
    """HB-Q37 (§9.3.1 Navigation): two adjacent seas count as one — land → sea → sea →
    land is two type-B steps — but only once: a third sea costs a step.  A unit starting
    at sea may cross the next sea freely."""
    x, sea_a, sea_b, y, z = first_free_sea_route(hb)
    for nav in (False, True):
        s = hb.game(players=2, rules=["abilities"])
        n = hb.nation(s, 0, {x: 2})
        if nav:
            n.abilities = frozenset({"navigation"})
        reach = Reach(s, n).from_area(x)
        assert bool((reach >> y) & 1) is nav
        assert not (reach >> z) & 1
        d = hb.run(s, ("move", n.id, 1))
        assert (hb.mv(x, y) in d.keys) is nav
        # from the sea: A and B as one, then C, then land on C
        s2 = hb.game(players=2, rules=["abilities"])
        m = hb.nation(s2, 0, {sea_a: 1})
        if nav:
            m.abilities = frozenset({"navigation"})
        assert bool((Reach(s2, m).from_area(sea_a) >> z) & 1) is nav
    # the ability counts only with the abilities rule
    s = hb.game(players=2)
    n = hb.nation(s, 0, {x: 2})
    n.abilities = frozenset({"navigation"})
    assert not (Reach(s, n).from_area(x) >> y) & 1


def test_navigation_counts_for_support_connections(hb):
    """§9.3.1 Navigation: "this counts also for connections in the support phase" — two
    areas across two adjacent seas are connected, so the nation keeps both."""
    x, sea_a, sea_b, y, z = first_free_sea_route(hb)
    for nav in (True, False):
        s = hb.game(players=2, rules=["abilities"])
        n = hb.nation(s, 0, {x: 2, y: 1})
        if nav:
            n.abilities = frozenset({"navigation"})
        assert len(parts(s, n)) == (1 if nav else 2)
        hb.run(s, ("support", n.id))
        assert set(n.units) == ({x, y} if nav else {x})


# -- Food preservation -------------------------------------------------------------------------
def test_hb_q38_food_preservation_saves_unused_pips(hb):
    """HB-Q38 (§9.3.1 Food preservation): after growth up to 6 unused PIPs are saved for
    the next turn and added to the new PIPs — whatever left them unused (the remainder
    below 7, an empty pool); saved PIPs count even under Famine; without the ability
    nothing is saved."""
    s = hb.game(players=2, rules=["abilities"])
    plains = hb.of_terrain("plains")
    n = hb.nation(s, 0, {plains[0]: 1, plains[1]: 1})
    n.abilities = frozenset({"food-preservation"})
    hb.run(s, ("population", n.id))
    assert (n.board, n.saved) == (2, 6)      # 6 PIPs: no unit, 6 saved
    finish(hb, s, hb.run(s, ("population", n.id)))
    assert (n.board, n.saved) == (3, 5)      # 6 + 6 = 12: one unit, 5 saved
    n.famine = True
    hb.run(s, ("population", n.id))
    assert (n.board, n.saved) == (3, 5)      # Famine: no new PIPs, the granary stays
    n.famine = False
    # an empty pool: 9 PIPs + 5 saved unused, capped at 6
    full = hb.nation(s, 1, {plains[2]: 5, plains[3]: 5, plains[4]: 4})
    full.abilities = frozenset({"food-preservation"})
    assert full.pool == 0
    hb.run(s, ("population", full.id))
    assert (full.board, full.saved) == (14, 6)
    # a split-off nation starts with an empty granary
    assert s.create_nation(1, like=full).saved == 0
    # without the ability the unused PIPs are lost
    plain = hb.nation(s, 1, {plains[5]: 1, plains[6]: 1})
    plain.saved = 0
    hb.run(s, ("population", plain.id))
    assert plain.saved == 0 and plain.board == 2


# -- Taxation -----------------------------------------------------------------------------------
def test_taxation_two_and_a_half_units_per_area(hb):
    """§9.3.1 Taxation: the nation can have 2.5 times (rounded down) as many units as
    areas in the support phase — each two areas support five units."""
    s = hb.game(players=2, rules=["abilities"])
    n = hb.nation(s, 0, {hb.land()[0]: 1})
    assert [ability_support_limit(s, n, k) for k in range(1, 6)] == [2, 4, 6, 8, 10]
    n.abilities = frozenset({"taxation"})
    assert [ability_support_limit(s, n, k) for k in range(1, 6)] == [2, 5, 7, 10, 12]
    land = hb.connected_land(hb.land()[10], 3)
    for tax, kept in ((True, 7), (False, 6)):
        s = hb.game(players=2, rules=["abilities"])
        m = hb.nation(s, 0, {land[0]: 4, land[1]: 3, land[2]: 1})
        if tax:
            m.abilities = frozenset({"taxation"})
        finish(hb, s, hb.run(s, ("support", m.id)))
        assert m.board == kept


# -- Diplomacy ----------------------------------------------------------------------------------
def test_hb_q39_diplomacy_passage_and_ban(hb):
    """HB-Q39 (§9.3.1 Diplomacy): the moving nation asks, the other nation's owner grants
    or refuses; granted, its units cross that nation's areas as their own (type A) but do
    not end there; the permitting nation may not be attacked for the rest of the turn;
    a permission lasts one movement and combat phase (a Strong leader's second phase
    asks again) and each nation is asked once per phase."""
    x, y, z = diplomacy_triple(hb)
    s = hb.game(players=2, rules=["abilities"])
    n = hb.nation(s, 0, {x: 3})
    n.abilities = frozenset({"diplomacy"})
    n.phases = 2
    o = hb.nation(s, 1, {y: 1})
    d = hb.run(s, ("movement_phase", n.id, 1), ("end_movement", n.id, 1))
    ask = f"ask:{o.id}"
    assert ask in d.keys and hb.mv(x, z) not in d.keys and hb.mv(x, y) in d.keys
    d = hb.answer(s, ask)
    assert d.kind == "hb.diplomacy" and d.player == 1 and set(d.keys) == {"grant", "refuse"}
    d = hb.answer(s, "grant")
    assert d.kind == "hb.move" and d.player == 0
    assert hb.mv(x, z) in d.keys          # through y as if it were their own
    assert hb.mv(x, y) not in d.keys      # no attack on the permitting nation, no stop there
    assert ask not in d.keys              # asked once
    d = hb.answer(s, hb.mv(x, z))
    assert n.units == {x: 2, z: 1} and o.units == {y: 1}
    d = hb.answer(s, "done")
    # Strong leader's second phase: the permission is gone, the ban stays
    assert d.kind == "hb.move" and n.permits == frozenset() and o.id in n.spared
    assert ask in d.keys and hb.mv(x, y) not in d.keys
    assert [e.data["granted"] for e in hb.logged(s, "diplomacy")] == [True]
    # next turn the ban is over
    hb.run(s, ("end_nation_turn", n.id))
    d = hb.run(s, ("movement_phase", n.id, 1))
    assert hb.mv(x, y) in d.keys


def test_diplomacy_under_weak_leader(hb):
    """§9.3.1 Diplomacy, §6.1 Weak leader: passage is not an attack — a weak-led nation
    may cross the permitting nation's land — but it may not stop there, which would
    start a battle."""
    x, y, z = diplomacy_triple(hb)
    s = hb.game(players=2, rules=["abilities"])
    n = hb.nation(s, 0, {x: 3})
    n.abilities = frozenset({"diplomacy"})
    n.weak = True
    o = hb.nation(s, 1, {y: 1})
    hb.run(s, ("movement_phase", n.id, 1))
    hb.answer(s, f"ask:{o.id}")
    d = hb.answer(s, "grant")
    assert hb.mv(x, z) in d.keys and hb.mv(x, y) not in d.keys
    d = hb.answer(s, hb.mv(x, z))
    assert s.battle is None and o.units == {y: 1} and n.units == {x: 2, z: 1}
    assert hb.mv(x, y) not in d.keys


def test_diplomacy_refused(hb):
    """§9.3.1 Diplomacy: a refused nation gets no passage — and may still attack."""
    x, y, z = diplomacy_triple(hb)
    s = hb.game(players=2, rules=["abilities"])
    n = hb.nation(s, 0, {x: 3})
    n.abilities = frozenset({"diplomacy"})
    o = hb.nation(s, 1, {y: 1})
    d = hb.run(s, ("movement_phase", n.id, 1))
    hb.answer(s, f"ask:{o.id}")
    d = hb.answer(s, "refuse")
    assert hb.mv(x, z) not in d.keys and hb.mv(x, y) in d.keys
    assert f"ask:{o.id}" not in d.keys and n.spared == frozenset()
    # without the ability there is nobody to ask
    n.abilities = frozenset()
    d = hb.run(s, ("movement_phase", n.id, 1))
    assert not [k for k in d.keys if k.startswith("ask:")]


def test_diplomacy_not_for_support_connections(hb):
    """§9.3.1 Diplomacy: the permission ends with the movement and combat phase, so it
    can not be used for connections in the support phase: an area reached through the
    other nation's land is cut off."""
    x, y, z = diplomacy_triple(hb)
    s = hb.game(players=2, rules=["abilities"])
    n = hb.nation(s, 0, {x: 3})
    n.abilities = frozenset({"diplomacy"})
    o = hb.nation(s, 1, {y: 1})
    hb.run(s, ("movement_phase", n.id, 1), ("end_movement", n.id, 1), ("support", n.id))
    hb.answer(s, f"ask:{o.id}")
    hb.answer(s, "grant")
    hb.answer(s, hb.mv(x, z))
    assert hb.answer(s, "done") is None
    assert n.units == {x: 2} and s.area_nation[z] == EMPTY
    assert [e.kind for e in hb.logged(s, "areas-abandoned")] == ["areas-abandoned"]


# -- Prophecy -------------------------------------------------------------------------------
def test_hb_q40_prophecy_predicts_next_event(hb):
    """HB-Q40 (§9.3.1 Prophecy): on gaining Prophecy the next turn's event is rolled at
    once (with the token count after the Civilization token); in the next events phase
    the predicted event happens without a roll — rerollable at the usual cost — and then
    the next prediction is rolled."""
    s = hb.game(players=2, rules=["abilities"])
    n = hb.nation(s, 0, {hb.land()[0]: 3})
    d = hb.run(s, ("do_event", n.id, "civilization"))
    s.dice.push(2)  # 2 + 1 token = 3: Religious fervour foretold
    assert hb.answer(s, "prophecy") is None
    assert n.prophecy == "religious-fervour" and not n.fervour
    (e,) = hb.logged(s, "prophecy")
    assert e.data["roll"] == 2
    # the next turn: no die for the event; the prediction happens; a new one is rolled
    s.dice = type(s.dice)(5)  # 5 + 1 = 6: Weak leader foretold for the turn after
    d = hb.run(s, ("event", n.id), ("prophesy", n.id))
    assert d.kind == "hb.event"
    assert s.waiting_frame() == ("event_choice", n.id, "religious-fervour", 0) and s.dice.calls == []
    assert hb.answer(s, "accept") is None
    assert n.fervour and n.prophecy == "weak-leader"
    # rerolling a predicted event costs a token and rolls afresh, now
    s.dice.push(1, 4)  # reroll 1 + 2 = 3: fervour; next prophecy 4 + 2 = 6
    hb.run(s, ("event", n.id), ("prophesy", n.id))
    assert s.waiting_frame()[2] == "weak-leader"
    hb.answer(s, "reroll")
    assert s.waiting_frame() == ("event_choice", n.id, "religious-fervour", 1)
    hb.answer(s, "accept")
    assert n.civ == 2 and n.prophecy == "weak-leader" and not n.weak
    # a split-off prophetic nation rolls its own event, then its own prediction
    heir = s.create_nation(1, like=n)
    s.add_units(heir, hb.land()[20], 2)
    heir.first_turn = False
    assert heir.prophecy is None
    s.dice.push(1, 6)  # its own event 1 + 2 = 3: fervour; then 6 + 2 = 8: Civil war foretold
    hb.run(s, ("event", heir.id), ("prophesy", heir.id))
    assert s.waiting_frame() == ("event_choice", heir.id, "religious-fervour", 1)
    assert hb.answer(s, "accept") is None
    assert heir.fervour and heir.prophecy == "civil-war" and n.prophecy == "weak-leader"


# -- City building ---------------------------------------------------------------------------
def _builder(hb, s, units, owner=0):
    n = hb.nation(s, owner, units)
    n.abilities = frozenset({"city-building"})
    return n


def test_hb_q41_city_needs_four_armies(hb):
    """HB-Q41 (§9.3.1 City building): just before its support phase the nation may
    exchange 3 armies in an area for a city token (the armies go back to the pool); one
    city per area, several in one turn; an area needs four or more armies, since a city
    left alone is removed at once."""
    s = hb.game(players=2, rules=["abilities"])
    a, b, c = hb.connected_land(hb.land()[0], 3)
    n = _builder(hb, s, {a: 3, b: 4, c: 7})
    d = hb.run(s, ("cities", n.id))
    assert d.kind == "hb.city" and d.player == 0 and set(d.keys) == {"done"} | hb.ids([b, c])
    pool = n.pool
    d = hb.answer(s, hb.id(b))
    assert n.units[b] == 1 and n.pool == pool + 3 and (s.cities >> b) & 1
    assert set(d.keys) == {"done", hb.id(c)}
    d = hb.answer(s, hb.id(c))
    assert d is None  # c keeps 4 armies, but it has its city: one per area
    assert n.units == {a: 3, b: 1, c: 4}
    assert [e.data["area"] for e in hb.logged(s, "city-built")] == [hb.id(b), hb.id(c)]
    assert free_city_tokens(s) == 15 - 2 and hb.invariants(s) == []
    # the step comes just before the support phase in the nation's turn
    s.restart()
    hb.call(s, "nation_turn", n.id)
    order = [f[0] for f in s.next_frames()]
    assert order.index("cities") == order.index("support") - 1
    assert order.index("movement_phase") < order.index("cities")
    s.restart()
    # not without the ability, nor with "done"
    m = hb.nation(s, 1, {hb.land()[30]: 6})
    assert hb.run(s, ("cities", m.id)) is None
    m.abilities = frozenset({"city-building"})
    d = hb.run(s, ("cities", m.id))
    assert d.kind == "hb.city" and hb.id(hb.land()[30]) in d.keys
    assert hb.answer(s, "done") is None
    assert not (s.cities >> hb.land()[30]) & 1


def test_no_city_when_all_city_tokens_are_in_use(hb):
    """§9.3.1 City building: if all city tokens are in use no city can be built until
    tokens are freed by destroying cities."""
    s = hb.game(players=2, rules=["abilities"])
    x = hb.land()[0]
    n = _builder(hb, s, {x: 6})
    others = [a for a in hb.land() if a != x][:15]
    for a in others:
        s.cities |= 1 << a
    assert free_city_tokens(s) == 0
    assert hb.run(s, ("cities", n.id)) is None
    s.cities &= ~(1 << others[0])
    d = hb.run(s, ("cities", n.id))
    assert d.kind == "hb.city" and hb.id(x) in d.keys


def test_hb_q108_city_set_reduces_the_limit(hb):
    """HB-Q108, HB-Q5 (§9.3, §5.3): with civilization abilities one token set is put
    aside for cities (the highest-numbered), so there is one nation less, and the nation
    limit divides the remaining sets among the players, rounded up."""
    plain = hb.game(players=3, sets=7)
    advanced = hb.game(players=3, sets=7, rules=["abilities"])
    assert (plain.n_sets, plain.nation_limit()) == (7, 3)        # 7 / 3 rounded up
    assert (advanced.n_sets, advanced.nation_limit()) == (6, 2)  # 6 / 3
    assert advanced.free_sets == list(range(6))
    made = hb.use_up_sets(advanced)
    assert len(made) == 6 and {n.set for n in made} == set(range(6))
    assert hb.game(players=4, rules=["abilities"]).n_sets == 11
    with pytest.raises(OptionError):
        GAME.new_game({"players": 4, "sets": 4, "rules": ["abilities"]})


def _city_battle(hb, terrain="plains", defenders=1, attackers=4, rules=("abilities",), nbrs=2):
    s = hb.game(players=3, rules=list(rules))
    p, q = terrain_pair(hb, terrain, nbrs)
    att = hb.nation(s, 0, {q: attackers})
    dfd = hb.nation(s, 1, {p: defenders})
    s.cities |= 1 << p
    return s, p, q, att, dfd


def test_hb_q42_city_fights_after_armies(hb):
    """HB-Q42 (§9.3.1): the city fights for the defender like an army (its die hits on
    4+); the attacker can not hit it while defending armies stand; once they are gone
    unused hits must go to the city; a city left as the sole defender with attackers in
    the area is taken over — the captor gains no ability; a wounded city heals."""
    s, p, q, att, dfd = _city_battle(hb)
    d = hb.attack(s, att, q, p, 3, dice=(5, 1, 1, 1, 6))  # 1 hit each way; the city's 6 hits
    assert s.battle[CITY] == 2  # the hit wounded the army, never the city
    assert hb.battle_state(s) == (2, 1, 0, 1)
    assert d.kind == "hb.retreat" and d.player == 0  # the wounded defender cannot retreat
    s.dice.push(5, 5, 1, 1, 1)  # two hits: the wounded army dies, the other hit wounds the city
    d = hb.answer(s, "stay")
    assert s.battle is None
    assert s.area_nation[p] == att.id and att.units[p] == 3
    assert (s.cities >> p) & 1  # the city is theirs
    assert "city-building" not in att.abilities
    assert [e.data["area"] for e in hb.logged(s, "city-captured")] == [hb.id(p)]
    assert dfd.id not in s.nations and hb.invariants(s) == []
    # attacked in turn, the captured city defends for its new owner, healed
    other = hb.nation(s, 2, {hb.first(a for a in hb.land_nbrs(p) if s.area_nation[a] == EMPTY): 2})
    src = next(iter(other.units))
    hb.run(s, ("move", other.id, 1))
    hb.answer(s, hb.mv(src, p))
    assert s.battle[CITY] == 2 and s.battle[DEF] == att.id


def test_city_destroyed_by_two_unused_hits(hb):
    """§9.3.1: like other units a city takes two hits to eliminate; a destroyed city's
    token is free again and the attacker takes the bare area."""
    s, p, q, att, dfd = _city_battle(hb)
    hb.attack(s, att, q, p, 4, dice=(6, 6, 6, 6, 1, 1))
    assert s.battle is None and s.area_nation[p] == att.id
    assert not (s.cities >> p) & 1 and free_city_tokens(s) == 15
    assert hb.logged(s, "city-captured") == [] and len(hb.logged(s, "city-removed")) == 1
    assert hb.invariants(s) == []


def test_city_has_no_terrain_or_race_benefit(hb):
    """§9.3.1: the city fights like an army but gets no benefit from terrain or race (a
    troll's 3 in hills hits, the city's 3 does not); the attacker's 4s miss the army in
    hills and cannot reach the city while an army stands (HB-Q42)."""
    s, p, q, att, dfd = _city_battle(hb, terrain="hills", attackers=4, rules=("races", "abilities"))
    dfd.race = "troll"
    d = hb.attack(s, att, q, p, 3, dice=(4, 4, 4, 3, 3))
    assert hb.battle_state(s) == (2, 1, 1, 0) and s.battle[CITY] == 2
    assert d.kind == "hb.retreat" and d.player == 1
    d = hb.answer(s, "stay")
    assert d.kind == "hb.retreat" and d.player == 0
    s.dice.push(5, 5, 5, 1, 1)  # three 5s: the army takes two, the city one
    hb.answer(s, "stay")
    assert s.battle is None and s.area_nation[p] == att.id and (s.cities >> p) & 1
    (e,) = hb.logged(s, "city-captured")


def test_hb_q42_no_terrain_benefit_for_the_city(hb):
    """HB-Q42 (§9.3.1): a city "does not get benefits from terrain", and the attacker's
    5+ in hills and forest is the terrain's benefit: against the city the attacker hits
    on 4+.  Its 4s cannot touch the city while an army stands; once the armies are
    gone they hit it with the hits left over."""
    for terrain in ("hills", "forest"):
        s, p, q, att, dfd = _city_battle(hb, terrain=terrain, attackers=5)
        # 5, 5 kill the army; the two 4s miss an army here but destroy the city
        hb.attack(s, att, q, p, 4, dice=(5, 5, 4, 4, 1, 1))
        assert s.battle is None and s.area_nation[p] == att.id
        assert not (s.cities >> p) & 1 and hb.logged(s, "city-captured") == []
        assert hb.invariants(s) == []
    s, p, q, att, dfd = _city_battle(hb, terrain="hills", attackers=5)
    # one 5 wounds the army; the three 4s cannot reach the city behind it
    d = hb.attack(s, att, q, p, 4, dice=(5, 4, 4, 4, 1, 1))
    assert hb.battle_state(s) == (4, 0, 0, 1) and s.battle[CITY] == 2
    # next round a 5 kills the army, one 4 wounds the city: taken, not destroyed
    s.dice.push(5, 4, 1, 1, 1, 1)
    hb.answer(s, "stay")
    assert s.battle is None and (s.cities >> p) & 1 and len(hb.logged(s, "city-captured")) == 1


def test_city_cannot_retreat_and_is_taken_when_the_armies_leave(hb):
    """§9.3.1: the city can not retreat; if the defending armies all retreat the city is
    the sole defender and the attacker takes it over."""
    s, p, q, att, dfd = _city_battle(hb, defenders=2, nbrs=3)
    d = hb.attack(s, att, q, p, 3, dice=(1, 1, 1, 1, 1, 1))
    assert d.kind == "hb.retreat" and d.player == 1
    away = next(k for k in d.keys if k != "stay")
    d = hb.answer(s, away)
    d = hb.answer(s, away)
    assert s.battle is None and dfd.units == {hb.a(away): 2}
    assert s.area_nation[p] == att.id and (s.cities >> p) & 1
    assert len(hb.logged(s, "city-captured")) == 1 and hb.invariants(s) == []


def test_city_alone_is_removed(hb):
    """§9.3.1: if, for any reason, a city is alone in an area, it is removed at once —
    here its last army marches out."""
    s = hb.game(players=2, rules=["abilities"])
    x = hb.first(a for a in hb.land() if hb.land_nbrs(a))
    e = hb.land_nbrs(x)[0]
    n = hb.nation(s, 0, {x: 1, e: 1})
    s.cities |= 1 << x
    hb.run(s, ("move", n.id, 1))
    hb.answer(s, hb.mv(x, e))
    assert not (s.cities >> x) & 1 and n.units == {e: 2}
    assert [ev.data["area"] for ev in hb.logged(s, "city-removed")] == [hb.id(x)]
    # a plague taking the last army does the same
    y = hb.first(a for a in hb.land() if a not in (x, e) and hb.dist(x)[a] > 3)
    m = hb.nation(s, 1, {y: 1, hb.land_nbrs(y)[0]: 3})
    s.cities |= 1 << y
    s.remove_units(m, y, 1)
    assert not (s.cities >> y) & 1 and hb.invariants(s) == []


def test_cities_stay_with_their_areas_and_are_not_units(hb):
    """HB-Q42 (§9.3.1): cities stay with their areas through civil war; a city is not an
    army for any other purpose — not for the support limit."""
    s = hb.game(players=2, rules=["abilities"])
    x, y = hb.pair(hb.adjacent, hb.land())
    n = hb.nation(s, 0, {x: 2, y: 2})
    s.cities |= 1 << x
    assert hb.run(s, ("support", n.id)) is None and n.board == 4  # 4 units on 2 areas: fine
    s.dice.push(1)
    hb.run(s, ("civil_war", n.id))
    hb.answer(s, hb.id(x))
    new = s.nations[s.area_nation[x]]
    assert new is not n and (s.cities >> x) & 1 and hb.invariants(s) == []


# == §10 Continuous play ========================================================================
def _continuous(hb, players=3, turn=3, joins=(), leaves=(), rules=()):
    return hb.game(players=players, turn=turn, variant="continuous", rules=list(rules),
                   joins=[list(j) for j in joins], leaves=[list(x) for x in leaves])


def test_join_and_leave_are_options_of_the_continuous_variant():
    """§10.1: players enter and leave at the start of a turn, given as options; a joiner
    is a player of the game, inactive until he joins."""
    s = GAME.new_game({"players": 3, "variant": "continuous", "joins": [[3, "Dana"]],
                       "leaves": [[4, "P2"]], "turns": 5}, 1)
    assert s.names == ["P1", "P2", "P3", "Dana"] and s.active == [True, True, True, False]
    assert s.options["joins"] == [[3, "Dana"]] and s.options["leaves"] == [[4, "P2"]]
    seen = []
    play(s, [RandomBot(bot_seed(1, i)) for i in range(4)],
         after_each=lambda st: seen.append((st.turn, tuple(st.active))))
    assert s.over and s.markers == [5, 3, 5, 3]
    joins = [(e.turn, e.data["player"]) for e in s.events if e.kind == "player-joins"]
    leaves = [(e.turn, e.data["player"]) for e in s.events if e.kind == "player-leaves"]
    assert joins == [(3, 3)] and leaves == [(4, 1)]
    assert all(n.owner != 1 for n in s.nations.values())  # the leaver holds nothing
    assert (3, (True, True, True, True)) in seen and (5, (True, False, True, True)) in seen


@pytest.mark.parametrize("options,message", [
    ({"joins": [[3, "Dana"]]}, "continuous"),
    ({"variant": "continuous", "leaves": [[3, "P2"]], "joins": [[3, "P2"]]}, "leave and re-enter"),
    ({"variant": "continuous", "joins": [[3, "P1"]]}, "already in the game"),
    ({"variant": "continuous", "leaves": [[3, "Zed"]]}, "not in the game"),
    ({"variant": "continuous", "joins": [[1, "Dana"]]}, "turn ≥ 2"),
    ({"variant": "continuous", "leaves": [[3, "P1"], [3, "P2"]]}, "2..6"),
    ({"variant": "sometimes"}, "variant"),
])
def test_bad_joins_and_leaves_are_rejected(options, message):
    """§10.1: a player can not leave and re-enter in the same turn; joins and leaves need
    the continuous variant and must make sense (OptionError names the problem)."""
    with pytest.raises(OptionError, match=message):
        GAME.new_game({"players": 3, **options})


def test_leave_and_rejoin_in_different_turns_is_allowed():
    """§10.1: leaving and re-entering in different turns is fine."""
    s = GAME.new_game({"players": 3, "variant": "continuous", "leaves": [[3, "P2"]], "joins": [[4, "P2"]]})
    assert s.names == ["P1", "P2", "P3"]


def test_hb_q43_leave_then_join_then_redistribute(hb):
    """HB-Q43 (§10.1): at the start of a turn leavers go first, then newcomers enter, each
    with a new nation as in §5.1 (before the invasion roll); then the leavers' nations are
    handed out by §5.3 among the players now in — a newcomer included."""
    s = _continuous(hb, players=3, turn=3, joins=[(3, "Dana")], leaves=[(3, "P3")])
    land = hb.land()
    mine = hb.nation(s, 0, {land[0]: 2})
    gone1 = hb.nation(s, 2, {land[10]: 2})
    gone2 = hb.nation(s, 2, {land[20]: 2})
    sea = hb.board.entry_seas[0]
    d = hb.run(s, ("membership",))
    assert s.active == [True, True, False, True] and s.redistributing
    assert d.kind == "hb.entry-sea" and d.player == 3  # Dana's new nation comes first
    dana = max(s.nations.values(), key=lambda n: n.id)
    assert dana.owner == 3 and dana.first_turn and dana.id not in (gone1.id, gone2.id)
    assert gone1.owner == EMPTY and gone2.owner == EMPTY
    s.dice.push(3, 1)  # the orphans are drawn to Dana and to P2
    assert hb.answer(s, hb.id(sea)) is None
    assert dana.units == {sea: 10}
    assert (gone1.owner, gone2.owner, mine.owner) == (3, 1, 0)
    assert not s.redistributing
    assert [c[1] for c in s.dice.calls] == [(0, 1, 3), (0, 1, 3)]  # P3 is never drawn
    kinds = [e.kind for e in s.events]
    assert kinds.index("player-leaves") < kinds.index("player-joins") < kinds.index("nation-enters")
    # the turn runs membership before the invasion roll
    s.restart()
    hb.call(s, "turn")
    order = [f[0] for f in s.next_frames()]
    assert order.index("membership") < order.index("invasion")


def test_redistribution_by_the_new_limits(hb):
    """§10.1, §5.3: when a player enters the limits fall; players above the new limit
    give up nations, assigned as in §5.3, after all additions and removals."""
    s = _continuous(hb, players=2, turn=3, joins=[(3, "Cy")])
    land = hb.land()
    p1 = [hb.nation(s, 0, {land[i]: 1}) for i in range(6)]
    p2 = [hb.nation(s, 1, {land[10 + i]: 1}) for i in range(2)]
    assert s.nation_limit() == 6
    d = hb.run(s, ("membership",))
    assert d.kind == "hb.entry-sea" and d.player == 2
    d = hb.answer(s, hb.id(hb.board.entry_seas[0]))
    assert s.nation_limit() == 4  # 12 sets, 3 players
    assert d.kind == "hb.excess-nation" and d.player == 0
    assert set(d.keys) == {f"give:{n.id}" for n in p1}
    s.dice.push(2)
    d = hb.answer(s, f"give:{p1[0].id}")
    assert p1[0].owner == 2 and [c[1] for c in s.dice.calls] == [(1, 2)]  # the giver is not drawn
    assert d.kind == "hb.excess-nation" and d.player == 0
    s.dice.push(1)
    assert hb.answer(s, f"give:{p1[5].id}") is None
    assert [s.owned_count(p) for p in range(3)] == [4, 3, 2]
    assert all(n.owner == 1 for n in p2) and p1[5].owner == 1
    assert hb.invariants(s) == []


def test_hb_q44_turn_markers(hb):
    """HB-Q44 (§10.2): each player has his own turn marker, 1 in the turn he enters,
    incremented at the start of every turn he is in the game; a returning player resumes
    where his marker stopped."""
    s = _continuous(hb, players=3, turn=2, joins=[(3, "Dana"), (6, "P2")], leaves=[(4, "P2")])
    assert s.markers == [1, 1, 1, 0]
    history = {}
    for turn in range(2, 8):
        s.turn = turn
        finish(hb, s, hb.run(s, ("membership",)))
        history[turn] = list(s.markers)
    assert history == {2: [2, 2, 2, 0], 3: [3, 3, 3, 1], 4: [4, 3, 4, 2],
                       5: [5, 3, 5, 3], 6: [6, 4, 6, 4], 7: [7, 5, 7, 5]}
    returns = [e.data["returning"] for e in s.events if e.kind == "player-joins"]
    assert returns == [False, True]
    # a returning player enters with a new nation as in §5.1, like a newcomer
    assert sorted(n.owner for n in s.nations.values()) == [1, 3]


def test_race_of_a_newcomer_and_of_invaders_in_continuous_play(hb):
    """§10.2: the first nation of a player who enters or re-enters rolls its race with his
    own number of turns added; invaders use the highest turn count of the players still
    in the game."""
    s = _continuous(hb, players=3, turn=9, joins=[(9, "P2")], leaves=[(5, "P2")], rules=["races"])
    s.active = [True, False, True]
    s.markers = [8, 3, 8]
    s.dice.push(1, 1)  # P2's marker 4 + 2 = 6: hogman (global turn 9 + 2 would be human-side 11: troll)
    d = hb.run(s, ("membership",))
    assert d.kind == "hb.entry-sea" and d.player == 1
    (n,) = s.nations.values()
    assert s.markers == [9, 4, 9] and n.race == "hogman"
    s.markers = [9, 4, 12]
    s.active = [True, True, False]
    s.turn = 5
    assert invader_turn(s) == 9  # neither the global turn nor the leaver's 12
    s.dice.push(1, 2, 3, 0)  # 9 + 3 = 12: human (5 + 3 would be a lizardman)
    hb.run(s, ("new_nation",))
    newest = max(s.nations.values(), key=lambda m: m.id)
    assert newest.race == "human"


def test_re_entry_resumes_the_score(hb):
    """§10.3: a player who leaves keeps his VP and turns; if he re-enters he starts from
    his old score and number of turns."""
    s = _continuous(hb, players=3, turn=4, joins=[(6, "P2")], leaves=[(4, "P2")])
    land = hb.land()
    hb.nation(s, 1, {land[0]: 1, land[1]: 1})
    s.vp = [5, 7, 5]
    s.markers = [3, 3, 3]
    s.dice.push(0)
    finish(hb, s, hb.run(s, ("membership",)))
    assert s.vp[1] == 7 and s.markers[1] == 3 and s.owned_count(1) == 0
    (e,) = [e for e in s.events if e.kind == "player-leaves"]
    assert (e.data["vp"], e.data["turns"]) == (7, 3)
    s.turn = 6
    d = hb.run(s, ("membership",))
    assert d.kind == "hb.entry-sea" and d.player == 1
    sea = hb.board.entry_seas[0]
    hb.answer(s, hb.id(sea))
    mine = next(n for n in s.nations.values() if n.owner == 1 and n.units.get(sea))
    s.shift(mine, sea, hb.coast(sea)[0])
    vp_gain(hb, s)
    assert s.vp[1] == 8 and s.markers[1] == 4


def test_hb_q45_corrected_score_ranks_players(hb):
    """HB-Q45 (§10.3): in continuous play everyone — players in the game and those who
    left — is ranked by corrected score, VP divided by turns played."""
    s = _continuous(hb, players=3, turn=15, leaves=[(10, "P2")])
    s.active = [True, False, True]
    s.vp = [30, 27, 24]
    s.markers = [15, 9, 10]
    s.over = True
    res = s.result()
    assert res["corrected_scores"] == {"P1": 2.0, "P2": 3.0, "P3": 2.4}
    assert res["turns_played"] == {"P1": 15, "P2": 9, "P3": 10}
    assert res["winner"] == "P2" and res["winners"] == ["P2"]
    # a normal game ranks by VP
    t = hb.game(players=3)
    t.vp, t.over = [30, 27, 24], True
    assert t.result()["winner"] == "P1" and "corrected_scores" not in t.result()


def test_hb_q109_newcomer_without_free_set(hb):
    """HB-Q109 (§10.1): a newcomer with no free token set gains no nation now; he can
    receive one by §5.3 assignments — here the redistribution under the new limit."""
    s = _continuous(hb, players=2, turn=3, joins=[(3, "Cy")])
    land = hb.land()
    for i in range(12):
        hb.nation(s, i % 2, {land[i * 3]: 1})
    assert not s.free_sets
    d = hb.run(s, ("membership",))
    assert [e.data["player"] for e in hb.logged(s, "no-nation")] == [2]
    assert s.owned_count(2) == 0
    assert d.kind == "hb.excess-nation"  # 6 each, the limit is now 4
    s.dice.push(2, 2, 2, 2)
    d = finish(hb, s, d)
    assert [s.owned_count(p) for p in range(3)] == [4, 4, 4]
    assert hb.invariants(s) == []


# == §11 Random scoring turns ====================================================================
def test_hb_q46_random_scoring(hb):
    """HB-Q46 (§11): a die at the end of each turn — victory points only on 4 or more;
    the last turn of a fixed length always scores, without a roll; with a VP target every
    turn rolls; the roll cancels only the victory points phase; turns without scoring
    still count."""
    s = hb.game(players=2, turn=3, turns=10, variant="random-scoring")
    land = hb.land()
    hb.nation(s, 0, {land[0]: 1, land[1]: 1})
    hb.nation(s, 1, {land[10]: 1})
    for roll, gained in ((1, [0, 0]), (3, [0, 0]), (4, [2, 1]), (6, [2, 1])):
        s.dice.push(roll)
        assert vp_gain(hb, s) == gained
        assert s.dice.left == []
    assert [e.data["roll"] for e in hb.logged(s, "no-scoring")] == [1, 3]
    s.dice.push(2)
    hb.run(s, ("victory",))
    hb.call(s, "end_turn")
    assert s.turn == 4 and not s.over and s.next_frames()[0] == ("turn",)  # an unscored turn counts
    s.restart()
    s.turn = 10
    calls = len(s.dice.calls)
    assert vp_gain(hb, s) == [2, 1] and len(s.dice.calls) == calls  # the last turn: no roll
    # Civilization's 5 VP do not depend on the roll
    civ = hb.nation(s, 1, {land[20]: 1})
    assert hb.run(s, ("do_event", civ.id, "civilization")) is None and s.vp[1] >= 5
    # a VP-target game rolls every turn (no last turn known) until max_turns
    t = hb.game(players=2, vp_target=500, variant="random-scoring", turn=40)
    hb.nation(t, 0, {land[0]: 1})
    t.dice.push(3)
    assert vp_gain(hb, t) == [0, 0]
    t.turn = t.options["max_turns"]
    assert vp_gain(hb, t) == [1, 0] and t.dice.left == []


def test_without_random_scoring_every_turn_scores(hb):
    """§7 (§11 off): no scoring roll; every turn scores."""
    s = hb.game(players=2, turn=3)
    hb.nation(s, 0, {hb.land()[0]: 1})
    assert vp_gain(hb, s) == [1, 0] and s.dice.calls == []


# == §9 combinations and whole games =============================================================
def test_hb_q47_any_combination(hb):
    """HB-Q47 (§9): the advanced rules can be included one or more at a time, in any
    combination, with either variant; each switch turns on only its own rule."""
    subsets = [list(c) for k in range(4) for c in combinations(ALL_RULES, k)]
    for rules in subsets:
        for variant in (None, "random-scoring", "continuous"):
            opts = {"players": 3, "turns": 3, "rules": list(reversed(rules)), "variant": variant}
            s = GAME.new_game(opts, 5)
            assert s.options["rules"] == rules  # rulebook order
            assert (s.races_on, s.submission_on, s.abilities_on) == tuple(r in rules for r in ALL_RULES)
            assert s.n_sets == (11 if "abilities" in rules else 12)
            memory = {inv.__name__: {} for inv in INVARIANTS}
            problems = []

            def check(st):
                for inv in INVARIANTS:
                    problem = inv(st, memory[inv.__name__])
                    if problem:
                        problems.append(problem)

            play(s, [RandomBot(bot_seed(5, i)) for i in range(3)], after_each=check)
            assert s.over and problems == [], (rules, variant)
            res = s.result()
            assert ("races" in res) is bool(rules)
            if "races" not in rules:
                assert all(n.race is None for n in s.nations.values())
            if "abilities" not in rules:
                assert all(not n.abilities for n in s.nations.values()) and s.cities == 0
            if "submission" not in rules:
                assert all(n.master == EMPTY for n in s.nations.values())
    assert GAME.new_game({"players": 3, "rules": "abilities,races"}).options["rules"] == ["races", "abilities"]
    with pytest.raises(OptionError, match="option .rules.: unknown value.*magic"):
        GAME.new_game({"players": 3, "rules": ["races", "magic"]})


@pytest.mark.parametrize("variant,extra", [
    (None, {}),
    ("random-scoring", {}),
    ("continuous", {}),
    ("continuous", {"joins": [[3, "Eve"]], "leaves": [[6, "P2"]]}),
])
def test_full_games_summary_has_the_advanced_fields(variant, extra):
    """The JSON summary of a game with all advanced rules gains ``races`` (race →
    nations that had it), ``abilities`` (ability → times gained), ``submissions``,
    ``absorptions`` and ``cities_built``, agreeing with the chronicle."""
    totals = {"submissions": 0, "abilities": 0}
    for seed in range(3):
        opts = {"players": 4, "rules": ALL_RULES, "variant": variant, **extra}
        state = run_game(GAME, opts, seed, ["random"])
        out = summary(state)
        json.loads(json.dumps(out))
        assert state.over and out["options"]["variant"] == variant
        assert set(out["races"]) <= set(RACES) and out["races"]
        assert all(isinstance(v, list) and all(isinstance(x, str) for x in v) for v in out["races"].values())
        assert set(out["abilities"]) <= set(ABILITIES)
        assert all(isinstance(v, int) and v > 0 for v in out["abilities"].values())
        counts = out["event_counts"]
        assert out["submissions"] == counts.get("submission", 0)
        assert out["absorptions"] == counts.get("absorption", 0)
        assert out["cities_built"] == counts.get("city-built", 0)
        assert sum(out["abilities"].values()) == counts.get("ability", 0)
        assert sum(len(v) for v in out["races"].values()) == counts.get("race", 0)
        totals["submissions"] += out["submissions"]
        totals["abilities"] += sum(out["abilities"].values())
        if variant == "continuous":
            assert set(out["corrected_scores"]) == set(out["players"])
        if variant == "random-scoring":
            assert counts.get("scoring", 0) + counts.get("no-scoring", 0) == out["turns"] - 1
    assert totals["submissions"] > 0 and totals["abilities"] > 0


def test_summary_without_advanced_rules_has_no_advanced_fields():
    """The advanced fields belong to games with advanced rules."""
    out = summary(run_game(GAME, {"players": 4, "turns": 3}, 0, ["random"]))
    assert not {"races", "abilities", "submissions", "absorptions", "cities_built"} & set(out)


def test_cli_switches_rules_variant_joins_and_leaves(capsys):
    """The rules and variants are switched on from the CLI too —
    ``--rules races,submission,abilities --variant continuous --join 3:Dana --leave 5:P2``
    — and a leave and re-entry in one turn is refused with a one-line error (§10.1)."""
    from realms.cli import main

    code = main(["simulate", "hy-breasil", "--rules", "races,submission,abilities", "--variant", "continuous",
                 "--join", "3:Dana", "--leave", "5:P2", "--turns", "6", "--seed", "3", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    data = json.loads(out.out)
    assert data["options"]["rules"] == ALL_RULES and data["options"]["variant"] == "continuous"
    assert data["options"]["joins"] == [[3, "Dana"]] and data["options"]["leaves"] == [[5, "P2"]]
    assert data["players"] == ["P1", "P2", "P3", "P4", "Dana"]
    assert data["turns_played"] == {"P1": 6, "P2": 4, "P3": 6, "P4": 6, "Dana": 4}
    for key in ("races", "abilities", "submissions", "absorptions", "cities_built", "corrected_scores"):
        assert key in data
    code = main(["simulate", "hy-breasil", "--variant", "random-scoring", "--turns", "3", "--seed", "1", "--json"])
    out = capsys.readouterr()
    assert code == 0 and json.loads(out.out)["options"]["variant"] == "random-scoring"
    code = main(["simulate", "hy-breasil", "--variant", "continuous", "--join", "3:P2", "--leave", "3:P2"])
    err = capsys.readouterr().err
    assert code != 0 and err.count("\n") == 1 and "re-enter" in err
