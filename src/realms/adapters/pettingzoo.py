"""Every game as a PettingZoo AEC environment: ``env(GAME_ID, **options)``.

The agents are ``player_0 …``; the agent to act is the seat of the first pending
question (simultaneous questions, such as a draft, are asked one seat after another,
each seat seeing only its own view, so nobody learns another's pick early).  An action
is an index into that question's options (:mod:`.common`); the observation is a dict of
the view's feature vector (``observation``) and the legal-action mask (``action_mask``),
and ``infos[agent]["view"]`` is the seat's view itself, JSON as the web app shows it.
Rewards come at the end, from :meth:`GameState.returns` (a win 1, shared wins split).

>>> from realms.adapters.pettingzoo import env
>>> e = env("brian-boru", players=3)
>>> e.reset(seed=1)
>>> e.agent_selection
'player_2'
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from realms.core.game import get_game

from .common import CLIP, OBS_SIZE, action_mask, action_space_size, check_fits, encode_view


def env(game_id: str, *, max_actions: int | None = None, obs_size: int = OBS_SIZE,
        render_mode: str | None = None, **options: Any) -> "RealmsAEC":
    """The AEC environment of ``game_id`` with game ``options`` (as ``realms options``
    lists them); ``max_actions`` overrides the size of the action space."""
    return RealmsAEC(game_id, options, max_actions=max_actions, obs_size=obs_size, render_mode=render_mode)


class RealmsAEC(AECEnv):
    """One game of realms, played seat by seat (see the module's docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "realms", "is_parallelizable": False}

    def __init__(self, game_id: str, options: dict, *, max_actions: int | None = None,
                 obs_size: int = OBS_SIZE, render_mode: str | None = None) -> None:
        super().__init__()
        self.game = get_game(game_id)
        self.options = self.game.normalize_options(dict(options))
        self.metadata = {**self.metadata, "name": f"realms_{game_id}"}
        self.render_mode = render_mode
        self.n_actions = action_space_size(self.game, max_actions)
        self.obs_size = obs_size
        players = len(self.options["names"])
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(-CLIP, CLIP, (obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.n_actions,), np.int8),
            }) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.n_actions) for a in self.possible_agents}
        self._seeds = random.Random()
        self.game_state = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- the AEC cycle --------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game of ``seed`` (a fresh one if None)."""
        if seed is not None:
            self._seeds.seed(seed)
        self.game_state = self.game.state_class(self.options, self._seeds.getrandbits(53))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._next()

    def _next(self) -> None:
        """Point at the seat now asked; at the end, hand out the returns."""
        state = self.game_state
        decision = state.first_pending()
        if decision is None:
            returns = state.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat[a]])
                self.terminations[a] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
        else:
            check_fits(self.game.id, decision, self.n_actions)
            self.agent_selection = self.possible_agents[decision.player]
        for a in self.agents:
            self.infos[a] = {"view": state.view(self._seat[a])}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        decision = self.game_state.first_pending()
        if action is None or not 0 <= int(action) < len(decision.keys):
            raise ValueError(
                f"{self.game.id}: action {action!r} is not offered to {agent} for {decision.kind} "
                f"(0..{len(decision.keys) - 1})"
            )
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self.game_state.answer_index(decision, int(action))
        self._next()

    def observe(self, agent: str) -> dict:
        seat = self._seat[agent]
        decision = self.game_state.first_pending((seat,))
        return {
            "observation": encode_view(self.game_state.view(seat), self.obs_size),
            "action_mask": action_mask(decision if agent == self.agent_selection else None, self.n_actions),
        }

    def render(self) -> str | None:
        """The chronicle so far, as text (``ansi``)."""
        if self.render_mode is None:
            return None
        return "\n".join(self.game_state.chronicle_for(None))

    def close(self) -> None:
        pass


