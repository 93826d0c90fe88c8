"""The sequence of a game turn (2.3, 2.3.1).

A game turn runs from the first player round the table in the turn order the set-up mixed
(2.2; V2-Q7: fixed for the game).  A player's turn: he gains his production once (2.3.1;
V2-Q9: in the first turn too), his units' move points are restored (2.3.2, 2.3.3), and
then he recruits, moves, attacks, builds or pulls down warehouses in any order until he
ends the turn — each of these a choice of the one decision ``v2.action`` (called
``v2.move`` right after a move, with the same options).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence, cast

from realms.core.decision import Decision

from . import attack, missions, movement, recruit, warehouse
from .actions import action_keys
from .steps import STEPS

if TYPE_CHECKING:
    from .state import V2State

SECTION = "2.3"

@STEPS.step("turn")
def turn(s: "V2State", p: int) -> None:
    """2.3.1: production added to the treasure; move points restored (negative ones
    recover by the unit type's full allowance, 2.3.4.2)."""
    s.active = p
    s.helped = []
    full = s.rules.move
    units = s.units
    for f in s.own_fields(p):
        if units[f]:
            s.set_units(f, [(u[0], min(full[u[0]], u[1] + full[u[0]]), u[2]) for u in units[f]])
    gain = s.production(p)
    s.treasure[p] += gain
    s.log("turn", f"Turn {s.turn}: {s.names[p]} gains {gain} (treasure {s.treasure[p]}).",
          player=p, gain=gain, treasure=s.treasure[p])
    s.then(("act", p))


def label(s: "V2State", key: str) -> str:
    if key == "end":
        return "End the turn"
    if ">" in key:
        return movement.label(s, key)
    word = key.split(":", 1)[0]
    return {"recruit": recruit.label, "build": warehouse.label, "pull": warehouse.label,
            "move": movement.label, "attack": attack.label}[word](s, key)


@STEPS.step("act")
def act(s: "V2State", p: int, moving: int = 0) -> Decision | None:
    """The player's next action; asked as ``v2.move`` right after a move (the same
    options: a page offers its move gesture then, ``page.controls``), else ``v2.action``.
    Before it, the missions are checked (2.4): the player's own wins at once; others'
    found fulfilled are noted, to win at the end of his turn."""
    if s.over or missions.check_active(s, p):
        return None
    missions.note_others(s, p)
    # RunKeys is a LazyKeys, registered as a Sequence (which mypy cannot see)
    keys = cast("Sequence[str]", action_keys(s, p))
    return Decision(p, "v2.move" if moving else "v2.action", keys,
                    f"{s.names[p]}: recruit, move, attack, build or pull down a warehouse — or end your turn.",
                    SECTION, lambda k: label(s, k))


@STEPS.on_answer("act")
def act_answer(s: "V2State", player: int, key: str, p: int, moving: int = 0) -> None:
    if key == "end":
        s.then(("end_turn", p))
        return
    if ">" in key:
        movement.apply_one(s, p, key)
        s.then(("act", p, 1))
        return
    word, rest = key.split(":", 1)
    if word == "recruit":
        recruit.apply(s, p, rest)
    elif word == "build" or word == "pull":
        warehouse.apply(s, p, word, int(rest))
    elif word == "move":
        movement.apply(s, p, rest)
        s.then(("act", p, 1))
        return
    else:
        s.pick = [int(rest), []]
        s.then(("pick", p))
        return
    s.then(("act", p))


@STEPS.step("end_turn")
def end_turn(s: "V2State", p: int) -> None:
    """The turn passes to the next player in the turn order still in the game; when it
    comes round past the first player a new game turn begins (2.3), up to the turn limit
    (V2-Q35)."""
    if missions.check_others(s, p):
        return
    order = s.order
    pos = order.index(p)
    i = pos
    for _ in range(s.n):
        i = (i + 1) % s.n
        if s.alive[order[i]]:
            break
    q = order[i]
    if i <= pos:
        if s.turn >= s.turn_limit:
            missions.end_by_limit(s)
            return
        s.turn += 1
    s.then(("turn", q))
