"""Set-up (2, I.2, 2.2): missions first, then a capitol with a warehouse on a random land
field per player and infantry on it, the players mixed up into a random turn order, the
neutral fields as the game type says, and the starting treasures."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .missions import deal_missions
from .rules import INFANTRY
from .steps import STEPS

if TYPE_CHECKING:
    from .state import V2State

def place_capitols(s: "V2State") -> list[int]:
    """I.2: "every player will get a randomly chosen land hex-field" — distinct land fields
    drawn at random, nothing more (fords excluded: a capitol is built there, and nothing
    can be built on a ford, I.1; V2-Q5)."""
    return s.dice.shuffled(list(s.board.land))[: s.n]


def garrison(f_index: int) -> list[tuple]:
    """Infantry as many as a production index (I.2), fresh: 0 move points until the
    first turn restores them."""
    return [(INFANTRY, 0, 0)] * f_index


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
    # 2.2: "the players now get mixed up and a random player starts the game"
    s.order = s.dice.shuffled(list(range(s.n)))
    s.first = s.order[0]
    neutral = [f for f in s.board.land if s.owner[f] < 0]
    if s.game_type == "resistance":
        for f in neutral:
            s.add_units(f, garrison(s.board.index[f]))
    elif s.game_type == "abundance":
        # V2-Q4: dealt at random, one field to each player in turn from the first player
        for i, f in enumerate(s.dice.shuffled(neutral)):
            s.set_owner(f, s.order[i % s.n])
            s.add_units(f, garrison(s.board.index[f]))
    s.treasure = [r.treasure[s.game_type]] * s.n
    s.log("setup", f"A game of type {s.game_type.capitalize()} on {s.board.name}: every player has a secret mission, "
          f"a capitol and a treasure of {s.treasure[0]}; the turn order is "
          f"{', '.join(s.names[p] for p in s.order)}.",
          type=s.game_type, capitols=caps, first=s.first, order=list(s.order))
    s.turn = 1
    s.then(("turn", s.first))
