"""version²'s hooks of the game contract: the battle calculator (``realms odds``), the
map generator (``realms map generate``), the mission panel and event audience (2.4: each
player knows his own mission only), the page's controls, the search's evaluation and
turns (``Game.turn_of``) and the determinized copies' missions."""

from __future__ import annotations

import json
import random

from realms.cli import main
from realms.games.version2 import GAME
from realms.games.version2.board import load_board


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_odds_calculator_through_the_cli(capsys):
    """Exact where each side's units share one experience (the output says so), Monte
    Carlo through the game's battle code otherwise or when asked, with its intervals."""
    code, out, err = run(capsys, "odds", "version2", "--attacker", "4i,1c,2a", "--defender", "3i",
                         "--terrain", "mountains", "--capitol", "--json")
    assert code == 0, err
    r = json.loads(out)
    assert r["method"] == "exact" and "fight on" in r["policy"] and r["unresolved"] < 1e-6
    exact = r["chances"]["conquest"]
    code, out, err = run(capsys, "odds", "version2", "--attacker", "4i,1c,2a", "--defender", "3i",
                         "--terrain", "mountains", "--capitol", "--trials", "300", "--method", "monte-carlo", "--json")
    assert code == 0, err
    r = json.loads(out)
    assert r["method"] == "monte-carlo" and r["trials"] == 300
    assert r["interval_95"]["conquest"][0] - 0.05 <= exact <= r["interval_95"]["conquest"][1] + 0.05
    c = r["chances"]
    assert abs(c["conquest"] + c["attacker_breaks_off"] + c["attacker_destroyed"] - 1) < 1e-9
    lo, hi = r["interval_95"]["conquest"]
    assert lo <= c["conquest"] <= hi
    assert set(r["attacker_survivors"]) == {"infantry", "cavalry", "artillery"}
    code, out, err = run(capsys, "odds", "version2", "--attacker", "4i,1c,2a", "--defender", "2i+1,1i", "--trials", "100")
    assert code == 0 and "Monte Carlo, 100 battles" in out and "95%" in out
    code, out, err = run(capsys, "odds", "version2", "--attacker", "4i,1c,2a", "--defender", "3i")
    assert code == 0 and "Method: exact" in out and "95%" not in out


def test_odds_calculator_errors_name_the_argument(capsys):
    code, out, err = run(capsys, "odds", "version2", "--attacker", "4x", "--defender", "3i")
    assert code == 2 and "attacker" in err and "'4x'" in err
    code, out, err = run(capsys, "odds", "version2", "--defender", "3i")
    assert code == 2 and "--attacker is required" in err


def test_map_generate_writes_a_loadable_board(capsys, tmp_path):
    path = tmp_path / "b.toml"
    code, out, err = run(capsys, "map", "generate", "version2", "--players", "3", "--seed", "5", "-o", str(path))
    assert code == 0, err
    board = load_board(str(path))
    assert len(board.land) >= 9
    state = GAME.new_game({"players": 3, "map": str(path)}, 1)
    assert state.pending()


def test_2_4_mission_panel_and_dealt_event_for_its_holder_alone():
    s = GAME.new_game({"players": 4}, 2)
    for p in range(4):
        (panel,) = GAME.panels(s.view(p))
        assert panel["title"] == "Your secret mission" and s.view(p)["mission"]["text"] in panel["items"][0]
        mine = [e for e in s.events_for(p) if e.kind == "mission"]
        assert [e.data["player"] for e in mine] == [p]
    assert GAME.panels(s.view(None)) == []
    assert not [e for e in s.events_for(None) if e.kind == "mission"]


def test_controls_keep_end_in_view_and_svg_fields_are_area_ids():
    s = GAME.new_game({"players": 4}, 2)
    d = s.pending()[0]
    assert GAME.controls(s.view(d.player), d) == {"keep_in_view": ["end"]}
    svg = GAME.draw(s, s.options)
    for key in d.keys:
        if key.startswith("recruit:"):
            assert f'id="area-{key.split(":")[1]}"' in svg


def test_v2_q105_controls_offer_the_move_gesture_after_a_move():
    """The turn's first action and every decision right after a move get the move
    gesture: each ``F>T`` key a source and a destination on the board, the count of units
    able to move from each source, and ``v2.move`` named as the decision the gesture goes
    on in; sending ``F>T`` that many times moves them all (what web/game.js does with one
    gesture)."""
    s = GAME.new_game({"players": 4, "type": "abundance"}, 2)   # own neighbours from the start
    d = s.pending()[0]
    p = d.player
    move = max((k for k in d.keys if ">" in k), key=lambda k: len(s.units[int(k.split(">")[0])]))
    f, t = (int(x) for x in move.split(">"))
    first = GAME.controls(s.view(p), d)
    assert d.kind == "v2.action" and first["moves"]["continues_as"] == ["v2.move"]
    assert first["moves"]["units"][str(f)] == sum(1 for u in s.units[f] if u[1] > 0) > 0
    s.apply(p, move)
    d = s.pending()[0]
    c = GAME.controls(s.view(p), d)
    assert d.kind == "v2.move" and c["keep_in_view"] == ["end"] and c["moves"]["separator"] == ">"
    count = c["moves"]["units"][str(f)]
    assert count == sum(1 for u in s.units[f] if u[1] > 0) > 0
    svg = GAME.draw(s, s.options)
    for key in d.keys:
        if ">" in key:
            src, dst = key.split(">")
            assert src in c["moves"]["units"] and f'id="area-{src}"' in svg and f'id="area-{dst}"' in svg
    before = len(s.units[t])
    for _ in range(count):
        s.apply(p, move)
    assert len(s.units[t]) == before + count and move not in s.pending()[0].keys


def test_evaluation_shares_and_determinized_missions():
    s = GAME.new_game({"players": 4}, 2)
    v = GAME.evaluation(s)
    assert len(v) == 4 and abs(sum(v) - 1) < 1e-9
    d = s.determinize(0, random.Random(1))
    assert d.view(0) == s.view(0)
    kinds = [m[0] for m in d.missions]
    assert len(set(kinds)) == 4 and d.missions[0] == s.missions[0]
    assert any(d.determinize(0, random.Random(k)).missions[1:] != s.missions[1:] for k in range(5))


def test_2_3_the_turn_a_search_plays_out_is_the_acting_player_s_turn():
    """``Game.turn_of`` (``ismcts:horizon=turn``), 2.3: "A game-turn always starts with the
    same player and ends with the turn of the player preceding this player"; the player
    recruits, moves and attacks until he ends his turn, when the next one's begins."""
    s = GAME.new_game({"players": 3}, 1)
    first, second, third = s.order
    assert GAME.turn_of(s) == (1, first)
    s.apply(first, "recruit:17:i")
    assert s.first_pending().player == first and GAME.turn_of(s) == (1, first)
    s.apply(first, "end")
    assert GAME.turn_of(s) == (1, second)
    s.apply(second, "end")
    assert GAME.turn_of(s) == (1, third)
    s.apply(third, "end")
    assert GAME.turn_of(s) == (2, first) and s.first_pending().player == first
