"""Set-up (2, I.2, 2.2): missions first, then a capitol with a warehouse on a random land
field per player and infantry on it, the neutral fields as the game type says, the
starting treasures, and a random first player."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import hex_distance
from .missions import deal_missions
from .rules import INFANTRY
from .steps import STEPS

if TYPE_CHECKING:
    from .state import V2State

#: V2-Q5: capitols at least this far apart where the board allows it
CAPITOL_DISTANCE = 3


def place_capitols(s: "V2State") -> list[int]:
    """One random land field per player (fords excluded: nothing is built there), at least
    ``CAPITOL_DISTANCE`` apart, relaxed one step at a time on a board too small for it."""
    b = s.board
    land = list(b.land)
    for gap in range(CAPITOL_DISTANCE, 0, -1):
        chosen: list[int] = []
        for f in s.dice.shuffled(land):
            if all(hex_distance(b.coords[f], b.coords[c]) >= gap for c in chosen):
                chosen.append(f)
                if len(chosen) == s.n:
                    return chosen
    raise AssertionError("a board with fewer land fields than players passed validation")


def garrison(f_index: int) -> list[tuple]:
    """Infantry as many as a production index (I.2), fresh: 0 move points until the
    first turn restores them."""
    return [(INFANTRY, 0, 0, 0)] * f_index


@STEPS.step("setup")
def setup(s: "V2State") -> None:
    r = s.rules
    deal_missions(s)
    caps = place_capitols(s)
    for p, f in enumerate(caps):
        s.set_owner(f, p)
        s.capitol[f] = p
        s.warehouse[f] = 1
        # V2-Q2: the index after the capitol and warehouse are built (natural + 4)
        s.add_units(f, garrison(s.field_value(f)))
    s.first = s.dice.below(s.n)
    neutral = [f for f in s.board.land if s.owner[f] < 0]
    if s.game_type == "resistance":
        for f in neutral:
            s.add_units(f, garrison(s.board.index[f]))
    elif s.game_type == "abundance":
        # V2-Q4: dealt at random, one field to each player in turn from the first player
        for i, f in enumerate(s.dice.shuffled(neutral)):
            s.set_owner(f, (s.first + i) % s.n)
            s.add_units(f, garrison(s.board.index[f]))
    s.treasure = [r.treasure[s.game_type]] * s.n
    s.log("setup", f"A game of type {s.game_type.capitalize()} on {s.board.name}: every player has a secret mission, "
          f"a capitol and a treasure of {s.treasure[0]}; {s.names[s.first]} begins.",
          type=s.game_type, capitols=caps, first=s.first)
    s.turn = 1
    s.then(("turn", s.first))
