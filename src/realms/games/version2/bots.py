"""Bots for version² (filled in below)."""

from __future__ import annotations

from realms.core.agents import RandomBot


class GeneralBot(RandomBot):
    name = "general"
