"""Every game as an OpenSpiel Python game, checked by OpenSpiel's random-simulation test
and played by OpenSpiel's own ISMCTS bot as a cross-check of the determinizations."""

from __future__ import annotations

import json

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from realms.adapters.openspiel import load
from realms.core.game import games, get_game

SMALL = {"hy-breasil": {"players": 3, "turns": 1}, "brian-boru": {"players": 3},
         "version2": {"players": 3, "turn_limit": 4}, "brittania": {"players": 3, "turns": 1}}
GAME_IDS = list(games())


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_openspiel_random_simulation_test(game_id):
    pyspiel.random_sim_test(load(game_id, **SMALL.get(game_id, {})), num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_game_type_declares_the_traits(game_id):
    game, T = get_game(game_id), pyspiel.GameType
    kind = load(game_id, **SMALL.get(game_id, {})).get_type()
    assert kind.dynamics == T.Dynamics.SEQUENTIAL
    assert (kind.chance_mode == T.ChanceMode.SAMPLED_STOCHASTIC) == game.chance
    imperfect = kind.information == T.Information.IMPERFECT_INFORMATION
    assert imperfect == (game.hidden_information or game.chance)
    assert kind.provides_information_state_string and kind.provides_observation_string


def _after_draft_picks():
    """Brian Boru three seats, played until two seats have made a secret draft pick."""
    state = load("brian-boru", players=3).new_initial_state()
    rng = np.random.default_rng(0)
    while sum(kind == "bb.draft" for kind in state.inner.answer_kinds) < 2:
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_the_information_state_hides_another_seats_secret_pick():
    state = _after_draft_picks()
    inner = state.inner
    picks = [(p, key) for (p, key), kind in zip(inner.answers, inner.answer_kinds) if kind == "bb.draft"]
    for seat in range(3):
        told = json.loads(state.information_state_string(seat))
        known = [told["answers"][i] for i, kind in enumerate(inner.answer_kinds) if kind == "bb.draft"]
        assert known == [[p, key if p == seat else None] for p, key in picks]
        assert json.loads(state.observation_string(seat)) == inner.view(seat)


def test_a_resampled_state_keeps_the_seats_information_state():
    state = _after_draft_picks()
    seat = state.current_player()
    other = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(seat) == state.information_state_string(seat)
    assert other.legal_actions() == state.legal_actions()


def _ismcts_plays(game_id: str, options: dict, decisions: int, simulations: int):
    game = load(game_id, **options)
    bot = ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                           uct_c=1.5, max_simulations=simulations, random_state=np.random.RandomState(1))
    state, rng, asked = game.new_initial_state(), np.random.RandomState(2), 0
    while not state.is_terminal() and asked < decisions:
        if state.current_player() == 0:
            action = bot.step(state)
            asked += 1
        else:
            action = rng.choice(state.legal_actions())
        assert action in state.legal_actions()
        state.apply_action(action)
    return state, asked


def test_openspiel_ismcts_plays_a_whole_game_of_hy_breasil():
    state, asked = _ismcts_plays("hy-breasil", {"players": 3, "turns": 1}, 10_000, 10)
    assert state.is_terminal() and asked > 5
    assert sum(state.returns()) in (0.0, pytest.approx(1.0))


def test_openspiel_ismcts_plays_brian_boru_drafts_and_tricks():
    state, asked = _ismcts_plays("brian-boru", {"players": 3}, 5, 8)
    assert asked == 5
    assert sum(p == 0 for p, _ in state.inner.answers) >= 5
