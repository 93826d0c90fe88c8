"""version² through the shared contract: options, the CLI's simulate / replay / map show,
records, and the game registered with nothing in the shared code naming it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from realms.cli import main
from realms.core.game import OptionError, get_game
from realms.games.version2 import GAME

SRC = Path(__file__).resolve().parents[2] / "src" / "realms"


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_registered_through_the_entry_point():
    assert get_game("version2") is GAME
    assert (GAME.min_players, GAME.max_players) == (2, 6)


def test_shared_code_never_names_the_game():
    for part in ("core", "sim", "server", "web"):
        for f in (SRC / part).rglob("*.*"):
            if f.suffix in (".py", ".js", ".html"):
                assert "version2" not in f.read_text(encoding="utf-8"), f
    for name in ("cli.py", "cli_odds.py"):
        assert "version2" not in (SRC / name).read_text(encoding="utf-8")


def test_options_defaults_and_errors():
    normalize_options = GAME.normalize_options
    opts = normalize_options({})
    assert opts == {"players": 4, "names": ["P1", "P2", "P3", "P4"], "type": "capitol",
                    "map": "board-4", "turn_limit": 40}
    assert normalize_options({"players": 6})["map"] == "board-6"
    assert [o.name for o in GAME.schema] == ["players", "names", "type", "map", "turn_limit"]
    assert normalize_options({"map": "board-3", "players": 3})["map"] == "board-3"
    with pytest.raises(OptionError, match="option 'map' must be the name of a bundled map"):
        GAME.normalize_options({"map": "/etc/passwd"}, paths=False)
    with pytest.raises(OptionError, match="option 'players' must be 2..6"):
        normalize_options({"players": 7})
    with pytest.raises(OptionError, match="option 'type' must be one of capitol, resistance, abundance"):
        normalize_options({"type": "siege"})
    with pytest.raises(OptionError, match="unknown option"):
        normalize_options({"turns": 3})
    with pytest.raises(OptionError, match="option 'map': .*cannot read"):
        normalize_options({"map": "/no/such/board.toml"})
    with pytest.raises(OptionError, match="option 'turn_limit' must be 4..1000"):
        normalize_options({"turn_limit": 1})


def test_simulate_json_and_replay_same_hash(capsys, tmp_path):
    record = tmp_path / "game.json"
    code, out, err = run(capsys, "simulate", "version2", "--players", "4", "--seed", "7", "--json",
                         "--record", str(record))
    assert code == 0, err
    line = json.loads(out)
    for key in ("game", "seed", "players", "scores", "winner", "decisions", "state_hash", "event_counts"):
        assert key in line
    assert line["game"] == "version2" and line["decisions"] > 0
    code, out, err = run(capsys, "replay", str(record), "--json")
    assert code == 0, err
    assert json.loads(out)["state_hash"] == line["state_hash"]


def test_map_show_and_bad_board(capsys, tmp_path):
    code, out, err = run(capsys, "map", "show", "version2", "-o", str(tmp_path / "b.svg"))
    assert code == 0 and (tmp_path / "b.svg").read_text().count('class="field') > 50
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nfields = [{q = 0, r = 0, terrain = "lava", index = 1}]\n')
    code, out, err = run(capsys, "map", "show", "version2", "--map", str(bad), "-o", str(tmp_path / "c.svg"))
    assert code != 0 and "bad.toml: field #0 (q=0, r=0): unknown terrain 'lava'" in err


def test_running_record_leaves_out_the_seed():
    s = GAME.new_game({"players": 3}, 2)
    rec = GAME.record_for(s, 0)
    assert "seed" not in rec and rec["game"] == "version2"


def test_advice_gives_the_odds_before_an_attack(v2):
    """The advice hook: the odds of the battle at stake, from the player's view alone."""
    s = v2.game()
    a, b = v2.pair("meadows", "meadows")
    v2.own(s, 0, a, units=[v2.inf()] * 6)
    v2.own(s, 1, b, units=[v2.inf()] * 2)
    v2.run(s, ("act", 0))
    v2.answer(s, f"attack:{b}")
    v2.answer(s, f"all:{a}")
    view = s.view(0)
    tips = GAME.advice(view, s.pending_for(0))
    assert len(tips) == 1 and tips[0]["kind"] == "odds" and tips[0]["conquest"] > 0.9
    assert "6 infantry against 2 infantry" in tips[0]["text"] and "exact" in tips[0]["text"]
    assert GAME.advice(view, s.pending_for(0)) == tips                  # seeded: the same again
    json.dumps(tips)
