"""Hy Breasil's position as text, for the terminal (``realms play``): the nations on the
island with their areas and units, units at sea, the battle being fought."""

from __future__ import annotations

from .board import load_board


def describe(view: dict) -> list[str]:
    """Each nation's areas by their names on the map (as the questions name them)."""
    name = load_board(view["options"]["map"]).name_of
    players = view["players"]
    lines = [f"Turn {view['turn']}" + (f" of {view['options']['turns']}" if view["options"].get("turns") else "")]
    current = view.get("current_nation")
    shown = [n for n in view["nations"] if n["units"] or n["pool"]]
    width = max((len(n["name"]) for n in shown), default=0)
    for n in shown:
        owner = players[n["owner"]]["name"] if n["owner"] is not None and n["owner"] >= 0 else "nobody"
        mark = "*" if n["id"] == current else " "
        held = ", ".join(f"{name.get(a, a)} {c}" for a, c in n["units"].items()) or "none"
        extra = f", capital {name.get(n['capital'], n['capital'])}" if n.get("capital") else ""
        lines.append(f" {mark}{n['name']:<{width}} ({owner}) {sum(n['units'].values()):>2} units: {held}{extra}")
    battle = view.get("battle")
    if battle:
        a, d = battle["attacker_units"], battle["defender_units"]
        lines.append(f"  Battle in {name.get(battle['area'], battle['area'])}: attacker {a['unhurt']}+{a['wounded']} wounded, "
                     f"defender {d['unhurt']}+{d['wounded']} wounded")
    return lines
