"""Every game as a PettingZoo AEC environment: ``env(GAME_ID, **options)``.

The agents are ``player_0 …``; the agent to act is the seat of the first pending
question (simultaneous questions, such as a draft, are asked one seat after another,
each seat seeing only its own view, so nobody learns another's pick early).  An action
is an index into that question's options (:mod:`.common`); the observation is a dict of
the view's feature vector (``observation``) and the legal-action mask (``action_mask``),
and ``infos[agent]["view"]`` is the acting seat's view itself, JSON as the web app shows
it (``view(agent)`` gives any seat's).
Rewards come at the end, from :meth:`GameState.returns` (a win 1, shared wins split).

>>> from realms.adapters.pettingzoo import env
>>> e = env("brian-boru", players=3)
>>> e.reset(seed=1)
>>> e.agent_selection
'player_2'

``parallel_env(GAME_ID, **options)`` is the same game as a PettingZoo parallel
environment: each step takes the actions of every seat asked now (all at once where the
game asks several, as in a draft; the others' actions are ignored, their masks empty).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from realms.core.engine import GameState
from realms.core.game import get_game

from .common import CLIP, OBS_SIZE, action_mask, action_space_size, check_fits, encode_view


def env(game_id: str, *, max_actions: int | None = None, obs_size: int = OBS_SIZE,
        render_mode: str | None = None, **options: Any) -> "RealmsAEC":
    """The AEC environment of ``game_id`` with game ``options`` (as ``realms options``
    lists them); ``max_actions`` overrides the size of the action space."""
    return RealmsAEC(game_id, options, max_actions=max_actions, obs_size=obs_size, render_mode=render_mode)


def parallel_env(game_id: str, *, max_actions: int | None = None, obs_size: int = OBS_SIZE,
                 render_mode: str | None = None, **options: Any) -> "RealmsParallel":
    """The parallel environment of ``game_id`` with game ``options``."""
    return RealmsParallel(game_id, options, max_actions=max_actions, obs_size=obs_size, render_mode=render_mode)


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
        self.game_state: GameState | None = None
        self._views: dict[int, dict] = {}

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
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._next()

    def _next(self) -> None:
        """Point at the seat now asked; at the end, hand out the returns."""
        state = self._live()
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
        self._views = {}
        for a in self.agents:
            self.infos[a] = {"view": self.view(a)} if a == self.agent_selection or decision is None else {}

    def _live(self) -> GameState:
        """The game under way (:meth:`reset` starts one)."""
        if self.game_state is None:
            raise RuntimeError(f"{self.game.id}: no game yet; reset() starts one")
        return self.game_state

    def view(self, agent: str) -> dict:
        """``agent``'s view of the game now (JSON, as the web app shows it)."""
        seat = self._seat[agent]
        found = self._views.get(seat)
        if found is None:
            found = self._views[seat] = self._live().view(seat)
        return found

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        decision = self._live().first_pending()
        if decision is None:  # the game is over: every agent is terminated (_next)
            raise RuntimeError(f"{self.game.id}: the game is over")
        if action is None or not 0 <= int(action) < len(decision.keys):
            raise ValueError(
                f"{self.game.id}: action {action!r} is not offered to {agent} for {decision.kind} "
                f"(0..{len(decision.keys) - 1})"
            )
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self._live().answer_index(decision, int(action))
        self._next()

    def observe(self, agent: str) -> dict:
        seat = self._seat[agent]
        decision = self._live().first_pending((seat,))
        return {
            "observation": encode_view(self.view(agent), self.obs_size),
            "action_mask": action_mask(decision if agent == self.agent_selection else None, self.n_actions),
        }

    def render(self) -> str | None:
        """The chronicle so far, as text (``ansi``)."""
        if self.render_mode is None:
            return None
        return "\n".join(self._live().chronicle_for(None))

    def close(self) -> None:
        pass




class RealmsParallel(ParallelEnv):
    """One game of realms, every seat asked now answering in one step."""

    metadata = {"render_modes": ["ansi"], "name": "realms_parallel"}

    def __init__(self, game_id: str, options: dict, *, max_actions: int | None = None,
                 obs_size: int = OBS_SIZE, render_mode: str | None = None) -> None:
        self.aec = RealmsAEC(game_id, options, max_actions=max_actions, obs_size=obs_size, render_mode=render_mode)
        self.metadata = {**self.metadata, "name": f"realms_{game_id}_parallel"}
        self.render_mode = render_mode
        self.possible_agents = list(self.aec.possible_agents)
        self.observation_spaces = self.aec.observation_spaces
        self.action_spaces = self.aec.action_spaces
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def game_state(self):
        return self.aec.game_state

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        return self._observations(), self._infos()

    def _observations(self) -> dict:
        state, aec = self.aec._live(), self.aec
        asked = {d.player: d for d in state.pending()}
        for d in asked.values():
            check_fits(aec.game.id, d, aec.n_actions)
        return {a: {"observation": encode_view(state.view(i), aec.obs_size),
                    "action_mask": action_mask(asked.get(i), aec.n_actions)}
                for i, a in enumerate(self.possible_agents) if a in self.agents}

    def _infos(self) -> dict:
        state = self.aec._live()
        return {a: {"view": state.view(i)} for i, a in enumerate(self.possible_agents) if a in self.agents}

    def step(self, actions: dict) -> tuple[dict, dict, dict, dict, dict]:
        state, seat_of = self.aec._live(), self.aec._seat
        asked = state.pending()
        for d in asked:
            agent = self.possible_agents[d.player]
            if agent not in actions:
                raise ValueError(f"{self.aec.game.id}: {agent} is asked {d.kind} but has no action this step")
            action = actions[agent]
            if not 0 <= int(action) < len(d.keys):
                raise ValueError(f"{self.aec.game.id}: action {action!r} is not offered to {agent} for {d.kind} "
                                 f"(0..{len(d.keys) - 1})")
        for d in asked:
            state.answer_index(d, int(actions[self.possible_agents[d.player]]))
        over = state.is_over()
        returns = state.returns() if over else None
        live = list(self.agents)
        rewards = {a: float(returns[seat_of[a]]) if returns is not None else 0.0 for a in live}
        observations, infos = self._observations(), self._infos()
        terminations = {a: over for a in live}
        truncations = {a: False for a in live}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        pass
