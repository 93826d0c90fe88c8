"""The bots of a line-up: one agent per seat from the names written on a command line
(``--bots auto,random``) or sent by a caller, each with its own seed derived from the
game's (:func:`~realms.core.agents.bot_seed`), so that a game is the game of its seed."""

from __future__ import annotations

from .agents import Agent, bot_seed, generic_bots, parse_bot
from .game import Game, OptionError


def bot_names(game: Game) -> list[str]:
    return sorted({*generic_bots(), *game.bots})


def make_bots(game: Game, spec: list[str], players: int, seed: int) -> list[Agent]:
    """One agent per seat from ``spec`` (one name for all seats, or one per seat)."""
    if len(spec) == 1:
        spec = spec * players
    if len(spec) != players:
        raise OptionError(f"--bots names {len(spec)} bots for {players} players (give one, or one per seat)")
    factories = {**generic_bots(), **game.bots}
    agents = []
    for seat, written in enumerate(spec):
        try:
            name, params = parse_bot(written)
        except ValueError as exc:
            raise OptionError(str(exc)) from None
        if name not in factories:
            raise OptionError(f"unknown bot {name!r} (known: {', '.join(bot_names(game))})")
        try:
            agents.append(factories[name](bot_seed(seed, seat), **params))
        except (TypeError, ValueError) as exc:  # a parameter the bot does not take, or a bad value
            if not params:
                raise
            raise OptionError(f"bot {written[:60]!r}: {exc}") from None
    return agents
