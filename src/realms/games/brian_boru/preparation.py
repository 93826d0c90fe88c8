"""The round and its preparation phase (rulebook, How to play; Preparation phase)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .steps import STEPS

if TYPE_CHECKING:
    from .state import BBState


@STEPS.step("round")
def round_(s: "BBState") -> None:
    """Each round has four phases: preparation, draft, action and upkeep."""
    s.round += 1
    s.log("round", f"Round {s.round} of {s.rounds} begins.", number=s.round)
    s.then(("prepare",), ("deal",), ("pick", 0), ("trick",), ("upkeep",))


@STEPS.step("prepare")
def prepare(s: "BBState") -> None:
    """Reveal the top Viking card: its invasion strength in raiders goes to the battle
    area (RULINGS BB-Q17: tokens are not limited).  Reveal the top marriage card; an empty
    marriage deck makes this the final round."""
    s.phase = "preparation"
    strength = s.viking_deck.pop()
    s.battle += strength
    s.log("vikings", f"A Viking fleet of strength {strength} appears: {s.battle} raiders in the battle area.",
          strength=strength, battle=s.battle)
    s.marriage_card = s.marriage_deck.pop()
    card = s.tables.marriages[s.marriage_card]
    final = " This is the final round." if not s.marriage_deck else ""
    s.log("marriage-card", f"{card.name} is offered in marriage.{final}", card=card.id, final=not s.marriage_deck)
