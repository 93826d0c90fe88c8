"""version² for people: the position as text for the terminal (``describe``), the
viewer's secret mission in a panel of its own (``panels``, 2.4: only its holder sees it
while the game runs), and hints for a game page's controls (``controls``).  Each reads
the viewer's view alone."""

from __future__ import annotations

from realms.core.decision import Decision

from .board import NOBODY
from .rules import ARM_LETTER


def _units(us: list) -> str:
    counts = [0, 0, 0]
    for u in us:
        counts[u[0]] += 1
    return ",".join(f"{c}{ARM_LETTER[a]}" for a, c in enumerate(counts) if c)


def describe(view: dict) -> list[str]:
    """Turn, each player's treasure and fields, each owned field with its units (the
    mission is a panel, which the terminal prints after these lines)."""
    lines = [f"Turn {view['turn']} of at most {view['turn_limit']} ({view['type']} game)"]
    names = [p["name"] for p in view["players"]]
    for i, p in enumerate(view["players"]):
        out = "" if p["alive"] else " (out)"
        lines.append(f"  {p['name']}{out}: treasure {p['treasure']}, {p['fields']} fields, "
                     f"production {p['production']}, {p['units']} units")
    for f, o in enumerate(view["owner"]):
        us = view["units"][f]
        if o == NOBODY and not us:
            continue
        marks = ("★" if view["capitol"][f] != NOBODY else "") + ("W" if view["warehouse"][f] else "")
        who = names[o] if o != NOBODY else "neutral"
        lines.append(f"  field {f}{' ' + marks if marks else ''}: {who} {_units(us)}".rstrip())
    return lines


def panels(view: dict) -> list[dict]:
    """The viewer's mission (and whether it is fulfilled); every mission once the game is
    over; nothing for a spectator while the game runs."""
    out = []
    m = view.get("mission")
    if m is not None:
        out.append({"title": "Your secret mission",
                    "items": [m["text"] + (" — fulfilled" if m["fulfilled"] else "")]})
    if view.get("missions"):
        names = [p["name"] for p in view["players"]]
        out.append({"title": "Missions", "items": [f"{names[x['player']]}: {x['text']}" for x in view["missions"]]})
    return out


def controls(view: dict, decision: Decision) -> dict:
    """Ending the turn, starting or cancelling an attack, facing a battle are kept at hand;
    the board's fields (``area-N``) answer the keys that name them.  Wherever a unit can
    move (``v2.action``, and ``v2.move`` right after a move) the page offers its move
    gesture: ``F>T`` moves one unit and is asked again as ``v2.move``, so a source, a
    count (the units there that can move) and a destination send it that many times; the
    turn's other answers (recruits, attacks, buildings) stay on the fields (V2-Q105)."""
    keep = {"v2.action": ["end"], "v2.move": ["end"], "v2.attack-units": ["go", "cancel"], "v2.defend": ["face"],
            "v2.offer": ["fight"]}.get(decision.kind, [])
    keys = decision.keys
    out: dict = {"keep_in_view": [k for k in keep if k in keys]}
    sources = {k.split(">")[0] for k in keys if ">" in k}
    if decision.kind in ("v2.action", "v2.move") and sources:
        units = view["units"]
        out["moves"] = {"separator": ">", "continues_as": ["v2.move"],
                        "units": {f: sum(1 for u in units[int(f)] if u[1] > 0) for f in sorted(sources, key=int)}}
    return out
