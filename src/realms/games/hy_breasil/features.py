"""What a learned evaluation reads of a Hy Breasil position (``Game.features``), from the
deciding seat's view alone.

VP come at each turn's end from the land a player's nations hold (§7), so the standing
is the VP so far and the land, units and nations that will score at the scorings left.
"""

from __future__ import annotations

from realms.core.features import leads, mine, shares


def progress(view: dict) -> float:
    """How far the game is, 0..1: the turn of the turn limit, or the leader's VP of the
    VP target."""
    o = view["options"]
    if o.get("turns"):
        return min(1.0, (view["turn"] - 1) / o["turns"])
    if o.get("vp_target"):
        return min(1.0, max(p["vp"] for p in view["players"]) / o["vp_target"])
    return 0.5


def features(view: dict) -> dict[str, list[float]]:
    """Each seat's VP (share, lead), the land, units, nations, pools and civilization
    tokens of its nations (shares), the land weighted by the game left, and whether the
    seat is the viewer."""
    n = len(view["players"])
    owner = {nat["id"]: nat["owner"] for nat in view["nations"]}
    land, units, nations, pool, tokens = ([0.0] * n for _ in range(5))
    for area in view["areas"].values():
        seat = owner.get(area.get("nation"))
        if seat is not None:
            land[seat] += 1
            units[seat] += area.get("units", 0)
    for nat in view["nations"]:
        seat = nat["owner"]
        if seat is None:
            continue
        nations[seat] += 1
        pool[seat] += nat.get("pool", 0)
        tokens[seat] += nat.get("civilization_tokens", 0)
    vp = [p["vp"] for p in view["players"]]
    done = progress(view)
    land_share = shares(land)
    vp_share = shares(vp)
    return {
        "vp_share": vp_share,
        "vp_lead": leads(vp),
        "land_share": land_share,
        "units_share": shares(units),
        "nations_share": shares(nations),
        "pool_share": shares(pool),
        "tokens_share": shares(tokens),
        "land_share_left": [s * (1 - done) for s in land_share],
        "vp_share_done": [s * done for s in vp_share],
        "me": mine(view, n),
    }
