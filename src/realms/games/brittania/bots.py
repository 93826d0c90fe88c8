"""Bots for Brittania (placeholder replaced below)."""
from realms.core.agents import RandomBot as Steward  # noqa: F401
