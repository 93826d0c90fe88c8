"""Resolving a turn: the documented order (RULINGS BR-Q22).

1. The orders are revealed (one event per player).
2. Every order's grain is paid.
3. Capitals move (20 grain) or are declared anew (free).
4. The battles, all from the start-of-turn position, then the conquests together, then
   the tosses of kings who led a failed order (combat.py).
5. Investments, in states still held (economy.py).
6. Trade routes: cancelled, lapsed, established (trade.py).
7. Players with no state are eliminated (BR-Q30).
8. Kingdoms, High Kingdoms and the Empire (titles.py).
9. The coin toss for a king's death of natural causes (BR-Q7).
10. The end: the Empire, or the economic victory after the last turn (BR-Q18).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .combat import fight
from .economy import invest, move_capital
from .kings import natural_causes
from .orders import orders_text
from .state import NONE
from .steps import STEPS
from .titles import economic_victory, empire, high_kingdoms, kingdoms
from .trade import update_routes

if TYPE_CHECKING:
    from .state import BRState


def reveal(s: "BRState") -> None:
    """Every living player's orders, now public (until now only he could read them)."""
    for p in range(s.n):
        if not s.alive[p]:
            continue
        lead = s.lead[p]
        s.log("orders", f"{s.names[p]} orders: {orders_text(s, p)}.", player=p,
              orders=[s.order_json(p, o) for o in s.orders[p]],
              lead=[lead[0], s.board.states[lead[1]].id] if lead else None)


def eliminate(s: "BRState") -> None:
    for p in range(s.n):
        if s.alive[p] and not s.held(p):
            s.alive[p] = False
            s.grain[p] = 0
            s.capital[p] = NONE
            s.kingdom[p] = False
            s.title[p] = ""
            s.trades = [t for t in s.trades if p not in t]
            s.king_name[p], s.king_cv[p], s.king_traits[p] = "", 0, []
            s.log("eliminated", f"{s.names[p]} has lost every state and is eliminated.", player=p, seats=[p])


@STEPS.step("resolve")
def resolve(s: "BRState") -> None:
    s.phase = "resolve"
    reveal(s)
    for p in range(s.n):
        s.grain[p] -= s.committed(p)
    capitals = list(s.capital)
    traits = [list(t) for t in s.king_traits]
    for p in range(s.n):
        for kind, target, grain in s.orders[p]:
            if kind == "capital":
                move_capital(s, p, target, grain)
    fight(s)
    for p in range(s.n):
        for kind, target, grain in s.orders[p]:
            if kind == "invest":
                invest(s, p, target, grain, capitals[p], traits[p])
    update_routes(s)
    eliminate(s)
    kingdoms(s)
    high_kingdoms(s)
    won = empire(s)
    natural_causes(s)
    for p in range(s.n):
        s.orders[p] = []
        s.lead[p] = None
        s.done[p] = False
    s.phase = "over" if won or s.turn >= s.last_turn else "turn"
    if s.phase == "over":
        if not won:
            economic_victory(s)
        s.over = True
        return
    s.then(("turn",))
