"""The rulings of src/realms/games/hy_breasil/RULINGS.md, one test (or two) per ruling.

Each test is named in RULINGS.md and checks the ruling as written there, so that a change
of behaviour shows up as a failing test that names the ruling it breaks.
"""

from __future__ import annotations

from realms.games.hy_breasil.combat import (
    AREA, ATT, DEF, AU, AW, DU, DW, attacker_needs, hit_outcomes,
)
from realms.games.hy_breasil.invariants import tokens_conserved
from realms.games.hy_breasil.support import parts



def sources(d):
    return {k.split(">")[0] for k in d.keys if ">" in k}


def common_land(hb, x, y):
    return set(hb.land_nbrs(x)) & set(hb.land_nbrs(y))


def common_seas(hb, x, y):
    return set(hb.seas_of(x)) & set(hb.seas_of(y))


# == HB-Q1 ====================================================================================
def test_hb_q1_vp_target_checked_after_victory_phase(hb):
    """§3, §7, HB-Q1: the VP target is checked only after the victory points phase: a
    Civilization bonus that reaches it mid-turn does not stop the other nations playing.
    A game with only a VP target ends at max_turns (100) at the latest."""
    s = hb.game(players=2, vp_target=10)
    forest = hb.of_terrain("forest")
    a = hb.nation(s, 0, {forest[0]: 1})
    b = hb.nation(s, 1, {forest[5]: 1})
    s.vp = [8, 0]
    s.dice.push(4, 3)  # a: 4 + 0 = Civilization; b: 3 = Religious fervour
    d = hb.run(s, ("nation_turn", a.id), ("nation_turn", b.id), ("victory",), ("end_turn",))
    assert d.kind == "hb.event" and d.player == 0
    d = hb.answer(s, "accept")
    assert s.vp[0] == 13 and not s.over  # past the target, the turn goes on
    assert d.kind == "hb.move" and d.player == 0
    d = hb.answer(s, "done")
    assert d.kind == "hb.event" and d.player == 1 and not s.over  # the other nation plays
    d = hb.answer(s, "accept")
    assert d.kind == "hb.move" and d.player == 1
    assert hb.answer(s, "done") is None
    assert s.over and s.turn == 2
    assert s.vp == [13 + 1, 1]
    assert [e.data["nation"] for e in hb.logged(s, "event")] == [a.id, b.id]
    assert s.result()["winner"] == "P1"
    assert s.result()["timed_out"] is False  # the target was reached: the game's own end

    s = hb.game(players=2, vp_target=500)
    assert s.options["turns"] is None and s.options["max_turns"] == 100
    s.turn = 99
    hb.call(s, "end_turn")
    assert not s.over
    s.restart()
    s.turn = 100
    hb.call(s, "end_turn")
    assert s.over
    assert s.result()["timed_out"] is True  # stopped by the cap, the target never reached


def test_hb_q1_a_turn_count_game_is_never_timed_out(hb):
    """HB-Q1: a game of an agreed number of turns (§3) ends at its own end, not a time-out."""
    s = hb.game(players=2, turns=3)
    s.turn = 3
    hb.call(s, "end_turn")
    assert s.over and s.result()["timed_out"] is False


def test_hb_q1_tie_breaks(hb):
    """HB-Q1: most VP wins; ties go to most land areas at the end, then most units on the
    map; players still tied share the victory (winner null, winners lists them)."""
    land = hb.land()

    def final(units0, units1, vp=(10, 10, 3)):
        s = hb.game(players=3)
        hb.nation(s, 0, {land[i]: c for i, c in units0})
        hb.nation(s, 1, {land[20 + i]: c for i, c in units1})
        s.vp = list(vp)
        s.over = True
        return s.result()

    r = final([(0, 1), (1, 1), (2, 1)], [(0, 5), (1, 5)])
    assert (r["winner"], r["winners"]) == ("P1", ["P1"])  # 3 areas beat 2 (and 10 units)
    r = final([(0, 1), (1, 1)], [(0, 2), (1, 1)])
    assert (r["winner"], r["winners"]) == ("P2", ["P2"])  # same land: 3 units beat 2
    r = final([(0, 2), (1, 1)], [(0, 2), (1, 1)])
    assert r["winner"] is None and r["winners"] == ["P1", "P2"]
    r = final([(0, 1)], [(0, 9), (1, 9)], vp=(11, 10, 3))
    assert r["winner"] == "P1"  # VP first


# == HB-Q2 ====================================================================================
def test_hb_q2_cup_token_counts_in_the_set(hb):
    """§5.1, §8, HB-Q2: one token of the 15 lives in the cup, so 14 remain for units and
    civilization tokens; on the map + pool + civilization + 1 = set size, always."""
    for size in (15, 12, 11):
        s = hb.game(players=2, turn=1, set_size=size)
        sea = hb.board.entry_seas[0]
        s.dice.push([0, 1])
        d = hb.run(s, ("invasion",))
        fresh = s.nations[min(s.nations)]
        assert fresh.pool == size - 1 and fresh.board == 0
        while d is not None:
            d = hb.answer(s, hb.id(sea))
        for n in s.nations.values():
            assert n.units == {sea: 10} and n.pool == size - 11
            assert n.board + n.pool + n.civ + 1 == size
        assert tokens_conserved(s, {}) is None
    s = hb.game(players=2)
    x = hb.land()[0]
    n = hb.nation(s, 0, {x: 5})
    s.dice.push(1, 1)
    hb.run(s, ("event", n.id))
    hb.answer(s, "reroll")  # a unit of the pool becomes a civilization token
    assert (n.board, n.pool, n.civ) == (5, 8, 1) and tokens_conserved(s, {}) is None


# == HB-Q3 ====================================================================================
def test_hb_q3_cascade_never_redraws_a_player(hb):
    """§5.3, HB-Q3: each draw of the cascade is among the players not yet drawn in it; a
    player below the limit takes the nation; with nobody left the nation leaves play."""
    s = hb.game(players=4)  # limit 3
    land = hb.land()
    mine = [hb.nation(s, p, {land[4 * p + i]: 1}) for p in (0, 1) for i in range(3)]
    new = s.create_nation()
    s.dice.push(0, 1, 2)
    d = hb.run(s, ("assign", new.id, ()))
    assert d.kind == "hb.nation-limit" and d.player == 0
    d = hb.answer(s, "refuse")
    assert d.kind == "hb.nation-limit" and d.player == 1
    given_up = mine[3]
    assert hb.answer(s, f"relinquish:{given_up.id}") is None
    assert [c[1] for c in s.dice.calls] == [(0, 1, 2, 3), (1, 2, 3), (2, 3)]
    assert new.owner == 1 and given_up.owner == 2
    assert [s.owned_count(p) for p in range(4)] == [3, 3, 1, 0]

    stray = s.create_nation()
    calls = len(s.dice.calls)
    assert hb.run(s, ("assign", stray.id, (0, 1, 2, 3))) is None
    assert stray.id not in s.nations and stray.set in s.free_sets
    assert len(s.dice.calls) == calls


# == HB-Q4 ====================================================================================
def test_hb_q4_relinquish_nation_in_its_own_turn(hb):
    """§5.3, §6.1, HB-Q4: a civil-war nation drawn for its own owner at the limit: he may
    relinquish the nation whose turn is running; its new owner decides the rest of its turn."""
    s = hb.game(players=6)  # limit 2
    x, y = hb.pair(hb.adjacent, hb.land())
    far = hb.first(a for a in hb.land() if hb.dist(x)[a] >= 4)
    running = hb.nation(s, 0, {x: 2, y: 2})
    other = hb.nation(s, 0, {far: 1})
    s.current = running.id
    s.dice.push(0, 3)  # the new nation is drawn for player 0, the relinquished one for 3
    d = hb.run(s, ("civil_war", running.id), ("movement_phase", running.id, 1))
    assert d.kind == "hb.civil-war-area"
    d = hb.answer(s, hb.id(y))
    assert d.kind == "hb.nation-limit" and d.player == 0
    assert f"relinquish:{running.id}" in d.keys
    d = hb.answer(s, f"relinquish:{running.id}")
    split = s.nations[s.area_nation[y]]
    assert (split.owner, running.owner, other.owner) == (0, 3, 0)
    assert d.kind == "hb.move" and d.player == 3 and hb.mv(x, y) in d.keys


# == HB-Q5 ====================================================================================
def test_hb_q5_limit_is_sets_over_players_rounded_up(hb):
    """§5.3, HB-Q5: N token sets and P players allow ⌈N/P⌉ nations; with civilization
    abilities the set of city tokens does not count; the limit follows the players in."""
    for players in range(2, 7):
        for sets in range(players, 17):
            s = hb.game(players=players, sets=sets)
            assert s.nation_limit() == -(-sets // players), (players, sets)
    assert hb.game(players=4, sets=13).nation_limit() == 4
    assert hb.game(players=4, sets=13, rules=["abilities"]).nation_limit() == 3
    s = hb.game(players=4)
    assert s.nation_limit() == 3
    s.active[3] = False  # a player leaves (continuous play): 12 sets over 3 players
    assert s.nation_limit() == 4


# == HB-Q6 ====================================================================================
def test_hb_q6_first_turn_nations_may_share_a_sea(hb):
    """§5.1, HB-Q6: turn-1 nations may be placed in the same sea area."""
    s = hb.game(players=3, turn=1)
    sea = hb.board.entry_seas[3]
    s.dice.push([1, 2, 0])
    d = hb.run(s, ("invasion",))
    while d is not None:
        assert hb.id(sea) in d.keys
        d = hb.answer(s, hb.id(sea))
    assert len(s.nations) == 3
    assert all(n.units == {sea: 10} for n in s.nations.values())


# == HB-Q7 ====================================================================================
def test_hb_q7_civil_war_nation_plays_this_phase_split_nation_next(hb):
    """§6, §6.1, §6.4, HB-Q7: a civil-war nation's token goes in the cup at once and it
    plays this nation phase; one split off in the support phase joins the cup at the start
    of the next nation phase; every nation in play is then in the cup."""
    s = hb.game(players=2)
    x, y = hb.pair(hb.adjacent, hb.land())
    n = hb.nation(s, 0, {x: 2, y: 2})
    waiting = hb.nation(s, 1, {hb.first(a for a in hb.land() if hb.dist(x)[a] >= 4): 1}, cup=True)
    s.dice.push(1)
    hb.run(s, ("civil_war", n.id))
    hb.answer(s, hb.id(y))
    rebel = s.nations[s.area_nation[y]]
    assert sorted(s.cup) == sorted([waiting.id, rebel.id])
    s.dice.push(s.cup.index(rebel.id))
    hb.call(s, "nation_phase")
    assert s.next_frames()[0] == ("nation_turn", rebel.id)

    s = hb.game(players=2)
    a, z = hb.far_apart(2, gap=5)
    n = hb.nation(s, 0, {a: 2, hb.land_nbrs(a)[0]: 2, z: 1, hb.land_nbrs(z)[0]: 1})
    s.dice.push(1)
    assert hb.run(s, ("support", n.id)) is None
    split = s.nations[s.area_nation[z]]
    assert split.id not in s.cup
    hb.call(s, "fill_cup")
    assert sorted(s.cup) == sorted(s.nations) == sorted([n.id, split.id])


# == HB-Q8 ====================================================================================
def test_hb_q8_reroll_costs_a_token_and_adds_to_the_next_roll(hb):
    """§6.1, HB-Q8: any event may be rerolled, again and again, one civilization token
    each time, decided before the event's own dice; each reroll adds the new count; a
    rerolled Civilization gives neither its VP nor its token."""
    s = hb.game(players=2)
    x = hb.land()[0]
    n = hb.nation(s, 0, {x: 5})
    s.dice.push(5, 3, 1)
    d = hb.run(s, ("event", n.id))
    assert s.waiting_frame()[2] == "plague" and len(s.dice.calls) == 1  # no plague die yet
    d = hb.answer(s, "reroll")
    assert (n.civ, n.units) == (1, {x: 5})
    assert s.waiting_frame() == ("event_choice", n.id, "civilization", 3)  # 3 + 1
    d = hb.answer(s, "reroll")
    assert s.vp == [0, 0] and n.civ == 2  # one token for the reroll, none for Civilization
    assert s.waiting_frame() == ("event_choice", n.id, "religious-fervour", 1)  # 1 + 2
    assert hb.answer(s, "accept") is None
    assert n.fervour and (n.civ, n.pool, n.board) == (2, 7, 5) and s.vp == [0, 0]


# == HB-Q9 ====================================================================================
def test_hb_q9_token_from_board_when_pool_empty(hb):
    """§6.1, HB-Q9: with an empty pool the civilization token comes from the board, the
    owner picking the area (emptying it is allowed); no reroll is offered when that would
    take the nation's last unit."""
    s = hb.game(players=2)
    x, y = hb.pair(hb.adjacent, hb.land())
    n = hb.nation(s, 0, {x: 1, y: 9}, civ=4)
    assert n.pool == 0
    s.dice.push(1, 1)
    hb.run(s, ("event", n.id))
    d = hb.answer(s, "reroll")
    assert d.kind == "hb.civ-token-from-board" and d.player == 0
    assert set(d.keys) == hb.ids([x, y])
    d = hb.answer(s, hb.id(x))
    assert n.units == {y: 9} and s.area_nation[x] == -1 and (n.civ, n.pool) == (5, 0)
    assert s.waiting_frame() == ("event_choice", n.id, "weak-leader", 1)  # 1 + 5 tokens

    s = hb.game(players=2)
    n = hb.nation(s, 0, {x: 4, y: 6}, civ=4)
    s.dice.push(2)
    hb.run(s, ("event", n.id))
    hb.answer(s, "reroll")
    s.dice.push(3)
    d = hb.answer(s, hb.id(y))
    assert n.units == {x: 4, y: 5} and n.civ == 5
    assert s.waiting_frame() == ("event_choice", n.id, "civil-war", 3)  # 3 + 5 tokens

    s = hb.game(players=2, set_size=11)
    n = hb.nation(s, 0, {x: 1}, civ=9)
    assert n.pool == 0
    s.dice.push(1)  # 1 + 9 = 10: Famine, and no reroll can be paid for
    assert hb.run(s, ("event", n.id)) is None
    assert n.famine and n.civ == 9 and n.units == {x: 1}


# == HB-Q10 ===================================================================================
def test_hb_q10_split_nations_roll_for_events(hb):
    """§6.1, HB-Q10: only nations entering in the invasion phase get the automatic Strong
    leader; nations made by civil war or disconnection roll on table 1."""
    s = hb.game(players=2)
    x, y = hb.pair(hb.adjacent, hb.land())
    n = hb.nation(s, 0, {x: 2, y: 2})
    s.dice.push(1)
    hb.run(s, ("civil_war", n.id))
    hb.answer(s, hb.id(y))
    rebel = s.nations[s.area_nation[y]]
    assert not rebel.first_turn
    s.dice.push(3)
    d = hb.run(s, ("event", rebel.id))
    assert d.kind == "hb.event" and s.waiting_frame() == ("event_choice", rebel.id, "religious-fervour", 3)

    s = hb.game(players=2)
    a, z = hb.far_apart(2, gap=5)
    n = hb.nation(s, 0, {a: 2, hb.land_nbrs(a)[0]: 2, z: 1, hb.land_nbrs(z)[0]: 1})
    s.dice.push(0)
    hb.run(s, ("support", n.id))
    split = s.nations[s.area_nation[z]]
    s.dice.push(6)
    d = hb.run(s, ("event", split.id))
    assert d.kind == "hb.event" and s.waiting_frame() == ("event_choice", split.id, "weak-leader", 6)

    s = hb.game(players=2)
    s.dice.push(2, 1)
    d = hb.run(s, ("new_nation",))
    invader = s.nations[min(s.nations)]
    hb.answer(s, hb.id(hb.board.entry_seas[0]))
    assert invader.first_turn
    assert hb.run(s, ("event", invader.id)) is None and invader.phases == 2


# == HB-Q11 ===================================================================================
def test_hb_q11_split_nation_reinforced_in_parent_sea(hb):
    """§6.1 Reinforcements, HB-Q11: a nation made by civil war or disconnection inherits the
    starting sea of its parent, and its reinforcements arrive there."""
    sea = hb.board.entry_seas[4]
    s = hb.game(players=2)
    x, y = hb.pair(hb.adjacent, hb.land())
    n = hb.nation(s, 0, {x: 2, y: 2}, start_sea=sea)
    s.dice.push(1)
    hb.run(s, ("civil_war", n.id))
    hb.answer(s, hb.id(y))
    rebel = s.nations[s.area_nation[y]]
    assert rebel.start_sea == sea
    s.dice.push(3)
    assert hb.run(s, ("do_event", rebel.id, "reinforcements")) is None
    assert rebel.units == {y: 2, sea: 3}

    s = hb.game(players=2)
    a, z = hb.far_apart(2, gap=5)
    n = hb.nation(s, 0, {a: 2, hb.land_nbrs(a)[0]: 2, z: 1, hb.land_nbrs(z)[0]: 1}, start_sea=sea)
    s.dice.push(1)
    hb.run(s, ("support", n.id))
    split = s.nations[s.area_nation[z]]
    assert split.start_sea == sea
    s.dice.push(2)
    hb.run(s, ("reinforcements", split.id))
    assert split.units[sea] == 2


# == HB-Q12 ===================================================================================
def test_hb_q12_plague_neighbour_removals(hb):
    """§6.1 Plague, HB-Q12: the neighbour removals are one total of up to the die over all
    other nations — the owner's other nations included — in the areas bordering an area
    where the plagued nation lost units, seas included; optional, one unit at a time."""
    s = hb.game(players=2)
    x = hb.first(
        (a for a in hb.land() if len(hb.land_nbrs(a)) >= 3 and hb.seas_of(a)), "coastal hub"
    )
    n1, n2, n3 = hb.land_nbrs(x)[:3]
    sea = hb.seas_of(x)[0]
    far = hb.first(a for a in hb.land() if hb.dist(x)[a] >= 4)
    far_nbr = hb.land_nbrs(far)[0]
    p = hb.nation(s, 0, {x: 4, far: 3})
    own_other = hb.nation(s, 0, {n1: 2, sea: 3})
    enemy = hb.nation(s, 1, {n2: 1, n3: 3})
    untouched = hb.nation(s, 1, {far_nbr: 2})
    s.dice.push(4)
    d = hb.run(s, ("do_event", p.id, "plague"))
    for _ in range(4):
        assert d.kind == "hb.plague-own"
        d = hb.answer(s, hb.id(x) if p.units[x] > 1 else hb.id(far))
    assert p.units == {x: 1, far: 2}
    assert d.kind == "hb.plague-neighbour" and d.player == 0
    # the sea beside x counts; far's neighbour borders far, where a unit was lost, too
    assert set(d.keys) == {"stop"} | hb.ids([n1, n2, n3, sea, far_nbr])
    d = hb.answer(s, hb.id(n1))  # the owner's other nation is fair game
    d = hb.answer(s, hb.id(n2))  # the last unit there: the area empties
    assert set(d.keys) == {"stop"} | hb.ids([n1, n3, sea, far_nbr])
    d = hb.answer(s, hb.id(sea))  # units waiting at sea beside the plague
    assert set(d.keys) == {"stop"} | hb.ids([n1, n3, sea, far_nbr])
    assert hb.answer(s, "stop") is None  # optional: 3 of the 4 removals taken
    assert own_other.units == {n1: 1, sea: 2}
    assert enemy.units == {n3: 3}
    assert untouched.units == {far_nbr: 2}
    assert hb.invariants(s) == []


def test_hb_q12_plague_strikes_invaders_at_sea(hb):
    """§6.1 Plague, §5.2, HB-Q12, HB-Q19: this turn's invaders wait at sea until their
    nation plays; a plague next to their sea may strike them ("areas that border" include
    seas).  Two nations share the sea, so the owner names the nation; lizardmen are
    spared (§9.1) and the plague takes the last invader, removing the nation (§8)."""
    s = hb.game(players=3, rules=["races"])
    sea = hb.board.entry_seas[0]
    x = hb.coast(sea)[0]
    p = hb.nation(s, 0, {x: 3})
    a = hb.nation(s, 1, {sea: 1})
    b = hb.nation(s, 2, {sea: 5})
    liz = hb.nation(s, 2, {sea: 4})
    liz.race = "lizardman"
    s.dice.push(1)
    d = hb.run(s, ("do_event", p.id, "plague"))
    assert p.units == {x: 2}
    assert d.kind == "hb.plague-neighbour" and set(d.keys) == {"stop", hb.id(sea)}
    d = hb.answer(s, hb.id(sea))
    assert d.kind == "hb.plague-sea-nation" and d.player == 0
    assert set(d.keys) == {str(a.id), str(b.id)}  # not the lizardmen
    assert hb.answer(s, str(a.id)) is None  # the die was 1: one removal in all
    assert a.id not in s.nations and b.units == {sea: 5} and liz.units == {sea: 4}
    assert [e.data["area"] for e in hb.logged(s, "plague-spreads")] == [hb.id(sea)]
    assert hb.invariants(s) == []


# == HB-Q13 ===================================================================================
def _induced_interior_path(hb, k):
    """``k`` land areas without sea neighbours forming a path with no shortcuts."""
    b = hb.board
    interior = [a for a in hb.land() if not hb.seas_of(a)]

    def extend(path):
        if len(path) == k:
            return path
        for v in b.nbrs[path[-1]]:
            if v in interior and v not in path and all(v not in b.nbrs[u] for u in path[:-1]):
                found = extend(path + [v])
                if found:
                    return found
        return None

    return hb.first(p for p in map(lambda a: extend([a]), interior) if p)


def test_hb_q13_civil_war_split_is_as_connected_as_possible(hb):
    """§6.1 Civil war, HB-Q13: the split minimises the connected groups summed over both
    nations; the owner chooses only among the best splits (a chain of five splits at an end,
    never in the middle)."""
    s = hb.game(players=2)
    path = _induced_interior_path(hb, 5)
    around = sorted({v for a in path for v in hb.land_nbrs(a)} - set(path))
    hb.filler(s, around, owner=1)  # no empty land to hop over: links are adjacency only
    n = hb.nation(s, 0, {a: 1 for a in path})
    assert len(parts(s, n)) == 1
    s.dice.push(0)
    d = hb.run(s, ("civil_war", n.id))
    assert d.kind == "hb.civil-war-area" and d.player == 0
    assert set(d.keys) == hb.ids([path[0], path[1], path[3], path[4]])
    assert hb.answer(s, hb.id(path[4])) is None  # the second area is forced
    rebel = s.nations[s.area_nation[path[4]]]
    assert set(rebel.units) == {path[3], path[4]}
    assert set(n.units) == set(path[:3])
    assert len(parts(s, n)) == 1 and len(parts(s, rebel)) == 1


# == HB-Q14 ===================================================================================
def test_hb_q14_split_never_runs_out_of_tokens(hb):
    """§6.1, HB-Q14: the new set always has enough tokens: the part split off has at most
    13 − c units and the new set offers 14 − c."""
    x, y = hb.pair(hb.adjacent, hb.land())
    for civ in range(12):
        s = hb.game(players=2)
        n = hb.nation(s, 0, {x: 1, y: 13 - civ}, civ=civ)
        assert n.pool == 0
        s.dice.push(0)
        hb.run(s, ("civil_war", n.id))
        assert hb.answer(s, hb.id(y)) is None
        rebel = s.nations[s.area_nation[y]]
        assert rebel.units == {y: 13 - civ} and rebel.civ == civ and rebel.pool == 1
        assert n.units == {x: 1} and n.pool == 13 - civ
        assert tokens_conserved(s, {}) is None


# == HB-Q15 ===================================================================================
def test_hb_q15_strong_leader_moves_units_twice(hb):
    """§6.1 Strong leader, HB-Q15: in the second movement and combat phase every unit may
    move again with a fresh allowance, including units that moved or fought in the first."""
    s = hb.game(players=2)
    q, p = hb.pair(lambda a, b: hb.adjacent(a, b) and len(hb.land_nbrs(a)) >= 3, hb.land())
    e = hb.first(a for a in hb.land_nbrs(q) if a != p)
    n = hb.nation(s, 0, {q: 3})
    hb.nation(s, 1, {p: 1})
    n.phases = 2
    s.dice.push(6, 6, 1)
    d = hb.run(s, ("movement_phase", n.id, 1))
    d = hb.answer(s, hb.mv(q, p))
    d = hb.answer(s, hb.mv(q, p))
    d = hb.answer(s, "fight")
    assert n.units == {q: 1, p: 2}
    d = hb.answer(s, hb.mv(q, e))
    # every unit has moved: the first phase is over, the second begins
    assert d.kind == "hb.move" and "strong leader" in d.prompt
    assert sources(d) == hb.ids([p, e])


# == HB-Q16 ===================================================================================
def test_hb_q16_every_sea_step_is_type_b(hb):
    """§6.3, HB-Q16: steps into and out of seas are type B, even between the nation's own
    coasts; land → sea → land crosses one sea; two seas only for a unit starting at sea."""
    b = hb.board

    def across(sea):
        for x in hb.coast(sea):
            for y in hb.coast(sea):
                if x != y and not hb.adjacent(x, y) and not common_land(hb, x, y):
                    yield sea, x, y

    sea, x, y = hb.first((t for sea in b.seas for t in across(sea)), "two coasts of a sea")
    s = hb.game(players=2)
    n = hb.nation(s, 0, {x: 2})
    d = hb.run(s, ("move", n.id, 1))
    assert hb.mv(x, y) in d.keys  # land → sea → land: two type-B steps

    sea, x, y, t = hb.first(
        ((sea, x, y, t) for s0 in b.seas for sea, x, y in across(s0)
         for t in hb.land_nbrs(y) if hb.dist(x)[t] == 3),
        "land beyond a far coast",
    )
    s = hb.game(players=2)
    n = hb.nation(s, 0, {x: 2, y: 1})
    d = hb.run(s, ("move", n.id, 1))
    assert hb.mv(x, y) in d.keys and hb.mv(x, t) not in d.keys  # own coasts, yet sea steps are B

    s1, s2, land = hb.first(
        (s1, s2, land)
        for s1 in b.seas for s2 in hb.board.nbrs[s1] if b.is_sea[s2]
        for land in hb.coast(s2) if hb.dist(s1)[land] == 2
        and any(hb.dist(c)[land] == 3 for c in hb.coast(s1))
    )
    x = hb.first(c for c in hb.coast(s1) if hb.dist(c)[land] == 3)
    s = hb.game(players=2)
    n = hb.nation(s, 0, {s1: 1, x: 1})
    d = hb.run(s, ("move", n.id, 1))
    assert hb.mv(s1, land) in d.keys  # sea → sea → land
    assert hb.mv(x, land) not in d.keys  # land → sea → sea → land would be three


# == HB-Q17 ===================================================================================
def test_hb_q17_occupation_judged_at_start_of_move(hb):
    """§6.3, HB-Q17: occupation is judged on the board as the unit begins its move: areas
    entered by earlier units count; an empty area passed through does not become occupied
    mid-move; the area left stays occupied for that move even if emptied."""
    # earlier units count
    x, e = hb.pair(
        lambda x, e: hb.adjacent(x, e) and not hb.board.is_sea[e]
        and any(hb.dist(e)[t] == 2 and hb.dist(x)[t] == 3 for t in hb.land()),
        hb.land(),
    )
    t = hb.first(t for t in hb.land() if hb.dist(e)[t] == 2 and hb.dist(x)[t] == 3)
    s = hb.game(players=2)
    n = hb.nation(s, 0, {x: 3})
    d = hb.run(s, ("move", n.id, 1))
    assert hb.mv(x, t) not in d.keys
    d = hb.answer(s, hb.mv(x, e))
    assert hb.mv(x, t) in d.keys  # x → e is now type A

    # the last unit leaving x: x → e is still type A for that move
    s = hb.game(players=2)
    n = hb.nation(s, 0, {x: 1, e: 1})
    d = hb.run(s, ("move", n.id, 1))
    assert hb.mv(x, t) in d.keys

    # passing through empty land does not make it occupied
    def triple(x, y):
        if hb.dist(x)[y] != 2 or common_seas(hb, x, y):
            return False
        return any(hb.dist(x)[t] == 3 for t in hb.land_nbrs(y))

    x, y = hb.pair(triple, hb.land())
    mid = hb.first(common_land(hb, x, y))
    t = hb.first(t for t in hb.land_nbrs(y) if hb.dist(x)[t] == 3)
    s = hb.game(players=2)
    n = hb.nation(s, 0, {x: 2, y: 1})
    d = hb.run(s, ("move", n.id, 1))
    assert hb.mv(x, y) in d.keys and hb.mv(x, mid) in d.keys
    assert hb.mv(x, t) not in d.keys  # x → mid → y are two B steps: no third


# == HB-Q18 ===================================================================================
def test_hb_q18_units_at_sea_must_land_or_are_lost(hb):
    """§6.3, HB-Q18: the phase cannot end while units at sea can land; units that cannot
    (every reachable coast held by others under Weak leader) are lost to the pool when the
    phase ends, and never count for support."""
    b = hb.board
    s = hb.game(players=2)
    sea = b.entry_seas[0]
    n = hb.nation(s, 0, {sea: 2, hb.coast(sea)[0]: 1})
    d = hb.run(s, ("move", n.id, 1))
    assert "done" not in d.keys

    def reachable_land(sea):
        return {a for a in hb.land() if hb.dist(sea)[a] <= 2}

    def blockers(sea):
        return {c for s2 in [sea] + hb.seas_of(sea) for c in hb.coast(s2)}

    sea = min(b.seas, key=lambda x: len(blockers(x)))
    home = hb.first(a for a in hb.land() if hb.dist(sea)[a] >= 5)
    s = hb.game(players=2)
    hb.filler(s, sorted(blockers(sea)), owner=1)
    n = hb.nation(s, 0, {sea: 3, home: 2})
    n.weak = True
    d = hb.run(s, ("movement_phase", n.id, 1), ("support", n.id))
    assert hb.id(sea) not in sources(d) and "done" in d.keys
    assert reachable_land(sea) - blockers(sea)  # land beyond the coasts, but too far
    assert hb.answer(s, "done") is None
    assert n.units == {home: 2} and n.pool == 15 - 1 - 2
    assert "lost-at-sea" in hb.kinds_logged(s)

    s = hb.game(players=2)
    hb.filler(s, sorted(blockers(sea)), owner=1)
    n = hb.nation(s, 0, {sea: 3})
    n.weak = True
    assert hb.run(s, ("movement_phase", n.id, 1)) is None
    assert n.id not in s.nations  # nothing left on the map (§8)


# == HB-Q19 ===================================================================================
def test_hb_q19_seas_are_shared(hb):
    """§6.3, HB-Q19: any number of nations share a sea; units at sea never fight or block,
    but a plague beside their sea may strike them (HB-Q12)."""
    b = hb.board
    sea, x, y = hb.first(
        (sea, x, y)
        for sea in b.seas for x in hb.coast(sea) for y in hb.coast(sea)
        if x != y and not hb.adjacent(x, y) and not common_land(hb, x, y)
    )
    s = hb.game(players=3)
    other = hb.nation(s, 1, {sea: 4})
    third = hb.nation(s, 2, {sea: 2})
    n = hb.nation(s, 0, {x: 3, sea: 1})
    d = hb.run(s, ("move", n.id, 1))
    assert hb.mv(x, y) in d.keys  # no blocking at sea
    d = hb.answer(s, hb.mv(x, y))
    assert s.battle is None and n.units == {x: 2, y: 1, sea: 1}
    assert other.units == {sea: 4} and third.units == {sea: 2}
    s = hb.game(players=3)
    other = hb.nation(s, 1, {sea: 4})
    n = hb.nation(s, 0, {x: 3})
    s.dice.push(1)
    d = hb.run(s, ("do_event", n.id, "plague"))
    assert d.kind == "hb.plague-neighbour" and set(d.keys) == {"stop", hb.id(sea)}
    assert hb.answer(s, hb.id(sea)) is None
    assert n.units == {x: 2} and other.units == {sea: 3}


# == HB-Q20 ===================================================================================
def test_hb_q20_inland_seas_can_be_crossed(hb):
    """§5.1, §5.2, HB-Q20: inland seas are closed only to placement of entering nations;
    units may cross them like any sea."""
    lake = hb.inland_seas()[0]
    x, y = hb.first(
        (x, y) for x in hb.coast(lake) for y in hb.coast(lake)
        if x != y and hb.dist(x, avoid=[lake]).get(y, 9) > 2
    )
    s = hb.game(players=2)
    n = hb.nation(s, 0, {x: 1})
    d = hb.run(s, ("move", n.id, 1))
    assert hb.mv(x, y) in d.keys
    hb.answer(s, hb.mv(x, y))
    assert n.units == {y: 1}
    s = hb.game(players=2, turn=3)
    s.dice.push(4, 1)
    d = hb.run(s, ("new_nation",))
    assert d.kind == "hb.entry-sea" and not set(d.keys) & hb.ids(hb.inland_seas())


# == HB-Q21 ===================================================================================
def test_hb_q21_fervour_lowers_attack_number(hb):
    """§6.1 Religious fervour, HB-Q21: +1 to the attacker's dice lowers its hit number by
    one (3 in plains, 4 in hills or forest); the defender's stays 4."""
    s = hb.game(players=2)
    n = hb.nation(s, 0, {hb.land()[0]: 1})
    for terrain, plain, fervent in (("plains", 4, 3), ("forest", 5, 4), ("hills", 5, 4)):
        area = hb.of_terrain(terrain)[0]
        n.fervour = False
        assert attacker_needs(s, area, n) == plain
        n.fervour = True
        assert attacker_needs(s, area, n) == fervent
    s = hb.game(players=2)
    p, q = hb.pair(lambda x, y: hb.board.terrain[x] == "hills" and hb.adjacent(x, y), hb.land())
    att = hb.nation(s, 0, {q: 3})
    hb.nation(s, 1, {p: 2})
    att.fervour = True
    hb.attack(s, att, q, p, 2, dice=(4, 3, 3, 4))
    assert hb.battle_state(s) == (1, 1, 1, 1)  # a 4 hits for the fervent attacker; a 3 does not


# == HB-Q22 ===================================================================================
def test_hb_q22_attacker_may_not_retreat_after_defender_did(hb):
    """§6.3.2, HB-Q22: if the defender retreats any unit the attacker may not retreat that
    round; retreating units go one at a time and may split among areas; the attacker may
    retreat to any adjacent empty or own land, not only where it came from."""
    s = hb.game(players=2)
    p, q = hb.pair(
        lambda p, q: hb.adjacent(p, q) and hb.board.terrain[p] == "plains" and len(hb.land_nbrs(p)) >= 4,
        hb.land(),
    )
    a1, a2, c = [a for a in hb.land_nbrs(p) if a != q][:3]
    att = hb.nation(s, 0, {q: 4})
    dfd = hb.nation(s, 1, {p: 4})
    d = hb.attack(s, att, q, p, 3, dice=(1, 1, 1, 1, 1, 1, 1))
    assert d.kind == "hb.retreat" and d.player == 1 and d.keys[0] == "stay"
    d = hb.answer(s, hb.id(a1))
    assert d.kind == "hb.retreat" and d.player == 1 and d.keys[0] == "stop"
    d = hb.answer(s, hb.id(a2))
    s.dice.push(1, 1, 1, 1, 1)  # the next round: nobody hits
    d = hb.answer(s, "stop")
    # no attacker retreat in the round the defender retreated: straight to the next round
    assert dfd.units == {p: 2, a1: 1, a2: 1}
    assert d.kind == "hb.retreat" and d.player == 1 and hb.battle_state(s) == (3, 0, 2, 0)
    d = hb.answer(s, "stay")
    assert d.kind == "hb.retreat" and d.player == 0
    assert hb.id(c) in d.keys and hb.id(q) in d.keys
    assert hb.id(a1) not in d.keys and hb.id(a2) not in d.keys
    d = hb.answer(s, hb.id(c))
    assert att.units.get(c) == 1 and s.area_nation[c] == att.id


# == HB-Q23 ===================================================================================
def test_hb_q23_hop_over_empty_land_or_sea_connects(hb):
    """§6.4, HB-Q23: two areas are linked if adjacent or both border one empty land area or
    one sea (two type-B steps); another nation's land blocks; two hops do not connect."""
    x, y = hb.pair(
        lambda x, y: hb.dist(x)[y] == 2 and not common_seas(hb, x, y) and len(common_land(hb, x, y)) == 1,
        hb.land(),
    )
    (mid,) = common_land(hb, x, y)
    s = hb.game(players=2)
    n = hb.nation(s, 0, {x: 2, y: 2})
    assert len(parts(s, n)) == 1  # over one empty land area
    assert hb.run(s, ("support", n.id)) is None and n.units == {x: 2, y: 2}
    blocker = hb.nation(s, 1, {mid: 1})
    assert len(parts(s, n)) == 2  # another nation's land blocks
    s.remove_units(blocker, mid, 1)
    hb.nation(s, 0, {mid: 1})  # the same player's other nation blocks too
    assert len(parts(s, n)) == 2

    sea, x, y = hb.first(
        (sea, x, y)
        for sea in hb.board.seas for x in hb.coast(sea) for y in hb.coast(sea)
        if x != y and not hb.adjacent(x, y) and not common_land(hb, x, y)
    )
    s = hb.game(players=2)
    n = hb.nation(s, 0, {x: 1, y: 1})
    assert len(parts(s, n)) == 1  # over one sea

    x, y = hb.pair(lambda x, y: hb.dist(x)[y] == 3, hb.land())
    s = hb.game(players=2)
    n = hb.nation(s, 0, {x: 1, y: 1})
    assert len(parts(s, n)) == 2  # three type-B steps apart


# == HB-Q24 ===================================================================================
def test_hb_q24_split_nation_copies_tokens_and_waits(hb):
    """§6.4, HB-Q24: a nation split off by disconnection gets the parent's civilization
    tokens and starting sea and is held to the support limit only at the end of its own
    next turn."""
    sea = hb.board.entry_seas[2]
    s = hb.game(players=2)
    a, z = hb.far_apart(2, gap=5)
    an, zn = hb.land_nbrs(a)[0], hb.land_nbrs(z)[0]
    n = hb.nation(s, 0, {a: 3, an: 3, z: 4, zn: 1}, civ=3, start_sea=sea)
    s.dice.push(1)
    d = hb.run(s, ("support", n.id))
    split = s.nations[s.area_nation[z]]
    assert (split.civ, split.start_sea) == (3, sea)
    assert split.units == {z: 4, zn: 1} and split.pool == 15 - 1 - 3 - 5
    assert split.id not in s.cup
    while d is not None:  # the parent sheds its own excess (6 units on 2 areas)
        assert d.kind == "hb.support-remove" and d.player == 0
        d = hb.answer(s, d.keys[0])
    assert n.board == 4 and split.owner == 1
    assert split.units == {z: 4, zn: 1}  # 5 units on 2 areas, kept for now
    assert hb.run(s, ("support", split.id)) is None
    assert split.units == {z: 3, zn: 1}


# == HB-Q25 ===================================================================================
def test_hb_q25_defender_removed_mid_battle_still_hits(hb):
    """§8, HB-Q25: a nation with no unit on the map is removed at once, even mid-battle, and
    its set is free at once; the hits it rolled that round still count (its former owner
    allocates them); if the moving nation is wiped out its turn ends."""
    s = hb.game(players=2)
    p, q = hb.pair(lambda x, y: hb.board.terrain[x] == "plains" and hb.adjacent(x, y), hb.land())
    att = hb.nation(s, 0, {q: 5})
    dfd = hb.nation(s, 1, {p: 2})
    d = hb.attack(s, att, q, p, 4, dice=(6, 6, 6, 6, 6, 6))
    assert dfd.id not in s.nations and dfd.set in s.free_sets
    assert d.kind == "hb.assign-hits" and d.player == 1
    assert set(d.keys) == {"u3w0", "u2w2"}
    d = hb.answer(s, "u2w2")
    assert s.battle is None and att.units == {q: 1, p: 4} and att.board == 5

    s = hb.game(players=2)
    att = hb.nation(s, 0, {q: 1})
    dfd = hb.nation(s, 1, {p: 2})
    d = hb.attack(s, att, q, p, 1, dice=(1, 6, 6))
    assert att.id not in s.nations and d is None
    assert dfd.units == {p: 2} and s.area_nation[q] == -1


# == HB-Q101 ==================================================================================
def test_hb_q101_lowest_free_set(hb):
    """§5.1, §5.2, HB-Q101: a new nation gets the lowest-numbered free token set."""
    s = hb.game(players=2)
    land = hb.land()
    ns = [hb.nation(s, 0, {land[i]: 1}) for i in range(4)]
    assert [n.set for n in ns] == [0, 1, 2, 3]
    s.remove_units(ns[2], land[2], 1)
    s.remove_units(ns[1], land[1], 1)
    s.dice.push(3, 1)
    hb.run(s, ("new_nation",))
    assert s.nations[max(s.nations)].set == 1
    s.dice.push(1)
    x, y = hb.pair(hb.adjacent, [a for a in land if a not in land[:4]])
    parent = hb.nation(s, 1, {x: 1, y: 1})
    assert parent.set == 2
    hb.run(s, ("civil_war", parent.id))
    hb.answer(s, hb.id(y))
    assert s.nations[s.area_nation[y]].set == 4


# == HB-Q102 ==================================================================================
def test_hb_q102_support_removal_never_empties_an_area(hb):
    """§6.4, HB-Q102: units above the limit are removed one at a time from areas holding two
    or more, so no area is abandoned by the limit."""
    s = hb.game(players=2)
    x = hb.first(a for a in hb.land() if len(hb.land_nbrs(a)) >= 2)
    y, z = hb.land_nbrs(x)[:2]
    n = hb.nation(s, 0, {x: 3, y: 3, z: 1})
    d = hb.run(s, ("support", n.id))
    assert d.kind == "hb.support-remove" and set(d.keys) == hb.ids([x, y])
    assert hb.answer(s, hb.id(y)) is None
    assert n.units == {x: 3, y: 2, z: 1}

    s = hb.game(players=2)
    n = hb.nation(s, 0, {x: 6, y: 1, z: 1})
    assert hb.run(s, ("support", n.id)) is None
    assert n.units == {x: 4, y: 1, z: 1}


# == HB-Q103 ==================================================================================
def test_hb_q103_only_reinforcing_moves_while_battle_pending(hb):
    """§6.3.1, HB-Q103: once a unit has entered another nation's land only more units into
    that area, or starting the battle, are allowed until the battle is over."""
    s = hb.game(players=2)
    x = hb.first(a for a in hb.land() if len(hb.land_nbrs(a)) >= 3 and hb.seas_of(a))
    p, e, f = hb.land_nbrs(x)[:3]
    sea = hb.seas_of(x)[0]
    n = hb.nation(s, 0, {x: 3, e: 1, sea: 1})
    hb.nation(s, 1, {p: 1})
    d = hb.run(s, ("move", n.id, 1))
    assert hb.mv(x, f) in d.keys and hb.mv(e, x) in d.keys
    d = hb.answer(s, hb.mv(x, p))
    assert set(d.keys) == {hb.mv(x, p), hb.mv(e, p), hb.mv(sea, p), "fight"}


# == HB-Q104 ==================================================================================
def test_hb_q104_no_endless_civil_war_rerolls(hb):
    """§6.1, HB-Q104: when civil war cannot occur and the nation has 11 or more civilization
    tokens, it has no event this turn; with fewer the free reroll can still change it."""
    s = hb.game(players=2)
    x = hb.land()[0]
    n = hb.nation(s, 0, {x: 3}, civ=11)
    s.dice.push(1)
    assert hb.run(s, ("event", n.id)) is None
    assert s.dice.left == [] and "event-void" in hb.kinds_logged(s)
    assert (n.phases, n.weak, n.fervour, n.famine, n.civ) == (1, False, False, False, 11)

    s = hb.game(players=2)
    n = hb.nation(s, 0, {x: 3}, civ=10)
    s.dice.push(2, 1)  # 12: civil war, impossible, rerolled; 11: Weak leader
    hb.run(s, ("event", n.id))
    assert s.waiting_frame() == ("event_choice", n.id, "weak-leader", 1)


# == HB-Q105 ==================================================================================
def test_hb_q105_allocation_offers_distinct_outcomes(hb):
    """§6.3.1, HB-Q105: hits are offered as the resulting (unhurt, wounded) counts, each
    once; when every allocation gives the same result no decision is asked."""
    for u in range(6):
        for w in range(6):
            for h in range(1, 12):
                out = hit_outcomes(u, w, h)
                assert len(out) == len(set(out))
    s = hb.game(players=2)
    p, q = hb.pair(lambda x, y: hb.board.terrain[x] == "plains" and hb.adjacent(x, y), hb.land())
    att = hb.nation(s, 0, {q: 4})
    hb.nation(s, 1, {p: 3})
    d = hb.attack(s, att, q, p, 3, dice=(6, 6, 1, 1, 1, 1))
    assert d.kind == "hb.assign-hits" and d.player == 0
    assert list(d.keys) == ["u2w0", "u1w2"]  # two hits on three: kill one, or wound two
    s = hb.game(players=2)
    att = hb.nation(s, 0, {q: 4})
    hb.nation(s, 1, {p: 3})
    d = hb.attack(s, att, q, p, 3, dice=(6, 1, 1, 1, 1, 1))
    assert hb.battle_state(s) == (3, 0, 2, 1)  # one hit: only one outcome, nothing asked
    assert d.kind == "hb.retreat"


def test_hb_q4_split_off_assigned_before_support_limit(hb):
    """§6.4: the disconnected areas "are made into a new nation that is immediately assigned
    to a player as described in section 5.3"; only then are the remaining areas held to
    twice as many units as areas.  If the parent's owner, at the limit, relinquishes the
    parent for the new nation (as HB-Q4 allows), the parent's new owner decides which of
    its units are removed (HB-Q4: "from that moment its new owner makes its decisions")."""
    s = hb.game(players=6)  # limit 2
    chosen = []
    for a in hb.land():
        if all(hb.dist(c)[a] >= 5 for c in chosen):
            chosen.append(a)
            if len(chosen) == 2:
                break
    x, z = chosen
    nx, nz = hb.land_nbrs(x)[0], hb.land_nbrs(z)[0]
    o = hb.first(a for a in hb.land() if all(hb.dist(c)[a] >= 3 for c in (x, nx, z, nz)))
    parent = hb.nation(s, 0, {x: 3, nx: 3, z: 1, nz: 1})  # keeps x, nx: 6 units on 2 areas
    hb.nation(s, 0, {o: 1})
    s.dice.push(0, 3)  # the split nation is drawn for player 0, the parent then for player 3
    d = hb.run(s, ("support", parent.id))
    split = s.nations[s.area_nation[z]]
    assert d.kind == "hb.nation-limit" and d.player == 0, (d.kind, split.owner)
    d = hb.answer(s, f"relinquish:{parent.id}")
    assert split.owner == 0 and parent.owner == 3
    assert d.kind == "hb.support-remove" and d.player == 3
