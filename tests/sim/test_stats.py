"""The figures' arithmetic on small known inputs (the outcome metrics on hand-made game
lines), the games' own figures, and the watchers on real games."""

import math

import pytest

from realms.core.agents import RandomBot
from realms.games.brian_boru import stats as bb
from realms.games.hy_breasil import report as hb_report
from realms.games.hy_breasil import stats as hb
from realms.core import stats as core_stats
from realms.sim import stats
from realms.sim.batch import play_game
from realms.sim.runner import run_game
from realms.core.game import get_game


# ---------------------------------------------------------------- arithmetic


def test_wilson_known_values():
    lo, hi = stats.wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert stats.wilson(0, 0) == (0.0, 1.0)
    lo, hi = stats.wilson(0, 20)
    assert lo == 0.0 and hi == pytest.approx(0.1611, abs=1e-4)


def test_mean_ci_and_describe():
    m = stats.mean_ci([1, 2, 3])
    assert m["mean"] == 2 and m["sd"] == 1
    assert m["ci95"] == [pytest.approx(2 - 1.96 / math.sqrt(3), abs=1e-4), pytest.approx(2 + 1.96 / math.sqrt(3), abs=1e-4)]
    d = stats.describe([4, 1, 3, 2])
    assert (d["min"], d["q1"], d["median"], d["q3"], d["max"]) == (1, 1.75, 2.5, 3.25, 4)
    assert stats.mean_ci([])["n"] == 0


def test_counts_are_in_value_order():
    assert list(stats.counts([10, -2, 3, 3]).items()) == [("-2", 1), ("3", 2), ("10", 1)]


def _line(seed, scores, winners, bots=("random",) * 3, **extra):
    names = list(scores)
    return {"seed": seed, "players": names, "scores": scores, "winners": winners, "bots": list(bots),
            "turns": extra.pop("turns", 3), "decisions": 10, **extra}


def test_win_share_by_seat_splits_shared_wins():
    lines = [_line(1, {"A": 5, "B": 3, "C": 1}, ["A"]),
             _line(2, {"A": 4, "B": 4, "C": 1}, ["A", "B"]),
             _line(3, {"A": 0, "B": 1, "C": 9}, ["C"], bots=("x", "random", "random"))]
    seats = stats.win_share_by_seat(lines)
    assert [s["wins"] for s in seats] == [1.5, 0.5, 1.0]
    assert [s["share"] for s in seats] == [0.5, pytest.approx(0.1667, abs=1e-4), pytest.approx(0.3333, abs=1e-4)]
    assert seats[0]["bots"] == {"random": 2, "x": 1}
    lo, hi = stats.wilson(1.5, 3)
    assert seats[0]["ci95"] == [round(lo, 4), round(hi, 4)]


def test_score_distribution_winner_and_margin():
    lines = [_line(1, {"A": 5, "B": 3, "C": 1}, ["A"]), _line(2, {"A": 4, "B": 4, "C": 1}, ["A", "B"])]
    sc = stats.score_distribution(lines)
    assert sc["by_seat"][0]["counts"] == {"4": 1, "5": 1} and sc["by_seat"][0]["mean"] == 4.5
    assert sc["winner"]["counts"] == {"4": 1, "5": 1}
    assert sc["margin"]["counts"] == {"2": 1, "3": 1}  # the shared win: 4 over C's 1


def test_score_distribution_takes_the_winners_score_not_the_top_score():
    """A mission win can go to a seat with fewer fields (version² 2.4): the winner row,
    the winner histogram and the margin are the winner's, not the top score's."""
    lines = [_line(1, {"A": 30, "B": 36, "C": 10}, ["A"]), _line(2, {"A": 20, "B": 12, "C": 5}, ["A"]),
             _line(3, {"A": 3, "B": 3, "C": 3}, [])]
    sc = stats.score_distribution(lines)
    assert sc["winner"]["counts"] == {"20": 1, "30": 1} and sc["winner"]["mean"] == 25
    assert sc["margin"]["counts"] == {"-6": 1, "8": 1}


# ---------------------------------------------------------------- outcome metrics


def test_balance_is_one_for_equal_win_shares_and_zero_for_one_seat_always_winning():
    assert stats.balance([0.25, 0.25, 0.25, 0.25]) == 1
    assert stats.balance([1.0, 0.0, 0.0]) == 0
    assert stats.balance([0.5, 0.3, 0.2]) == pytest.approx(0.7)  # largest gap 0.5 - 0.2
    lines = [_line(1, {"A": 5, "B": 3, "C": 1}, ["A"]), _line(2, {"A": 0, "B": 3, "C": 1}, ["B"]),
             _line(3, {"A": 0, "B": 3, "C": 4}, ["C"])]
    o = stats.outcomes(lines)
    assert o["balance"] == 1
    assert [a["advantage"] for a in o["seat_advantage"]] == [0, 0, 0]
    assert not any(a["unfair"] for a in o["seat_advantage"])


def test_seat_advantage_is_the_win_share_less_the_fair_share():
    lines = [_line(s, {"A": 5, "B": 3}, ["A"], bots=("random",) * 2) for s in range(20)]
    lines.append(_line(20, {"A": 1, "B": 3}, ["B"], bots=("random",) * 2))
    o = stats.outcomes(lines)
    a, b = o["seat_advantage"]
    assert a["fair_share"] == 0.5 and a["advantage"] == pytest.approx(20 / 21 - 0.5, abs=1e-4)
    assert b["advantage"] == pytest.approx(1 / 21 - 0.5, abs=1e-4)
    assert a["unfair"] and b["unfair"]  # 0.5 lies outside both Wilson intervals
    assert o["balance"] == pytest.approx(1 - (20 / 21 - 1 / 21), abs=1e-4)


def test_completion_shared_victories_and_timeouts():
    lines = [_line(1, {"A": 5, "B": 3, "C": 1}, ["A"]),
             _line(2, {"A": 4, "B": 4, "C": 1}, ["A", "B"]),
             _line(3, {"A": 1, "B": 1, "C": 1}, [], over=False),
             _line(4, {"A": 2, "B": 1, "C": 1}, ["A"], timed_out=True)]
    o = stats.outcomes(lines)
    assert (o["completion"]["games"], o["shared"]["games"], o["timeouts"]["games"]) == (1, 1, 2)
    assert o["completion"]["share"] == 0.25 and o["timeouts"]["share"] == 0.5 and o["completion"]["of"] == 4
    lo, hi = stats.wilson(1, 4)
    assert o["completion"]["ci95"] == [round(lo, 4), round(hi, 4)]


def test_duration_spreads_turns_and_decisions():
    lines = [_line(1, {"A": 1, "B": 0}, ["A"], turns=4, decisions=10),
             _line(2, {"A": 1, "B": 0}, ["A"], turns=6, decisions=30)]
    d = stats.outcomes(lines)["duration"]
    assert d["turns"]["mean"] == 5 and d["turns"]["sd"] == pytest.approx(math.sqrt(2), abs=1e-4)
    assert (d["turns"]["min"], d["turns"]["max"]) == (4, 6)
    assert d["decisions"]["mean"] == 20 and d["decisions"]["sd"] == pytest.approx(math.sqrt(200), abs=1e-4)


def test_leaders_and_standings():
    assert stats.leaders([3, 5, 5]) == {1, 2}
    assert stats.leaders([2, 2, 2]) is None  # everyone level: nobody leads
    assert stats.standings([2, 8, 4]) == [0.25, 1, 0.5]
    assert stats.standings([-2, 4]) == [0, 1]  # a negative score counts 0
    assert stats.standings([3, 3]) is None and stats.standings([0, -1]) is None


def test_lead_changes_on_a_made_up_score_series():
    series = [[0, [0, 0, 0]],   # everyone level: passed over
              [1, [2, 1, 0]],   # seat 0 leads (the first lead is no change)
              [2, [3, 3, 0]],   # seats 0 and 1 share it: change 1
              [3, [3, 4, 0]],   # seat 1 alone: change 2
              [4, [5, 5, 5]],   # level again: passed over
              [5, [5, 6, 5]],   # still seat 1: no change
              [6, [9, 6, 5]]]   # seat 0: change 3
    assert stats.lead_changes(series) == 3
    assert stats.lead_changes([[1, [1, 0]], [2, [2, 0]], [3, [4, 1]]]) == 0
    assert stats.lead_changes([]) == 0
    line = _line(1, {"A": 9, "B": 6, "C": 5}, ["A"], turn_scores=series)
    lc = stats.outcomes([line, _line(2, {"A": 1, "B": 0, "C": 0}, ["A"])])["lead_changes"]
    assert lc["games"] == 1 and lc["per_game"]["mean"] == 3  # the line without scores is left out
    assert lc["per_turn_end"]["mean"] == 0.5  # 3 changes over 6 turn ends after the first
    assert lc["games_with_a_change"]["share"] == 1


def test_decisiveness_is_the_best_standing_a_non_winner_reached():
    series = [[1, [0, 0, 0]], [2, [4, 2, 1]], [3, [6, 9, 3]], [4, [12, 10, 3]]]
    line = _line(1, {"A": 12, "B": 10, "C": 3}, ["A"], turn_scores=series)
    assert stats.decisiveness(line) == 1  # B led at turn 3
    calm = _line(2, {"A": 12, "B": 6, "C": 3}, ["A"], turn_scores=[[1, [4, 1, 1]], [2, [12, 6, 3]]])
    assert stats.decisiveness(calm) == 0.5  # B's 6 of A's 12
    assert stats.decisiveness(_line(3, {"A": 1, "B": 1, "C": 1}, ["A", "B", "C"], turn_scores=series)) is None
    assert stats.decisiveness(_line(4, {"A": 1, "B": 0, "C": 0}, [], turn_scores=series)) is None
    dc = stats.outcomes([line, calm])["decisiveness"]
    assert dc["threshold"]["mean"] == 0.75 and dc["non_winner_led"]["share"] == 0.5


def test_every_outcome_metric_is_defined():
    o = stats.outcomes([_line(1, {"A": 1, "B": 0}, ["A"])])
    assert set(o["definitions"]) == {k for k in o if k not in ("games", "definitions")}
    assert all("Ludii" in text for text in o["definitions"].values())


def _hb_line(seed, stats_block, turns=5):
    return _line(seed, {"A": 1, "B": 0, "C": 0}, ["A"], turns=turns, stats={"kind": "hy-breasil", **stats_block})


def test_nation_lifetimes_count_both_ends_and_censor_survivors():
    block = {"nations": [[1, "Elves", "elf", 0, 1, 3, "enters"],      # turns 1-3: 3
                         [2, "Split", "elf", 1, 2, None, "split"],    # 2-5, still standing: 4
                         [3, "Trolls", None, 2, 4, 4, "enters"]],     # gone in its first turn: 1
             "turns": [], "events": {}, "battles": []}
    lt = hb.nation_lifetimes([_hb_line(1, block)])
    ov = lt["overall"]
    assert ov["nations"] == 3 and ov["fallen"] == 2
    assert ov["counts"] == {"1": 1, "3": 1, "4": 1} and ov["counts_fallen"] == {"1": 1, "3": 1}
    assert ov["survived_share"] == pytest.approx(1 / 3, abs=1e-4)
    assert lt["by_race"]["elf"]["lifetime"]["mean"] == 3.5
    assert lt["by_race"]["none"]["nations"] == 1
    assert lt["by_origin"]["split"]["fallen"] == 0


def test_table1_events_effect_against_baseline():
    a = {"nations": [], "turns": [], "battles": [], "first_turn": 2,
         "events": {"plague": {"came_up": 3, "rerolled": 1, "delta": {"-3": 1, "-1": 1}},
                    "reinforcements": {"came_up": 2, "rerolled": 0, "delta": {"2": 2}}}}
    b = {"nations": [], "turns": [], "battles": [], "first_turn": 1,
         "events": {"plague": {"came_up": 1, "rerolled": 0, "delta": {"-2": 1}}}}
    ev = hb.table1_events([_hb_line(1, a), _hb_line(2, b)])
    assert ev["rolled"] == 6 and ev["first_turn_strong_leader"] == 3 and ev["games"] == 2
    plague = ev["events"]["plague"]
    assert (plague["came_up"], plague["rerolled"], plague["accepted"]) == (4, 1, 3)
    assert plague["area_change"]["mean"] == -2 and plague["per_game"] == 2
    assert ev["baseline"]["mean"] == pytest.approx(-0.4)  # (-3 -1 -2 +2 +2) / 5
    assert plague["vs_baseline"] == pytest.approx(-1.6)
    assert ev["events"]["reinforcements"]["share"] == pytest.approx(2 / 6, abs=1e-4)


def test_areas_by_turn_averages_over_games_that_reached_the_turn():
    a = {"nations": [], "events": {}, "battles": [],
         "turns": [{"turn": 1, "seat_areas": [2, 0], "nations": {"1": 2}},
                   {"turn": 2, "seat_areas": [3, 1], "nations": {"1": 3, "2": 1}}]}
    b = {"nations": [], "events": {}, "battles": [],
         "turns": [{"turn": 1, "seat_areas": [0, 4], "nations": {"5": 4}}]}
    rows = hb.areas_by_turn([_hb_line(1, a), _hb_line(2, b)])["turns"]
    assert rows[0] == {"turn": 1, "games": 2, "seat_areas": [1.0, 2.0], "all_nations": 3.0, "nations_holding_land": 1.0}
    assert rows[1] == {"turn": 2, "games": 1, "seat_areas": [3.0, 1.0], "all_nations": 4.0, "nations_holding_land": 2.0}


def test_battles_against_given_odds():
    rows = [["plains", 2, 1, "", "", 0, 0, 10, 6, 1, 0, 9, 6],
            ["forest", 1, 1, "", "", 0, 0, 4, 1, 0, 2, 2, 1],
            ["plains", 3, 1, "", "", 0, 0, 10, 9, 0, 0, 10, 9]]
    block = {"nations": [], "turns": [], "events": {}, "battles": rows}
    p = {("plains", 2, 1, "", "", 0, 0): 0.5, ("forest", 1, 1, "", "", 0, 0): 0.25,
         ("plains", 3, 1, "", "", 0, 0): 0.9}
    b = hb.battles([_hb_line(1, block)], exact=lambda key: p[key])
    plains = b["by_terrain"]["plains"]
    assert (plains["battles"], plains["attacker_won"], plains["retreated"]) == (20, 15, 1)
    # like with like: the exact odds against the 19 battles fought out (the retreat left out)
    assert plains["fought_out"] == 19 and plains["fought_out_won"] == 15
    assert plains["expected_rate"] == pytest.approx((9 * 0.5 + 10 * 0.9) / 19, abs=1e-4)
    var = 9 * 0.25 + 10 * 0.09
    assert plains["z"] == round((15 - 13.5) / math.sqrt(var), 2)
    assert b["by_terrain"]["all"]["battles"] == 24 and b["by_terrain"]["forest"]["off_policy"] == 2
    assert list(b["by_terrain"])[-1] == "all"
    assert b["per_game"]["mean"] == 24


def test_battles_with_retreats_are_not_held_against_the_exact_odds():
    """A battle a side left early is not the battle the solver prices: with a retreat in
    most battles and the attacker winning only those fought out at the odds, z is 0."""
    rows = [["plains", 2, 1, "", "", 0, 0, 100, 30, 60, 0, 40, 20]]
    b = hb.battles([_hb_line(1, {"nations": [], "turns": [], "events": {}, "battles": rows})],
                   exact=lambda key: 0.5)
    plains = b["by_terrain"]["plains"]
    assert plains["z"] == 0 and plains["expected_rate"] == 0.5 and plains["rate"] == 0.3


def test_battles_from_old_lines_count_only_wholly_clean_rows():
    rows = [["plains", 2, 1, "", "", 0, 0, 10, 6, 1, 0], ["plains", 3, 1, "", "", 0, 0, 10, 9, 0, 0]]
    b = hb.battles([_hb_line(1, {"nations": [], "turns": [], "events": {}, "battles": rows})],
                   exact=lambda key: 0.9)
    assert b["by_terrain"]["plains"]["fought_out"] == 10


def test_points_by_source_and_sources():
    assert bb.point_source("claim token of Munster") == "claim tokens"
    assert bb.point_source("half the claim token of Connaught") == "claim tokens (shared)"
    assert bb.point_source("towns in 5 regions") == "regions"
    assert bb.point_source("most coins") == "most coins"
    lines = [_line(1, {"A": 1}, ["A"], stats={"kind": "brian-boru", "points": {"x": [2, 0], "y": [1, 1]}}),
             _line(2, {"A": 1}, ["A"], stats={"kind": "brian-boru", "points": {"x": [4, 2]}})]
    src = bb.points_by_source(lines)["sources"]
    assert list(src) == ["x", "y"]
    assert src["x"]["per_game_by_seat"] == [3.0, 1.0] and src["x"]["per_game"] == 4.0
    assert src["x"]["share"] == pytest.approx(0.8)


def test_figures_add_the_game_sections():
    """A game's report sections add their figures to those every game has; a game line
    names its game, whose sections are taken by default."""
    line = _hb_line(1, {"nations": [], "turns": [], "events": {}, "battles": []})
    figs = stats.figures([line], sections=hb_report.sections())
    assert {"nations", "table1_events", "areas_by_turn", "battles"} <= set(figs) and "points_by_source" not in figs
    assert set(stats.figures([{**line, "game": "hy-breasil"}])) == set(figs)
    plain = stats.figures([_line(2, {"A": 1, "B": 2}, ["B"])])
    assert set(plain) == {"games", "win_share_by_seat", "scores", "outcomes", "design"}
    no_stats = stats.figures([_line(2, {"A": 1, "B": 2}, ["B"])], sections=hb_report.sections())
    assert set(no_stats) == set(plain)  # lines without Hy Breasil's stats: no section


# ---------------------------------------------------------------- watchers on real games


def test_hy_breasil_watcher_agrees_with_the_game():
    opts = {"players": 4, "turns": 6, "rules": ["races"]}
    line = play_game("hy-breasil", opts, 11, ["random"])
    state = run_game(get_game("hy-breasil"), opts, 11, ["random"])
    st = line["stats"]
    counts = line["event_counts"]
    born = counts.get("nation-enters", 0) + counts.get("civil-war", 0) + counts.get("nation-splits", 0)
    assert len(st["nations"]) == born
    assert sum(1 for n in st["nations"] if n[5] is not None) <= counts.get("nation-removed", 0)
    alive = {str(nid): bin(n.land).count("1") for nid, n in state.nations.items() if n.land}
    assert st["turns"][-1]["nations"] == alive and st["turns"][-1]["turn"] == 6
    assert [t["turn"] for t in st["turns"]] == list(range(1, 7))
    assert sum(st["turns"][-1]["seat_areas"]) == sum(alive.values())
    accepted = sum(r["came_up"] - r["rerolled"] for r in st["events"].values())
    first = st["first_turn"]
    assert accepted + first == counts.get("event", 0)
    assert sum(r["rerolled"] for r in st["events"].values()) == counts.get("event-reroll", 0)
    assert sum(row[7] for row in st["battles"]) == counts.get("battle", 0)
    for nid, name, race, owner, born_turn, died, origin in st["nations"]:
        assert race is not None and origin in ("enters", "civil-war", "split")
        assert died is None or died >= born_turn


def test_event_delta_is_the_change_in_land_over_the_turn():
    """Recompute one game's deltas from its own per-turn land counts."""
    w = hb.HyBreasilWatcher()
    state = get_game("hy-breasil").new_game({"players": 3, "turns": 5}, 4)
    tap = core_stats.watch(state, w)
    bots = [RandomBot(s) for s in range(3)]
    while state.pending():
        d = state.pending()[0]
        state.apply_index(d.player, bots[d.player].choose(d, None))
    tap.close()
    expected: dict = {}
    for turn, nid, name, accepted, _ in w.events:
        if accepted:
            before = w.areas.get(turn - 1, {}).get(nid, 0)
            expected.setdefault(name, []).append(w.areas.get(turn, {}).get(nid, 0) - before)
    got = {name: sorted(int(k) for k, n in row["delta"].items() for _ in range(n))
           for name, row in w.data()["events"].items() if row["delta"]}
    assert got == {k: sorted(v) for k, v in expected.items()} and got


class _SolverPolicyBot(RandomBot):
    """Random, except in battle: greedy hit assignment and never a retreat — the policy
    the exact odds assume."""

    def choose(self, d, view):
        if d.kind == "hb.retreat":
            return 0
        if d.kind == "hb.assign-hits":
            return max(range(len(d.keys)), key=lambda i: int(d.keys[i][1:].split("w")[0]))
        return super().choose(d, view)


def test_simulated_battles_agree_with_the_exact_odds(monkeypatch):
    """The check the battle figure exists for: with bots that fight as the solver assumes,
    the attacker's win rate in the simulator matches the exact odds on every terrain."""
    from realms.core import agents

    monkeypatch.setitem(agents.GENERIC_BOTS, "solver-policy", _SolverPolicyBot)
    lines = [play_game("hy-breasil", {"players": 4, "turns": 10, "rules": ["races"]}, s, ["solver-policy"])
             for s in range(1, 41)]
    b = hb.battles(lines)["by_terrain"]
    assert b["all"]["battles"] > 1500 and b["all"]["retreated"] == 0 and b["all"]["off_policy"] == 0
    for terrain, row in b.items():
        assert abs(row["z"]) < 4, (terrain, row)
        assert row["ci95"][0] - 0.02 <= row["expected_rate"] <= row["ci95"][1] + 0.02


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_brian_boru_sources_add_up_to_the_scores(seed):
    line = play_game("brian-boru", {"players": 4}, seed, ["random"])
    pts = line["stats"]["points"]
    assert "other" not in pts  # every point is explained by a source
    assert pts["starting points"] == [10] * 4
    for seat, name in enumerate(line["players"]):
        assert sum(row[seat] for row in pts.values()) == line["scores"][name]
    assert all(v <= 0 for v in pts.get("paid away", []))


@pytest.mark.parametrize("game_id, opts, bots", [("hy-breasil", {"players": 3, "turns": 4}, ["random"]),
                                                  ("brian-boru", {"players": 3}, ["greedy"])])
def test_turn_scores_are_sampled_at_every_turn_end(game_id, opts, bots):
    """The runner's score track: one sample per turn, in order, the last the final scores."""
    line = play_game(game_id, opts, 3, bots)
    turns = [t for t, _ in line["turn_scores"]]
    assert turns == sorted(set(turns)) and turns[-1] == line["turns"]
    assert line["turn_scores"][-1][1] == [line["scores"][n] for n in line["players"]]
    state = run_game(get_game(game_id), opts, 3, bots)
    assert get_game(game_id).current_scores(state) == line["turn_scores"][-1][1]


def test_hy_breasil_continuous_play_is_tracked_by_corrected_score():
    """§10.3, RULINGS HB-Q45: in continuous play the result ranks by VP per turn played,
    so the per-turn scores the lead changes are counted on are those."""
    line = play_game("hy-breasil", {"players": 4, "turns": 6, "variant": "continuous"}, 2, ["random"])
    assert line["turn_scores"][-1][1] == [line["corrected_scores"][n] for n in line["players"]]
    assert line["turn_scores"][-1][1] != [line["scores"][n] for n in line["players"]]


def test_hy_breasil_race_note_says_whether_the_races_rule_was_on():
    """The nations section no longer says "the races rule was off" when it was on."""
    from realms.games.hy_breasil.report import _no_race_note

    def fig(on, games, races):
        return {"games": games, "races_on": on, "by_race": {r: {} for r in races}}

    assert _no_race_note(fig(0, 3, ["none"])) == "Race “none”: the races rule (§9.1) was off."
    assert "was on in 2 of 3 games" in _no_race_note(fig(2, 3, ["elf", "none"]))
    assert _no_race_note(fig(3, 3, ["elf", "troll"])) == ""


def test_hy_breasil_nation_lifetimes_count_the_games_with_races():
    lines = [play_game("hy-breasil", {"players": 3, "turns": 2, "rules": ["races"]}, 1, ["random"]),
             play_game("hy-breasil", {"players": 3, "turns": 2}, 2, ["random"])]
    f = hb.nation_lifetimes(lines)
    assert (f["games"], f["races_on"]) == (2, 1)
