"""Reviewing a player's post of orders (RULINGS BR-Q11, BR-Q12, BR-Q23, BR-Q28): which of
its orders the game takes and, for each one it refuses, why — in words a game master can
post back ("Mide is not next to your states", "31 grain to fight is over 30").

A post parser turns the bold lines of a post into :class:`~.orders.Order` lists;
:func:`review_post` tries them in the post's order on a copy of the game, each after the
ones accepted before it, so one bad order costs only itself.  The accepted orders are
what :func:`~.orders.submit` enters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from realms.core.decision import IllegalAnswer

from .economy import invest_cost, invest_room
from .orders import GRAIN_KINDS, Order, conquer_targets, order_items, write
from .state import NONE

if TYPE_CHECKING:
    from .state import BRState


@dataclass(frozen=True)
class Problem:
    index: int          # the order's place in the post, from 0
    order: Order
    reason: str


def review_post(s: "BRState", p: int, orders: list[Order]) -> tuple[list[Order], list[Problem]]:
    """The orders of ``p``'s post the game takes, in the order the form takes them
    (:func:`_rank`: a king's lead after the order it leads), and a :class:`Problem` for
    each other."""
    ranked = sorted(enumerate(orders), key=lambda io: _rank(io[1]))
    c = s.clone()
    accepted: list[tuple[int, Order]] = []
    problems: list[Problem] = []
    for i, order in ranked:
        trial = c.clone()
        try:
            write(trial, p, order_items([order])[:-1])
        except (IllegalAnswer, KeyError, ValueError):
            problems.append(Problem(i, order, reason(c, p, order)))
            continue
        c = trial
        accepted.append((i, order))
    return [o for _, o in accepted], sorted(problems, key=lambda x: x.index)


def _rank(order: Order) -> int:
    """A free capital first (the form asks it first), a king's lead last (it names an
    order of the post, wherever the post wrote it)."""
    return 0 if order.kind == "capital" and order.grain == 0 else 2 if order.kind == "lead" else 1


def reason(c: "BRState", p: int, order: Order) -> str:
    """Why the order form refuses ``order`` after the orders already on ``c``."""
    b = c.board
    kind = order.kind
    left = c.grain_left(p)
    if c.capital[p] == NONE and kind != "capital" and not any(k == "capital" for k, _, _ in c.orders[p]):
        return "your capital was captured: the post must first declare a new one"
    if kind in ("trade", "cancel"):
        return _trade_reason(c, p, order)
    if kind == "lead":
        return _lead_reason(c, p, order)
    if kind not in (*GRAIN_KINDS, "capital"):
        return f"{kind!r} is not an order"
    if order.target not in b.index:
        return f"{order.target!r} is not a state"
    x = b.index[order.target]
    name = b.states[x].name
    if kind == "conquer":
        return _conquer_reason(c, p, order, x, name, left)
    if c.owner[x] != p:
        return f"you do not hold {name}"
    if kind == "capital":
        if c.capital[p] == x:
            return f"{name} is already your capital"
        if any(k == "capital" for k, _, _ in c.orders[p]):
            return "the capital is moved once a turn"
        return f"moving the capital costs {c.tables.n['capital_move']} grain; you have {left} left"
    if any(k == kind and t == x for k, t, _ in c.orders[p]):
        return f"a second order to {kind} {name}: one a state"
    if kind == "invest":
        cost = invest_cost(c, p, x)
        if not invest_room(c, x):
            return f"{name} already yields the most a state can, {c.tables.n['max_output']}"
        if order.grain < cost:
            return f"{order.grain} grain buys no point: investing in {name} goes by {cost} grain a point"
        if order.grain // cost > invest_room(c, x):
            return f"{name} can gain {invest_room(c, x)} points at most (output at most {c.tables.n['max_output']})"
    return _grain_reason(c, order.grain, 0, left)


def _grain_reason(c: "BRState", grain: int, prep: int, left: int) -> str:
    cap = c.tables.n["max_order"]
    if grain <= prep:
        return f"{grain} grain is too little: {prep} go to preparations" if prep else "an order needs some grain"
    if grain > cap:
        return f"{grain} grain is over {cap}" + (f" (the {prep} of preparation count in it)" if prep else "")
    if grain > left:
        return f"{grain} grain is more than the {left} you have left"
    return "the order form does not offer it"


def _conquer_reason(c: "BRState", p: int, order: Order, x: int, name: str, left: int) -> str:
    owner = c.owner[x]
    if owner == p:
        return f"you already hold {name}"
    if owner in c.partners(p):
        return f"{name} belongs to {c.names[owner]}, your trade partner"
    targets = conquer_targets(c, p)
    if x not in targets:
        return f"{name} is not next to your states, nor across one sea (devastated states launch no attack)"
    if any(k == "conquer" and t == x for k, t, _ in c.orders[p]):
        return f"a second attack on {name}: one a state"
    return _grain_reason(c, order.grain, targets[x], left)


def _trade_reason(c: "BRState", p: int, order: Order) -> str:
    if not order.target.isdigit() or not 0 <= int(order.target) < c.n or int(order.target) == p:
        return f"{order.target!r} is not another player of the game"
    q = int(order.target)
    if not c.alive[q]:
        return f"{c.names[q]} is out of the game"
    partner = q in c.partners(p)
    if order.kind == "cancel":
        return f"there is no trade route with {c.names[q]} to cancel" if not partner else "cancelled once"
    if partner:
        return f"a trade route with {c.names[q]} stands already"
    return f"{c.names[q]} is not your neighbour by land or sea"


def _lead_reason(c: "BRState", p: int, order: Order) -> str:
    if not c.may_lead(p):
        return f"King {c.king_name[p]} is a coward and cannot lead"
    if c.lead[p] is not None:
        return f"King {c.king_name[p]} leads one order a turn"
    kind, _, state = order.target.partition(":")
    if state == "?":
        return "no attack or defence written before it for the king to lead"
    what = "attack on" if kind == "conquer" else "defence of"
    name = c.board.states[c.board.index[state]].name if state in c.board.index else state
    return f"no {what} {name} in the post for the king to lead"
