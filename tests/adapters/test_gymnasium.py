"""One seat against bots as a Gymnasium environment, checked by Gymnasium's checker."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from realms.adapters.gymnasium import env
from realms.core.game import OptionError, games

SMALL = {"hy-breasil": {"players": 3, "turns": 2}, "brian-boru": {"players": 3},
         "version2": {"players": 3, "turn_limit": 4}, "brittania": {"players": 3, "turns": 2}}
GAME_IDS = list(games())


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_gymnasium_env_checker(game_id):
    check_env(env(game_id, **SMALL.get(game_id, {})), skip_render_check=False)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_an_episode_ends_with_the_seats_share_of_the_win(game_id):
    e = env(game_id, seat=1, bots=["random", "x", "random"], **SMALL.get(game_id, {}))
    obs, info = e.reset(seed=4)
    rng, total, done, steps = np.random.default_rng(0), 0.0, False, 0
    while not done:
        offered = np.flatnonzero(obs["action_mask"])
        assert len(offered) == len(e.decision.keys) >= 2 and e.decision.player == 1
        obs, reward, done, truncated, info = e.step(int(rng.choice(offered)))
        total += reward
        steps += 1
    assert total == e.game_state.returns()[1]
    assert steps == sum(p == 1 for p, _ in e.game_state.answers)


def test_the_same_seed_gives_the_same_episode():
    def episode():
        e = env("brian-boru", players=3, bots="greedy")
        obs, _ = e.reset(seed=9)
        out = [obs["observation"].tolist()]
        for _ in range(10):
            obs, *_ = e.step(0)
            out.append(obs["observation"].tolist())
        return out

    assert episode() == episode()


def test_bad_seats_and_bots_are_named():
    with pytest.raises(ValueError, match="seat 5 is not one of the 3 seats"):
        env("brian-boru", players=3, seat=5)
    with pytest.raises(OptionError, match="unknown bot 'nobody'"):
        env("brian-boru", players=3, bots="nobody")
