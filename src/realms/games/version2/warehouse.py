"""Warehouses (2.3.5): built for 5 on an own land field (not a ford, I.1), one per field
(V2-Q11), +1 production at once; pulled down for free at any point of one's turn, but
never the one in a standing capitol (V2-Q13)."""

from __future__ import annotations

from typing import TYPE_CHECKING


if TYPE_CHECKING:
    from .state import V2State

SECTION = "2.3.5"


def apply(s: "V2State", p: int, word: str, f: int) -> None:
    if word == "build":
        s.treasure[p] -= s.rules.warehouse_cost
        s.warehouse[f] = 1
        s.log("build", f"{s.names[p]} builds a warehouse on {s.field_name(f)}.", player=p, field=f)
    else:
        s.warehouse[f] = 0
        s.log("pull-down", f"{s.names[p]} pulls down the warehouse on {s.field_name(f)}.", player=p, field=f)


def label(s: "V2State", key: str) -> str:
    word, f = key.split(":")
    if word == "build":
        return f"Build a warehouse on {s.field_name(int(f))} (cost {s.rules.warehouse_cost})"
    return f"Pull down the warehouse on {s.field_name(int(f))}"
