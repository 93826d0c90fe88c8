"""Agents: anything that answers decisions — bots here, people through the CLI or web app.

Bots see what a person sees: the decision and, when they ask for it, ``view(player)``.
They answer with an option index; records keep the stable key.
"""

from __future__ import annotations

from typing import Callable, Protocol

from .decision import Decision
from .dice import Dice

ViewFn = Callable[[], dict]


class Agent(Protocol):
    name: str

    def choose(self, decision: Decision, view: ViewFn) -> int:
        """The index into ``decision.keys`` of the chosen option."""
        ...


class RandomBot:
    """Uniform over the options of every decision, from its own seeded dice."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.dice = Dice(seed)

    def choose(self, decision: Decision, view: ViewFn) -> int:
        return self.dice.below(len(decision.keys))


AgentFactory = Callable[[int], Agent]

#: Bots that work for every game; a game adds its own through ``Game.bots``.
GENERIC_BOTS: dict[str, AgentFactory] = {"random": RandomBot}


def bot_seed(game_seed: int, seat: int) -> int:
    """A bot's own seed, derived from the game's so that a simulation is reproducible."""
    return (game_seed * 1_000_003 + 7919 * (seat + 1)) & 0xFFFFFFFFFFFF
