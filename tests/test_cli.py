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
    assert "Loch" in text and "url(#terrain-forest)" in text and "<pattern id=\"terrain-forest\"" in text


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
    """``--explain`` adds why each auto nation acted (TR, AT, MO) to the chronicle;
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
    """``realms serve`` (the README's first command) with its --host/--port/--database."""
    code, out, _ = run(capsys, "serve", "--help")
    assert code == 0
    for flag in ("--host", "--port", "--database"):
        assert flag in out
    code, _, err = run(capsys, "serve", "--port", "99999")
    assert code == 2 and "--port" in err


# -- options from each game's schema ------------------------------------------
def test_options_lists_a_games_schema(capsys):
    code, out, err = run(capsys, "options", "hy-breasil")
    assert code == 0, err
    assert "length:" in out and "advanced rules:" in out
    assert "turns      int      default 15           1..100  --turns" in out
    assert "max_turns  int      default 100          1..100\n" in out  # an option without a flag
    code, out, _ = run(capsys, "options", "brian-boru", "--json")
    data = json.loads(out)
    assert data["game"] == "brian-boru" and [o["name"] for o in data["options"]] == ["players", "names"]
    assert data["options"][0]["min"] == 3 and data["options"][0]["max"] == 5
    code, _, err = run(capsys, "options", "chess")
    assert code == 2 and "unknown game 'chess'" in err


def test_option_sets_any_option_by_its_type(capsys):
    """--option NAME=VALUE sets options with no flag (max_turns), read by type; the same
    game as the flags give."""
    code, out, err = run(capsys, "simulate", "hy-breasil", "--option", "max_turns=2", "--option", "rules=races,abilities",
                         "--option", "names=Ann,Bo,Cy", "--seed", "3", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["turns"] == 2 and data["players"] == ["Ann", "Bo", "Cy"]
    code, flags, _ = run(capsys, "simulate", "hy-breasil", "--turns", "2", "--rules", "abilities,races",
                         "--names", "Ann,Bo,Cy", "--seed", "3", "--json")
    code, options, _ = run(capsys, "simulate", "hy-breasil", "--option", "turns=2", "--option", "rules=races,abilities",
                           "--option", "names=Ann,Bo,Cy", "--seed", "3", "--json")
    assert json.loads(flags)["state_hash"] == json.loads(options)["state_hash"]


def test_timeline_flags_and_options(capsys):
    """§10: --join/--leave (Hy Breasil's shortcuts) and --option joins=TURN:NAME,…"""
    args = ("simulate", "hy-breasil", "--players", "3", "--variant", "continuous", "--turns", "4", "--seed", "2", "--json")
    code, a, err = run(capsys, *args, "--join", "3:Dana", "--leave", "4:P2")
    assert code == 0, err
    code, b, _ = run(capsys, *args, "--option", "joins=3:Dana", "--option", "leaves=4:P2")
    assert json.loads(a)["state_hash"] == json.loads(b)["state_hash"]


@pytest.mark.parametrize("args, message", [
    (("--option", "turns=x"), "--option turns: expected a whole number, got 'x'"),
    (("--option", "turns"), "--option 'turns': expected NAME=VALUE"),
    (("--option", "colour=red"), "unknown option(s) colour (known: players, names, turns"),
    (("--turns", "3", "--option", "turns=4"), "option 'turns' is given twice"),
    (("--option", "turns=1000000000"), "option 'turns' must be 1..100, got 1000000000"),
    (("--option", "max_turns=1000000000"), "option 'max_turns' must be 1..100"),
    (("--names", "A," + "b" * 5000), "name 2 is 5000 characters long (at most 40)"),
    (("--join", "x"), "--join: 'x': expected TURN:NAME"),
    (("--variant", "sometimes"), "option 'variant' must be one of continuous, random-scoring"),
    (("--seeds", "3"), "no such option: --seeds (hy-breasil's options: players, names, turns"),
])
def test_bad_option_values_are_one_line_errors_naming_the_option(capsys, args, message):
    code, _, err = run(capsys, "simulate", "hy-breasil", *args)
    assert code == 2 and err.count("\n") == 1 and message in err
    assert len(err) < 400


def test_simulate_help_lists_the_games_own_flags(capsys):
    code, out, _ = run(capsys, "simulate", "hy-breasil", "--help")
    assert code == 0
    for flag in ("--turns", "--vp-target", "--rules", "--variant", "--join", "--map", "--option", "--seed"):
        assert flag in out
    code, out, _ = run(capsys, "simulate", "brian-boru", "--help")
    assert "--players" in out and "--turns" not in out and "--rules" not in out
    code, out, _ = run(capsys, "simulate", "--help")
    assert "--option NAME=VALUE" in out and "realms options GAME" in out and "--turns" not in out


def test_tournament_takes_the_games_options(capsys):
    code, out, err = run(capsys, "tournament", "hy-breasil", "--players", "2", "--games", "2",
                         "--option", "max_turns=1", "--json")
    assert code == 0, err
    assert json.loads(out)["bots"]["random"]["seats"] == 4


def test_help_lists_every_command_without_loading_the_web_stack():
    """Realms --help and simulate load neither FastAPI nor SQLAlchemy (nor
    numpy), while every command is listed."""
    import subprocess
    import sys

    script = ("import sys; from realms.cli import main; main({args}); "
              "print(sorted(m for m in ('fastapi', 'uvicorn', 'sqlalchemy', 'numpy', 'matplotlib', 'dask', 'rich') "
              "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", script.format(args=["--help"])], capture_output=True, text=True,
                         check=True).stdout
    for command in ("games", "history", "map", "odds", "options", "play", "replay", "serve", "simulate", "tournament"):
        assert f"  {command} " in out
    assert out.strip().endswith("[]")
    out = subprocess.run([sys.executable, "-c", script.format(args=["simulate", "hy-breasil", "--turns", "1", "--json"])],
                         capture_output=True, text=True, check=True).stdout
    assert out.strip().endswith("[]")


def test_tournament_plays_the_games_player_count_one_bot_against_the_rest(capsys, tmp_path):
    """``--bots auto,random`` at Brian Boru (3..5 players, default 4) plays four seats:
    one greedy against three random, the greedy bot sitting each seat once in four games; it prints the
    count and writes a report folder like ``simulate --report``."""
    from realms.core.game import get_game

    out_dir = tmp_path / "t"
    code, out, err = run(capsys, "tournament", "brian-boru", "--bots", "greedy,random", "--games", "4",
                         "--report", str(out_dir))
    assert code == 0, err
    players = get_game("brian-boru").default_players
    assert f"4 games of {players} players" in out
    lines = [json.loads(t) for t in (out_dir / "games.jsonl").read_text().splitlines()]
    assert sorted(ln["bots"].index("greedy") for ln in lines) == list(range(players))  # every seat once
    assert all(ln["bots"].count("greedy") == 1 and len(ln["bots"]) == players for ln in lines)
    assert (out_dir / "index.html").exists() and json.loads((out_dir / "summary.json").read_text())["figures"]


def test_tournament_refuses_more_bots_than_seats(capsys):
    code, _, err = run(capsys, "tournament", "hy-breasil", "--players", "2", "--bots", "random,random,random")
    assert code == 2 and "3 bots for 2 seats" in err


def test_replay_plain_output_shows_the_state_hash(capsys, tmp_path):
    """A person checking a record reads the same state hash without --json as with it."""
    rec = tmp_path / "game.json"
    run(capsys, "simulate", "hy-breasil", "--turns", "1", "--seed", "8", "--record", str(rec))
    _, as_json, _ = run(capsys, "replay", str(rec), "--json")
    code, plain, err = run(capsys, "replay", str(rec))
    assert code == 0, err
    assert f"State hash: {json.loads(as_json)['state_hash']}" in plain.splitlines()
