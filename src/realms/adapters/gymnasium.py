"""One seat of any game against bots, as a single-agent Gymnasium environment:
``env(GAME_ID, seat=0, bots="random", **options)``.

The other seats are played by bots named as ``--bots`` names them (one for all, or a
list by seat, the learner's own entry ignored; ``auto``, ``greedy``,
``ismcts:iters=50``…), seeded from the game's seed, so ``reset(seed=…)`` fixes the whole
episode.  The observation is the view's feature vector and the legal-action mask
(:mod:`.common`); ``info["view"]`` is the seat's view itself.  An action is an index into
the options of the question asked; one past the options wraps round (``action % n``), so
every action of the space can be played and the mask says which are distinct.  The
reward is the seat's share of the win at the end (:meth:`GameState.returns`), 0 before.

>>> from realms.adapters.gymnasium import env
>>> e = env("brian-boru", players=3, bots="greedy")
>>> obs, info = e.reset(seed=1)
>>> int(obs["action_mask"].sum()) == len(e.decision.keys)
True
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from realms.core.decision import Decision
from realms.core.engine import GameState
from realms.core.game import get_game
from realms.core.match import bot_answers
from realms.core.lineup import make_bots

from .common import CLIP, OBS_SIZE, action_mask, action_space_size, check_fits, encode_view

#: answers the bots may give in one step before the episode is called stuck
BOT_LIMIT = 1_000_000


def env(game_id: str, *, seat: int = 0, bots: "str | list[str]" = "random", max_actions: int | None = None,
        obs_size: int = OBS_SIZE, render_mode: str | None = None, **options: Any) -> "RealmsEnv":
    """The environment of ``seat`` in ``game_id`` (game ``options`` as ``realms options``
    lists them) against ``bots``."""
    return RealmsEnv(game_id, options, seat=seat, bots=bots, max_actions=max_actions,
                     obs_size=obs_size, render_mode=render_mode)


class RealmsEnv(gymnasium.Env):
    """One seat against bots (see the module's docstring)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game_id: str, options: dict, *, seat: int = 0, bots: "str | list[str]" = "random",
                 max_actions: int | None = None, obs_size: int = OBS_SIZE, render_mode: str | None = None) -> None:
        self.game = get_game(game_id)
        self.options = self.game.normalize_options(dict(options))
        self.players = len(self.options["names"])
        if not 0 <= seat < self.players:
            raise ValueError(f"{game_id}: seat {seat} is not one of the {self.players} seats (0..{self.players - 1})")
        self.seat = seat
        self.bot_spec = [bots] if isinstance(bots, str) else list(bots)
        if len(self.bot_spec) == self.players:
            self.bot_spec[seat] = "random"  # the learner's own entry: never asked
        make_bots(self.game, self.bot_spec, self.players, 0)  # bad names fail now, by name
        self.n_actions = action_space_size(self.game, max_actions)
        self.obs_size = obs_size
        self.render_mode = render_mode
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-CLIP, CLIP, (obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.n_actions,), np.int8),
        })
        self.action_space = spaces.Discrete(self.n_actions)
        self.game_state: GameState | None = None
        self.agents: dict = {}
        #: the learner's question now (None once the game is over)
        self.decision: Decision | None = None

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**53))
        self.game_state = self.game.state_class(self.options, game_seed)
        agents = make_bots(self.game, self.bot_spec, self.players, game_seed)
        self.agents = {i: a for i, a in enumerate(agents) if i != self.seat}
        self._bots_play()
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[dict, float, bool, bool, dict]:
        if self.decision is None:
            raise RuntimeError(f"{self.game.id}: the game is over; reset() starts another")
        self._live().answer_index(self.decision, int(action) % len(self.decision.keys))
        self._bots_play()
        over = self.decision is None
        reward = float(self._live().returns()[self.seat]) if over else 0.0
        return self._observe(), reward, over, False, self._info()

    def _live(self) -> GameState:
        """The game under way (:meth:`reset` starts one)."""
        if self.game_state is None:
            raise RuntimeError(f"{self.game.id}: no game yet; reset() starts one")
        return self.game_state

    def _bots_play(self) -> None:
        for _ in bot_answers(self._live(), self.agents, BOT_LIMIT):
            pass
        self.decision = self._live().first_pending((self.seat,))
        if self.decision is not None:
            check_fits(self.game.id, self.decision, self.n_actions)

    def _observe(self) -> dict:
        return {
            "observation": encode_view(self._live().view(self.seat), self.obs_size),
            "action_mask": action_mask(self.decision, self.n_actions),
        }

    def _info(self) -> dict:
        return {"view": self._live().view(self.seat)}

    def render(self) -> str | None:
        """The chronicle as the seat may read it (``ansi``)."""
        if self.render_mode is None:
            return None
        return "\n".join(self._live().chronicle_for(self.seat))
