"""realms history: the chronicle, the histomap and one map per turn."""

import json
import re
from dataclasses import replace
from html import escape

import pytest

from realms.cli import main
from realms.core.game import get_game
from realms.sim.batch import Simulation, run
from realms.sim import history
from realms.sim.history import Share, TurnPicture, history_html, order_streams, render_html, replay_history
from realms.sim.runner import run_game

OPTS = {"players": 4, "turns": 6, "rules": ["races"]}


@pytest.fixture(scope="module")
def hb_game():
    return run_game(get_game("hy-breasil"), OPTS, 9, ["random"])


def test_replay_keeps_every_turn_and_its_land(hb_game):
    h = replay_history(hb_game.record())
    assert [tp.turn for tp in h.turns] == [1, 2, 3, 4, 5, 6]
    assert h.state.state_hash() == hb_game.state_hash()
    last = h.turns[-1]
    held = {str(nid): bin(n.land).count("1") for nid, n in hb_game.nations.items() if n.land}
    assert {s.key: s.value for s in last.shares} == held
    assert last.total == len(hb_game.board.land)
    for tp in h.turns:  # each map is drawn at the end of its own turn
        assert f"turn {tp.turn}</text>" in tp.svg or f"— turn {tp.turn}" in tp.svg
    races = {s.detail.split(",")[0] for tp in h.turns for s in tp.shares}
    assert races <= {"human", "dwarf", "elf", "troll", "hogman", "lizardman"}


def test_history_page_has_chronicle_histomap_and_one_map_per_turn(hb_game):
    html = history_html(hb_game.record(), "game.json")
    for t in range(1, 7):
        assert f'<section data-turn="{t}"><h2>Turn {t}</h2>' in html
    texts = [e.text for e in hb_game.events if e.kind != "turn"]
    assert all(escape(t) in html for t in texts)
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg" class="histomap"') == 1
    maps = re.findall(r'<figure class="turnmap" data-turn="(\d+)" hidden><svg', html)
    assert maps == [str(t) for t in range(1, 7)]
    assert 'id="slider" type="range" min="0" max="5"' in html
    names = {n.name for n in hb_game.nations.values() if n.land}
    assert all(f">{escape(n)}</title>" in html or escape(n) in html for n in names)
    assert '<?xml' not in html  # inlined SVGs lose their declaration
    assert json.loads(re.search(r'id="turns">(.*?)</script>', html).group(1)) == [1, 2, 3, 4, 5, 6]


def test_histomap_streams_are_shares_of_the_land_held():
    turns = [TurnPicture(1, [Share("1", "A", "elf", "#ff0000", 3), Share("2", "B", "", "#00ff00", 1)], 10, None),
             TurnPicture(2, [Share("2", "B", "", "#00ff00", 2), Share("3", "C", "", "#0000ff", 2, parent="1")], 10, None)]
    from realms.sim.history import histomap_svg

    svg = histomap_svg(turns, width=558, row=40)  # inner width 558 - 58 - 46 = 454
    assert svg.count('class="hm-stream"') == 3
    assert ">75%<" not in svg and ">40%<" in svg  # 4 of 10 areas held at turn 1, 4 at turn 2
    a = re.search(r'data-key="1"[^>]*points="([^"]+)"', svg).group(1)
    xs = sorted({float(p.split(",")[0]) for p in a.split()})
    assert xs[0] == 58 and xs[-1] == pytest.approx(58 + 454 * 0.75, abs=0.1)


def test_split_off_nations_flow_beside_their_parent():
    def tp(turn, *shares):
        return TurnPicture(turn, [Share(k, k, "", "#000", 1, p) for k, p in shares], 10, None)

    turns = [tp(1, ("1", None), ("2", None)), tp(2, ("1", None), ("2", None), ("3", "1")),
             tp(3, ("1", None), ("2", None), ("3", "1"), ("4", "3"), ("5", None))]
    assert order_streams(turns) == ["1", "3", "4", "2", "5"]


def test_cli_history_from_a_record_and_from_games_jsonl(tmp_path, hb_game, capsys):
    rec = tmp_path / "game.json"
    hb_game.record().save(rec)
    out = tmp_path / "history.html"
    assert main(["history", str(rec), "-o", str(out)]) == 0
    page = out.read_text()
    assert "the history of one game" in page and page.count('class="turnmap"') == 6
    run(Simulation("hy-breasil", OPTS, ("random",), seed=8, games=3), out=tmp_path / "rep")
    out2 = tmp_path / "h2.html"
    assert main(["history", str(tmp_path / "rep" / "games.jsonl"), "--seed", "9", "-o", str(out2)]) == 0
    assert out2.read_text().count('class="turnmap"') == 6
    assert "seed 9 ·" in out2.read_text()
    assert main(["history", str(tmp_path / "rep" / "games.jsonl"), "--seed", "99", "-o", str(out2)]) == 2
    assert "no game with seed 99" in capsys.readouterr().err


def test_cli_history_bad_record_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "realms-record", "version": 1, "game": "hy-breasil", "options": {}, '
                   '"seed": 1, "answers": [[0, "nowhere"]]}')
    assert main(["history", str(bad), "-o", str(tmp_path / "x.html")]) == 2
    err = capsys.readouterr().err
    assert "answer #1" in err and err.count("\n") == 1


def test_brian_boru_history_by_round():
    state = run_game(get_game("brian-boru"), {"players": 3}, 2, ["greedy"])
    h = replay_history(state.record())
    rounds = [tp.turn for tp in h.turns if tp.turn > 0]
    assert rounds == list(range(1, state.round + 1))
    last = h.turns[-1]
    assert last.total == len(state.board.towns)
    assert {s.key for s in last.shares} <= {"p0", "p1", "p2", "vikings"}
    html = history_html(state.record())
    assert "<h2>Round 1</h2>" in html and "towns controlled" in html and ">round 1</text>" in html
    assert re.search(r"at its height \d+% of the towns controlled \(round \d+\)", html)  # Game.turn_word
    assert "'round '+t" in html


def test_the_game_measure_names_the_streams_and_styles_the_chronicle(hb_game):
    """Hy Breasil's measure (Game.history_measure): a nation split off another (civil war
    §6.1, cut off §6.4) names its parent; battles, rises and falls are styled."""
    h = replay_history(hb_game.record(), draw_maps=False)
    assert h.measure.name == "land areas held" and all(tp.svg is None for tp in h.turns)
    splits = {str(e.data["new_nation"]): str(e.data["nation"]) for e in hb_game.events
              if e.kind in ("civil-war", "nation-splits")}
    parents = {s.key: s.parent for tp in h.turns for s in tp.shares if s.parent is not None}
    assert parents and parents.items() <= splits.items()
    html = render_html(h)
    assert '<li class="battle">' in html and '<li class="rise">' in html
    assert "<li class=\"\">Turn" not in html  # the turn markers are left to the headings


def test_a_game_without_a_measure_shows_each_players_score(monkeypatch):
    """The default measure: each player's share of the scores, named after the game's
    score and drawn in the default palette."""
    game = replace(get_game("brian-boru"), history_measure=None)
    monkeypatch.setattr(history, "get_game", lambda game_id: game)
    state = run_game(game, {"players": 3}, 2, ["greedy"])
    h = replay_history(state.record(), draw_maps=False)
    last = h.turns[-1]
    assert {s.key: s.value for s in last.shares} == {f"p{p}": v for p, v in enumerate(state.points) if v}
    assert last.total == sum(state.points)
    assert h.measure.name == "points scored" and "Histomap — points scored by round" in render_html(h)
