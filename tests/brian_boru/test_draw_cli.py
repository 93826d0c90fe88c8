"""The board drawing and the generic commands with Brian Boru: ``realms simulate``,
``realms replay``, ``realms map show``."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from realms.cli import main
from realms.core.agents import RandomBot
from realms.core.match import play
from realms.games.brian_boru import GAME

NS = "{http://www.w3.org/2000/svg}"


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_board_svg_has_regions_towns_and_roads():
    root = ET.fromstring(GAME.draw(None, {}).split("\n", 1)[1])
    assert len([e for e in root.iter(NS + "polygon") if e.get("class") == "region"]) == 8
    assert len([e for e in root.iter(NS + "circle") if e.get("class") == "town"]) == 53
    roads = [e for e in root.iter(NS + "line") if e.get("class") == "road"]
    assert len(roads) == 36 and not any(e.get("stroke-dasharray") for e in roads)   # BB-Q28: none invented


def test_position_svg_shows_discs_and_vikings():
    s = play(GAME.new_game({"players": 4}, 2), [RandomBot(i) for i in range(4)])
    root = ET.fromstring(GAME.draw(s, {}).split("\n", 1)[1])
    shown = [e for e in root.iter() if e.get("display") != "none"]
    discs = [e for e in shown if e.tag == NS + "circle" and e.get("class") == "disc"]
    vikings = [e for e in shown if e.tag == NS + "rect" and e.get("class") == "viking"]
    assert len(discs) == sum(1 for o in s.owner if o >= 0)
    assert len(vikings) == sum(s.viking)


def test_simulate_json_has_rounds(capsys):
    code, out, err = run(capsys, "simulate", "brian-boru", "--players", "5", "--seed", "3", "--json")
    assert code == 0, err
    data = json.loads(out)
    for key in ("game", "seed", "players", "turns", "rounds", "scores", "winner", "winners", "decisions",
                "state_hash", "event_counts"):
        assert key in data
    assert data["game"] == "brian-boru" and data["rounds"] == 4 and len(data["players"]) == 5


def test_simulate_chronicle_and_bots(capsys):
    code, out, err = run(capsys, "simulate", "brian-boru", "--players", "3", "--seed", "2",
                         "--bots", "greedy,random,random")
    assert code == 0, err
    assert "Round 3 of 3 begins." in out and "Final scores:" in out and "wins the trick" in out


def test_record_replays_to_the_same_summary(capsys, tmp_path):
    rec = tmp_path / "bb.json"
    _, out, _ = run(capsys, "simulate", "brian-boru", "--players", "4", "--seed", "6", "--json", "--record", str(rec))
    code, again, _ = run(capsys, "replay", str(rec), "--json")
    assert code == 0 and json.loads(again) == json.loads(out)


def test_map_show_writes_the_board(capsys, tmp_path):
    svg = tmp_path / "board.svg"
    code, out, err = run(capsys, "map", "show", "brian-boru", "-o", str(svg))
    assert code == 0, err
    assert "Northern Uí Néill" in svg.read_text(encoding="utf-8")


def test_bad_options_are_one_line_errors(capsys):
    code, _, err = run(capsys, "simulate", "brian-boru", "--players", "6")
    assert code != 0 and "3..5" in err
    code, _, err = run(capsys, "simulate", "brian-boru", "--turns", "3")
    assert code != 0 and "no such option: --turns (brian-boru's options: players, names" in err
    code, _, err = run(capsys, "simulate", "brian-boru", "--option", "turns=3")
    assert code != 0 and "unknown option(s) turns (known: players, names)" in err
