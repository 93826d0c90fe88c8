"""Set-up and the turn of version²: I.2, 2.2, 2.3 with 2.3.1–2.3.3 and 2.3.5.  Each test
cites its section; rulings by ID are in test_rulings.py."""

from __future__ import annotations

import pytest

from realms.core.decision import IllegalAnswer
from realms.games.version2 import GAME
from realms.games.version2.board import FORD
from realms.games.version2.state import NOBODY


# -- I.2, 2.2: set-up --------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 4, 6])
def test_i2_capitol_with_warehouse_and_infantry(players):
    """I.2 Capitol: a random land field per player with a capitol and a warehouse (+4),
    and as many infantries as the field's production index (V2-Q2: with the +4); fields
    distinct, never a ford (V2-Q5)."""
    s = GAME.new_game({"players": players}, 5)
    caps = [f for f in range(s.board.size) if s.capitol[f] != NOBODY]
    assert sorted(s.capitol[f] for f in caps) == list(range(players))
    for f in caps:
        assert s.owner[f] == s.capitol[f] and s.warehouse[f] == 1
        assert s.board.terrain[f] != FORD
        assert len(s.units[f]) == s.board.index[f] + 4 and all(u[0] == 0 for u in s.units[f])
        assert s.field_value(f) == s.board.index[f] + 4
    assert len(caps) == players
    assert sum(1 for o in s.owner if o != NOBODY) == players        # all else neutral


def test_i2_resistance_neutral_armies():
    """I.2 Resistance: the neutral fields are filled with infantries by production index;
    fords hold none (index 0)."""
    s = GAME.new_game({"players": 3, "type": "resistance"}, 2)
    for f in s.board.passable:
        if s.owner[f] == NOBODY:
            assert len(s.units[f]) == s.board.index[f]


def test_i2_abundance_fields_dealt_in_turn():
    """I.2, 2.2 Abundance: every neutral land field is assigned to one player in turn;
    sea and fords remain untouched; each filled with infantry by its index."""
    s = GAME.new_game({"players": 4, "type": "abundance"}, 2)
    assert all(s.owner[f] != NOBODY for f in s.board.land)
    assert all(s.owner[f] == NOBODY for f in s.board.passable if s.board.terrain[f] == FORD)
    counts = [s.land_count(p) for p in range(4)]
    assert max(counts) - min(counts) <= 1
    for f in s.board.land:
        if s.capitol[f] == NOBODY:
            assert len(s.units[f]) == s.board.index[f]


def test_2_2_players_mixed_up_and_a_random_player_starts():
    """2.2: "The players now get mixed up and a random player starts the game": the turn
    order is a random permutation of the seats (not only a rotation of them), headed by
    the first player."""
    orders = set()
    for seed in range(40):
        s = GAME.new_game({"players": 4}, seed)
        assert sorted(s.order) == [0, 1, 2, 3] and s.first == s.order[0]
        orders.add(tuple(s.order))
    rotations = {tuple((i + k) % 4 for i in range(4)) for k in range(4)}
    assert {o[0] for o in orders} == {0, 1, 2, 3} and orders - rotations


# -- 2.3.1: resources -----------------------------------------------------------------------
def test_2_3_1_production_added_at_turn_start(v2):
    """2.3.1: at the beginning of his turn a player adds the production indices of all his
    fields: natural index, +3 for the capitol, +1 per warehouse."""
    s = v2.game()
    a, b = v2.pair("meadows", "mountains")
    v2.own(s, 0, a, b)
    s.capitol[a] = 0
    s.warehouse[a] = 1
    s.warehouse[b] = 1
    s.treasure[0] = 2
    v2.run(s, ("turn", 0))
    expected = s.board.index[a] + 4 + s.board.index[b] + 1
    assert s.treasure[0] == 2 + expected
    assert s.production(0) == expected


def test_2_3_1_first_turn_production(v2):
    """The first player gains his production in the first turn as well (V2-Q9)."""
    s = GAME.new_game({"players": 3}, 8)
    p = s.first
    assert s.treasure[p] == 10 + s.production(p)
    assert all(s.treasure[q] == 10 for q in range(3) if q != p)


# -- 2.3.2: recruitment ----------------------------------------------------------------------
def test_2_3_2_recruit_where_and_what(v2):
    """2.3.2: infantry on every own land field, cavalry only on meadows, artillery only in
    mountains; never on a ford; the costs are 1, 2 and 4."""
    s = v2.game()
    m, mt = v2.pair("meadows", "mountains")
    _, ford = v2.pair("meadows", "ford")
    v2.own(s, 0, m, mt, ford)
    s.treasure[0] = 20
    d = v2.run(s, ("act", 0))
    keys = set(d.keys)
    assert {f"recruit:{m}:i", f"recruit:{m}:c", f"recruit:{mt}:i", f"recruit:{mt}:a"} <= keys
    assert f"recruit:{m}:a" not in keys and f"recruit:{mt}:c" not in keys
    assert not any(k.startswith(f"recruit:{ford}:") for k in keys)
    v2.answer(s, f"recruit:{mt}:a")
    assert s.treasure[0] == 16 and s.units[mt] == [(2, 0, 0)]
    v2.answer(s, f"recruit:{m}:c")
    v2.answer(s, f"recruit:{m}:i")
    assert s.treasure[0] == 13


def test_2_3_2_treasure_never_negative(v2):
    """2.3.2: the production account cannot be negative — what is not affordable is not offered."""
    s = v2.game()
    m, mt = v2.pair("meadows", "mountains")
    v2.own(s, 0, m, mt)
    s.treasure[0] = 3
    d = v2.run(s, ("act", 0))
    assert f"recruit:{mt}:a" not in d.keys and f"recruit:{m}:c" in d.keys
    with pytest.raises(IllegalAnswer):
        s.apply(0, f"recruit:{mt}:a")
    assert s.treasure[0] == 3


def test_2_3_2_recruits_cannot_move_until_next_turn(v2):
    """2.3.2: a recruit has 0 move points and cannot be moved until the player's next turn,
    when its move points are fully restored."""
    s = v2.game()
    a, b = v2.pair("meadows", "meadows")
    v2.own(s, 0, a, b)
    s.treasure[0] = 4                    # money left after the recruit: the turn goes on
    v2.run(s, ("act", 0))
    d = v2.answer(s, f"recruit:{a}:c")
    assert d.player == 0 and d.kind == "v2.action"
    assert not any(k.startswith((f"move:{a}:", f"{a}>")) for k in d.keys)
    assert f"attack:{b}" not in d.keys
    v2.run(s, ("turn", 0))
    assert s.units[a] == [(1, 2, 0)]


# -- 2.3.3: movement ------------------------------------------------------------------------------
def test_2_3_3_move_points(v2):
    """2.3.3: a move point buys a move into an adjacent own field: infantry one field,
    cavalry two."""
    s = v2.game()
    a, b = v2.pair("meadows", "meadows")
    c = next(g for g in s.board.adj[b] if g != a and s.board.terrain[g] >= 2)
    v2.own(s, 0, a, b, c)
    s.set_units(a, [v2.inf(), v2.cav()])
    s.treasure[0] = 50                                               # the turn goes on
    v2.run(s, ("act", 0))
    d = v2.answer(s, f"{a}>{b}")                                     # the first class: infantry
    assert s.units[b] == [v2.inf(0)]
    assert not any(k.startswith((f"move:{b}:", f"{b}>")) for k in d.keys)   # the infantry is spent
    d = v2.answer(s, f"{a}>{b}")                                     # now the cavalry's turn
    assert v2.cav(1) in s.units[b] and f"{b}>{c}" in d.keys
    v2.answer(s, f"{b}>{c}")
    assert s.units[c] == [v2.cav(0)]


def test_v2_q105_one_unit_moves_by_source_and_destination(v2):
    """V2-Q105: ``F>T`` moves the first class of F's units that can move (infantry, then
    cavalry, then artillery; fewest move points first) and the player is asked again, as
    ``v2.move``, so a page can send it once per unit; other classes keep their named
    keys, every mover at once ``move:F:T:all``."""
    s = v2.game()
    a, b = v2.pair("meadows", "meadows")
    v2.own(s, 0, a, b)
    s.set_units(a, [v2.art(), v2.cav(), v2.inf(), v2.inf()])
    s.treasure[0] = 2
    d = v2.run(s, ("act", 0))
    assert d.kind == "v2.action"
    assert {f"{a}>{b}", f"move:{a}:{b}:c2.0", f"move:{a}:{b}:a1.0", f"move:{a}:{b}:all"} <= set(d.keys)
    assert f"move:{a}:{b}:i1.0" not in d.keys
    for arm in (v2.inf(0), v2.inf(0), v2.cav(1), v2.art(0)):
        d = v2.answer(s, f"{a}>{b}")
        assert d.kind == "v2.move" and arm in s.units[b]
    assert not s.units[a] and f"{a}>{b}" not in d.keys
    d = v2.answer(s, f"{b}>{a}")                                     # the cavalry has a point left
    assert d.kind == "v2.move" and s.units[a] == [v2.cav(0)]
    d = v2.answer(s, f"recruit:{b}:i")
    assert d.kind == "v2.action"


def test_2_3_3_no_move_into_a_foreign_field(v2):
    """2.3.3: moves go into own fields only; entering another's field is an attack."""
    s = v2.game()
    a, b = v2.pair("meadows", "meadows")
    v2.own(s, 0, a, units=[v2.inf()])
    v2.own(s, 1, b)
    d = v2.run(s, ("act", 0))
    assert not any(k.startswith((f"move:{a}:{b}", f"{a}>{b}")) for k in d.keys) and f"attack:{b}" in d.keys


def test_2_3_4_2_negative_move_points_recover_turn_by_turn(v2):
    """2.3.4.2 example: an infantry at 0 that retreats goes to −1; the next turn it is at
    0, and only the turn after that at 1 and able to move."""
    s = v2.game()
    a, b = v2.pair("meadows", "meadows")
    v2.own(s, 0, a, units=[v2.inf(-1)])
    v2.own(s, 0, b)
    d = v2.run(s, ("turn", 0))
    assert s.units[a] == [v2.inf(0)] and f"{a}>{b}" not in d.keys
    d = v2.run(s, ("turn", 0))
    assert s.units[a] == [v2.inf(1)] and f"{a}>{b}" in d.keys


# -- 2.3.5: warehouses --------------------------------------------------------------------------------
def test_2_3_5_build_and_pull_down(v2):
    """2.3.5: a warehouse costs 5 and adds 1 to the field's production; one per field, not
    on a ford; pulled down for free, but never the capitol's while the capitol stands."""
    s = v2.game()
    m, mt = v2.pair("meadows", "mountains")
    _, ford = v2.pair("meadows", "ford")
    v2.own(s, 0, m, mt, ford)
    s.capitol[mt] = 0
    s.warehouse[mt] = 1
    s.treasure[0] = 11
    d = v2.run(s, ("act", 0))
    assert f"build:{m}" in d.keys and f"build:{ford}" not in d.keys and f"build:{mt}" not in d.keys
    assert f"pull:{mt}" not in d.keys
    before = s.production(0)
    d = v2.answer(s, f"build:{m}")
    assert s.treasure[0] == 6 and s.production(0) == before + 1
    assert f"build:{m}" not in d.keys and f"pull:{m}" in d.keys
    d = v2.answer(s, f"pull:{m}")
    assert s.warehouse[m] == 0 and s.treasure[0] == 6 and s.production(0) == before
    assert f"build:{m}" in d.keys
    d = v2.answer(s, f"build:{m}")
    assert f"build:{m}" not in d.keys                     # 1 left in the treasure


def test_2_3_end_turn_passes_in_order(v2):
    """2.3: a game turn starts with the same player and ends with the player before him,
    in the turn order mixed at the start (2.2): here 1, 0, 2."""
    s = v2.game(players=3)
    fields = [v2.field("woodland", 3), v2.field("meadows", 3), v2.field("mountains", 3)]
    for p, f in enumerate(fields):
        v2.own(s, p, f)
    s.order = [1, 0, 2]
    s.first = 1
    s.turn = 2
    s.treasure = [10, 10, 10]            # each can recruit: a real choice, asked
    v2.run(s, ("turn", 1))
    assert s.active == 1
    v2.answer(s, "end")
    assert s.active == 0 and s.turn == 2
    v2.answer(s, "end")
    assert s.active == 2 and s.turn == 2
    v2.answer(s, "end")
    assert s.active == 1 and s.turn == 3
