"""Hy Breasil's position as text, for the terminal (``realms play``): the nations on the
island with their areas and units, units at sea, the battle being fought."""

from __future__ import annotations


def describe(view: dict) -> list[str]:
    players = view["players"]
    lines = [f"Turn {view['turn']}" + (f" of {view['options']['turns']}" if view["options"].get("turns") else "")]
    current = view.get("current_nation")
    for n in view["nations"]:
        if not n["units"] and n["pool"] == 0:
            continue
        owner = players[n["owner"]]["name"] if n["owner"] is not None and n["owner"] >= 0 else "nobody"
        mark = "*" if n["id"] == current else " "
        held = ", ".join(f"{a} {c}" for a, c in n["units"].items()) or "none"
        extra = f", capital {n['capital']}" if n.get("capital") else ""
        lines.append(f" {mark}{n['name']:<14} ({owner}) {sum(n['units'].values()):>2} units: {held}{extra}")
    battle = view.get("battle")
    if battle:
        a, d = battle["attacker_units"], battle["defender_units"]
        lines.append(f"  Battle in {battle['area']}: attacker {a['unhurt']}+{a['wounded']} wounded, "
                     f"defender {d['unhurt']}+{d['wounded']} wounded")
    return lines
