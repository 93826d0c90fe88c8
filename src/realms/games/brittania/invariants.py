"""Invariants the conformance kit checks after every answer of every Brittania game
(grain never negative, every output 0–30, every state owned by one player or
independent; the hidden orders are checked through ``Game.hidden``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .state import INDEPENDENT, NONE

if TYPE_CHECKING:
    from .state import BRState


def grain_never_negative(s: "BRState", memory: dict) -> str | None:
    for p in range(s.n):
        if s.grain[p] < 0 or s.grain_left(p) < 0:
            return f"{s.names[p]} has {s.grain[p]} grain with {s.committed(p)} ordered"
    return None


def outputs_in_range(s: "BRState", memory: dict) -> str | None:
    top = s.tables.n["max_output"]
    for x, v in enumerate(s.output):
        if not 0 <= v <= top:
            return f"{s.sname(x)} has output {v}"
    return None


def owners_valid(s: "BRState", memory: dict) -> str | None:
    for x, o in enumerate(s.owner):
        if not (o == INDEPENDENT or 0 <= o < s.n):
            return f"{s.sname(x)} has owner {o}"
        if o != INDEPENDENT and not s.alive[o]:
            return f"{s.sname(x)} belongs to eliminated {s.names[o]}"
    return None


def capitals_held(s: "BRState", memory: dict) -> str | None:
    """A capital is a state its player holds."""
    for p in range(s.n):
        c = s.capital[p]
        if c != NONE and s.owner[c] != p:
            return f"{s.names[p]}'s capital {s.sname(c)} is held by {s.who(s.owner[c])}"
    return None


def orders_within_limits(s: "BRState", memory: dict) -> str | None:
    """No attack or defence above 30 grain, preparations included (BR-Q12)."""
    cap = s.tables.n["max_order"]
    for p in range(s.n):
        for kind, target, grain in s.orders[p]:
            if kind in ("conquer", "defend") and not 0 < grain <= cap:
                return f"{s.names[p]} orders {grain} grain to {kind} {s.sname(target)}"
    return None


def titles_unique(s: "BRState", memory: dict) -> str | None:
    held = [t for t in s.title if t]
    if len(held) != len(set(held)):
        return f"a High Kingdom title is held twice: {s.title}"
    for p in range(s.n):
        if s.title[p] and not s.kingdom[p]:
            return f"{s.names[p]} is a High Kingdom without being a Kingdom"
    return None


def routes_between_living_neighbours(s: "BRState", memory: dict) -> str | None:
    """A trade route joins two living players who neighbour each other (BR-Q26)."""
    for a, b in s.trades:
        if not (a < b and s.alive[a] and s.alive[b] and s.neighbours(a, b)):
            return f"trade route {s.names[a]}–{s.names[b]} between players who may not trade"
    return None


INVARIANTS = (grain_never_negative, outputs_in_range, owners_valid, capitals_held, orders_within_limits,
              titles_unique, routes_between_living_neighbours)
