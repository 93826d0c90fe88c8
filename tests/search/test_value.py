"""The learned evaluation: positions recorded from the deciding seat's view
(``realms selfplay``), a model fitted to them (``realms train``), loaded and played by the
search bot (``ismcts:value=…``), and the shipped models."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from realms.cli import main
from realms.core.agents import SeatView
from realms.core.game import OptionError, games, get_game
from realms.core.lineup import make_bots
from realms.core.match import play
from realms.search.ismcts import ISMCTSBot
from realms.search.train import TrainError, read_lines, scores, train
from realms.search.value import ValueModel, model_for, shipped, shipped_path
from realms.sim import selfplay
from realms.sim.batch import SimulationError

LEARNED = [gid for gid, g in games().items() if g.features is not None]
BB = {"players": 3}


@pytest.fixture(scope="module")
def bb_games():
    """Nine recorded games of Brian Boru (three seats, greedy bots, a position in two)."""
    return [selfplay.record_game("brian-boru", BB, seed, ["greedy"], 2) for seed in range(1, 10)]


def test_every_game_declares_features_one_number_per_seat():
    assert set(LEARNED) == {"hy-breasil", "brian-boru", "brittania", "version2"}
    for gid in LEARNED:
        game = get_game(gid)
        state = game.new_game({}, 4)
        seats = len(state.result()["players"])
        named = game.features(state.view(0))
        assert named and all(len(v) == seats and all(np.isfinite(v)) for v in named.values()), gid


def test_positions_are_the_features_of_the_deciding_seats_view_and_carry_the_outcome(bb_games):
    line = bb_games[0]
    game = get_game("brian-boru")
    state = game.new_game(line["options"], line["seed"])
    agents = make_bots(game, line["bots"], 3, line["seed"])
    wanted = {p["answers"]: p for p in line["positions"]}
    checked = 0
    while state.pending():
        d = state.pending()[0]
        if len(state.answers) in wanted:
            p = wanted[len(state.answers)]
            assert p["seat"] == d.player
            view = state.view(d.player)
            assert p["x"] == [[round(v, 5) for v in vals] for vals in game.features(view).values()]
            checked += 1
        state.apply_index(d.player, agents[d.player].choose(d, SeatView(state, d.player)))
    assert checked == len(wanted) > 10
    assert line["returns"] == state.returns() and abs(sum(line["score_share"]) - 1) < 1e-9


def test_features_show_nothing_the_seat_cannot_see():
    """A determinization re-deals what the seat has not seen (the others' hands): its
    features are the same, so no hidden card reaches a position."""
    game = get_game("brian-boru")
    state = game.new_game(BB, 3)
    agents = make_bots(game, ["greedy"], 3, 3)
    for _ in range(40):
        d = state.pending()[0]
        state.apply_index(d.player, agents[d.player].choose(d, SeatView(state, d.player)))
    seat = state.pending()[0].player
    before = game.features(state.view(seat))
    for k in range(5):
        det = state.determinize(seat, random.Random(k))
        assert game.features(det.view(seat)) == before


def test_selfplay_is_seeded_resumable_and_the_same_on_two_workers(tmp_path):
    run = selfplay.SelfPlay("brian-boru", BB, ("greedy",), seed=5, games=2, every=4)
    first = selfplay.run(run, tmp_path / "a")
    more = selfplay.SelfPlay("brian-boru", BB, ("greedy",), seed=5, games=3, every=4)
    resumed = selfplay.run(more, tmp_path / "a", resume=True)
    assert resumed[:2] == first and [ln["seed"] for ln in resumed] == [5, 6, 7]
    assert selfplay.run(more, tmp_path / "b", workers=2) == resumed
    assert selfplay.load(tmp_path / "b") == resumed
    with pytest.raises(SimulationError, match="another run"):
        selfplay.run(selfplay.SelfPlay("brian-boru", BB, ("random",), seed=5, games=3, every=4),
                     tmp_path / "a", resume=True)


def test_positions_at_turn_ends_are_where_each_turn_ends_from_the_seat_that_ended_it(tmp_path):
    """``--at turn-ends``: a position is recorded where ``Game.turn_of`` changes (version²:
    a player's turn, 2.3), from the view of the seat that gave the turn's last answer; a
    game naming no turns is refused."""
    game = get_game("version2")
    options = {"players": 3, "turn_limit": 4}
    line = selfplay.record_game("version2", options, 2, ["general"], 1, at="turn-ends")
    state = game.new_game(line["options"], 2)
    agents = make_bots(game, ["general"], 3, 2)
    ends = {}
    while (d := state.first_pending()) is not None:
        turn = game.turn_of(state)
        state.apply_index(d.player, agents[d.player].choose(d, SeatView(state, d.player)))
        if not state.is_over() and game.turn_of(state) != turn:
            ends[len(state.answers)] = d.player, game.features(state.view(d.player))
    assert len(ends) >= 6 and line["at"] == "turn-ends"
    assert {p["answers"]: p["seat"] for p in line["positions"]} == {a: seat for a, (seat, _) in ends.items()}
    for p in line["positions"]:
        assert p["x"] == [[round(v, 5) for v in vals] for vals in ends[p["answers"]][1].values()]
    with pytest.raises(SimulationError, match="names no turns"):
        selfplay.run(selfplay.SelfPlay("brian-boru", BB, ("greedy",), games=1, at="turn-ends"), tmp_path)


def test_brier_and_calibration_figures():
    y = np.array([[1.0, 0.0, 0.0, 0.0]] * 4)
    mask = np.ones_like(y, dtype=bool)
    assert scores(y, y, mask)["brier"] == 0 and scores(y, y, mask)["ece"] == 0
    even = scores(np.full_like(y, 0.25), y, mask)
    assert even["brier"] == 0.75 and even["calibration"] == [
        {"bin": "0.2-0.3", "n": 16, "predicted": 0.25, "observed": 0.25}]


def test_a_tiny_model_trains_reproducibly_loads_and_plays(bb_games, tmp_path):
    game = get_game("brian-boru")
    model, report = train(game, bb_games, seed=3, hidden=4, steps=60)
    again, _ = train(game, bb_games, seed=3, hidden=4, steps=60)
    assert model.data == again.data
    assert sum(report["games"].values()) == 9 and report["positions"]["held_out"] > 0
    assert set(report["held_out"]) == {"learned", "hand_written", "equal_shares"}
    path = tmp_path / "value.json"
    model.save(path)
    loaded = ValueModel.load(path)
    state = game.new_game(BB, 11)
    p = loaded.predict(game.features(state.view(0)))
    assert len(p) == 3 and abs(sum(p) - 1) < 1e-9
    bots = [ISMCTSBot(1, iters=6, horizon=4, value=str(path)), *make_bots(game, ["greedy"], 2, 11)]
    play(state, bots)
    assert state.is_over() and bots[0]._model is not None and bots[0]._model.names == loaded.names


def test_train_and_selfplay_commands(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["selfplay", "brian-boru", "--players", "3", "--games", "4", "--bots", "greedy",
                 "--every", "3", "--out", str(out)]) == 0
    assert "4 games" in capsys.readouterr().out
    assert main(["train", "brian-boru", "--data", str(out), "--hidden", "3", "--steps", "30", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["model_file"] == str(out / "value.json") and (out / "value.json").exists()
    assert main(["train", "brian-boru", "--data", str(tmp_path / "none")]) != 0
    assert "no positions here" in capsys.readouterr().err


def test_bad_data_and_models_are_named(tmp_path, bb_games):
    with pytest.raises(TrainError, match="no positions here"):
        read_lines(tmp_path, get_game("brian-boru"))
    with pytest.raises(TrainError, match="at least 3"):
        train(get_game("brian-boru"), bb_games[:2])
    (tmp_path / "positions.jsonl").write_text(json.dumps(bb_games[0]) + "\n")
    with pytest.raises(TrainError, match="not 'version2'"):
        read_lines(tmp_path, get_game("version2"))
    with pytest.raises(OptionError, match="value must be one of hand, learned"):
        ISMCTSBot(0, value="bogus")
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(OptionError, match="not a realms value model"):
        model_for(get_game("brian-boru"), str(bad))
    with pytest.raises(OptionError, match="not 'version2'"):
        model_for(get_game("version2"), str(shipped_path(get_game("brian-boru"))))


@pytest.mark.parametrize("game_id", LEARNED)
def test_the_shipped_model_loads_and_predicts_shares(game_id):
    game = get_game(game_id)
    model = shipped(game_id)
    assert model.game == game_id and shipped_path(game).stat().st_size < 5_000_000
    state = game.new_game({}, 2)
    p = model.predict(game.features(state.view(0)))
    assert len(p) == len(state.result()["players"]) and abs(sum(p) - 1) < 1e-9
    assert model.names == list(game.features(state.view(0)))


def test_a_kind_left_to_the_policy_is_answered_without_a_search():
    game = get_game("version2")
    assert "v2.attack-units" in game.unsearched_kinds
    state = game.new_game({}, 2)
    agents = make_bots(game, ["general"], 4, 2)
    while state.pending()[0].kind != "v2.attack-units" or len(state.pending()[0].keys) < 2:
        d = state.pending()[0]
        state.apply_index(d.player, agents[d.player].choose(d, SeatView(state, d.player)))
    d = state.pending()[0]
    bot = ISMCTSBot(0, iters=20)
    answer = bot.choose(d, SeatView(state, d.player))
    assert bot.last["iterations"] == 0 and d.keys[answer] == bot.last["prior"]


def test_the_learned_search_is_deterministic_for_a_seed_and_budget():
    game = get_game("brian-boru")
    state = game.new_game(BB, 6)
    agents = make_bots(game, ["greedy"], 3, 6)
    while len(state.pending()[0].keys) < 3:
        d = state.pending()[0]
        state.apply_index(d.player, agents[d.player].choose(d, SeatView(state, d.player)))
    d = state.pending()[0]
    runs = []
    for _ in range(2):
        bot = ISMCTSBot(4, iters=12, horizon=6, early=0, value="learned")
        runs.append((bot.choose(d, SeatView(state, d.player)), bot.last["visits"], bot.last["advantage"]))
    assert runs[0] == runs[1] and sum(runs[0][1].values()) == 12


@pytest.mark.parametrize("game_id", LEARNED)
def test_every_lobby_variant_makes_a_bot_and_the_search_uses_the_learned_value(game_id):
    game = get_game(game_id)
    players = len(game.new_game({}, 1).result()["players"])
    searches = [spec for spec in game.bot_variants if spec.startswith("ismcts:")]
    assert searches and all("value=learned" in spec for spec in searches)
    for spec in game.bot_variants:
        assert len(make_bots(game, [spec], players, 0)) == players


def test_a_game_without_features_has_nothing_to_learn_from():
    from dataclasses import replace

    game = replace(get_game("brian-boru"), features=None)
    with pytest.raises(SimulationError, match="declares no features"):
        selfplay.game_features(game, game.new_game(BB, 1).view(0))


@pytest.mark.parametrize("game_id", list(games()))
def test_the_lobby_names_at_most_one_bot_a_level(game_id):
    """A level (``easy``, ``normal``, ``hard``) labels one bot at most, the one measured
    under that name (``bench_search.py --bot hard --baseline normal``)."""
    labels = list(get_game(game_id).bot_variants.values())
    for level in ("easy", "normal", "hard"):
        assert sum(label.endswith(f"({level})") for label in labels) <= 1, (game_id, level)
