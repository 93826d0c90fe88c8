"""What a player should know before putting grain on an attack (``Game.advice``): the
chance each amount wins, from his view alone.

"d10 + Grain = your number. If you roll higher than the opponents' defending force, you
win": against an independent state the defence is known (10, split if others attack
too, which the player cannot know); a player's defence is secret, so the odds are given
against 0, 10, 20 and 30 grain, with the capital's +5 where it applies.  The attacker's
traits (Conqueror/Weak, Unifier at home) count; a leading king's CV is not yet known.
"""

from __future__ import annotations

from . import ADVICE_KINDS
from .board import load_board
from .tables import load_tables

#: P(d10 + x > d10) by x + 10, for x in -10..10
_BEAT = [sum(1 for a in range(1, 11) for b in range(1, 11) if a + x > b) / 100 for x in range(-10, 11)]


def beat(x: int) -> float:
    """The chance that d10 + ``x`` beats d10 (a tie holds, BR-Q19)."""
    return _BEAT[max(-10, min(10, x)) + 10]


def advice(view: dict, decisions: list) -> list[dict]:
    board = load_board()
    tables = load_tables()
    out = []
    for d in decisions:
        info = d.info or {}
        if d.kind not in ADVICE_KINDS or info.get("order") != "conquer":
            continue
        target = info["target"]
        me = view["players"][view["you"]]
        owner = view["states"][target]["owner"]
        bonus = tables.effect(me["king"]["traits"], "attack")
        if owner is None and board.state(target).region == view.get("start_region") and tables.has(me["king"]["traits"], "unify"):
            bonus += tables.effect(me["king"]["traits"], "unify")
        prep = info["preparation"]
        amounts = [int(k) for k in d.keys]
        shown = sorted({a for a in amounts if (a - prep) % 5 == 0} | {amounts[0], amounts[-1]})
        if owner is None:
            defences = [tables.n["independent_defence"]]
        else:
            extra = tables.n["capital_defence"] if view["players"][owner]["capital"] == target else 0
            defences = [g + extra for g in (0, 10, 20, 30)]
        table = {str(a): [round(beat(a - prep + bonus - dfn), 2) for dfn in defences] for a in shown}
        name = board.state(target).name
        against = "its 10" if owner is None else "a defence of " + ", ".join(str(x) for x in defences)
        best = shown[-1]
        out.append({
            "kind": "br.odds", "target": target, "defences": defences, "odds": table,
            "text": f"Attacking {name} with {best} grain wins {round(100 * table[str(best)][0])}% against {against.split(', ')[0]}"
                    + ("" if owner is None else f" (against {against}: "
                       + ", ".join(f"{round(100 * p)}%" for p in table[str(best)]) + ")")
                    + (f"; {prep} of it go to preparations." if prep else "."),
        })
    return out
