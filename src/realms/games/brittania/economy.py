"""Grain (rules post, GRAIN AND INVESTMENTS; RULINGS BR-Q9, BR-Q10, BR-Q13, BR-Q14):
income, investments and the capital."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import BRState


def income(s: "BRState", p: int) -> dict[str, int]:
    """``p``'s income by source: the outputs of its states; +10 for a High Kingdom or else
    +5 for a Kingdom (never both); +5 for a Rich king; +5 per trade route, +3 more each for
    a Shrewd king (BR-Q9)."""
    n = s.tables.n
    parts = {"states": sum(s.output[x] for x in s.held(p))}
    if s.title[p]:
        parts["high kingdom"] = n["high_kingdom_bonus"]
    elif s.kingdom[p]:
        parts["kingdom"] = n["kingdom_bonus"]
    rich = s.effect(p, "income")
    if rich:
        parts["rich king"] = rich
    routes = len(s.partners(p))
    if routes:
        parts["trade routes"] = routes * (n["trade_bonus"] + s.effect(p, "trade"))
    return parts


def collect_income(s: "BRState") -> None:
    """At the start of every turn after the first, each player adds his income to the
    grain he kept (BR-Q10: unspent grain carries over)."""
    for p in range(s.n):
        if not s.alive[p]:
            continue
        parts = income(s, p)
        total = sum(parts.values())
        s.grain[p] += total
        detail = ", ".join(f"{v} from {k}" for k, v in parts.items())
        s.log("income", f"{s.names[p]} gathers {total} grain ({detail}) and has {s.grain[p]}.",
              player=p, grain=total, parts=parts, total=s.grain[p])


def invest_cost(s: "BRState", p: int, state: int, capital: int | None = None) -> int:
    """Grain per point of output: 5, 1 less in the capital (``capital``: the one declared
    at the start of the turn, when the order was written; default the present one), 1
    less for a Frugal king, 1 more for a Hedonist; never below 1 (BR-Q13)."""
    return invest_rate(s.tables, s.king_traits[p], (s.capital[p] if capital is None else capital) == state)


def invest_rate(tables, traits, in_capital: bool) -> int:
    """:func:`invest_cost` from the king's traits and whether the state is the capital."""
    n = tables.n
    cost = n["invest_cost"] + tables.effect(traits, "invest_cost") - (n["capital_invest_discount"] if in_capital else 0)
    return max(1, cost)


def invest_room(s: "BRState", state: int) -> int:
    """Points of output ``state`` can still gain: "The maximum ... a Province can reach is 30"."""
    return room_for(s.tables, s.output[state])


def room_for(tables, output: int) -> int:
    """:func:`invest_room` of a state with ``output``."""
    return max(0, tables.n["max_output"] - output)


def invest(s: "BRState", p: int, state: int, grain: int, capital: int, traits: list[str]) -> None:
    """Resolve an investment: +1 output per full rate of grain, the rest buying nothing,
    at the rate of the turn's start — its ``capital`` and the king's ``traits`` when the
    orders were written (a Frugal king who dies leading an attack does not change the
    price of what his player wrote) — if ``p`` still holds the state after the turn's
    conquests; grain invested in a state lost this turn is lost with it (BR-Q13)."""
    if s.owner[state] != p:
        s.log("invest-lost", f"{s.names[p]}'s {grain} grain for {s.sname(state)} are lost with the state.",
              player=p, state=s.board.states[state].id, grain=grain)
        return
    rate = invest_rate(s.tables, traits, capital == state)
    gain = min(grain // rate, invest_room(s, state))
    before = s.output[state]
    s.output[state] += gain
    rest = grain - gain * rate
    s.log("invest", f"{s.names[p]} invests {grain} grain in {s.sname(state)}: output {before} → {s.output[state]}"
          + (f" (the {rest} grain beyond whole points of {rate} buy nothing)." if rest else "."),
          player=p, state=s.board.states[state].id, grain=grain, before=before, after=s.output[state])


def move_capital(s: "BRState", p: int, state: int, grain: int) -> None:
    """"You can move your Capital to another State you own by 'spending' 20 Grain; if your
    Capital has been captured, you can declare a new one for free" (BR-Q14).  Resolved
    before the battles, so the new capital's +5 defends it this turn already."""
    s.capital[p] = state
    how = f"for {grain} grain" if grain else "for free"
    s.log("capital", f"{s.names[p]} makes {s.sname(state)} the capital ({how}).",
          player=p, state=s.board.states[state].id, grain=grain)
