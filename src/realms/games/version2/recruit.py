"""Recruitment (2.3.2): at any time in one's turn, on one's own land fields (V2-Q10: also
a field conquered this turn, no limit per field), infantry anywhere on land, cavalry on
meadows, artillery in mountains, paid from the treasure, which never goes negative.  A
recruit has 0 move points and may not attack this turn (V2-Q15)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import ARM_LETTER, ARMS

if TYPE_CHECKING:
    from .state import V2State

SECTION = "2.3.2"



def apply(s: "V2State", p: int, rest: str) -> None:
    f, letter = rest.split(":")
    f = int(f)
    a = ARM_LETTER.index(letter)
    s.treasure[p] -= s.rules.cost[a]
    s.add_units(f, [(a, 0, 0, 1)])
    s.log("recruit", f"{s.names[p]} recruits {ARMS[a]} on {s.field_name(f)}.", player=p, field=f, arm=ARMS[a])


def label(s: "V2State", key: str) -> str:
    _, f, letter = key.split(":")
    a = ARM_LETTER.index(letter)
    return f"Recruit {ARMS[a]} on {s.field_name(int(f))} (cost {s.rules.cost[a]})"
