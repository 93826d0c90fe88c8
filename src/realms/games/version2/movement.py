"""Troop movements (2.3.3): a unit spends one move point to move into an adjacent field of
its own player.  Entering any other field is an attack (V2-Q14), see :mod:`.attack`.
One unit moves per decision: ``12>13`` the first class of the field's units that can
move (infantry first), ``move:12:13:c2.0`` another class named, or every unit of the
field that can move (``move:12:13:all``).  ``F>T`` is the form a page's move gesture
sends several times (V2-Q105)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import ARMS
from .state import describe_units, parse_class

if TYPE_CHECKING:
    from .state import V2State

SECTION = "2.3.3"



def first_mover(s: "V2State", f: int) -> tuple:
    """The unit ``F>T`` moves: the first of the field's classes that can move, in their
    order (infantry, cavalry, artillery; fewest move points, least experience first)."""
    return min(u for u in s.units[f] if u[1] > 0)


def apply_one(s: "V2State", p: int, key: str) -> None:
    """``F>T``: one unit (:func:`first_mover`) from ``F`` to ``T``."""
    f, t = map(int, key.split(">"))
    move_unit(s, p, f, t, first_mover(s, f))


def move_unit(s: "V2State", p: int, f: int, t: int, u: tuple) -> None:
    s.take_unit(f, u)
    s.add_units(t, [(u[0], u[1] - 1, u[2])])
    s.log("move", f"{s.names[p]} moves {ARMS[u[0]]} from {s.field_name(f)} to {s.field_name(t)}.",
          player=p, field=f, to=t, arm=ARMS[u[0]], marks={"from": [str(f)], "to": str(t)})


def apply(s: "V2State", p: int, rest: str) -> None:
    fs, ts, c = rest.split(":")
    f, t = int(fs), int(ts)
    if c == "all":
        moving = [u for u in s.units[f] if u[1] > 0]
        s.set_units(f, [u for u in s.units[f] if u[1] <= 0])
        s.add_units(t, [(u[0], u[1] - 1, u[2]) for u in moving])
        s.log("move", f"{s.names[p]} moves {describe_units(moving)} from {s.field_name(f)} to {s.field_name(t)}.",
              player=p, field=f, to=t, units=len(moving), marks={"from": [str(f)], "to": str(t)})
        return
    move_unit(s, p, f, t, parse_class(c))


def label(s: "V2State", key: str) -> str:
    if ">" in key:
        f, t = map(int, key.split(">"))
        u = first_mover(s, f)
    else:
        _, fs, ts, c = key.split(":")
        f, t = int(fs), int(ts)
        if c == "all":
            return f"Move every unit that can from {s.field_name(f)} to {s.field_name(t)}"
        u = parse_class(c)
    return f"Move {ARMS[u[0]]} ({u[1]} move points, experience {u[2]}) from {s.field_name(f)} to {s.field_name(t)}"
