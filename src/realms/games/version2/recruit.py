"""Recruitment (2.3.2): at any time in one's turn, on one's own land fields (V2-Q10: also
a field conquered this turn, no limit per field), infantry anywhere on land, cavalry on
meadows, artillery in mountains, paid from the treasure, which never goes negative.  A
recruit has 0 move points: it can neither move nor attack this turn (V2-Q15).  One unit per decision,
or as many of one arm as the treasure pays for (``recruit:12:i:max``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import ARM_LETTER, ARMS

if TYPE_CHECKING:
    from .state import V2State

SECTION = "2.3.2"



def apply(s: "V2State", p: int, rest: str) -> None:
    """``F:i`` recruits one unit; ``F:i:max`` as many as the treasure pays for."""
    field, letter, *many = rest.split(":")
    f = int(field)
    a = ARM_LETTER.index(letter)
    cost = s.rules.cost[a]
    n = s.treasure[p] // cost if many else 1
    s.treasure[p] -= n * cost
    s.add_units(f, [(a, 0, 0)] * n)
    what = ARMS[a] if n == 1 else f"{n} {ARMS[a]}"
    s.log("recruit", f"{s.names[p]} recruits {what} on {s.field_name(f)}.", player=p, field=f, arm=ARMS[a], count=n)


def label(s: "V2State", key: str) -> str:
    _, f, letter, *many = key.split(":")
    a = ARM_LETTER.index(letter)
    if many:
        return f"Recruit as much {ARMS[a]} as the treasure pays for on {s.field_name(int(f))} (each {s.rules.cost[a]})"
    return f"Recruit {ARMS[a]} on {s.field_name(int(f))} (cost {s.rules.cost[a]})"
