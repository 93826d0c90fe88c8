"""What a page needs to move several units in one gesture (``Game.controls``).

§6.3 asks for one unit at a time ("src>dst") and asks again while units can move, so a
page may send one key several times: at most the units in the source that have not moved
this phase (units that moved in may not move again).  The answers that end or change the
phase (end movement, start the battle, ask for passage) are kept in view.
"""

from __future__ import annotations

from realms.core.decision import Decision

#: decisions of these kinds are asked again after each one-unit move
MOVE_KINDS = ("hb.move",)


def controls(view: dict, decision: Decision) -> dict:
    if decision.kind not in MOVE_KINDS:
        return {}
    nation = next((n for n in view["nations"] if n["id"] == view.get("current_nation")), None)
    moved = view.get("moved", {})
    units = {}
    if nation is not None:
        units = {a: c - moved.get(a, 0) for a, c in nation["units"].items() if c - moved.get(a, 0) > 0}
    return {"moves": {"separator": ">", "units": units},
            "keep_in_view": [k for k in decision.keys if ">" not in k]}
