"""The report folder: summary.json, games.jsonl, index.html and the charts it shows."""

import json
import re
from html import escape
from html.parser import HTMLParser

import pytest

from realms.cli import main
from realms.core.game import get_game
from realms.sim.batch import Simulation, run
from realms.sim.runner import run_game
from realms.sim.report import write_report


class _Refs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.imgs, self.links, self.tables = [], [], 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img":
            self.imgs.append(a["src"])
        elif tag == "a":
            self.links.append(a["href"])
        elif tag == "table":
            self.tables += 1


def _refs(path):
    p = _Refs()
    p.feed(path.read_text(encoding="utf-8"))
    return p


#: the games of the shared report: enough for every figure the tests read (battles, events)
GAMES = 8


@pytest.fixture(scope="module")
def hb_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("hb")
    code = main(["simulate", "hy-breasil", "--players", "4", "--turns", "5", "--rules", "races",
                 "--games", str(GAMES), "--seed", "3", "--workers", "2", "--report", str(out)])
    assert code == 0
    return out


def test_report_files_are_written_and_valid(hb_report, capsys):
    summary = json.loads((hb_report / "summary.json").read_text())
    assert summary["format"] == "realms-simulation-summary" and summary["game"] == "hy-breasil"
    assert summary["games"] == GAMES and summary["seed"] == 3 and summary["bots"] == ["random"]
    assert summary["run"]["workers"] == 2 and summary["run"]["played"] == GAMES
    f = summary["figures"]
    assert f["games"] == GAMES
    assert sum(s["wins"] for s in f["win_share_by_seat"]) == pytest.approx(GAMES)
    assert set(f["nations"]["by_race"]) <= {"human", "dwarf", "elf", "troll", "hogman", "lizardman"}
    assert [r["turn"] for r in f["areas_by_turn"]["turns"]] == [1, 2, 3, 4, 5]
    assert f["battles"]["by_terrain"]["all"]["battles"] > 0
    assert f["table1_events"]["rolled"] > 0
    lines = [json.loads(t) for t in (hb_report / "games.jsonl").read_text().splitlines()]
    assert [ln["seed"] for ln in lines] == list(range(3, 3 + GAMES))
    for ln in lines:
        assert set(ln["scores"]) == set(ln["players"]) and len(ln["state_hash"]) == 64
        assert ln["stats"]["kind"] == "hy-breasil" and "chronicle" not in ln
        assert [t for t, _ in ln["turn_scores"]] == [1, 2, 3, 4, 5]


def test_outcome_metrics_in_the_summary_and_defined_on_the_page(hb_report):
    """Every game's report has the outcome metrics, each defined on the page."""
    summary = json.loads((hb_report / "summary.json").read_text())
    o = summary["figures"]["outcomes"]
    assert summary["turn_word"] == "turn" and summary["version"] == 2
    assert 0 <= o["balance"] <= 1 and len(o["seat_advantage"]) == 4
    shares = [s["share"] for s in summary["figures"]["win_share_by_seat"]]
    assert o["balance"] == pytest.approx(1 - (max(shares) - min(shares)), abs=1e-4)
    assert o["completion"]["games"] + o["shared"]["games"] + o["timeouts"]["games"] == GAMES
    assert o["timeouts"]["games"] == 0 and o["duration"]["turns"]["mean"] == 5
    assert o["lead_changes"]["games"] == GAMES and o["decisiveness"]["games"] == GAMES
    assert 0 <= o["decisiveness"]["threshold"]["mean"] <= 1
    html = (hb_report / "index.html").read_text()
    from realms.sim.stats import OUTCOME_DEFINITIONS

    for text in OUTCOME_DEFINITIONS.values():
        assert escape(text) in html
    for label in ("balance", "advantage of seat 4", "completion", "time-outs", "lead changes per game",
                  "decisiveness moves", "non-winner led"):
        assert f"<td class=\"l\">{label}</td>" in html


def test_report_page_shows_existing_charts_and_tables(hb_report):
    refs = _refs(hb_report / "index.html")
    assert {"charts/win_share.svg", "charts/scores.svg", "charts/nations.svg", "charts/table1_events.svg",
            "charts/areas_by_turn.svg", "charts/battles.svg", "charts/decided.svg", "charts/decisions.svg"} == set(refs.imgs)
    for src in refs.imgs:
        chart = hb_report / src
        assert chart.is_file() and chart.read_text().lstrip().startswith("<?xml") and "<svg" in chart.read_text()
    assert {"summary.json", "games.jsonl"} <= set(refs.links)
    assert refs.tables >= 6
    html = (hb_report / "index.html").read_text()
    for heading in ("Win share by seat", "VP distributions", "Outcome metrics", "How long nations last",
                    "Table 1 events", "Areas held by turn", "Battles"):
        assert f"<h2>{heading}</h2>" in html
    assert html.index("Outcome metrics") < html.index("How long nations last")  # the game's sections last


def test_the_same_seeds_make_the_same_figures(hb_report, tmp_path):
    code = main(["simulate", "hy-breasil", "--players", "4", "--turns", "5", "--rules", "races",
                 "--games", str(GAMES), "--seed", "3", "--workers", "1", "--report", str(tmp_path)])
    assert code == 0
    a = json.loads((hb_report / "summary.json").read_text())
    b = json.loads((tmp_path / "summary.json").read_text())
    assert a["figures"] == b["figures"] and a["run"]["workers"] != b["run"]["workers"]
    assert (hb_report / "games.jsonl").read_bytes() == (tmp_path / "games.jsonl").read_bytes()


def test_brian_boru_report_has_points_by_source(tmp_path):
    lines = run(Simulation("brian-boru", {"players": 4}, ("greedy",), seed=1, games=8), out=tmp_path)
    summary = write_report(tmp_path, lines, {"game": "brian-boru", "game_name": "Brian Boru", "score_name": "points",
                                             "options": lines[0]["options"], "bots": ["greedy"], "seed": 1, "games": 8})
    src = summary["figures"]["points_by_source"]["sources"]
    assert src and sum(v["share"] for v in src.values()) == pytest.approx(1, abs=1e-3)
    seat_means = [s["mean"] for s in summary["figures"]["scores"]["by_seat"]]
    for seat, mean in enumerate(seat_means):  # the sources add up to each seat's mean score
        assert sum(v["per_game_by_seat"][seat] for v in src.values()) == pytest.approx(mean, abs=0.02)
    refs = _refs(tmp_path / "index.html")
    assert "charts/points_by_source.svg" in refs.imgs and "charts/battles.svg" not in refs.imgs
    assert all((tmp_path / s).is_file() for s in refs.imgs)
    html = (tmp_path / "index.html").read_text()
    assert "Points by source" in html
    assert "rounds on average" in html and "<td class=\"l\">rounds per game</td>" in html  # Game.turn_word
    assert summary["turn_word"] == "round" and "turns on average" not in html


def test_cli_report_prints_where_it_wrote(tmp_path, capsys):
    code = main(["simulate", "hy-breasil", "--players", "3", "--turns", "2", "--games", "3",
                 "--report", str(tmp_path), "--workers", "1"])
    out = capsys.readouterr().out
    assert code == 0
    assert re.search(r"3 games of Hy Breasil \(3 played in [\d.]+ s", out)
    assert f"wrote {tmp_path / 'index.html'}" in out


@pytest.mark.parametrize("args, message", [
    (["--resume"], "--resume continues a --report folder"),
    (["--report", "{tmp}", "--record", "{tmp}/r.json"], "--record writes a single game"),
    (["--workers", "2", "--bots", "nobody"], "unknown bot 'nobody'"),
    (["--report", "{tmp}", "--players", "9"], "players"),
])
def test_cli_batch_errors_are_one_line(tmp_path, capsys, args, message):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    code = main(["simulate", "hy-breasil", "--turns", "1"] + args)
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1


def test_workers_without_report_print_as_the_serial_command(capsys):
    assert main(["simulate", "hy-breasil", "--turns", "2", "--games", "3", "--seed", "4"]) == 0
    serial = capsys.readouterr().out
    assert main(["simulate", "hy-breasil", "--turns", "2", "--games", "3", "--seed", "4", "--workers", "2"]) == 0
    assert capsys.readouterr().out == serial and "=== game 3 (seed 6) ===" in serial
    assert main(["simulate", "hy-breasil", "--turns", "2", "--games", "2", "--json"]) == 0
    serial = capsys.readouterr().out
    assert main(["simulate", "hy-breasil", "--turns", "2", "--games", "2", "--json", "--workers", "2"]) == 0
    assert capsys.readouterr().out == serial


def test_tournament_workers_same_standings(capsys):
    args = ["tournament", "brian-boru", "--bots", "greedy,random", "--players", "4", "--games", "12", "--json"]
    assert main(args) == 0
    serial = json.loads(capsys.readouterr().out)
    assert main(args + ["--workers", "2"]) == 0
    assert json.loads(capsys.readouterr().out) == serial


def test_a_game_without_analysis_hooks_gets_the_shared_report(tmp_path, monkeypatch):
    """No watcher, no sections, no scores hook: the generic watcher, per-turn scores from
    the result, and the figures and outcome metrics every game has."""
    from dataclasses import replace

    from realms.core.game import get_game
    from realms.sim import batch

    bare = replace(get_game("brian-boru"), scores_now=None, watcher=None, report_sections=None,
                   history_measure=None, calculator=None)
    monkeypatch.setattr(batch, "get_game", lambda game_id: bare)
    lines = [batch.play_game("brian-boru", {"players": 3}, s, ["greedy"]) for s in (1, 2)]
    assert all(ln["stats"] == {"kind": "generic"} for ln in lines)
    for ln in lines:
        assert ln["turn_scores"][-1][1] == [ln["scores"][name] for name in ln["players"]]
    summary = write_report(tmp_path, lines, {"game": "brian-boru", "game_name": "Bare"}, sections=())
    f = summary["figures"]
    assert set(f) == {"games", "win_share_by_seat", "scores", "outcomes", "design"}
    assert f["outcomes"]["lead_changes"]["games"] == 2 and f["outcomes"]["decisiveness"]["games"] == 2
    assert set(_refs(tmp_path / "index.html").imgs) == {"charts/win_share.svg", "charts/scores.svg", "charts/decided.svg",
                                                          "charts/decisions.svg"}


def test_number_formatting_on_the_outcome_table():
    """Intervals read apart from their value and never pass a metric's range; ranges are
    rounded; a seat's advantage and its interval are both in percentage points."""
    from realms.core import report as core_report
    from realms.sim import stats
    from realms.sim.report import outcomes_html

    assert core_report.ci([0.991, 1.0], nd=3) == "0.991 – 1.000"
    assert core_report.span(0.7631578947368421, 1.0) == "0.76–1"
    assert core_report.pp(-0.00001) == "+0.0 pp"
    assert core_report.ci([0.9962, 0.9978]) != "1.00 – 1.00"
    assert stats.mean_ci([1.0, 1.0, 0.97], bounds=(0, 1))["ci95"][1] == 1.0
    assert stats.mean_ci([1.0, 1.0, 0.97])["ci95"][1] > 1.0  # what the bound is for
    lines = [{"seed": i, "players": ["A", "B"], "scores": {"A": 10, "B": s}, "winners": ["A"],
              "turns": 3, "decisions": 5, "turn_scores": [[1, [10, s]], [2, [10, s + 1]], [3, [10, s]]]}
             for i, s in enumerate([7.631578947368421, 9.99, 9.5, 10 - 1e-3])]
    o = stats.outcomes(lines)
    assert o["decisiveness"]["threshold"]["ci95"][1] <= 1
    html = outcomes_html(o)
    assert "0.7631578947368421" not in html and "1.0001" not in html
    adv = o["seat_advantage"][0]
    assert f"{100 * adv['advantage']:+.1f} pp" in html
    lo, hi = adv["advantage_ci95"]
    assert f"{100 * lo:+.1f} – {100 * hi:+.1f} pp" in html


def test_one_palette_per_game_on_map_history_and_report():
    """Each game's seats have one set of colours (``Game.palette``): the history page's
    streams take them, as the map does, and no two seats share one."""
    from realms.core.game import games
    from realms.sim.history import measure_of

    for game in games().values():
        colours = game.seat_colours(game.max_players)
        assert len(set(colours)) == game.max_players, game.id
        assert game.palette is not None and tuple(colours[:len(game.palette())]) == game.palette()[:game.max_players]
    v2 = get_game("version2")
    state = v2.new_game({"players": 3}, 1)
    shares, _ = measure_of(v2).shares(state)
    assert {s.key: s.colour for s in shares} == {f"p{p}": v2.palette()[p] for p in range(3)}
    from realms.games.version2.draw import draw

    svg = draw(state, state.options)
    assert all(v2.palette()[p] in svg for p in range(3))  # the map's rings, the same colours
    hb = get_game("hy-breasil")
    from realms.games.hy_breasil.draw import nation_colours

    state = run_game(hb, {"players": 3, "turns": 2}, 3, ["random"])
    shares, _ = measure_of(hb).shares(state)
    assert shares and all(s.colour == nation_colours(state)[int(s.key)] for s in shares)


def test_twelve_seats_have_twelve_colours_and_labels_that_fit(tmp_path):
    """Brittania at 12 seats: the win-share chart gives every seat its own colour (seats
    9-12 used to repeat 1-4) and short tick labels."""
    from realms.core.report import seat_labels

    game = get_game("brittania")
    lines = run(Simulation("brittania", {"players": 12, "turns": 1}, ("random",), seed=1, games=2))
    write_report(tmp_path, lines, {"game": "brittania", "bots": ["random"], "seed": 1})
    svg = (tmp_path / "charts" / "win_share.svg").read_text()
    for colour in game.seat_colours(12):
        assert colour.lower() in svg.lower(), colour
    assert seat_labels(list(range(1, 13)))[8:] == ["9", "10", "11", "12"]
