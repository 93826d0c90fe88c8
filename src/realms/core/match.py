"""Playing a game to its end with a seat → agent mapping."""

from __future__ import annotations

from typing import Callable, Sequence

from .agents import Agent
from .engine import GameState


def play(
    state: GameState,
    agents: Sequence[Agent],
    *,
    max_decisions: int | None = None,
    after_each: Callable[[GameState], None] | None = None,
) -> GameState:
    """Ask each pending decision of ``state`` from the agent of its seat until the game ends.

    ``max_decisions`` bounds the loop (a guard against a game that never ends);
    ``after_each`` is called after every applied answer (used by the conformance kit).
    """
    applied = 0
    while True:
        pending = state._pending
        if not pending:
            return state
        decision = pending[0]
        seat = decision.player
        index = agents[seat].choose(decision, lambda: state.view(seat))
        state.apply_index(seat, index)
        applied += 1
        if after_each is not None:
            after_each(state)
        if max_decisions is not None and applied >= max_decisions:
            raise RuntimeError(f"game did not end within {max_decisions} decisions")
