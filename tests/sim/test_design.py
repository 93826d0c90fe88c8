"""A designer's figures (realms.sim.design): on hand-made lines with known answers, the
tracker on real games, and every figure of a real report recomputed from its games.jsonl
by an independent path (numpy and scipy's own tests rather than the module's loops)."""

import json
import math

import numpy as np
import pytest
from scipy import stats as sps

from realms.sim import design
from realms.sim.batch import play_game
from realms.sim.report import write_report


def _line(seed, scores, winners, turn_scores=(), factions=None, usage=None, kinds=None, views=None):
    names = list(scores)
    d = {"decision_kinds": kinds or {}, "views": views or []}
    if factions is not None:
        d["factions"] = factions
    if usage is not None:
        d["usage"] = usage
    return {"seed": seed, "players": names, "scores": scores, "winners": winners, "turns": len(turn_scores),
            "decisions": sum(k[0] for k in (kinds or {}).values()), "turn_scores": [list(r) for r in turn_scores],
            "design": d, "event_counts": {}}


# ---------------------------------------------------------------- hand-made


def test_seat_effect_is_one_chi_square_over_all_seats():
    seats = [{"wins": 10, "games": 20}, {"wins": 5, "games": 20}, {"wins": 3, "games": 20}]
    se = design.seat_effect(seats)
    assert se["chi2"] == pytest.approx((16 + 1 + 9) / 6, abs=1e-3) and se["df"] == 2
    assert se["p"] == pytest.approx(math.exp(-(26 / 6) / 2), abs=1e-4)  # χ²₂'s tail is exp(-x/2)
    assert not se["significant"]
    assert design.seat_effect([{"wins": 40, "games": 50}, {"wins": 10, "games": 50}])["significant"]


def test_by_faction_counts_wins_scores_and_survival_per_value():
    f = lambda race, alive: {"dealt": {"race": race}, "survives": alive}  # noqa: E731
    lines = [_line(1, {"A": 5, "B": 1}, ["A"], factions=[f("elf", True), f("troll", False)]),
             _line(2, {"A": 2, "B": 2}, ["A", "B"], factions=[f("troll", True), f("elf", True)])]
    fig = design.by_faction(lines)["race"]
    assert fig["values"]["elf"]["seats"] == 2 and fig["values"]["elf"]["wins"] == 1.5
    assert fig["values"]["troll"]["wins"] == 0.5 and fig["values"]["troll"]["survival"] == 0.5
    assert fig["values"]["elf"]["score"]["mean"] == 3.5
    assert fig["test"]["df"] == 1
    assert design.by_faction([_line(1, {"A": 1}, ["A"])]) is None


def test_usage_shows_a_rule_never_used():
    lines = [_line(1, {"A": 1}, ["A"], usage={"city built": 0, "ability gained: City building": 2}),
             _line(2, {"A": 1}, ["A"], usage={"city built": 0, "ability gained: City building": 3})]
    u = design.usage(lines)
    assert u["names"]["city built"]["games_used"] == 0 and u["names"]["city built"]["per_game"]["mean"] == 0
    assert u["names"]["ability gained: City building"]["per_game"]["mean"] == 2.5


def test_leader_at_turn_t_wins():
    lines = [_line(1, {"A": 5, "B": 1}, ["A"], [(1, [0, 2]), (2, [3, 2]), (3, [5, 1])]),
             _line(2, {"A": 5, "B": 6}, ["B"], [(1, [1, 0]), (2, [2, 2]), (3, [5, 6])])]
    d = design.decided(lines)
    by = {r["turn"]: r for r in d["leader_wins_by_turn"]}
    assert by[1]["share"] == 0.0 and by[1]["games"] == 2  # both leaders at turn 1 lost
    assert by[2]["games"] == 1 and by[2]["share"] == 1.0  # game 2 level at turn 2: no leader
    assert by[3]["share"] == 1.0
    half = {r["fraction"]: r for r in d["leader_wins_by_fraction"]}[0.5]
    assert half["games"] == 1  # the turn end halfway: turn 2
    changes = {r["turn"]: r["share"] for r in d["lead_change_by_turn"]}
    assert changes == {2: 1.0, 3: 0.5}


def test_decisiveness_moves_and_stability_as_ludii_defines_them():
    line = _line(1, {"A": 6, "B": 4}, ["A"], [(1, [1, 3]), (2, [3, 3]), (3, [7, 2]), (4, [6, 4])])
    # B's highest share: 0.75 (turn 1); A's passes it first at turn 3 (7/9): 2 of 4 turn ends before
    assert design.decisiveness_moves(line) == 0.5
    never = _line(3, {"A": 2, "B": 1}, ["A"], [(1, [1, 3]), (2, [2, 1])])  # A's 2/3 never tops B's 3/4
    assert design.decisiveness_moves(never) == 1.0
    a = [0.25, 0.5, 7 / 9, 0.6]
    var_a = sum((x - sum(a) / 4) ** 2 for x in a) / 4
    assert design.stability(line) == pytest.approx(var_a)  # B's shares mirror A's: same variance
    assert design.decisiveness_moves(_line(2, {"A": 1, "B": 1}, [], [(1, [1, 1])])) is None


def test_decisions_branching_forced_and_hidden_share():
    lines = [_line(1, {"A": 1, "B": 0}, ["A"], kinds={"x.move": [4, 12, 1], "x.pick": [2, 2, 2]},
                   views=[[1, 100, [10, 30]]]),
             _line(2, {"A": 1, "B": 0}, ["A"], kinds={"x.move": [2, 4, 0]}, views=[[1, 50, [0, 0]]])]
    d = design.decisions(lines)
    assert d["decisions"] == 8 and d["branching"] == 18 / 8 and d["forced_share"] == 3 / 8
    assert d["by_kind"]["x.move"]["options"] == pytest.approx(16 / 6, abs=1e-3) and d["by_kind"]["x.pick"]["forced_share"] == 1
    assert d["hidden_share"]["mean"] == pytest.approx((0.2 + 0) / 2)
    assert d["state_size"]["mean"] == 75


# ---------------------------------------------------------------- on real games


@pytest.mark.parametrize("game, options", [("hy-breasil", {"players": 3, "turns": 3, "rules": ["races", "abilities"]}),
                                           ("version2", {"players": 3, "turn_limit": 5}),
                                           ("brittania", {"players": 4, "turns": 1}),
                                           ("brian-boru", {"players": 3})])
def test_the_tracker_sees_every_decision_and_what_each_seat_was_dealt(game, options):
    line = play_game(game, options, 2, ["random"])
    d = line["design"]
    assert sum(r[0] for r in d["decision_kinds"].values()) == line["decisions"]
    assert all(r[1] >= r[0] for r in d["decision_kinds"].values())  # at least one option each
    assert len(d["factions"]) == len(line["players"]) and all(s["dealt"] for s in d["factions"])
    assert ("usage" in d) == (game != "brian-boru")  # Brian Boru names no rule: its event kinds serve
    assert len(d["views"]) == len(line["turn_scores"])


def test_every_new_figure_recomputed_from_games_jsonl(tmp_path):
    """The report's design figures and seat effect, recomputed from its games.jsonl with
    numpy and scipy's own tests: the same numbers."""
    lines = [play_game("version2", {"players": 3, "turn_limit": 6}, s, ["random"]) for s in range(1, 9)]
    (tmp_path / "games.jsonl").write_text("".join(json.dumps(ln) + "\n" for ln in lines))
    write_report(tmp_path, lines, {"game": "version2", "bots": ["random"], "seed": 1})
    summary = json.loads((tmp_path / "summary.json").read_text())
    games = [json.loads(t) for t in (tmp_path / "games.jsonl").read_text().splitlines()]
    f, d = summary["figures"], summary["figures"]["design"]

    # seat effect: scipy's goodness of fit on the wins by seat
    wins = np.zeros(3)
    for g in games:
        for name in g["winners"]:
            wins[g["players"].index(name)] += 1 / len(g["winners"])
    chi, p = sps.chisquare(wins)
    assert f["outcomes"]["seat_effect"]["chi2"] == pytest.approx(chi, abs=1e-3)
    assert f["outcomes"]["seat_effect"]["p"] == pytest.approx(p, abs=1e-4)

    # leader at turn t wins
    for row in d["decided"]["leader_wins_by_turn"]:
        got = []
        for g in games:
            sc = dict(g["turn_scores"]).get(row["turn"])
            if sc is None or not g["winners"] or len(set(sc)) == 1:
                continue
            top = np.flatnonzero(np.array(sc) == max(sc))
            got.append(np.mean([g["players"][i] in g["winners"] for i in top]))
        assert row["games"] == len(got) and row["share"] == pytest.approx(np.mean(got), abs=1e-4)

    # stability: numpy's variance of the shares
    stab = []
    for g in games:
        sc = np.clip(np.array([s for _, s in g["turn_scores"]], dtype=float), 0, None)
        tot = sc.sum(axis=1, keepdims=True)
        share = np.where(tot > 0, sc / np.where(tot > 0, tot, 1), 1 / sc.shape[1])
        if len(share) > 1:
            stab.append(share.var(axis=0).mean())
    assert d["decided"]["stability"]["mean"] == pytest.approx(np.mean(stab), abs=1e-4)

    # decisiveness moves: the share of turn ends before a winner's share tops every loser's best
    dm = []
    for g in games:
        won = [g["players"].index(w) for w in g["winners"]]
        lost = [i for i in range(len(g["players"])) if i not in won]
        sc = np.clip(np.array([s for _, s in g["turn_scores"]], dtype=float), 0, None)
        if not won or not lost or not len(sc):
            continue
        tot = sc.sum(axis=1, keepdims=True)
        share = np.where(tot > 0, sc / np.where(tot > 0, tot, 1), 1 / sc.shape[1])
        above = np.flatnonzero(share[:, won].max(axis=1) > share[:, lost].max())
        dm.append(above[0] / len(share) if len(above) else 1.0)
    assert d["decided"]["decisiveness_moves"]["mean"] == pytest.approx(np.mean(dm), abs=1e-4)

    # lead changes by turn
    for row in d["decided"]["lead_change_by_turn"]:
        flags = []
        for g in games:
            led = [(t, frozenset(np.flatnonzero(np.array(s) == max(s)))) for t, s in g["turn_scores"]
                   if len(set(s)) > 1]
            flags += [int(now != before) for (_, before), (t, now) in zip(led, led[1:]) if t == row["turn"]]
        assert row["games"] == len(flags) and row["share"] == pytest.approx(np.mean(flags), abs=1e-4)

    # state size and hidden share
    views = [g["design"]["views"] for g in games]
    assert d["decisions"]["state_size"]["mean"] == pytest.approx(np.mean([np.mean([v[1] for v in vs]) for vs in views]),
                                                                  abs=1e-3)
    hidden = [np.mean([h / v[1] for v in vs for h in v[2]]) for vs in views]
    assert d["decisions"]["hidden_share"]["mean"] == pytest.approx(np.mean(hidden), abs=1e-4)

    # branching factor and forced share
    kinds = [g["design"]["decision_kinds"] for g in games]
    n_dec = sum(r[0] for k in kinds for r in k.values())
    assert n_dec == sum(g["decisions"] for g in games)
    assert d["decisions"]["branching"] == pytest.approx(sum(r[1] for k in kinds for r in k.values()) / n_dec, abs=1e-4)
    assert d["decisions"]["forced_share"] == pytest.approx(sum(r[2] for k in kinds for r in k.values()) / n_dec,
                                                             abs=1e-4)

    # results by mission: scipy's test of independence, no continuity correction
    fac = d["by_faction"]["mission"]
    table = {}
    for g in games:
        for i, seat in enumerate(g["design"]["factions"]):
            won = g["players"][i] in g["winners"]
            row = table.setdefault(seat["dealt"]["mission"], [0.0, 0.0])
            share = 1 / len(g["winners"]) if won else 0.0
            row[0] += share
            row[1] += 1 - share
    assert {k: v["wins"] for k, v in fac["values"].items()} == pytest.approx({k: v[0] for k, v in table.items()})
    if fac["test"] is not None:
        chi, p, _, _ = sps.chi2_contingency(np.array(list(table.values())), correction=False)
        assert fac["test"]["chi2"] == pytest.approx(chi, abs=1e-3) and fac["test"]["p"] == pytest.approx(p, abs=1e-4)

    # usage: per game means
    for name, row in d["usage"]["names"].items():
        assert row["per_game"]["mean"] == pytest.approx(np.mean([g["design"]["usage"][name] for g in games]), abs=1e-4)

    # the page shows each new figure with its definition
    page = (tmp_path / "index.html").read_text()
    for words in ("When is it decided", "What a decision is", "Results by what a seat was dealt", "Rules used",
                  "DecisivenessMoves", "Stability", "seat effect"):
        assert words in page
