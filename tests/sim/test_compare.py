"""realms compare and realms sweep: the differences' intervals and tests on known inputs,
and the commands on small runs."""

import json

import pytest
from scipy import stats as sps

from realms.cli import main
from realms.sim import compare


def test_difference_of_shares_newcombe_and_z():
    d = compare.diff_shares((30, 100), (45, 100))
    assert d["diff"] == 0.15
    # Newcombe's hybrid score interval (method 10) for 45/100 vs 30/100: 0.0168 to 0.2762
    assert d["ci95"] == [pytest.approx(0.0168, abs=1e-3), pytest.approx(0.2762, abs=1e-3)]
    pool = 0.375
    z = 0.15 / (pool * (1 - pool) * 0.02) ** 0.5
    assert d["p"] == pytest.approx(2 * sps.norm.sf(z), abs=1e-4) and d["significant"]


def test_difference_of_means_welch():
    d = compare.diff_means((10.0, 2.0, 50), (11.0, 3.0, 40))
    se = (4 / 50 + 9 / 40) ** 0.5
    assert d["ci95"] == [pytest.approx(1 - 1.96 * se, abs=1e-4), pytest.approx(1 + 1.96 * se, abs=1e-4)]
    assert d["p"] == pytest.approx(2 * sps.norm.sf(1 / se), abs=1e-4)


def test_grid_and_cell_names():
    cells = compare.grid([("turns", [10, 15]), ("rules", [[], ["races", "abilities"]])])
    assert [compare.cell_name(c) for c in cells] == ["turns=10 rules=-", "turns=10 rules=races+abilities",
                                                     "turns=15 rules=-", "turns=15 rules=races+abilities"]


def _run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_sweep_plays_the_grid_and_compares_the_cells(capsys, tmp_path):
    code, out, err = _run(capsys, "sweep", "version2", "--players", "3", "--option", "turn_limit=4,5",
                          "--option", "type=abundance", "--games", "2", "-o", str(tmp_path))
    assert code == 0, err
    data = json.loads((tmp_path / "sweep.json").read_text())
    assert [r["label"] for r in data["reports"]] == ["turn_limit=4 type=abundance", "turn_limit=5 type=abundance"]
    assert [(r["options"]["type"], r["options"]["turn_limit"]) for r in data["reports"]] == [("abundance", 4),
                                                                                              ("abundance", 5)]
    turns = next(m for m in data["metrics"] if m["key"] == "turns")
    assert len(turns["values"]) == 2 and len(turns["diffs"]) == 1
    seeds = {json.loads(t)["seed"] for t in
             (tmp_path / "turn_limit=5_type=abundance" / "games.jsonl").read_text().splitlines()}
    assert seeds == {1, 2}  # every cell the same seeds
    page = (tmp_path / "index.html").read_text()
    assert "turn_limit=5 type=abundance − first" in page


def test_sweep_reads_list_options_joined_by_plus(capsys):
    from realms.cli_design import _axes
    from realms.core.game import get_game

    axes = _axes(get_game("hy-breasil"), ("rules=,races+abilities", "turns=2,3"))
    assert axes == [("rules", [[], ["races", "abilities"]]), ("turns", [2, 3])]


def test_sweep_names_a_bad_option(capsys, tmp_path):
    code, _, err = _run(capsys, "sweep", "hy-breasil", "--option", "turnz=1,2", "-o", str(tmp_path))
    assert code == 2 and "turnz" in err


def test_compare_across_games_shows_the_common_metrics(capsys, tmp_path):
    for game, opts in (("version2", ["--players", "3", "--option", "turn_limit=4"]),
                       ("brian-boru", ["--players", "3"])):
        code, _, err = _run(capsys, "simulate", game, *opts, "--games", "2", "--workers", "1",
                            "--report", str(tmp_path / game))
        assert code == 0, err
    code, out, err = _run(capsys, "compare", str(tmp_path / "version2"), str(tmp_path / "brian-boru"),
                          "-o", str(tmp_path / "c.html"), "--json")
    assert code == 0, err
    data = json.loads(out.splitlines()[0])
    assert not data["same_game"] and {r["game"] for r in data["reports"]} == {"version2", "brian-boru"}
    keys = {m["key"] for m in data["metrics"]}
    assert {"completion", "turns", "branching", "decisiveness_moves"} <= keys and "win_share_1" not in keys
    assert all(d is None for m in data["metrics"] for d in m["diffs"])  # no test across games


def test_compare_refuses_a_folder_that_is_no_report(capsys, tmp_path):
    code, _, err = _run(capsys, "compare", str(tmp_path), "-o", str(tmp_path / "c.html"))
    assert code == 2 and "summary.json" in err
