"""Trade routes (rules post, TRADE ROUTES; RULINGS BR-Q26): "This requires both Players to
declare establishing a Trade Route with each other through the commands they send";
either cancels it with an order.  Routes change after the turn's battles, so a route
declared this turn does not stop this turn's attacks and pays its +5 from the next
turn's income; a route lapses when its players no longer neighbour each other."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import BRState


def update_routes(s: "BRState") -> None:
    wants = {(p, q) for p in range(s.n) for k, q, _ in s.orders[p] if k == "trade"}
    cancels = {(p, q) for p in range(s.n) for k, q, _ in s.orders[p] if k == "cancel"}
    kept = []
    for a, b in s.trades:
        if (a, b) in cancels or (b, a) in cancels:
            who = a if (a, b) in cancels else b
            s.log("trade-cancelled", f"{s.names[who]} cancels the trade route between {s.names[a]} and {s.names[b]}.",
                  players=[a, b], by=who)
        elif not (s.alive[a] and s.alive[b] and s.neighbours(a, b)):
            s.log("trade-lapsed", f"The trade route between {s.names[a]} and {s.names[b]} lapses: "
                  "they are no longer neighbours.", players=[a, b])
        else:
            kept.append((a, b))
    for a, b in sorted(wants):
        if a < b and (b, a) in wants and (a, b) not in kept:
            if s.alive[a] and s.alive[b] and s.neighbours(a, b):
                kept.append((a, b))
                s.log("trade", f"{s.names[a]} and {s.names[b]} establish a trade route.", players=[a, b])
            else:
                s.log("trade-refused", f"{s.names[a]} and {s.names[b]} are no longer neighbours: "
                      "no trade route.", players=[a, b])
    s.trades = sorted(kept)
