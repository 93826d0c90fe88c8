"""Bots for Hy Breasil: ``auto``, the Britannia II solitaire rules adapted (AUTO.md), and
``greedy``, an odds-aware one-ply heuristic (its sparring partner)."""

from .auto import AutoBot
from .greedy import GreedyBot

__all__ = ["AutoBot", "GreedyBot"]
