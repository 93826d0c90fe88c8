"""Bots for Hy Breasil: ``auto``, the Britannia II solitaire rules adapted (AUTO.md)."""

from .auto import AutoBot

__all__ = ["AutoBot"]
