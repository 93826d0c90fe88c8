"""The report folder: summary.json, games.jsonl, index.html and the charts it shows."""

import json
import re
from html import escape
from html.parser import HTMLParser

import pytest

from realms.cli import main
from realms.sim.batch import Simulation, run
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


@pytest.fixture(scope="module")
def hb_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("hb")
    code = main(["simulate", "hy-breasil", "--players", "4", "--turns", "5", "--rules", "races",
                 "--games", "16", "--seed", "3", "--workers", "2", "--report", str(out)])
    assert code == 0
    return out


def test_report_files_are_written_and_valid(hb_report, capsys):
    summary = json.loads((hb_report / "summary.json").read_text())
    assert summary["format"] == "realms-simulation-summary" and summary["game"] == "hy-breasil"
    assert summary["games"] == 16 and summary["seed"] == 3 and summary["bots"] == ["random"]
    assert summary["run"]["workers"] == 2 and summary["run"]["played"] == 16
    f = summary["figures"]
    assert f["games"] == 16
    assert sum(s["wins"] for s in f["win_share_by_seat"]) == pytest.approx(16)
    assert set(f["nations"]["by_race"]) <= {"human", "dwarf", "elf", "troll", "hogman", "lizardman"}
    assert [r["turn"] for r in f["areas_by_turn"]["turns"]] == [1, 2, 3, 4, 5]
    assert f["battles"]["by_terrain"]["all"]["battles"] > 0
    assert f["table1_events"]["rolled"] > 0
    lines = [json.loads(t) for t in (hb_report / "games.jsonl").read_text().splitlines()]
    assert [ln["seed"] for ln in lines] == list(range(3, 19))
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
    assert o["completion"]["games"] + o["shared"]["games"] + o["timeouts"]["games"] == 16
    assert o["timeouts"]["games"] == 0 and o["duration"]["turns"]["mean"] == 5
    assert o["lead_changes"]["games"] == 16 and o["decisiveness"]["games"] == 16
    assert 0 <= o["decisiveness"]["threshold"]["mean"] <= 1
    html = (hb_report / "index.html").read_text()
    from realms.sim.stats import OUTCOME_DEFINITIONS

    for text in OUTCOME_DEFINITIONS.values():
        assert escape(text) in html
    for label in ("balance", "advantage of seat 4", "completion", "time-outs", "lead changes per game",
                  "decisiveness threshold", "non-winner led"):
        assert f"<td class=\"l\">{label}</td>" in html


def test_report_page_shows_existing_charts_and_tables(hb_report):
    refs = _refs(hb_report / "index.html")
    assert {"charts/win_share.svg", "charts/scores.svg", "charts/nations.svg", "charts/table1_events.svg",
            "charts/areas_by_turn.svg", "charts/battles.svg"} == set(refs.imgs)
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
                 "--games", "16", "--seed", "3", "--workers", "1", "--report", str(tmp_path)])
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
    assert set(f) == {"games", "win_share_by_seat", "scores", "outcomes"}
    assert f["outcomes"]["lead_changes"]["games"] == 2 and f["outcomes"]["decisiveness"]["games"] == 2
    assert set(_refs(tmp_path / "index.html").imgs) == {"charts/win_share.svg", "charts/scores.svg"}
