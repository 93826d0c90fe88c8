"""Brian Boru's position as text, for the terminal (``realms play``): each player's
holdings, the towns by region, and the trick on the table."""

from __future__ import annotations

from .tables import load_tables


def describe(view: dict) -> list[str]:
    players = view["players"]
    names = {r.id: r.name for r in load_tables().board.regions}
    lines = [f"Round {view['round']} of {view['rounds']}, {view['phase']}"]
    for p in players:
        lines.append(f"  {p['name']:<10} coins {p['coins']}, renown {p['renown']}, raiders {p['raiders']}, "
                     f"church {p['church']}, track {p['track']}, cards {p['hand_size']}"
                     + (f", claims {', '.join(names.get(c, c) for c in p['claims'])}" if p["claims"] else ""))
    regions: dict[str, list[str]] = {}
    for town, t in view["towns"].items():
        who = "Vikings" if t["vikings"] else players[t["owner"]]["name"] if t["owner"] is not None else "-"
        regions.setdefault(t["region"], []).append(f"{town}:{who}")
    for region, towns in sorted(regions.items()):
        lines.append(f"  {names.get(region, region)}: {' '.join(towns)}")
    trick = view["trick"]
    if trick["played"]:
        lines.append("  On the table: " + ", ".join(f"{players[c['player']]['name']} {c['card']}"
                                                    for c in trick["played"]))
    if view.get("active_town"):
        lines.append(f"  Active town: {view['active_town']}")
    return lines
