"""A game of any registered game played by uniformly random answers, for the tests that
look at every game's position, drawing or chronicle part-way through."""

from __future__ import annotations

import random

from realms.core.game import get_game


def played(game_id: str, steps: int, seed: int, players: int = 3):
    """``(game, state, options)`` after up to ``steps`` random answers (fewer if the game
    ends), every draw from ``seed``."""
    game = get_game(game_id)
    options = game.normalize_options({"players": players})
    state = game.new_game(options, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        d = state.pending()[0]
        state.apply(d.player, d.keys[rng.randrange(len(d.keys))])
    return game, state, options
