"""Bots for Brian Boru (placeholder)."""
from realms.core.agents import RandomBot as GreedyBot  # noqa: F401
