"""Hy Breasil base rules, §1–8 of the rulebook (shared/rules/hy-breasil.txt).

Each test builds a position with the ``hb`` scenario builder (conftest.py), scripts the
dice, runs the step machine and checks the state against the rule it cites.
"""

from __future__ import annotations

import pytest

from realms.games.hy_breasil import GAME
from realms.games.hy_breasil.combat import (
    AREA, ATT, DEF, AU, AW, DU, DW, attacker_needs, hit_outcomes,
)
from realms.games.hy_breasil.population import pips
from realms.games.hy_breasil.support import parts



# -- small scenario pieces ----------------------------------------------------------------


def move_keys(d):
    return {k for k in d.keys if ">" in k}


def dests(hb, d, src):
    prefix = hb.id(src) + ">"
    return {k.split(">")[1] for k in d.keys if k.startswith(prefix)}


# == §3 Game length ============================================================================
def test_game_lasts_the_agreed_number_of_turns(hb):
    """§3: a fixed number of turns — the game ends after the last one, not before."""
    s = hb.game(players=3, turns=4)
    s.turn = 3
    hb.call(s, "end_turn")
    assert not s.over and s.turn == 4 and s.next_frames()[0] == ("turn",)
    s.restart()
    hb.call(s, "end_turn")
    assert s.over and s.turn == 4 and not s.next_frames()
    assert s.result()["turns"] == 4


def test_game_ends_when_a_player_reaches_the_vp_target(hb):
    """§3: a minimum number of VP — the game ends once a player has reached it."""
    s = hb.game(players=2, vp_target=50)
    s.vp = [49, 12]
    hb.call(s, "end_turn")
    assert not s.over and s.turn == 3
    s.restart()
    s.vp = [50, 12]
    hb.call(s, "end_turn")
    assert s.over
    assert s.result()["winner"] == "P1"


def test_a_whole_short_game_plays_to_its_length():
    """§3, §4, §7: a 2-turn game of 3 players runs invasion, nation and victory phases twice."""
    prefer = ("done", "accept", "stay", "stop", "refuse")
    s = GAME.new_game({"players": 3, "turns": 2}, 11)
    steps = 0
    while s.pending():
        d = s.pending()[0]
        s.apply(d.player, next((k for k in prefer if k in d.keys), d.keys[0]))
        steps += 1
        assert steps < 5000
    assert s.over and s.turn == 2
    kinds = [e.kind for e in s.events]
    assert kinds.count("turn") == 2 and kinds.count("victory-points") == 2
    assert kinds[-1] == "game-over"


# == §5.1 The first turn =======================================================================
def test_first_turn_one_nation_each_in_random_order_ten_units_at_sea(hb):
    """§5.1: in random order each player receives one nation of 10 units placed in a sea
    area of his choice (not an inland sea); one more token goes in the nation order cup."""
    s = hb.game(players=3, turn=1)
    b = hb.board
    s.dice.push([2, 0, 1])
    d = hb.run(s, ("invasion",))
    order, chosen = [], {}
    seas = list(b.entry_seas)
    while d is not None:
        assert d.kind == "hb.entry-sea"
        assert set(d.keys) == hb.ids(b.entry_seas)
        assert not set(d.keys) & hb.ids(hb.inland_seas())
        sea = seas[len(order)]
        order.append(d.player)
        chosen[d.player] = sea
        d = hb.answer(s, hb.id(sea))
    assert order == [2, 0, 1]
    assert sorted(n.owner for n in s.nations.values()) == [0, 1, 2]
    for n in s.nations.values():
        assert n.units == {chosen[n.owner]: 10}
        assert n.pool == 15 - 10 - 1  # the eleventh token is in the cup
        assert n.start_sea == chosen[n.owner]
    hb.run(s, ("fill_cup",))
    assert sorted(s.cup) == sorted(s.nations)


def test_first_turn_nation_gets_strong_leader_without_a_roll(hb):
    """§6.1: a nation does not roll for events in its first turn; it gets Strong leader."""
    s = hb.game(players=2, turn=1)
    sea = hb.board.entry_seas[0]
    n = hb.nation(s, 0, {sea: 10}, start_sea=sea, first_turn=True)
    d = hb.run(s, ("nation_turn", n.id))
    assert s.dice.calls == []  # no event die was rolled
    assert n.phases == 2
    assert [e.data["event"] for e in hb.logged(s, "event")] == ["strong-leader"]
    assert d.kind == "hb.move" and "done" not in d.keys  # units at sea must land


# == §5.2 Subsequent turns =====================================================================
@pytest.mark.parametrize("roll,count", [(1, 0), (2, 0), (3, 1), (4, 1), (5, 1), (6, 2)])
def test_invasion_roll_decides_how_many_nations_enter(hb, roll, count):
    """§5.2: 1–2 no new nations, 3–5 one, 6 two."""
    s = hb.game(players=3)
    s.dice.push(roll)
    for i in range(count):
        s.dice.push(3, i)  # units die, then the player drawn
    sea = hb.board.entry_seas[0]
    d = hb.run(s, ("invasion",))
    while d is not None:
        assert d.kind == "hb.entry-sea"
        d = hb.answer(s, hb.id(sea))
    assert len(s.nations) == count
    assert s.dice.left == []


def test_new_nation_has_a_die_plus_four_units(hb):
    """§5.2 step 2: a die is rolled and 4 added: 5–10 units appear in the chosen sea."""
    sea = hb.board.entry_seas[1]
    for die in range(1, 7):
        s = hb.game(players=2)
        s.dice.push(die, 1)
        d = hb.run(s, ("new_nation",))
        assert d.kind == "hb.entry-sea" and d.player == 1
        hb.answer(s, hb.id(sea))
        (n,) = s.nations.values()
        assert n.units == {sea: die + 4} and n.owner == 1 and n.first_turn


def test_first_new_nation_assigned_before_second_is_rolled(hb):
    """§5.2: with two new nations the first is assigned (and placed) before the number of
    units of the second is rolled; two new nations may start in the same sea area."""
    s = hb.game(players=3)
    sea = hb.board.entry_seas[2]
    s.dice.push(6, 2, 1, 5, 0)
    d = hb.run(s, ("invasion",))
    assert [c[0] for c in s.dice.calls] == ["d6", "d6", "pick"]
    assert d.kind == "hb.entry-sea" and d.player == 1 and len(s.nations) == 1
    d = hb.answer(s, hb.id(sea))
    assert [c[0] for c in s.dice.calls] == ["d6", "d6", "pick", "d6", "pick"]
    assert d.kind == "hb.entry-sea" and d.player == 0
    assert hb.answer(s, hb.id(sea)) is None
    first, second = sorted(s.nations.values(), key=lambda n: n.id)
    assert (first.owner, first.units) == (1, {sea: 6})
    assert (second.owner, second.units) == (0, {sea: 9})


def test_only_as_many_nations_as_free_sets(hb):
    """§5.2: only as many nations appear as there are unused token sets; none if none."""
    s = hb.game(players=2)
    hb.use_up_sets(s, keep=1)
    s.dice.push(6, 1, 0)
    d = hb.run(s, ("invasion",))
    assert d.kind == "hb.entry-sea"
    assert hb.answer(s, hb.id(hb.board.entry_seas[0])) is None
    assert not s.free_sets and len(s.nations) == 12
    before = dict(s.nations)
    s.dice.push(6)
    assert hb.run(s, ("invasion",)) is None
    assert s.nations == before


# == §5.3 Nation limit =========================================================================
@pytest.mark.parametrize("players,limit", [(2, 6), (3, 4), (4, 3), (5, 3), (6, 2)])
def test_nation_limit_table(hb, players, limit):
    """§5.3: with 12 token sets the limit is 6, 4, 3, 3, 2 nations for 2..6 players."""
    assert hb.game(players=players).nation_limit() == limit


def test_player_at_limit_may_refuse_and_the_nation_goes_to_another(hb):
    """§5.3: a player at the limit may refuse; the nation is assigned randomly again."""
    s = hb.game(players=6)
    a = hb.nation(s, 0, {hb.land()[0]: 1})
    b = hb.nation(s, 0, {hb.land()[10]: 1})
    new = s.create_nation()
    s.dice.push(0, 3)
    d = hb.run(s, ("assign", new.id, ()))
    assert d.kind == "hb.nation-limit" and d.player == 0
    assert set(d.keys) == {"refuse", f"relinquish:{a.id}", f"relinquish:{b.id}"}
    assert hb.answer(s, "refuse") is None
    assert new.owner == 3 and a.owner == b.owner == 0


def test_player_at_limit_may_relinquish_a_nation_which_keeps_its_pieces(hb):
    """§5.3: relinquishing hands an existing nation, pieces and all, to a random player."""
    s = hb.game(players=6)
    x, y = hb.land()[0], hb.land()[10]
    a = hb.nation(s, 0, {x: 3})
    b = hb.nation(s, 0, {y: 2})
    new = s.create_nation()
    s.dice.push(0, 4)
    hb.run(s, ("assign", new.id, ()))
    assert hb.answer(s, f"relinquish:{a.id}") is None
    assert new.owner == 0 and a.owner == 4 and b.owner == 0
    assert a.units == {x: 3} and s.area_nation[x] == a.id


# == §6 Nation order ===========================================================================
def test_nations_play_in_the_order_drawn_from_the_cup(hb):
    """§6: a token is drawn from the cup, that nation plays, then the next is drawn."""
    s = hb.game(players=3)
    ns = [hb.nation(s, p, {hb.land()[5 * p]: 2}) for p in range(3)]
    hb.call(s, "fill_cup")
    assert sorted(s.cup) == sorted(n.id for n in ns)
    s.dice.push(1)
    hb.call(s, "nation_phase")
    drawn = ns[1].id
    assert s.next_frames()[:2] == (("nation_turn", drawn), ("nation_phase",))
    assert drawn not in s.cup and len(s.cup) == 2
    s.restart()
    s.cup = []
    hb.call(s, "nation_phase")
    assert s.next_frames() == ()  # an empty cup ends the nation phase


# == §6.1 Random events ========================================================================
EVENT_TABLE = {
    1: "reinforcements", 2: "strong-leader", 3: "religious-fervour", 4: "civilization",
    5: "plague", 6: "weak-leader", 7: "strong-leader", 8: "civil-war", 9: "civilization",
    10: "famine", 11: "weak-leader", 12: "civil-war", 13: "civil-war", 17: "civil-war",
}


@pytest.mark.parametrize("total", sorted(EVENT_TABLE))
def test_event_table_die_plus_civilization_tokens(hb, total):
    """§6.1 table 1: die + civilization tokens gives the event; 12 or more is Civil war."""
    s = hb.game(players=2)
    x, y = hb.pair(hb.adjacent, hb.land())
    die = (total - 1) % 6 + 1 if total <= 12 else 5
    n = hb.nation(s, 0, {x: 1, y: 1}, civ=total - die)
    s.dice.push(die)
    d = hb.run(s, ("event", n.id))
    assert d.kind == "hb.event" and d.player == 0
    assert s.waiting_frame() == ("event_choice", n.id, EVENT_TABLE[total], die)


def test_reroll_takes_a_token_and_adds_the_new_count(hb):
    """§6.1: a bad event may be rerolled by taking a civilization token; the reroll adds the
    new, larger number of tokens to the die."""
    s = hb.game(players=2)
    x = hb.land()[0]
    n = hb.nation(s, 0, {x: 3})
    s.dice.push(1, 3)
    d = hb.run(s, ("event", n.id))
    assert s.waiting_frame()[2] == "reinforcements"
    d = hb.answer(s, "reroll")
    assert (n.civ, n.pool, n.units) == (1, 10, {x: 3})
    assert s.waiting_frame() == ("event_choice", n.id, "civilization", 3)  # 3 + 1 token = 4


def test_reinforcements_arrive_in_the_starting_sea(hb):
    """§6.1 Reinforcements: a die's worth of units in the sea area the nation started from."""
    s = hb.game(players=2)
    sea = hb.board.entry_seas[0]
    x = hb.coast(sea)[0]
    n = hb.nation(s, 0, {x: 3}, start_sea=sea)
    s.dice.push(4)
    assert hb.run(s, ("do_event", n.id, "reinforcements")) is None
    assert n.units == {x: 3, sea: 4} and n.pool == 15 - 1 - 7


def test_reinforcements_limited_by_unused_tokens(hb):
    """§6.1 Reinforcements: with too few unused tokens, as many as there are."""
    s = hb.game(players=2)
    sea = hb.board.entry_seas[0]
    x, y = hb.land()[:2]
    n = hb.nation(s, 0, {x: 6, y: 6}, start_sea=sea)
    assert n.pool == 2
    s.dice.push(5)
    hb.run(s, ("do_event", n.id, "reinforcements"))
    assert n.units[sea] == 2 and n.pool == 0


def test_weak_leader_may_not_attack(hb):
    """§6.1 Weak leader: the nation may not initiate combat — not even against a nation of
    the same player — but may still move into empty land."""
    s = hb.game(players=2)
    x = hb.first((a for a in hb.land() if len(hb.land_nbrs(a)) >= 3), "area with 3 land neighbours")
    y1, y2, e = hb.land_nbrs(x)[:3]
    n = hb.nation(s, 0, {x: 3})
    hb.nation(s, 0, {y1: 1})
    hb.nation(s, 1, {y2: 1})
    d = hb.run(s, ("move", n.id, 1))
    assert {hb.mv(x, y1), hb.mv(x, y2), hb.mv(x, e)} <= set(d.keys)
    n.weak = True
    d = hb.run(s, ("move", n.id, 1))
    assert hb.mv(x, e) in d.keys
    assert not {k for k in d.keys if ">" in k and s.area_nation[hb.a(k.split(">")[1])] not in (-1, n.id)}


@pytest.mark.parametrize("terrain,die", [("plains", 3), ("forest", 4), ("hills", 4)])
def test_religious_fervour_adds_one_to_attack_dice(hb, terrain, die):
    """§6.1 Religious fervour: +1 to the die rolls of combat the nation initiates, so a 3
    hits in plains and a 4 in hills or forest, which would miss without it."""
    for fervour, wounded in ((False, 0), (True, 1)):
        s = hb.game(players=2)
        p, q = hb.pair(lambda x, y: hb.board.terrain[x] == terrain and hb.adjacent(x, y), hb.land())
        att = hb.nation(s, 0, {q: 2})
        dfd = hb.nation(s, 1, {p: 2})
        att.fervour = fervour
        hb.attack(s, att, q, p, 1, dice=(die, 1, 1))
        assert hb.battle_state(s) == (1, 0, 2 - wounded, wounded)


def test_plague_removes_own_units_then_up_to_the_die_from_neighbours(hb):
    """§6.1 Plague: the nation loses a die's worth of units (its owner picks them); the owner
    may then remove up to that many units of other nations bordering where units died."""
    s = hb.game(players=2)
    x, w = hb.far_apart(2, gap=4, pred=lambda a: len(hb.land_nbrs(a)) >= 2)
    xn1, xn2 = hb.land_nbrs(x)[:2]
    wn = hb.land_nbrs(w)[0]
    p = hb.nation(s, 0, {x: 3, w: 3})
    q = hb.nation(s, 1, {xn1: 2})
    r = hb.nation(s, 1, {xn2: 2})
    t = hb.nation(s, 1, {wn: 2})
    s.dice.push(2)
    d = hb.run(s, ("do_event", p.id, "plague"))
    assert d.kind == "hb.plague-own" and d.player == 0 and set(d.keys) == hb.ids([x, w])
    d = hb.answer(s, hb.id(x))
    d = hb.answer(s, hb.id(x))
    assert p.units == {x: 1, w: 3}
    assert d.kind == "hb.plague-neighbour" and d.player == 0
    assert set(d.keys) == {"stop"} | hb.ids([xn1, xn2])
    d = hb.answer(s, hb.id(xn1))
    d = hb.answer(s, hb.id(xn2))
    assert d is None  # the die (2) is used up
    assert (q.units, r.units, t.units) == ({xn1: 1}, {xn2: 1}, {wn: 2})


def test_plague_neighbour_removals_are_optional(hb):
    """§6.1 Plague: the owner *can* remove up to the die from neighbours — he may stop."""
    s = hb.game(players=2)
    x = hb.land()[0]
    y = hb.land_nbrs(x)[0]
    p = hb.nation(s, 0, {x: 4})
    q = hb.nation(s, 1, {y: 3})
    s.dice.push(3)
    d = hb.run(s, ("do_event", p.id, "plague"))
    assert d.kind == "hb.plague-neighbour"
    assert hb.answer(s, "stop") is None
    assert p.units == {x: 1} and q.units == {y: 3}


def test_plague_larger_than_the_nation_removes_it_but_neighbours_still_suffer(hb):
    """§6.1 Plague, §8: with fewer units than the die all are removed and the nation leaves
    play; the owner can still remove up to the rolled number from neighbouring areas."""
    s = hb.game(players=2)
    x = hb.land()[0]
    y = hb.land_nbrs(x)[0]
    p = hb.nation(s, 0, {x: 2})
    q = hb.nation(s, 1, {y: 3})
    s.dice.push(4)
    d = hb.run(s, ("do_event", p.id, "plague"))
    assert p.id not in s.nations and p.set in s.free_sets and s.area_nation[x] == -1
    assert d.kind == "hb.plague-neighbour" and d.player == 0 and hb.id(y) in d.keys
    d = hb.answer(s, hb.id(y))
    d = hb.answer(s, hb.id(y))
    assert q.units == {y: 1}
    assert hb.answer(s, hb.id(y)) is None
    assert q.id not in s.nations


@pytest.mark.parametrize("famine,grown", [(False, 1), (True, 0)])
def test_famine_gives_no_population_increase(hb, famine, grown):
    """§6.1 Famine: the nation receives no population increase points this turn."""
    s = hb.game(players=2)
    areas = hb.of_terrain("plains")[:3]
    n = hb.nation(s, 0, {a: 1 for a in areas})
    n.famine = famine
    d = hb.run(s, ("population", n.id))
    while d is not None:
        d = hb.answer(s, d.keys[0])
    assert n.board == 3 + grown


@pytest.mark.parametrize("areas", [2, 3, 4, 5])
def test_civil_war_splits_off_half_the_areas_rounded_down(hb, areas):
    """§6.1 Civil war: the owner picks half the areas (rounded down) for a new nation on an
    unused set, with the same civilization tokens and a token in the cup; the replaced
    tokens go back to the old nation's pool; the new nation is assigned as in §5.3."""
    s = hb.game(players=3)
    sea = hb.board.entry_seas[0]
    start = hb.first(a for a in hb.land() if not hb.seas_of(a))
    land = hb.connected_land(start, areas)
    old = hb.nation(s, 0, {a: 2 for a in land}, civ=2, start_sea=sea, cup=True)
    pool = old.pool
    s.dice.push(2)  # the new nation goes to player 2
    d = hb.run(s, ("do_event", old.id, "civil-war"))
    while d is not None and d.kind == "hb.civil-war-area":
        assert d.player == 0
        d = hb.answer(s, d.keys[0])
    assert d is None
    (new,) = [n for n in s.nations.values() if n.id != old.id]
    assert len(s.land_areas(new)) == areas // 2
    assert len(s.land_areas(old)) == areas - areas // 2
    assert sorted(s.land_areas(new) + s.land_areas(old)) == sorted(land)
    assert all(c == 2 for c in new.units.values())
    assert new.set == 1 and new.civ == 2 and new.owner == 2
    assert new.id in s.cup
    assert old.pool == pool + 2 * (areas // 2)
    assert hb.conserved(new, s) and hb.conserved(old, s)
    assert hb.invariants(s) == []


def test_civil_war_new_nation_can_go_to_the_same_player(hb):
    """§6.1 Civil war: the new nation is assigned randomly — it can be the old owner's."""
    s = hb.game(players=2)
    x, y = hb.pair(hb.adjacent, hb.land())
    old = hb.nation(s, 0, {x: 2, y: 2})
    s.dice.push(0)
    d = hb.run(s, ("civil_war", old.id))
    hb.answer(s, hb.id(y))
    new = s.nations[s.area_nation[y]]
    assert new is not old and new.owner == 0 and old.units == {x: 2}


def test_civil_war_impossible_with_one_area_is_rerolled_free(hb):
    """§6.1 Civil war: a nation occupying only one area cannot have civil war; a new event
    is rolled (without taking a civilization token)."""
    s = hb.game(players=2)
    x = hb.land()[0]
    n = hb.nation(s, 0, {x: 4}, civ=2)
    s.dice.push(6, 1)  # 6 + 2 = 8: civil war; then 1 + 2 = 3
    d = hb.run(s, ("event", n.id))
    assert s.waiting_frame() == ("event_choice", n.id, "religious-fervour", 1)
    assert (n.civ, n.pool) == (2, 8)
    assert "event-reroll-free" in hb.kinds_logged(s)


def test_civil_war_impossible_without_a_free_set_is_rerolled(hb):
    """§6.1 Civil war: with no unused token sets civil war cannot occur; roll again."""
    s = hb.game(players=2)
    x, y = hb.pair(hb.adjacent, hb.land())
    n = hb.nation(s, 0, {x: 2, y: 2}, civ=2)
    hb.use_up_sets(s)
    s.dice.push(6, 1)  # 6 + 2 = 8: civil war, impossible; then 1 + 2 = 3
    hb.run(s, ("event", n.id))
    assert s.waiting_frame() == ("event_choice", n.id, "religious-fervour", 1)
    assert (n.civ, n.pool) == (2, 8)


def test_civilization_gives_five_vp_and_a_token(hb):
    """§6.1 Civilization: the nation gains 5 VP (for its owner) and a civilization token."""
    s = hb.game(players=2)
    n = hb.nation(s, 1, {hb.land()[0]: 3})
    s.vp = [7, 7]
    assert hb.run(s, ("do_event", n.id, "civilization")) is None
    assert s.vp == [7, 12]
    assert (n.civ, n.pool, n.board) == (1, 10, 3)


# == §6.2 Population increase ==================================================================
@pytest.mark.parametrize(
    "terrains,expected_pips,grown",
    [
        (("plains",) * 3, 9, 1),
        (("plains", "plains", "forest"), 8, 1),
        (("plains", "forest", "hills"), 7, 1),
        (("forest",) * 3, 6, 0),
        (("hills",) * 3, 6, 0),
        (("plains",) * 5, 15, 2),
        (("forest",) * 7, 14, 2),
        (("hills",) * 6 + ("plains",), 15, 2),
    ],
)
def test_population_pips_by_terrain_one_unit_per_seven(hb, terrains, expected_pips, grown):
    """§6.2: 3 PIPs per plains area, 2 per forest or hills area; one new unit per 7 PIPs
    (rounded down), taken from unused tokens and placed in areas the nation occupies."""
    s = hb.game(players=2)
    used: list[int] = []
    for t in terrains:
        used.append(hb.first(a for a in hb.of_terrain(t) if a not in used))
    n = hb.nation(s, 0, {a: 1 for a in used})
    assert pips(s, n) == expected_pips
    d = hb.run(s, ("population", n.id))
    while d is not None:
        assert d.kind == "hb.place"
        d = hb.answer(s, d.keys[0])
    assert n.board == len(terrains) + grown
    assert set(n.units) == set(used)


def test_population_at_most_one_new_unit_per_area_and_mandatory(hb):
    """§6.2: no more than one new unit in any one area; the increase is mandatory (there is
    no option to decline), and the PIPs are not saved."""
    s = hb.game(players=2)
    land = hb.of_terrain("plains")[:5]
    n = hb.nation(s, 0, {a: 1 for a in land})
    d = hb.run(s, ("population", n.id))
    assert d.kind == "hb.place" and set(d.keys) == hb.ids(land)
    first = land[2]
    d = hb.answer(s, hb.id(first))
    assert d.kind == "hb.place" and set(d.keys) == hb.ids(land) - {hb.id(first)}
    assert hb.answer(s, d.keys[0]) is None
    assert n.board == 7 and n.units[first] == 2
    assert sorted(n.units.values()) == [1, 1, 1, 2, 2]


def test_population_limited_by_unused_tokens(hb):
    """§6.2: the nation's units on the board are limited by the tokens available."""
    s = hb.game(players=2)
    land = hb.of_terrain("plains")[:5]
    n = hb.nation(s, 0, dict(zip(land, (3, 3, 3, 2, 2))))
    assert n.pool == 1 and pips(s, n) == 15
    d = hb.run(s, ("population", n.id))
    assert d.kind == "hb.place"
    assert hb.answer(s, d.keys[0]) is None
    assert n.board == 14 and n.pool == 0


# == §6.3 Movement =============================================================================
def test_move_at_most_two_type_b_steps(hb):
    """§6.3: outside its own land a unit makes at most two type-B steps: it reaches exactly
    the land areas one or two steps away (over land or sea)."""
    s = hb.game(players=2)
    x = hb.first(a for a in hb.land() if hb.seas_of(a))
    n = hb.nation(s, 0, {x: 1})
    d = hb.run(s, ("move", n.id, 1))
    dist = hb.dist(x)
    want = {hb.id(v) for v in hb.land() if 1 <= dist[v] <= 2}
    assert dests(hb, d, x) == want


def test_type_a_steps_inside_own_land_are_free(hb):
    """§6.3: any number of type-A steps between areas the nation occupies, then two type-B."""
    s = hb.game(players=2)
    x, y = hb.pair(
        lambda x, y: hb.adjacent(x, y)
        and any(hb.dist(y)[t] == 2 and hb.dist(x)[t] == 3 for t in hb.land()),
        hb.land(),
    )
    t = hb.first(t for t in hb.land() if hb.dist(y)[t] == 2 and hb.dist(x)[t] == 3)
    n = hb.nation(s, 0, {x: 1})
    d = hb.run(s, ("move", n.id, 1))
    assert hb.mv(x, t) not in d.keys
    s.add_units(n, y, 1)
    d = hb.run(s, ("move", n.id, 1))
    assert hb.mv(x, t) in d.keys


def test_entering_another_nations_land_stops_the_unit_even_of_the_same_player(hb):
    """§6.3: no unit may continue moving after entering land occupied by another nation,
    even one owned by the same player (entering it is an attack)."""
    s = hb.game(players=2)

    def blocked(x, y):
        if not hb.adjacent(x, y):
            return False
        d, around = hb.dist(x), hb.dist(x, avoid=[y])
        return any(d[t] == 2 and around.get(t, 9) > 2 for t in hb.land())

    x, y = hb.pair(blocked, hb.land())
    t = hb.first(t for t in hb.land() if hb.dist(x)[t] == 2 and hb.dist(x, avoid=[y]).get(t, 9) > 2)
    n = hb.nation(s, 0, {x: 2})
    d = hb.run(s, ("move", n.id, 1))
    assert hb.mv(x, t) in d.keys  # with y empty, t is two steps away
    hb.nation(s, 0, {y: 1})
    d = hb.run(s, ("move", n.id, 1))
    assert hb.mv(x, y) in d.keys and hb.mv(x, t) not in d.keys


def test_no_unit_ends_its_move_at_sea(hb):
    """§6.3: no unit can end its movement in a sea area: seas are never destinations, and
    the phase cannot be ended while units at sea can still land."""
    s = hb.game(players=2)
    sea = hb.board.entry_seas[0]
    x = hb.coast(sea)[0]
    n = hb.nation(s, 0, {sea: 2, x: 1})
    d = hb.run(s, ("move", n.id, 1))
    assert all(not hb.board.is_sea[hb.a(k.split(">")[1])] for k in move_keys(d))
    assert "done" not in d.keys
    d = hb.answer(s, hb.mv(sea, x))
    assert "done" not in d.keys
    d = hb.answer(s, hb.mv(sea, x))
    assert n.units == {x: 3}
    assert d is not None and "done" in d.keys


def test_each_unit_moves_once_per_phase(hb):
    """§6.3, §6.3.3: units move one at a time and each unit moves only once."""
    s = hb.game(players=2)
    x = hb.first(a for a in hb.land() if len(hb.land_nbrs(a)) >= 2)
    e1, e2 = hb.land_nbrs(x)[:2]
    n = hb.nation(s, 0, {x: 2})
    d = hb.run(s, ("move", n.id, 1))
    d = hb.answer(s, hb.mv(x, e1))
    assert {k.split(">")[0] for k in move_keys(d)} == {hb.id(x)}  # the mover is spent
    d = hb.answer(s, hb.mv(x, e2))
    assert d is None  # every unit has moved: the phase is over
    assert n.units == {e1: 1, e2: 1}


# == §6.3.1 Combat =============================================================================
def _star_and_moon(hb, terrain):
    s = hb.game(players=2)
    p, q = hb.pair(lambda x, y: hb.board.terrain[x] in terrain and hb.adjacent(x, y), hb.land())
    star = hb.nation(s, 0, {q: 4})
    moon = hb.nation(s, 1, {p: 2})
    return s, p, q, star, moon


def test_rulebook_example_star_attacks_moon_in_plains(hb):
    """§6.3.1 example: 3 "star" units attack 2 "moon" units in plains. Star rolls 2, 4, 6 and
    moon 3, 4: star applies both hits to one moon army, which is removed; moon wounds one
    star army. Two unhurt and one wounded star armies and one unhurt moon army remain (the
    draft's "one unhurt" is a slip: RULINGS HB-Q110)."""
    s, p, q, star, moon = _star_and_moon(hb, ("plains",))
    d = hb.attack(s, star, q, p, 3, dice=(2, 4, 6, 3, 4))
    assert d.kind == "hb.assign-hits" and d.player == 0  # star decides how its hits fall
    assert set(d.keys) == {"u1w0", "u0w2"}
    d = hb.answer(s, "u1w0")
    assert hb.battle_state(s) == (2, 1, 1, 0)
    assert moon.units == {p: 1} and moon.pool == 15 - 1 - 1
    assert star.board == 4  # a wounded army is still on the map
    assert d.kind == "hb.retreat" and d.player == 1  # the next round, unless someone retreats


@pytest.mark.parametrize("terrain", ["hills", "forest"])
def test_rulebook_example_in_hills_or_forest_the_star_four_misses(hb, terrain):
    """§6.3.1 example: in hills or forest star's 4 does not count (the attacker needs 5+),
    while the defender still hits on 4: both score one hit."""
    s, p, q, star, moon = _star_and_moon(hb, (terrain,))
    d = hb.attack(s, star, q, p, 3, dice=(2, 4, 6, 3, 4))
    assert hb.battle_state(s) == (2, 1, 1, 1)
    assert moon.units == {p: 2}
    assert d is None or d.kind == "hb.retreat"


def _by_hand(unhurt, wounded, hits):
    """Apply ``hits`` one at a time in every possible way (the reference for §6.3.1)."""
    states = {(unhurt, wounded)}
    for _ in range(hits):
        nxt = set()
        for u, w in states:
            if u + w == 0:
                nxt.add((0, 0))  # nothing left to hit: no hit on a killed army
            if u:
                nxt.add((u - 1, w + 1))  # wound an unhurt army
            if w:
                nxt.add((u, w - 1))  # kill a wounded army
        states = nxt
    return states


def test_a_hit_wounds_an_unhurt_army_and_kills_a_wounded_one(hb):
    """§6.3.1: one hit wounds an unhurt army, a hit to a wounded army kills it (also one
    wounded earlier in the round); all hits must be applied, never to killed armies."""
    assert hit_outcomes(2, 0, 1) == [(1, 1)]
    assert sorted(hit_outcomes(2, 0, 2)) == [(0, 2), (1, 0)]
    assert sorted(hit_outcomes(1, 1, 1)) == [(0, 2), (1, 0)]
    assert hit_outcomes(1, 1, 2) == [(0, 1)]
    assert hit_outcomes(2, 1, 9) == [(0, 0)]
    for u in range(5):
        for w in range(5):
            for h in range(1, 10):
                if u + w:
                    assert set(hit_outcomes(u, w, h)) == _by_hand(u, w, h), (u, w, h)


def test_the_defender_allocates_its_own_hits(hb):
    """§6.3.1: it is the player who rolled a die that decides which enemy army it hits."""
    s = hb.game(players=2)
    p, q = hb.pair(lambda x, y: hb.board.terrain[x] == "plains" and hb.adjacent(x, y), hb.land())
    att = hb.nation(s, 0, {q: 3})
    dfd = hb.nation(s, 1, {p: 2})
    d = hb.attack(s, att, q, p, 2, dice=(1, 1, 5, 6))
    assert d.kind == "hb.assign-hits" and d.player == 1
    assert set(d.keys) == {"u1w0", "u0w2"}
    hb.answer(s, "u0w2")
    assert hb.battle_state(s) == (0, 2, 2, 0)


def test_wounded_armies_heal_when_the_battle_ends(hb):
    """§6.3.1: after the battle wounded units return to unhurt; §6.3.3: units that have not
    moved may attack the area again, and the surviving defenders are attacked afresh."""
    s = hb.game(players=2)
    p, q = hb.pair(lambda x, y: hb.board.terrain[x] == "plains" and hb.adjacent(x, y), hb.land())
    att = hb.nation(s, 0, {q: 3})
    dfd = hb.nation(s, 1, {p: 2})
    d = hb.attack(s, att, q, p, 1, dice=(6, 6, 6))
    # the lone attacker wounded one defender and died
    assert s.battle is None and dfd.units == {p: 2} and att.units == {q: 2}
    assert d.kind == "hb.move" and hb.mv(q, p) in d.keys  # unmoved units may attack
    d = hb.answer(s, hb.mv(q, p))
    assert hb.battle_state(s) == (1, 0, 2, 0)  # the defenders start the new battle healed
    assert set(d.keys) == {hb.mv(q, p), "fight"}


def test_survivors_of_a_won_battle_do_not_move_again(hb):
    """§6.3.3: each unit moves only once, so attackers that won stay in the taken area."""
    s = hb.game(players=2)
    p, q = hb.pair(lambda x, y: hb.board.terrain[x] == "plains" and hb.adjacent(x, y)
                   and len(hb.land_nbrs(x)) >= 3, hb.land())
    att = hb.nation(s, 0, {q: 3})
    dfd = hb.nation(s, 1, {p: 1})
    d = hb.attack(s, att, q, p, 2, dice=(6, 6, 1))
    assert dfd.id not in s.nations and att.units == {q: 1, p: 2}
    assert s.area_nation[p] == att.id
    assert d.kind == "hb.move"
    assert {k.split(">")[0] for k in move_keys(d)} == {hb.id(q)}


def test_defenders_that_retreated_can_be_attacked_again(hb):
    """§6.3.3: surviving defenders can be attacked again by other (unmoved) attacking units,
    also in an area to which they have retreated."""
    s = hb.game(players=2)
    p, q = hb.pair(lambda x, y: hb.board.terrain[x] == "plains" and hb.adjacent(x, y)
                   and any(hb.adjacent(r, y) for r in hb.land_nbrs(x) if r != y), hb.land())
    r = hb.first(a for a in hb.land_nbrs(p) if a != q and hb.adjacent(a, q))
    att = hb.nation(s, 0, {q: 4})
    dfd = hb.nation(s, 1, {p: 2})
    d = hb.attack(s, att, q, p, 2, dice=(1, 1, 1, 1))
    assert d.kind == "hb.retreat" and d.player == 1
    hb.answer(s, hb.id(r))
    d = hb.answer(s, hb.id(r))  # both defenders fall back to r; p is taken
    assert dfd.units == {r: 2} and att.units == {q: 2, p: 2}
    assert d.kind == "hb.move" and hb.mv(q, r) in d.keys
    hb.answer(s, hb.mv(q, r))
    assert s.battle is not None and s.battle[0] == r and hb.battle_state(s) == (1, 0, 2, 0)


def test_events_last_only_for_the_nations_own_turn(hb):
    """§6.1: in all cases the events apply only to the current nation turn."""
    s = hb.game(players=2)
    n = hb.nation(s, 0, {hb.land()[0]: 2})
    n.phases, n.weak, n.fervour, n.famine = 2, True, True, True
    hb.run(s, ("end_nation_turn", n.id))
    assert (n.phases, n.weak, n.fervour, n.famine) == (1, False, False, False)


def test_only_one_battle_at_a_time(hb):
    """§6.3.1: once units moved into another nation's area, no other area occupied by another
    nation may be entered (nor any other move made) until that battle is resolved."""
    s = hb.game(players=2)
    x = hb.first((a for a in hb.land() if len(hb.land_nbrs(a)) >= 3), "hub")
    y1, y2, e = hb.land_nbrs(x)[:3]
    n = hb.nation(s, 0, {x: 4})
    hb.nation(s, 1, {y1: 1})
    hb.nation(s, 1, {y2: 1})
    d = hb.run(s, ("move", n.id, 1))
    d = hb.answer(s, hb.mv(x, y1))
    assert set(d.keys) == {hb.mv(x, y1), "fight"}


# == §6.3.2 Retreat ============================================================================
def _round_with_survivors(hb, terrain="plains", defenders=3, nbrs=2):
    s = hb.game(players=3)
    p, q = hb.pair(
        lambda x, y: hb.board.terrain[x] == terrain and hb.adjacent(x, y) and len(hb.land_nbrs(x)) >= nbrs + 1,
        hb.land(),
    )
    att = hb.nation(s, 0, {q: 4})
    dfd = hb.nation(s, 1, {p: defenders})
    return s, p, q, att, dfd


def test_defender_retreats_first_only_unwounded_units(hb):
    """§6.3.2: at the end of a round the defender may retreat first, only unwounded units."""
    s, p, q, att, dfd = _round_with_survivors(hb)
    # attacker (3 units) scores 1 hit; defenders (3) miss
    d = hb.attack(s, att, q, p, 3, dice=(6, 1, 1, 1, 1, 1))
    assert hb.battle_state(s) == (3, 0, 2, 1)
    assert d.kind == "hb.retreat" and d.player == 1
    free = [a for a in hb.land_nbrs(p) if s.area_nation[a] == -1]
    d = hb.answer(s, hb.id(free[0]))
    assert d.kind == "hb.retreat" and d.player == 1
    s.dice.push(6, 6, 6, 1)  # next round: the attackers kill the wounded defender
    d = hb.answer(s, hb.id(free[0]))
    # both unwounded defenders left; the wounded one could not, and no attacker retreat
    assert dfd.units.get(free[0]) == 2
    assert s.battle is None and s.area_nation[p] == att.id


def test_retreat_only_to_empty_or_own_land_never_over_water(hb):
    """§6.3.2: retreat goes to neighbouring land areas that are empty or the retreating
    nation's own — not into another nation's land, not into or across water."""
    s = hb.game(players=3)
    p, q = hb.pair(
        lambda x, y: hb.adjacent(x, y) and not hb.board.is_sea[y] and hb.seas_of(x)
        and len(hb.land_nbrs(x)) >= 4,
        hb.land(),
    )
    others = [a for a in hb.land_nbrs(p) if a != q]
    own, enemy = others[0], others[1]
    att = hb.nation(s, 0, {q: 3})
    dfd = hb.nation(s, 1, {p: 3, own: 1})
    hb.nation(s, 2, {enemy: 1})
    d = hb.attack(s, att, q, p, 2, dice=(1, 1, 1, 1, 1))
    assert d.kind == "hb.retreat" and d.player == 1
    expected = {hb.id(a) for a in hb.land_nbrs(p) if s.area_nation[a] in (-1, dfd.id)}
    assert set(d.keys) - {"stay"} == expected
    assert hb.id(own) in expected and hb.id(enemy) not in expected and hb.id(q) not in expected
    assert not expected & hb.ids(hb.board.seas)
    across = {c for sea in hb.seas_of(p) for c in hb.coast(sea)} - set(hb.land_nbrs(p)) - {p}
    assert not expected & hb.ids(across)


def test_no_retreat_area_means_the_units_stay(hb):
    """§6.3.2: if no neighbouring land area is available for retreat, the units must stay."""
    s = hb.game(players=3)
    p, q = hb.pair(lambda x, y: hb.adjacent(x, y), hb.land())
    att = hb.nation(s, 0, {q: 3})
    dfd = hb.nation(s, 1, {p: 3})
    hb.filler(s, [a for a in hb.land_nbrs(p) if a != q], owner=2)
    d = hb.attack(s, att, q, p, 2, dice=(1, 1, 1, 1, 1))
    # the defender has nowhere to go; the attacker may go back to q (its own land)
    assert d.kind == "hb.retreat" and d.player == 0
    assert set(d.keys) == {"stay", hb.id(q)}


def test_no_retreat_after_winning(hb):
    """§6.3.2: retreat is not allowed when no enemy units are left in the area."""
    s, p, q, att, dfd = _round_with_survivors(hb, defenders=1)
    d = hb.attack(s, att, q, p, 3, dice=(6, 6, 1, 1))
    assert s.battle is None and dfd.id not in s.nations
    assert d.kind == "hb.move"  # straight back to movement, no retreat offered
    assert att.units == {q: 1, p: 3}


def test_attacker_may_retreat_if_the_defender_stays(hb):
    """§6.3.2: if the defender does not retreat the attacker may, with unwounded units."""
    s, p, q, att, dfd = _round_with_survivors(hb)
    d = hb.attack(s, att, q, p, 3, dice=(1, 1, 1, 6, 1, 1))
    assert hb.battle_state(s) == (2, 1, 3, 0)
    assert d.player == 1
    d = hb.answer(s, "stay")
    assert d.kind == "hb.retreat" and d.player == 0
    d = hb.answer(s, hb.id(q))
    assert d.kind == "hb.retreat" and d.player == 0 and d.keys[0] == "stop"
    s.dice.push(1, 6, 1, 1)  # next round: the wounded attacker alone, killed by a 6
    d = hb.answer(s, hb.id(q))
    assert att.units == {q: 3}  # two unwounded attackers went back; the wounded one fought on
    assert s.battle is None and dfd.units == {p: 3}
    assert d.kind == "hb.move" and hb.mv(q, p) in d.keys  # the unmoved unit may try again


# == §6.4 Support ==============================================================================
def test_disconnected_nation_keeps_the_part_with_most_units(hb):
    """§6.4: a disconnected nation keeps the connected part with the largest number of units;
    a disconnected part of two or more areas becomes a new nation when a set is free."""
    s = hb.game(players=3)
    x, z = hb.far_apart(2, gap=5)
    main = [x, hb.land_nbrs(x)[0]]
    rest = [z, hb.land_nbrs(z)[0]]
    n = hb.nation(s, 0, {main[0]: 2, main[1]: 2, rest[0]: 1, rest[1]: 2}, civ=1, start_sea=hb.board.seas[0])
    s.dice.push(1)
    assert hb.run(s, ("support", n.id)) is None
    assert set(n.units) == set(main)
    new = s.nations[s.area_nation[rest[0]]]
    assert new is not n and new.units == {rest[0]: 1, rest[1]: 2}
    assert new.owner == 1 and new.civ == 1 and new.id not in s.cup
    assert hb.conserved(new, s) and hb.conserved(n, s)


def test_disconnected_single_area_or_no_free_set_is_emptied(hb):
    """§6.4: a single disconnected area — or any parts when no set is free — is emptied."""
    s = hb.game(players=2)
    x, z = hb.far_apart(2, gap=5)
    n = hb.nation(s, 0, {x: 3, hb.land_nbrs(x)[0]: 1, z: 2})
    assert hb.run(s, ("support", n.id)) is None
    assert z not in n.units and s.area_nation[z] == -1 and len(s.nations) == 1

    s = hb.game(players=2)
    n = hb.nation(s, 0, {x: 2, hb.land_nbrs(x)[0]: 2, z: 1, hb.land_nbrs(z)[0]: 1})
    hb.use_up_sets(s)
    assert hb.run(s, ("support", n.id)) is None
    assert set(n.units) == {x, hb.land_nbrs(x)[0]}
    assert s.area_nation[z] == -1 and n.pool == 15 - 1 - 4


def test_tied_parts_the_owner_chooses(hb):
    """§6.4: when parts tie for most units, the player chooses which to retain."""
    s = hb.game(players=2)
    x, z = hb.far_apart(2, gap=5)
    n = hb.nation(s, 0, {x: 2, z: 2})
    d = hb.run(s, ("support", n.id))
    assert d.kind == "hb.keep-part" and d.player == 0 and set(d.keys) == hb.ids([x, z])
    assert hb.answer(s, hb.id(z)) is None
    assert n.units == {z: 2}


def test_at_most_twice_as_many_units_as_areas_spread_unevenly(hb):
    """§6.4: the nation can keep at most twice as many units as areas, spread unevenly
    (one area with four and two with one is fine)."""
    s = hb.game(players=2)
    land = hb.connected_land(hb.land()[0], 3)
    n = hb.nation(s, 0, {land[0]: 4, land[1]: 1, land[2]: 1})
    assert hb.run(s, ("support", n.id)) is None
    assert n.units == {land[0]: 4, land[1]: 1, land[2]: 1}
    s.add_units(n, land[1], 2)  # 4 + 3 + 1 = 8 units on 3 areas: two too many
    d = hb.run(s, ("support", n.id))
    assert d.kind == "hb.support-remove" and d.player == 0
    d = hb.answer(s, hb.id(land[1]))
    d = hb.answer(s, hb.id(land[1]))
    assert d is None
    assert n.units == {land[0]: 4, land[1]: 1, land[2]: 1}


def test_support_example_two_and_three_units_owner_removes_from_either(hb):
    """§6.4 example: two areas with 2 and 3 units: one unit is removed from either area."""
    for pick in (0, 1):
        s = hb.game(players=2)
        x, y = hb.pair(hb.adjacent, hb.land())
        n = hb.nation(s, 0, {x: 2, y: 3})
        d = hb.run(s, ("support", n.id))
        assert d.kind == "hb.support-remove" and set(d.keys) == hb.ids([x, y])
        assert hb.answer(s, hb.id((x, y)[pick])) is None
        assert n.board == 4
        assert n.units == ({x: 1, y: 3} if pick == 0 else {x: 2, y: 2})


# == §7 Victory points ========================================================================
def test_one_victory_point_per_land_area(hb):
    """§7: each player receives one VP per land area occupied by his nations (seas score
    nothing)."""
    s = hb.game(players=3)
    land = hb.land()
    sea = hb.board.seas[0]
    hb.nation(s, 0, {land[0]: 3, land[10]: 1, sea: 2})
    hb.nation(s, 0, {land[20]: 1})
    hb.nation(s, 1, {land[30]: 2, land[40]: 2})
    s.vp = [1, 2, 3]
    hb.run(s, ("victory",))
    assert s.vp == [4, 4, 3]


# == §8 General rules ==========================================================================
def test_nation_without_units_is_removed_and_its_set_freed(hb):
    """§8: a nation with no units on the board (sea included) is removed from play; its
    tokens, including the cup token, return to the unused sets."""
    s = hb.game(players=2)
    sea = hb.board.seas[0]
    a = hb.nation(s, 0, {hb.land()[0]: 1}, cup=True)
    b = hb.nation(s, 1, {sea: 1}, cup=True)
    s.remove_units(a, hb.land()[0], 1)
    assert a.id not in s.nations and a.id not in s.cup
    assert a.set in s.free_sets and s.area_nation[hb.land()[0]] == -1
    assert b.id in s.nations and b.id in s.cup  # units at sea keep a nation in play
    again = s.create_nation(1)
    assert again.set == a.set and again.pool == 14 and again.civ == 0


def test_type_a_territories_follow_each_maps_adjacency():
    """§6.3 type-A steps: the groups of own land depend on the map's adjacency, so the
    memo is kept per map — a second map in the same process gets its own groups."""
    from types import SimpleNamespace

    from realms.games.hy_breasil.connect import territories

    own = 0b111
    chain = SimpleNamespace(nbr_mask=(0b010, 0b101, 0b010), territory_memo={})  # 0-1-2 in a row
    apart = SimpleNamespace(nbr_mask=(0, 0, 0), territory_memo={})               # no adjacency
    assert territories(own, chain) == [0b111]
    assert sorted(territories(own, apart)) == [0b001, 0b010, 0b100]


def test_type_a_territories_after_one_more_area_are_those_found_afresh():
    """§6.3 type-A steps: when a move takes one more area, the reach joins the territories
    it borders (movement._joined) instead of finding them again: the same groups, in the
    same order, for 2,000 random own lands and added areas on the bundled map."""
    import random

    from realms.games.hy_breasil.connect import territories
    from realms.games.hy_breasil.movement import _joined

    b = GAME.new_game({"players": 3}, seed=1).board
    rng = random.Random(5)
    land = [i for i in range(b.n) if not b.is_sea[i]]
    for _ in range(2000):
        own = 0
        for a in rng.sample(land, rng.randint(0, len(land) - 1)):
            own |= 1 << a
        area = rng.choice([a for a in land if not own >> a & 1])
        assert _joined(territories(own, b), 1 << area, b.nbr_mask[area]) == territories(own | 1 << area, b)


def test_decisions_carry_their_facts_and_the_view_its_options():
    """§5.1, §6.1: what a question is about is in ``Decision.info`` (the nation arriving and
    its units; the event offered), and the view shows the game's options — so bots and
    clients never read facts out of prompts."""
    from realms.games.hy_breasil import GAME

    s = GAME.new_game({"players": 3, "rules": ["races"]}, seed=3)
    d = s.pending()[0]
    assert d.kind == "hb.entry-sea" and d.info["units"] == 10 and d.info["nation"] in s.nations
    assert d.to_json()["info"] == d.info
    view = s.view(0)
    assert view["options"]["rules"] == ["races"] and view["options"]["map"] == "hy-breasil"
    while d.kind != "hb.event":
        s.apply(d.player, d.keys[0])
        d = s.pending()[0]
    assert d.info["event"] in {"reinforcements", "strong-leader", "weak-leader", "religious-fervour",
                               "plague", "famine", "civil-war", "civilization"}
    assert d.info["nation"] == s.current


def test_every_question_of_a_game_says_its_nation_in_info():
    """§6.3, §6.3.2, §9.2, §9.3.1: movement, retreat, submission, withdrawal and diplomacy
    decisions name their nation (and the movement phase, 2 for a Strong leader's second)
    in ``Decision.info``, by the ids the view uses — the auto bot reads nothing else."""
    from realms.core.agents import RandomBot
    from realms.games.hy_breasil import GAME

    kinds = {"hb.move", "hb.retreat", "hb.submit", "hb.withdraw", "hb.diplomacy", "hb.nation-limit",
             "hb.event", "hb.entry-sea"}
    seen: dict[str, int] = {}
    phases = set()
    for seed in range(4):
        s = GAME.new_game({"players": 4, "turns": 6, "rules": ["races", "submission", "abilities"]}, seed=seed)
        bots = [RandomBot(seed * 10 + i) for i in range(4)]
        while s.pending():
            d = s.pending()[0]
            if d.kind in kinds:
                assert d.info["nation"] in {n["id"] for n in s.view(d.player)["nations"]}, d.kind
                seen[d.kind] = seen.get(d.kind, 0) + 1
                if d.kind == "hb.move":
                    phases.add(d.info["phase"])
            s.apply_index(d.player, bots[d.player].choose(d, lambda: None))
    assert {"hb.move", "hb.retreat", "hb.submit", "hb.event", "hb.entry-sea"} <= set(seen)
    assert phases == {1, 2}
