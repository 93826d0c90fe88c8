"""Brittania through the analysis hooks: what each seat was dealt, and which rules the
games used (``Game.factions``, ``Game.usage``)."""

from __future__ import annotations


def factions(state) -> list[dict]:
    """Each seat's starting state and its region (INTRODUCTION: "A Player picks a State"),
    read once the state is taken; it survives while it holds a state."""
    held = [0] * state.n
    for o in state.owner:
        if o >= 0:
            held[o] += 1
    out = []
    for p in range(state.n):
        cap = state.capital[p]
        start = state.board.states[cap].name if cap is not None and cap >= 0 else None
        out.append({"starting state": start, "starting region": state.start_region[p] or None,
                    "survives": held[p] > 0})
    return out


#: the events that show a rule used, and what to call it
USAGE = {"kingdom": "kingdom declared", "title": "title taken", "empire": "empire", "newcomer": "newcomer",
         "capital-captured": "capital captured", "devastated": "state devastated",
         "economic-victory": "economic victory", "trade": "trade agreed", "invest": "investment"}


def usage(event) -> str | list[str] | None:
    """The rule an event shows used (``Game.usage``; ``None``: every name)."""
    return list(USAGE.values()) if event is None else USAGE.get(event.kind)
