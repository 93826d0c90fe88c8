"""Battle odds before a decision (``Game.advice``, the web app's ``odds``).

The hook reads the player's view and its pending decision only.  Here its numbers are
checked against the odds solver fed from the game state itself (the rules' own move
options, units, moved units, races, fervour, cities), at every decision of whole games
played with a policy that attacks whenever it can: §6.3 movement, §6.3.1 combat, §6.3.2
retreat, §9.2 submission.
"""

from __future__ import annotations

import pytest

from realms.games.hy_breasil import GAME
from realms.games.hy_breasil.advice import EXACT_UNITS, MC_RUNS, _odds, advice
from realms.games.hy_breasil.movement import move_options
from realms.games.hy_breasil.odds import solve, solve_position

TOL = 1e-12
FIELDS = ("attacker_takes", "defender_holds", "both_fall", "expected_attackers_left", "expected_defenders_left")


def pick(d) -> str:
    """Attack whenever possible, then fight, stay and never submit; else the first option."""
    keys = list(d.keys)
    for k in keys:
        if ">" in k and "attack" in d.label(k):
            return k
    for k in ("fight", "stay"):
        if k in keys:
            return k
    return keys[0]


def solver_numbers(r) -> dict:
    return {"attacker_takes": r.attacker_takes_area, "defender_holds": r.defender_holds_area, "both_fall": r.mutual,
            "expected_attackers_left": r.expected_attackers_left,
            "expected_defenders_left": r.expected_defenders_left}


def mods(s, att, dfd, area: int) -> dict:
    return {"terrain": s.board.terrain[area], "fervour": bool(att.fervour),
            "attacker_race": att.race if s.races_on else None,
            "defender_race": dfd.race if (s.races_on and dfd is not None) else None}


def expected(s, d) -> list[tuple[str, str, int, dict]]:
    """(kind, area id, attackers, solver numbers) from the state, for decision ``d``."""
    b = s.board
    me = d.info["nation"]
    if s.battle is not None:
        area, att_id, def_id, au, aw, du, dw = s.battle[:7]
        if me not in (att_id, def_id):
            return []
        att, dfd = s.nations[att_id], s.nations.get(def_id)
        r = solve_position(au, aw, du, dw, city=s.battle[10] > 0, **mods(s, att, dfd, area))
        return [("battle", b.ids[area], au + aw, solver_numbers(r))]
    if d.kind != "hb.move":
        return []
    n = s.nations[me]
    rows, _ = move_options(s, n)
    reach: dict[int, int] = {}
    for row, mask in rows:
        src = b.move_keys.index(tuple(row))
        free = n.units[src] - s.moved.get(src, 0)
        for dst in range(b.n):
            if mask >> dst & 1:
                reach[dst] = reach.get(dst, 0) + free
    out = []
    for dst, attackers in sorted(reach.items()):
        owner = s.area_nation[dst]
        if owner == -1 or owner == me:
            continue
        dfd = s.nations[owner]
        r = solve(attackers, dfd.units[dst], city=bool(s.cities >> dst & 1), **mods(s, n, dfd, dst))
        out.append(("possible-attack", b.ids[dst], attackers, solver_numbers(r)))
    return out


@pytest.mark.parametrize("seed, rules", [(7, []), (3, ["races"]), (11, ["submission"])])
def test_the_hooks_numbers_are_the_solvers_at_every_decision(seed, rules):
    s = GAME.new_game({"players": 3, "turns": 5, "rules": rules}, seed)
    seen = set()
    for _ in range(3000):
        if s.is_over():
            break
        d = s.pending()[0]
        got = advice(s.view(d.player), [d])
        want = expected(s, d) if d.kind in ("hb.move", "hb.retreat", "hb.submit") else []
        assert [(e["kind"], e["area"], e["attackers"]) for e in got] == [w[:3] for w in want], d.kind
        for e, (_, _, _, numbers) in zip(got, want):
            assert e["method"] == "exact"
            for f in FIELDS:
                assert abs(e[f] - numbers[f]) <= TOL, (f, e["text"])
            assert e["attacker_takes"] + e["defender_holds"] + e["both_fall"] == pytest.approx(1, abs=1e-9)
            assert e["text"] and e["area_name"] in e["text"]
            seen.add((d.kind, e["kind"], e["side"]))
        s.apply(d.player, pick(d))
    # the game went through attacks offered, battles started, fought and defended
    assert {("hb.move", "possible-attack", "attacker"), ("hb.move", "battle", "attacker")} <= seen
    assert any(k == "hb.retreat" for k, _, _ in seen)


def test_battle_before_it_starts_shows_the_units_that_can_still_join():
    s = GAME.new_game({"players": 3, "turns": 2}, 7)
    for _ in range(2000):
        d = s.pending()[0]
        if d.kind == "hb.move" and "fight" in d.keys:
            entry = advice(s.view(d.player), [d])[0]
            if entry.get("joinable"):
                break
        s.apply(d.player, pick(d))
    else:
        pytest.fail("no battle with units still to join")
    assert entry["kind"] == "battle" and entry["side"] == "attacker"
    more = entry["with_all"]
    assert more["attackers"] == entry["attackers"] + entry["joinable"]
    bt = s.battle
    att, dfd = s.nations[bt[1]], s.nations[bt[2]]
    r = solve(more["attackers"], bt[5], city=bt[10] > 0, **mods(s, att, dfd, bt[0]))
    assert abs(more["attacker_takes"] - r.attacker_takes_area) <= TOL
    assert f"with all {more['attackers']}" in entry["text"]


def test_defender_sees_the_battle_from_its_side():
    s = GAME.new_game({"players": 2, "turns": 3}, 5)
    for _ in range(3000):
        d = s.pending()[0]
        if d.kind == "hb.retreat" and s.battle is not None and d.info["nation"] == s.battle[2]:
            entry = advice(s.view(d.player), [d])[0]
            break
        s.apply(d.player, pick(d))
    else:
        pytest.fail("no defender's retreat decision")
    assert entry["side"] == "defender" and entry["text"].startswith("Defence of")
    assert "hold" in entry["text"] and "they take" in entry["text"]


def test_no_odds_for_other_decisions_or_nobody():
    s = GAME.new_game({"players": 3, "turns": 2}, 7)
    d = s.pending()[0]
    assert d.kind == "hb.entry-sea"
    assert advice(s.view(d.player), [d]) == []
    assert advice(s.view(None), []) == []


def test_battles_beyond_the_exact_size_are_played_or_left_unsolved():
    r = _odds(EXACT_UNITS + 5, EXACT_UNITS + 2, 0, 0, "plains", False, None, None, False)
    assert r.method == "monte-carlo" and r.runs == MC_RUNS
    assert _odds(EXACT_UNITS + 5, EXACT_UNITS + 2, 2, 0, "plains", False, None, None, False) is None
    assert _odds(3, 0, 0, 0, "plains", False, None, None, False) is None


def test_warm_solves_the_base_game_tables_before_any_request():
    """``GAME.warm`` (called by ``realms serve`` at start-up) leaves every base-game battle
    of the default token set (§6.3.1: three terrains, §6.1 Religious fervour or not) a
    look-up in the solver's tables, so no request pays for building one."""
    from realms.games.hy_breasil import advice as hook, odds
    from realms.games.hy_breasil.tables import TERRAINS, load_tables

    odds._TABLES.clear()
    odds._solve_cached.cache_clear()
    hook._warm.cache_clear()
    GAME.warm()
    size = load_tables().default_set_size
    warmed = dict(odds._TABLES)
    for terrain in TERRAINS:
        for fervour in (False, True):
            key = (odds._modifiers(odds.Battle(size, size, terrain, fervour)), True)
            assert key in warmed, f"{terrain}, fervour {fervour} not solved at start-up"
            assert warmed[key].n_att >= size and warmed[key].n_def >= size
            assert odds._table_for(odds.Battle(size, size, terrain, fervour)) is warmed[key]
