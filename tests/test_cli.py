"""The ``realms`` command's contract (issue: CLI contract), run in-process."""

import json

import pytest

from realms.cli import main


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_simulate_prints_chronicle_and_scores(capsys):
    code, out, err = run(capsys, "simulate", "hy-breasil", "--players", "4", "--turns", "3", "--seed", "7")
    assert code == 0, err
    assert "Turn 1 begins." in out and "Final scores:" in out
    assert out.count(" VP") >= 4


def test_simulate_json_fields(capsys):
    code, out, _ = run(capsys, "simulate", "hy-breasil", "--players", "3", "--turns", "2", "--seed", "5", "--json")
    assert code == 0
    data = json.loads(out)
    for key in ("game", "seed", "players", "turns", "scores", "winner", "decisions", "state_hash", "event_counts"):
        assert key in data
    assert data["game"] == "hy-breasil" and data["seed"] == 5 and data["turns"] == 2
    assert set(data["scores"]) == set(data["players"]) and len(data["players"]) == 3


def test_simulate_many_games_one_line_each(capsys):
    code, out, _ = run(capsys, "simulate", "hy-breasil", "--turns", "1", "--games", "3", "--seed", "10", "--json")
    lines = [json.loads(line) for line in out.strip().splitlines()]
    assert [d["seed"] for d in lines] == [10, 11, 12]


def test_same_seed_same_game(capsys):
    a = run(capsys, "simulate", "hy-breasil", "--turns", "2", "--seed", "3", "--json")[1]
    b = run(capsys, "simulate", "hy-breasil", "--turns", "2", "--seed", "3", "--json")[1]
    assert json.loads(a)["state_hash"] == json.loads(b)["state_hash"]


def test_record_and_replay_same_summary(capsys, tmp_path):
    rec = tmp_path / "game.json"
    _, out, _ = run(capsys, "simulate", "hy-breasil", "--turns", "2", "--seed", "8", "--json", "--record", str(rec))
    code, again, _ = run(capsys, "replay", str(rec), "--json")
    assert code == 0 and json.loads(again) == json.loads(out)


def test_vp_target_and_per_seat_bots(capsys):
    code, out, err = run(capsys, "simulate", "hy-breasil", "--players", "2", "--vp-target", "30",
                         "--bots", "random,random", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert max(data["scores"].values()) >= 30 or data["turns"] == 100


@pytest.mark.parametrize("args, message", [
    (("simulate", "hy-breasil", "--players", "9"), "players"),
    (("simulate", "chess"), "unknown game"),
    (("simulate", "hy-breasil", "--bots", "a,b"), "--bots"),
    (("simulate", "hy-breasil", "--bots", "genius"), "unknown bot"),
    (("simulate", "hy-breasil", "--turns", "x"), "--turns"),
    (("simulate", "hy-breasil", "--games", "2", "--record", "r.json"), "--record"),
    (("replay", "/no/such/file.json"), "cannot read"),
    (("simulate", "hy-breasil", "--map", "/no/such/map.toml"), "map.toml"),
])
def test_bad_arguments_one_line_error(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code != 0
    assert err.count("\n") == 1 and err.startswith("realms: error:") and message in err


def test_replay_bad_file(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 2 and "bad.json" in err and "not valid JSON" in err


def test_map_show_writes_svg(capsys, tmp_path):
    out = tmp_path / "map.svg"
    code, _, err = run(capsys, "map", "show", "hy-breasil", "-o", str(out))
    assert code == 0, err
    text = out.read_text()
    assert text.startswith("<?xml") or text.startswith("<svg")
    assert "Loch" in text and "#5f9e4f" in text


def test_tournament_rotates_seats_and_reports_shares(capsys):
    """realms tournament: every bot plays every seat; shares with 95% intervals."""
    code, out, err = run(capsys, "tournament", "hy-breasil", "--bots", "random", "--players", "3",
                         "--games", "4", "--turns", "2", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 4
    st = data["bots"]["random"]
    assert st["seats"] == 12 and abs(st["wins"] - 4) < 1e-9  # one win (or its shares) a game
    lo, hi = st["win_share_ci95"]
    assert 0 <= lo <= st["win_share"] <= hi <= 1


def test_tournament_greedy_beats_random_at_brian_boru(capsys):
    code, out, err = run(capsys, "tournament", "brian-boru", "--bots", "greedy,random", "--players", "3",
                         "--games", "12", "--json")
    assert code == 0, err
    shares = {bot: s["win_share"] for bot, s in json.loads(out)["bots"].items()}
    assert shares["greedy"] > shares["random"]


def test_tournament_bad_bot(capsys):
    code, _, err = run(capsys, "tournament", "hy-breasil", "--bots", "random,oracle")
    assert code == 2 and "unknown bot 'oracle'" in err


def test_simulate_explain_weaves_auto_reasons_into_the_same_game(capsys):
    """Issue 5: ``--explain`` adds why each auto nation acted (TR, AT, MO) to the chronicle;
    without the ``why:`` lines it is the chronicle of the same game."""
    args = ("simulate", "hy-breasil", "--bots", "auto,random,random,random", "--turns", "3", "--seed", "4")
    code, explained, err = run(capsys, *args, "--explain")
    assert code == 0, err
    code, plain, _ = run(capsys, *args)
    why = [ln for ln in explained.splitlines() if ln.startswith("  why: ")]
    assert any("TR" in ln for ln in why) and any("AT" in ln for ln in why) and any("MO" in ln for ln in why)
    assert all("(P1)" in ln for ln in why)  # only seat 1 is an auto bot
    assert [ln for ln in explained.splitlines() if not ln.startswith("  why: ")] == plain.splitlines()
    first_event = explained.splitlines().index("Turn 1 begins.")
    assert first_event < explained.splitlines().index(why[0])


def test_simulate_explain_refuses_json(capsys):
    code, _, err = run(capsys, "simulate", "hy-breasil", "--explain", "--json")
    assert code == 2 and "--explain" in err and "--json" in err


def test_serve_is_a_realms_command(capsys):
    """Issue 8: ``realms serve`` (the README's first command) with its --host/--port/--database."""
    code, out, _ = run(capsys, "serve", "--help")
    assert code == 0
    for flag in ("--host", "--port", "--database"):
        assert flag in out
    code, _, err = run(capsys, "serve", "--port", "99999")
    assert code == 2 and "--port" in err
