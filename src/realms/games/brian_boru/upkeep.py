"""The upkeep phase (rulebook, Upkeep phase): marriage, battle, church, claim regions —
in that order — then the game ends if the marriage deck is empty (scoring.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .steps import STEPS

if TYPE_CHECKING:
    from .state import BBState


@STEPS.step("upkeep")
def upkeep(s: "BBState") -> None:
    s.phase = "upkeep"
    s.then(
        ("marriage",),                 # marriage.py
        ("battle",), ("spoils",),      # battle.py
        ("church",), ("church_points",), ("church_monasteries",),   # church.py
        ("claims",),                   # claims.py
        ("round_end",),                # scoring.py
    )
