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
    out = {"moves": {"separator": ">", "units": units},
           "keep_in_view": [k for k in decision.keys if ">" not in k]}
    if nation is not None and "done" in decision.keys:
        cost = end_cost(view, nation)
        if cost:
            out["warn"] = {"done": cost}
    return out


def end_cost(view: dict, nation: dict) -> str:
    """What ending the movement now costs the nation, said before it is taken: the units
    left at sea are lost (§6.3, RULINGS HB-Q18) and, after its last movement phase, the
    units over its support limit are removed (§6.4: twice its land areas, 2.5 times with
    Taxation, §9.3.1)."""
    from .board import load_board, map_name

    board = load_board(map_name(view["options"]))
    at_sea = sum(c for a, c in nation["units"].items() if board.is_sea[board.index[a]])
    land = [a for a in nation["units"] if not board.is_sea[board.index[a]]]
    tables = board.tables
    taxed = "abilities" in (view["options"].get("rules") or ()) and "taxation" in nation.get("abilities", ())
    limit = tables.taxation_units_per_two_areas * len(land) // 2 if taxed else tables.units_per_area * len(land)
    over = sum(nation["units"].values()) - at_sea - limit
    last = nation["event_flags"].get("movement_phases", 1) <= 1
    said = []
    if at_sea:
        said.append(f"{at_sea} unit{'s' if at_sea != 1 else ''} left at sea {'are' if at_sea != 1 else 'is'} lost (§6.3)")
    if over > 0 and last:
        said.append(f"{over} unit{'s' if over != 1 else ''} over the support limit of {limit} "
                    f"{'are' if over != 1 else 'is'} removed (§6.4)")
    return f"Ending the movement now: {' and '.join(said)}." if said else ""
