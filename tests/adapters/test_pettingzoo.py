"""Every game as a PettingZoo AEC environment, checked by PettingZoo's own tests."""

from __future__ import annotations

import json

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test

from realms.adapters.common import encode_view
from realms.adapters.pettingzoo import env, parallel_env
from realms.core.game import games, get_game

SMALL = {"hy-breasil": {"players": 3, "turns": 3}, "brian-boru": {"players": 3},
         "version2": {"players": 3, "turn_limit": 4}, "brittania": {"players": 3, "turns": 2}}
GAME_IDS = list(games())


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_pettingzoo_api_test(game_id):
    api_test(env(game_id, **SMALL.get(game_id, {})), num_cycles=300)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_pettingzoo_seed_test(game_id):
    seed_test(lambda: env(game_id, **SMALL.get(game_id, {})), num_cycles=50)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_pettingzoo_parallel_api_test(game_id):
    parallel_api_test(parallel_env(game_id, **SMALL.get(game_id, {})), num_cycles=300)


@pytest.mark.parametrize("game_id", [g for g in GAME_IDS if get_game(g).simultaneous])
def test_the_parallel_env_answers_simultaneous_questions_in_one_step(game_id):
    e = parallel_env(game_id, **SMALL.get(game_id, {}))
    obs, _ = e.reset(seed=2)
    most = 0
    while e.agents:
        asked = [a for a in e.agents if obs[a]["action_mask"].any()]
        most = max(most, len(asked))
        obs, rewards, terms, truncs, infos = e.step({a: 0 for a in e.agents})
    assert most >= 2
    assert sum(rewards.values()) in (0.0, pytest.approx(1.0))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_whole_game_ends_with_the_returns(game_id):
    e = env(game_id, **SMALL.get(game_id, {}))
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    for agent in e.agent_iter(max_iter=20_000):
        obs, reward, term, trunc, info = e.last()
        assert json.loads(json.dumps(info["view"])) == info["view"]
        assert obs["observation"].shape == (e.obs_size,)
        if term:
            e.step(None)
            continue
        offered = np.flatnonzero(obs["action_mask"])
        assert len(offered) >= 2 and offered[-1] == len(offered) - 1
        e.step(int(rng.choice(offered)))
    assert not e.agents
    returns = e.game_state.returns()
    assert sum(returns) in (0.0, pytest.approx(1.0))


def test_an_action_not_offered_is_refused_by_name():
    e = env("brian-boru", players=3)
    e.reset(seed=0)
    with pytest.raises(ValueError, match=f"action 1023 is not offered to {e.agent_selection}"):
        e.step(1023)


def test_a_question_longer_than_the_action_space_is_refused_by_name():
    with pytest.raises(ValueError, match="more than the 2 actions"):
        env("hy-breasil", max_actions=2).reset(seed=0)


def test_the_vector_is_made_from_the_view_alone():
    """Equal views give equal vectors; a changed number changes its slot."""
    view = {"areas": [{"units": 3, "owner": "Picts"}], "over": False}
    same = json.loads(json.dumps(view))
    assert np.array_equal(encode_view(view, 64), encode_view(same, 64))
    same["areas"][0]["units"] = 4
    assert encode_view(same, 64).sum() == encode_view(view, 64).sum() + 1
