"""Every game as an OpenSpiel Python game: ``load(GAME_ID, **options)``.

The game type declares what the game's traits say: dice and shuffles are
``SAMPLED_STOCHASTIC`` chance (they happen inside the rules, from the state's own seeded
dice, so there are no explicit chance nodes), and the information is imperfect whenever
there is hidden information *or* chance, because the state's future dice are part of it
and no seat sees them.  Simultaneous questions (a draft) are asked one seat after another
(``SEQUENTIAL`` dynamics), each seeing only its own view.  An action is an index into the
options of the question asked (:mod:`.common`); rewards are terminal, from
:meth:`GameState.returns`.  The observation string is the seat's view as canonical JSON,
the information-state string adds every answer so far as the seat may know it (another
seat's secret pick hidden), and the observation tensor is the view's feature vector.
``resample_from_infostate`` is :meth:`GameState.determinize`, which OpenSpiel's ISMCTS
uses.

>>> from realms.adapters.openspiel import load
>>> game = load("brian-boru", players=3)
>>> state = game.new_initial_state()
>>> state.current_player(), len(state.legal_actions()) > 1
(2, True)
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from realms.core.engine import GameState, canonical_json
from realms.core.game import Game, get_game

from .common import OBS_SIZE, action_space_size, check_fits, encode_view

#: the longest game the type declares unless told (answers, Hy Breasil's is ~1000)
MAX_GAME_LENGTH = 100_000


def load(game_id: str, *, max_actions: int | None = None, obs_size: int = OBS_SIZE,
         max_game_length: int = MAX_GAME_LENGTH, seed: int = 0, **options: Any) -> "RealmsGame":
    """The OpenSpiel game of ``game_id`` with game ``options``; its initial states are the
    games of seeds ``seed``, ``seed + 1``, … in turn."""
    return RealmsGame(game_id, options, max_actions=max_actions, obs_size=obs_size,
                      max_game_length=max_game_length, seed=seed)


def game_type(game: Game, players: int) -> pyspiel.GameType:
    """The OpenSpiel game type that ``game``'s traits declare."""
    T = pyspiel.GameType
    return T(
        short_name=f"python_realms_{game.id.replace('-', '_')}",
        long_name=f"realms: {game.name}",
        dynamics=T.Dynamics.SEQUENTIAL,
        chance_mode=T.ChanceMode.SAMPLED_STOCHASTIC if game.chance else T.ChanceMode.DETERMINISTIC,
        information=(T.Information.IMPERFECT_INFORMATION if game.hidden_information or game.chance
                     else T.Information.PERFECT_INFORMATION),
        utility=T.Utility.GENERAL_SUM,
        reward_model=T.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={},
        default_loadable=False,
    )


class RealmsGame(pyspiel.Game):
    """A realms game with fixed options, as OpenSpiel sees it."""

    def __init__(self, game_id: str, options: dict, *, max_actions: int | None = None,
                 obs_size: int = OBS_SIZE, max_game_length: int = MAX_GAME_LENGTH, seed: int = 0) -> None:
        self.game = get_game(game_id)
        self.options = self.game.normalize_options(dict(options))
        self.players = len(self.options["names"])
        self.n_actions = action_space_size(self.game, max_actions)
        self.obs_size = obs_size
        self.next_seed = seed
        self._args = (game_id, options, max_actions, obs_size, max_game_length)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.n_actions,
            max_chance_outcomes=0,
            num_players=self.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=max_game_length,
        )
        super().__init__(game_type(self.game, self.players), info, {})

    def __deepcopy__(self, memo: dict) -> "RealmsGame":
        """A copy made anew from the same arguments, where its next seed is now (OpenSpiel
        copies games; a sampled-stochastic game's default copy asks for an RNG state that
        a Python game does not have: its chance is in each state's own dice)."""
        game_id, options, max_actions, obs_size, max_game_length = self._args
        return RealmsGame(game_id, options, max_actions=max_actions, obs_size=obs_size,
                          max_game_length=max_game_length, seed=self.next_seed)

    def new_initial_state(self) -> "RealmsState":
        seed, self.next_seed = self.next_seed, self.next_seed + 1
        return RealmsState(self, self.game.state_class(self.options, seed))

    def make_py_observer(self, iig_obs_type=None, params=None) -> "RealmsObserver":
        if params:
            raise ValueError(f"{self.game.id}: observation parameters are not supported: {sorted(params)}")
        recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        return RealmsObserver(self.obs_size, recall, self.game)


class RealmsState(pyspiel.State):
    """One position; ``self.inner`` is the realms :class:`GameState`."""

    def __init__(self, game: RealmsGame, inner: GameState) -> None:
        super().__init__(game)
        self._held = _Held(game, inner)

    @property
    def realms(self) -> RealmsGame:
        return self._held.game

    @property
    def inner(self) -> GameState:
        return self._held.state

    def current_player(self) -> int:
        d = self.inner.first_pending()
        if d is None:
            return pyspiel.PlayerId.TERMINAL
        check_fits(self.realms.game.id, d, self.realms.n_actions)
        return d.player

    def _legal_actions(self, player: int) -> list[int]:
        d = self.inner.first_pending()
        return list(range(len(d.keys))) if d is not None and d.player == player else []

    def _apply_action(self, action: int) -> None:
        d = self.inner.first_pending()
        if d is None:
            raise RuntimeError(f"{self.realms.game.id}: the game is over")
        self.inner.answer_index(d, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        d = self.inner.first_pending()
        if d is not None and d.player == player and 0 <= action < len(d.keys):
            return f"{d.kind}:{d.keys[action]}"
        return f"option {action}"

    def is_terminal(self) -> bool:
        return self.inner.is_over()

    def returns(self) -> list[float]:
        if not self.inner.is_over():
            return [0.0] * self.realms.players
        return [float(r) for r in self.inner.returns()]

    def clone(self) -> "RealmsState":
        return RealmsState(self.realms, self.inner.clone())


    def resample_from_infostate(self, player_id: int, probability_sampler) -> "RealmsState":
        """A state ``player_id`` cannot tell from this one (:meth:`GameState.determinize`),
        drawn with ``probability_sampler`` (a callable giving a number in [0, 1))."""
        rng = random.Random(int(probability_sampler() * 2**53))
        return RealmsState(self.realms, self.inner.determinize(player_id, rng))

    def __str__(self) -> str:
        return canonical_json({"view": self.inner.view(None), "answers": len(self.inner.answers)})


class _Held:
    """What a :class:`RealmsState` holds.  OpenSpiel's C++ side clones a Python state by
    deep-copying its attributes; this one copies as the engine clones (the game shared)."""

    __slots__ = ("game", "state")

    def __init__(self, game: RealmsGame, state: GameState) -> None:
        self.game = game
        self.state = state

    def __deepcopy__(self, memo: dict) -> "_Held":
        return _Held(self.game, self.state.clone())


class RealmsObserver:
    """OpenSpiel's observer: the view's feature vector as the tensor; the view (and, with
    perfect recall, the answers as the seat knows them) as the string."""

    def __init__(self, size: int, perfect_recall: bool, game: Game) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"view": self.tensor}
        self.perfect_recall = perfect_recall
        self.game = game

    def set_from(self, state: RealmsState, player: int) -> None:
        self.tensor[:] = encode_view(state.inner.view(player), len(self.tensor))

    def string_from(self, state: RealmsState, player: int) -> str:
        inner = state.inner
        if not self.perfect_recall:
            return canonical_json(inner.view(player))
        private = self.game.private_kinds
        answers = [[p, key if p == player or kind not in private else None]
                   for (p, key), kind in zip(inner.answers, inner.answer_kinds)]
        return canonical_json({"view": inner.view(player), "answers": answers})
